"""Each rule system's rulebook (ids, sections, citations) read from its data file, domain/rulebook.py.

Expectations come from the catalogue (rules-catalogue.md of the shared spec, parsed here on its own
terms) and from the citations the rule modules printed before their sections moved to the files.
"""
from __future__ import annotations

import ast
import importlib
import json
import re
from pathlib import Path

import pytest

from domain.rulebook import FILE_NAME, Rulebook, RulebookError, UnknownRule, beside
from domain.rules.engine import Rule
from domain.rulesets import registered
from tests.conftest import SPEC

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "domain" / "rules"
IM = RULES / "infernal_machines"
CATALOGUE = SPEC / "rules-catalogue.md"  # the shared spec beside the repository, else fixtures/spec's copy
BOOKS = {"infernal-machines": "infernal_machines", "dux-bellorum-avbcw": "dux_bellorum_avbcw",
         "landships-of-mogdonazia": "landships_of_mogdonazia"}


def catalogue_text() -> str:
    return CATALOGUE.read_text(encoding="utf-8")


def catalogue_ids(prefix: str) -> list[str]:
    """The catalogue's ids under a prefix: bold entries and table rows ("0. How to read an entry"),
    one-part ids such as MOG.TESLA or AVBCW.LOS included."""
    # "**IM.OBS.STRONGPOINT / IM.OBS.MINEFIELD**" names two
    pattern = re.compile(r"(?:\*\*|^\| | / )(" + prefix + r"\.[A-Z0-9_]+(?:\.[A-Z0-9_]+)*)(?=\*\*| \|| / )", re.M)
    seen: list[str] = []
    for match in pattern.finditer(catalogue_text()):
        if match.group(1) not in seen:
            seen.append(match.group(1))
    return seen


def catalogue_count(part: str) -> int:
    """The "Rule IDs" column of the catalogue's "Contents and counts" table."""
    row = re.search(r"^\| " + re.escape(part) + r" \|.*\| (\d+) \|$", catalogue_text(), re.M)
    return int(row.group(1))


def cited_in_modules() -> list[tuple[str, str, str | None]]:
    """(module, id, passage) of every RULEBOOK.rule(id[, passage]) call in the Infernal Machines modules,
    and of every id of a RULEBOOK.sections((ids...)[, passage]) table (the passage where the id has one)."""
    book = Rulebook.read(IM / FILE_NAME)
    found = []
    for path in sorted(IM.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("rule", "sections")
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "RULEBOOK"):
                args = [ast.literal_eval(a) for a in node.args]
                passage = args[1] if len(args) > 1 else None
                if node.func.attr == "rule":
                    found.append((path.stem, args[0], passage))
                    continue
                for rule_id in args[0]:
                    has = rule_id in book and passage in book.entry(rule_id).get("passages", {})
                    found.append((path.stem, rule_id, passage if has else None))
    return found


# --- the loader --------------------------------------------------------------------------------

def small_book(**rules) -> Rulebook:
    return Rulebook.from_json({"book": "Test Book", "prefix": "TB", "rules": rules}, "test.json")


def test_rule_cites_book_and_section():
    book = small_book(**{"TB.ONE": {"section": "Chapter One", "needs_chart": False, "ambiguous": True}})
    rule = book.rule("TB.ONE")
    assert isinstance(rule, Rule)
    # domain/rules/engine.py Rule.citation: "book, section"
    assert (rule.id, rule.section, rule.book, rule.citation) == ("TB.ONE", "Chapter One", "Test Book",
                                                                "Test Book, Chapter One")
    assert book.ids() == ("TB.ONE",) and book.section("TB.ONE") == "Chapter One"
    assert book.ambiguous("TB.ONE") and not book.needs_chart("TB.ONE")


def test_an_unknown_id_is_an_error_naming_it():
    book = small_book(**{"TB.ONE": {"section": "Chapter One", "needs_chart": False, "ambiguous": False}})
    with pytest.raises(UnknownRule, match=r"Test Book .*no rule 'TB.TWO'"):
        book.rule("TB.TWO")
    with pytest.raises(KeyError):       # an UnknownRule is a KeyError, for callers that test membership
        book.section("TB.TWO")
    assert "TB.TWO" not in book and "TB.ONE" in book


