"""`umpire rules coverage` for every rule system: one row per id of its part of the rules catalogue
(rules-catalogue.md, Contents and counts: IM 363, MOG 28, AVBCW 69), the statuses the modules and the
rulebooks give, and docs/rules/<ruleset>.md written from it (so the pages cannot drift from the code)."""
from __future__ import annotations

import ast
import re

import pytest
from typer.testing import CliRunner

from api.cli import app
from api.commands.rules import render
from domain.rulebook import Rulebook
from domain.rules.coverage import (MODULE_STATUSES, STATUSES, CoverageError, Covered, _declaration, catalogue_ids,
                                   coverage_rows, declared, unjudged)
from domain.rulesets import registered
from tests.conftest import ROOT, SPEC

CATALOGUE = SPEC / "rules-catalogue.md"
RULESETS = ("infernal-machines", "dux-bellorum-avbcw", "landships-of-mogdonazia")
# rules-catalogue.md, Contents and counts: "I. Infernal Machines ... 363", "II. Mogdonazia ... 28",
# "III. AVBCW (Dux Bellorum) ... 69"
COUNTS = {"IM": 363, "MOG": 28, "AVBCW": 69}
ROW = re.compile(r"^\| `([A-Z]+\.[A-Z0-9_.]+)` \| ([a-z ]+) \|", re.M)


def catalogue_text() -> str:
    return CATALOGUE.read_text(encoding="utf-8")


