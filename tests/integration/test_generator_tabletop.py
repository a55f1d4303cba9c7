"""`umpire generate --ruleset` for the tabletop rule systems (Umpire issues 13 and 14): "The seeded
generator makes legal AVBCW (resp. Mogdonazia) games and games with injected violations (each
injected violation found by the auditor, no finding in a clean game)". A clean game audits with
exit 0 and imports, verifies and exports byte for byte; each injected violation is found at the
seq and rule the generator names; the same seed gives the same bytes."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from api.cli import app
from domain.log import read_lines
from domain.rules.engine import audit
from domain.rules.interpretations import Interpretations
from domain.rules.tables import resolve
from tests.integration.test_generator import found

runner = CliRunner()
FAILING = {"violation", "mismatch", "missing-roll", "ambiguous", "format-error"}
RULESETS = ["dux-bellorum-avbcw", "landships-of-mogdonazia"]


def generate(out, ruleset, *args):
    result = runner.invoke(app, ["generate", "--ruleset", ruleset, "-o", str(out), *[str(a) for a in args]])
    assert result.exit_code == 0, result.output
    return sorted(out.glob("*.jsonl"))


def failing(path):
    with open(path, encoding="utf-8") as fh:
        lines = read_lines(fh)
    report = audit(lines, tables=resolve(lines[0]["data"]["tables"]), interpretations=Interpretations())
    return [f for f in report.findings if f.verdict.value in FAILING]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_seed_same_bytes(tmp_path, ruleset):
    first = generate(tmp_path / "a", ruleset, "--games", 2, "--seed", 4, "--turns", 3, "--inject-violations", 2)
    second = generate(tmp_path / "b", ruleset, "--games", 2, "--seed", 4, "--turns", 3, "--inject-violations", 2)
    other = generate(tmp_path / "c", ruleset, "--games", 2, "--seed", 5, "--turns", 3)
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]
    assert [p.read_bytes() for p in sorted((tmp_path / "a").glob("*.violations.json"))] == \
        [p.read_bytes() for p in sorted((tmp_path / "b").glob("*.violations.json"))]
    assert [p.read_bytes() for p in first] != [p.read_bytes() for p in other]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_clean_games_audit_clean_and_round_trip(tmp_path, ruleset):
    paths = generate(tmp_path, ruleset, "--games", 3, "--seed", 2026, "--turns", 6)
    for path in paths:
        assert failing(path) == [], path.name
        assert json.loads(path.read_text().splitlines()[0])["data"]["ruleset"] == ruleset
    assert runner.invoke(app, ["audit", str(paths[0])]).exit_code == 0
    db = tmp_path / "store.db"
    assert runner.invoke(app, ["import", str(paths[0]), "--db", str(db)]).exit_code == 0
    verified = runner.invoke(app, ["verify", str(paths[0]), "--db", str(db)])
    assert verified.exit_code == 0 and "chain intact" in verified.output, verified.output
    exported = tmp_path / "exported.jsonl"
    game = json.loads(paths[0].read_text().splitlines()[0])["game"]
    assert runner.invoke(app, ["export", game, "--db", str(db), "-o", str(exported)]).exit_code == 0
    assert exported.read_bytes() == paths[0].read_bytes()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_injected_violation_is_found_at_its_seq(tmp_path, ruleset):
    paths = generate(tmp_path, ruleset, "--games", 8, "--seed", 7, "--turns", 4, "--inject-violations", 3)
    missed, kinds = [], set()
    for path in paths:
        injected = json.loads(path.with_name(path.stem + ".violations.json").read_text())
        assert len(injected) == 3, path.name
        report = failing(path)
        for v in injected:
            kinds.add(v["rule"])
            if not found(v, report):
                missed.append((path.name, v))
    assert missed == []
    assert len(kinds) >= 4   # several different rules broken across the run


def test_generated_games_of_both_feed_the_analytics_from_one_store(tmp_path):
    # the generator is "for the analytics": games of the two rule systems, named by their prefix,
    # share a store, and the analytics count what the logs hold
    avbcw = generate(tmp_path / "a", "dux-bellorum-avbcw", "--games", 2, "--seed", 2, "--turns", 4)
    mog = generate(tmp_path / "m", "landships-of-mogdonazia", "--games", 2, "--seed", 2, "--turns", 4)
    assert {p.stem for p in avbcw} == {"gen-avbcw-2-0001", "gen-avbcw-2-0002"}
    db = str(tmp_path / "store.db")
    assert runner.invoke(app, ["import", *map(str, avbcw + mog), "--db", db]).exit_code == 0
    lines = [json.loads(t) for p in avbcw + mog for t in p.read_text().splitlines()]
    leadership = json.loads(runner.invoke(app, ["analytics", "avbcw-leadership", "--db", db]).output)["rows"]
    placed = sum(l["data"]["points"] for l in lines if l["type"] == "LeadershipPointsPlaced")
    assert placed > 0 and sum(r["points"] for r in leadership if r["event"] == "placed") == placed
    breakdowns = json.loads(runner.invoke(app, ["analytics", "mog-breakdowns", "--db", db]).output)["rows"]
    tests = sum(1 for l in lines if l["type"] == "BreakdownTested")
    assert sum(r["rolls"] for r in breakdowns if r["test"] in ("breakdown", "restart")) == tests


def test_a_move_made_too_long_keeps_the_units_later_moves_on_the_table(tmp_path):
    # The over-allowance injection shifts the unit's later moves with its new end: with this seed
    # one of them went to y 49.0 on the 48" table, and the game was no log (a format error).
    paths = generate(tmp_path, "dux-bellorum-avbcw", "--games", 2, "--seed", 5, "--turns", 16,
                     "--inject-violations", 4)
    for path in paths:
        report = failing(path)    # read_lines refuses a point off the table
        injected = json.loads(path.with_name(path.stem + ".violations.json").read_text())
        assert [v for v in injected if not found(v, report)] == [], path.name