def test_an_unknown_passage_names_the_passage_and_the_id():
    book = small_book(**{"TB.ONE": {"section": "One", "passages": {"example": "One, example"},
                                    "needs_chart": False, "ambiguous": False}})
    assert book.rule("TB.ONE", "example").citation == "Test Book, One, example"
    with pytest.raises(UnknownRule, match=r"no passage 'note' of rule 'TB.ONE' \(its passages: example\)"):
        book.rule("TB.ONE", "note")


@pytest.mark.parametrize("rules, message", [
    ({"XX.ONE": {"section": "s", "needs_chart": False, "ambiguous": False}}, r"'XX.ONE'.*starts with 'TB.'"),
    ({"TB.ONE": {"needs_chart": False, "ambiguous": False}}, r"'TB.ONE'.*'section'"),
    ({"TB.ONE": {"section": "s", "needs_chart": "no", "ambiguous": False}}, r"'TB.ONE'.*'needs_chart'"),
    ({"TB.ONE": {"section": "s", "needs_chart": False}}, r"'TB.ONE'.*'ambiguous'"),
    ({"TB.ONE": {"section": "s", "needs_chart": False, "ambiguous": False, "passages": {"a": ""}}},
     r"'TB.ONE'.*'passages'"),
    ({}, r"'rules'"),
])
def test_a_malformed_file_is_refused_naming_what_is_wrong(rules, message):
    with pytest.raises(RulebookError, match=message):
        small_book(**rules)


def test_read_names_the_file_it_could_not_parse(tmp_path):
    path = tmp_path / FILE_NAME
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(RulebookError, match=re.escape(str(path))):
        Rulebook.read(path)


def test_sections_is_a_modules_table_of_words_with_its_own_passage_where_there_is_one():
    book = small_book(**{"TB.ONE": {"section": "One", "passages": {"sight": "One, as seen"},
                                    "needs_chart": False, "ambiguous": False},
                         "TB.TWO": {"section": "Two", "needs_chart": False, "ambiguous": False}})
    assert book.sections(("TB.TWO", "TB.ONE"), "sight") == {"TB.TWO": "Two", "TB.ONE": "One, as seen"}
    assert list(book.sections(("TB.TWO", "TB.ONE"))) == ["TB.TWO", "TB.ONE"]     # the module's order
    assert book.sections(("TB.ONE",)) == {"TB.ONE": "One"}
    with pytest.raises(UnknownRule, match=r"no rule 'TB.THREE'"):
        book.sections(("TB.ONE", "TB.THREE"))


def test_beside_reads_the_file_of_the_modules_package_once():
    assert beside(str(IM / "ammunition.py")) is beside(str(IM / "fire_orders.py"))


# --- the three books --------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset_id", sorted(BOOKS))
def test_each_ruleset_names_its_rulebook(ruleset_id):
    ruleset = registered()[ruleset_id]
    book = ruleset.rulebook()
    assert (book.book, book.prefix) == (ruleset.book, ruleset.prefix)
    assert Path(book.origin) == RULES / BOOKS[ruleset_id] / FILE_NAME


def test_the_file_holds_every_id_and_passage_the_modules_cite():
    cited = cited_in_modules()
    book = Rulebook.read(IM / FILE_NAME)
    assert len(cited) > 100      # the ~110 constants the modules typed before
    for module, rule_id, passage in cited:
        assert book.rule(rule_id, passage).id == rule_id, module


def test_every_rule_of_the_file_is_cited_by_a_module():
    """No id kept in the file that no module judges with or declares in its COVERAGE (a stale entry
    would mislead the coverage)."""
    from domain.rules.coverage import declared
    book = Rulebook.read(IM / FILE_NAME)
    cited = {(rule_id, passage) for _, rule_id, passage in cited_in_modules()}
    # an id no module judges may stay when its entry says what Umpire makes of it (its `coverage` object)
    said = {rule_id for rule_id in book.ids() if "coverage" in book.entry(rule_id)}
    assert {rule_id for rule_id, _ in cited} | set(declared("infernal-machines")) | said == set(book.ids())
    for rule_id in book.ids():
        for passage in book.entry(rule_id).get("passages", {}):
            assert (rule_id, passage) in cited