def functions(path) -> set[str]:
    return {node.name for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


@pytest.mark.parametrize("prefix, count", sorted(COUNTS.items()))
def test_the_catalogue_ids_are_as_many_as_its_contents_table_says(prefix, count):
    assert len(catalogue_ids(catalogue_text(), prefix + ".")) == count


def test_an_entry_naming_two_ids_gives_both_and_one_part_ids_count():
    # "**IM.OBS.STRONGPOINT / IM.OBS.MINEFIELD** · BASE"; "**MOG.JUMP**", "| AVBCW.EQ.SMG | SMGs |"
    assert {"IM.OBS.STRONGPOINT", "IM.OBS.MINEFIELD"} <= set(catalogue_ids(catalogue_text(), "IM."))
    assert "MOG.JUMP" in catalogue_ids(catalogue_text(), "MOG.")
    assert "AVBCW.EQ.SMG" in catalogue_ids(catalogue_text(), "AVBCW.")
    text = "**XX.ONE / XX.TWO** · FULL\n| XX.THREE | row |\nsee **XX.ONE** again"
    assert catalogue_ids(text, "XX.") == ["XX.ONE", "XX.TWO", "XX.THREE"]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_declared_id_is_in_its_rulebook(ruleset_id):
    book = registered()[ruleset_id].rulebook()
    assert sorted(set(declared(ruleset_id)) - set(book.ids())) == []


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_named_test_exists_file_and_function(ruleset_id):
    missing = []
    for rule, covered in declared(ruleset_id).items():
        for test in covered.tests:
            path, _, name = test.partition("::")
            file = ROOT / path
            if not file.is_file() or name.split("[")[0] not in functions(file):
                missing.append(f"{rule}: {test}")
    assert missing == []


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_rulebook_speaks_only_of_rules_no_module_judges(ruleset_id):
    book, covered = registered()[ruleset_id].rulebook(), declared(ruleset_id)
    both = [rule for rule in book.ids() if "coverage" in book.entry(rule) and rule in covered]
    assert both == []


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_page_has_one_row_per_catalogue_id_with_a_known_status(ruleset_id):
    ruleset = registered()[ruleset_id]
    page = render(CATALOGUE, ruleset_id)[f"docs/rules/{ruleset_id}.md"]
    rows = dict(ROW.findall(page.split("## Finer ids")[0]))
    assert list(rows) == catalogue_ids(catalogue_text(), ruleset.prefix + ".")
    assert len(rows) == COUNTS[ruleset.prefix]
    assert set(rows.values()) <= set(STATUSES)
    for rule, covered in declared(ruleset_id).items():
        assert f"| `{rule}` | {covered.status} |" in page, rule


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_written_pages_are_the_commands_output(ruleset_id):
    printed = CliRunner().invoke(app, ["rules", "coverage", "--catalogue", str(CATALOGUE), "--ruleset", ruleset_id])
    assert printed.exit_code == 0, printed.output
    written = (ROOT / "docs" / "rules" / f"{ruleset_id}.md").read_text(encoding="utf-8")
    assert printed.stdout == written + "\n", f"run `umpire rules coverage --write` (docs/rules/{ruleset_id}.md)"


def test_write_writes_one_page_per_rule_system(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["rules", "coverage", "--catalogue", str(CATALOGUE), "--write"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "docs" / "rules").iterdir()) == sorted(f"{r}.md" for r in RULESETS)
    for path, text in render(CATALOGUE).items():
        assert (tmp_path / path).read_text(encoding="utf-8") == text


def test_an_unknown_ruleset_or_catalogue_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(app, ["rules", "coverage", "--catalogue", str(CATALOGUE), "--ruleset", "chess"])
    assert result.exit_code == 2 and "--ruleset: no rule system 'chess' is installed" in result.stderr
    result = CliRunner().invoke(app, ["rules", "coverage", "--catalogue", str(tmp_path / "missing.md")])
    assert result.exit_code == 2 and "--catalogue: cannot read" in result.stderr


def test_module_statuses_keep_what_the_modules_used_before():
    # the statuses the Infernal Machines modules declared before partial was added
    assert {"implemented", "needs a chart", "ambiguous"} <= set(MODULE_STATUSES)
    statuses = {c.status for c in declared("infernal-machines").values()}
    # (the ground war's modules also say "partial" where they judge part of a rule)
    assert {"implemented", "needs a chart", "ambiguous"} <= statuses <= set(MODULE_STATUSES)


@pytest.mark.parametrize("rule, status", [
    # docs/rules/dux-bellorum-avbcw.md as written by hand before: "AVBCW.VEH.FACING | Vehicles: Movement |
    # judged | movement.py", "AVBCW.EQ.INDIRECT | Indirect | partly judged | shooting.py", "AVBCW.VEH.DATA |
    # ... | not judgeable from a log", "AVBCW.EQ.SMOKE | Smoke bombs | ambiguous | - | ...; not yet judged"
    # (since judged by end_phase.py: placing, drift toward TableDefined.wind, dissipating; and support.py:
    # the indirect shot's sight, spotter and line of communication)
    ("AVBCW.VEH.FACING", "implemented"), ("AVBCW.EQ.INDIRECT", "implemented"),
    ("AVBCW.VEH.DATA", "not judgeable from a log"), ("AVBCW.EQ.SMOKE", "implemented"), ("AVBCW.BASE", "implemented"),
])
def test_avbcw_statuses_from_the_modules_and_the_rulebook(rule, status):
    book = registered()["dux-bellorum-avbcw"].rulebook()
    [(_, covered)] = coverage_rows([rule], declared("dux-bellorum-avbcw"), book)
    assert covered.status == status


def test_mogdonazia_keeps_what_the_hand_written_page_said():
    # docs/rules/landships-of-mogdonazia.md before: "MOG.PA | judged: built with one crew and at most two
    # weapons; hit cards (face a wound, ace killed); the rest not yet | vehicles.py `VehicleBuilding`,
    # fire.py `HitCards`"; "MOG.CC.OPEN | needs TSATF (TSATF.MELEE)"
    book = registered()["landships-of-mogdonazia"].rulebook()
    rows = dict(coverage_rows(["MOG.PA", "MOG.CC.OPEN"], declared("landships-of-mogdonazia"), book))
    # since judged further by contraptions.py (MOG.PA) and combat.py (MOG.CC.OPEN, the melee still TSATF's)
    assert rows["MOG.PA"].status == "implemented"
    assert rows["MOG.PA"].modules == ("contraptions.py", "fire.py", "vehicles.py")
    assert any("at most two weapons" in n for n in rows["MOG.PA"].notes)
    assert rows["MOG.CC.OPEN"].status == "needs a chart" and "TSATF.MELEE" in rows["MOG.CC.OPEN"].notes[0]


def test_two_modules_declaring_one_id_add_their_tests_and_keep_the_stronger_status():
    # IM.ART.FO.RANGE: artillery_procedure.py and observation.py both declare it
    covered = declared("infernal-machines")["IM.ART.FO.RANGE"]
    assert covered.status == "implemented"
    assert covered.tests == ("tests/unit/test_observation.py::test_an_fo_observes_up_to_10_hexes_not_11",)
    assert "observation.py" in covered.modules


@pytest.mark.parametrize("value, message", [
    (("implemented",), r"a declaration is \(status, tests\) or \(status, tests, note\)"),
    (("done", "tests/unit/test_x.py::test_y"), r"status 'done' is not one of implemented, partial, needs a chart"),
    (("not yet", "tests/unit/test_x.py::test_y"), r"status 'not yet' is not one of"),   # a module judges it
    (("partial", "tests/unit/test_x.py"), r"tests must name at least one test as path::name"),
    (("partial", ""), r"tests must name at least one test"),
])
def test_a_bad_declaration_names_the_module_and_the_id(value, message):
    with pytest.raises(CoverageError, match=r"pkg.mod.COVERAGE\['TB.ONE'\]: " + message):
        _declaration("pkg.mod", "TB.ONE", value)


def test_a_declaration_may_carry_a_note():
    assert _declaration("pkg.mod", "TB.ONE", ("partial", "a.py::t; b.py::u", " the range only ")) == \
        ("partial", ("a.py::t", "b.py::u"), "the range only")


@pytest.mark.parametrize("entry, message", [
    ({"coverage": {"status": "implemented"}}, r"'status' must be one of not judgeable from a log, not yet"),
    ({"coverage": "not yet"}, r"an object with 'status' and 'note'"),
    ({"coverage": {"status": "not yet", "note": 3}}, r"'note' must be a string"),
])
def test_a_bad_rulebook_coverage_object_names_the_rule_and_field(entry, message):
    with pytest.raises(CoverageError, match=r"test.json: rule 'TB.ONE', coverage: " + message):
        unjudged("TB.ONE", entry, "test.json")


def test_an_id_no_one_speaks_of_is_not_yet():
    book = Rulebook.from_json({"book": "Test Book", "prefix": "TB", "rules": {
        "TB.ONE": {"section": "One", "needs_chart": True, "ambiguous": True}}}, "test.json")
    assert coverage_rows(["TB.ONE", "TB.TWO"], {}, book) == [("TB.ONE", Covered("not yet")),
                                                              ("TB.TWO", Covered("not yet"))]