@pytest.mark.parametrize("module, name, citation", [
    # The words the modules typed before the move (git history), which findings keep printing.
    ("fire_orders", "R_FOT", "Infernal Machines, Indirect Barrage Fire Procedure: a die roll on the Fire Order Table"),
    ("fire_orders", "R_COLUMN", "Infernal Machines, Indirect Barrage Fire Procedure: the column of the number of "
                                "turns the hexagon has resisted"),
    ("fire_orders", "R_BALLOON_MOD", "Infernal Machines, Balloons: the FOT is used 'with the indicated unfavourable "
                                     "die modifier'"),
    ("ammunition", "R_CAP", "Infernal Machines, Optional Rule: Artillery Ammunition Consumption"),
    ("artillery_after_effects", "R_CB_RESOLVE", "Infernal Machines, Artillery Fire Missions, Counter-battery mission: "
                                                "if the fire does not scatter, one enemy off-map artillery element "
                                                "is eliminated"),
    ("artillery_legality", "R_CB_ELIG", "Infernal Machines, Artillery Fire Missions, Counter-battery mission"),
    ("artillery_resolution", "R_STOP", 'Infernal Machines, Types of Artillery Barrage, "Hurricane" barrage'),
    ("observers", "R_OBM_FP", "Infernal Machines, General Rule, Artillery firepower: the scenario gives each off-map "
                              "element a firepower from 5 to 40"),
])
def test_citations_are_the_words_the_modules_printed_before(module, name, citation):
    rule = getattr(importlib.import_module(f"domain.rules.infernal_machines.{module}"), name)
    assert rule.citation == citation


@pytest.mark.parametrize("module, table, rule_id, words", [
    # The section tables the movement, observation and spotting modules typed before (git history): the
    # same words, read from the file, where another module cites the same id with other words too.
    ("movement_costs", "SECTIONS", "IM.ART.EFF.INT.HE.INF",
     "Interdiction mission with HE against infantry, Movement restrictions"),
    ("movement_costs", "SECTIONS", "IM.OBS.ROADBLOCK.TANKCLEAR",
     "Obstacles, Roadblocks: a tank spends 5 MP (or all its MP) in the hex"),
    ("movement", "MOVE_SECTIONS", "IM.ART.EFF.INT.HE.INF",
     "Interdiction mission with HE against infantry, Movement restrictions"),
    ("movement", "MOVE_SECTIONS", "IM.CORE.PINNED.MOVE",
     "pinned units may not move (Landships!; a prohibition the Environmental Conditions note does not lift: "
     "it concerns the obstacles of module 2.0)"),
    ("observation", "SIGHT_SECTIONS", "IM.ART.AIR.FO",
     "Use of aircraft and balloons, Aircraft: observe at a distance of two hexagons"),
    ("observation", "SIGHT_SECTIONS", "IM.ART.AIR.NOSPOT",
     "Use of aircraft and balloons: aircraft and balloons may not spot for ground fire"),
    ("spotting", "SPOT_SECTIONS", "IM.ART.AIR.NOSPOT",
     "Use of aircraft and balloons: they may not spot for ground small arms or anti-tank fire"),
    ("spotting", "SPOT_SECTIONS", "IM.ART.AIR.FO",
     "Use of aircraft and balloons, Aircraft: observe at a distance of two hexagons"),
])
def test_section_tables_keep_the_words_they_typed_before(module, table, rule_id, words):
    sections = getattr(importlib.import_module(f"domain.rules.infernal_machines.{module}"), table)
    assert sections[rule_id] == words
    # the artillery modules cite IM.ART.AIR.FO and IM.ART.EFF.INT.HE.INF with the entry's own section
    assert Rulebook.read(IM / FILE_NAME).section("IM.ART.AIR.FO") == "Use of aircraft and balloons, Aircraft"


def test_infernal_machines_ids_point_at_the_catalogue():
    """Each id is the catalogue's (an IM section's entry) or a finer id below one; its flags are that
    entry's: `needs_chart` a TABLE: spec, `ambiguous` a warning sign (rules-catalogue.md, 0. How to read
    an entry)."""
    catalogue = set(catalogue_ids("IM"))
    book = Rulebook.read(IM / FILE_NAME)
    for rule_id in book.ids():
        entry = book.entry(rule_id)
        if entry["catalogue_id"] is None:   # "null: the catalogue has none" (IM.CORE.REF, the board)
            assert not any(rule_id.startswith(c + ".") for c in catalogue), rule_id
            assert not (entry["needs_chart"] or entry["ambiguous"]), rule_id
            continue
        assert entry["catalogue_id"] in catalogue, rule_id
        assert rule_id == entry["catalogue_id"] or rule_id.startswith(entry["catalogue_id"] + "."), rule_id
        if rule_id in catalogue:
            assert entry["catalogue_id"] == rule_id
    used_in_catalogue = {rule_id for _, rule_id, _ in cited_in_modules()} & catalogue
    assert used_in_catalogue <= set(book.ids()) and len(used_in_catalogue) > 50
    # "IM.ART.AFMT.ROLL ... TABLE:AFMT"; "IM.ART.COMM.TEST ... ⚠ The die type is not stated";
    # "IM.ART.GEN.TWO_KINDS ... FULL", no warning.
    assert book.needs_chart("IM.ART.AFMT.ROLL") and book.ambiguous("IM.ART.COMM.TEST")
    assert not book.needs_chart("IM.ART.GEN.TWO_KINDS") and not book.ambiguous("IM.ART.GEN.TWO_KINDS")


@pytest.mark.parametrize("package, prefix, part", [
    ("dux_bellorum_avbcw", "AVBCW", "III. AVBCW (Dux Bellorum)"),
    ("landships_of_mogdonazia", "MOG", "II. Mogdonazia"),
])
def test_tabletop_books_hold_exactly_the_catalogues_ids(package, prefix, part):
    book = Rulebook.read(RULES / package / FILE_NAME)
    ids = catalogue_ids(prefix)
    assert list(book.ids()) == ids                     # the catalogue's order
    assert len(ids) == catalogue_count(part)           # 69 and 28, as its contents table counts them


@pytest.mark.parametrize("package, prefix", [("dux_bellorum_avbcw", "AVBCW"), ("landships_of_mogdonazia", "MOG")])
def test_a_warning_on_an_entrys_line_makes_it_ambiguous(package, prefix):
    book = Rulebook.read(RULES / package / FILE_NAME)
    flagged = re.findall(r"^(?:\*\*|\| )(" + prefix + r"\.[A-Z0-9_.]+?)(?:\*\*| \|).*⚠", catalogue_text(), re.M)
    assert flagged
    for rule_id in flagged:
        assert book.ambiguous(rule_id), rule_id


@pytest.mark.parametrize("package, rule_id, section, ambiguous", [
    # rules-catalogue.md, PART II and PART III, as printed
    ("landships_of_mogdonazia", "MOG.VEH.BREAKDOWN", "A. 2 Breakdown", False),
    ("landships_of_mogdonazia", "MOG.FIRE.EXPLODE", "Vehicle Critical Chart", True),   # exactly 6" in both bands
    ("landships_of_mogdonazia", "MOG.VEH.SPEED", "A. Movement 1", True),               # MOG.Z 7
    ("dux_bellorum_avbcw", "AVBCW.LOS", "Blocked line of sight", False),
    ("dux_bellorum_avbcw", "AVBCW.ARMY.OTS", "Off-table support", True),
    ("dux_bellorum_avbcw", "AVBCW.VEH.DAMAGE_SOURCE", "Cohesion", True),                # the unclosed parenthesis
])
def test_tabletop_sections_and_flags_as_the_catalogue_gives_them(package, rule_id, section, ambiguous):
    book = Rulebook.read(RULES / package / FILE_NAME)
    assert book.section(rule_id) == section
    assert book.ambiguous(rule_id) is ambiguous
    assert book.needs_chart(rule_id) is False      # neither part names a TABLE: spec


def test_table_rows_keep_their_columns_as_fields():
    book = Rulebook.read(RULES / "dux_bellorum_avbcw" / FILE_NAME)
    # "| AVBCW.EQ.SMG | SMGs | 1 | Commander, Inf, Cav | +1 MELEE and +1 SHOOT (12"); **lost permanently** ..."
    fields = book.entry("AVBCW.EQ.SMG")["fields"]
    assert (fields["name"], fields["cost"], fields["who"]) == ("SMGs", "1", "Commander, Inf, Cav")
    # "**AVBCW.VEH.RUNOVER** — *Running people over* · RESOLVE · CORE:DB"
    entry = book.entry("AVBCW.VEH.RUNOVER")
    assert (entry["kind"], entry["spec"]) == ("RESOLVE", "CORE:DB")


def test_the_files_are_plain_json_with_the_documented_keys():
    for package in BOOKS.values():
        data = json.loads((RULES / package / FILE_NAME).read_text(encoding="utf-8"))
        assert set(data) == {"book", "prefix", "source", "rules"}
