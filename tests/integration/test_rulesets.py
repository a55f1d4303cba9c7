"""The RuleSet seam: three rule systems installed as entry points; the two tabletop example logs
import, verify, export byte for byte and fold to a board; a hex in a tabletop game (and a point
in a hex game) is a format error naming line and field."""
from __future__ import annotations

import json
from importlib.metadata import entry_points

import pytest
from typer.testing import CliRunner

from api.cli import app
from domain.rulesets import GROUP, registered
from tests.conftest import SPEC

TABLETOP = SPEC / "examples-tabletop"
runner = CliRunner()


def umpire(*args):
    return runner.invoke(app, [str(a) for a in args])


def lines_of(name: str) -> list[dict]:
    return [json.loads(t) for t in (TABLETOP / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]


def test_the_three_rule_systems_are_entry_points_and_listed():
    names = {point.name for point in entry_points(group=GROUP)}
    assert names == {"infernal-machines", "dux-bellorum-avbcw", "landships-of-mogdonazia"} == set(registered())
    listed = json.loads(umpire("rules", "list", "--format", "json").output)
    assert {(r["id"], r["prefix"], r["geometry"]) for r in listed} == {
        ("infernal-machines", "IM", "hex"), ("dux-bellorum-avbcw", "AVBCW", "tabletop"),
        ("landships-of-mogdonazia", "MOG", "tabletop")}
    # game-log-tabletop.md, Dux Bellorum: the turn sequence's phases.
    avbcw = next(r for r in listed if r["id"] == "dux-bellorum-avbcw")
    assert avbcw["phases"][2:] == ["leadership", "missile-fire", "move", "close-combat", "morale-and-victory"]


@pytest.mark.parametrize("name", ["avbcw-example", "mog-example"])
def test_a_tabletop_example_imports_verifies_and_exports_byte_for_byte(name, db_url, tmp_path):
    source = TABLETOP / f"{name}.jsonl"
    assert umpire("verify", source, "--db", ":memory:").exit_code == 0
    assert umpire("import", source, "--db", db_url).exit_code == 0
    out = tmp_path / "out.jsonl"
    assert umpire("export", name, "--db", db_url, "-o", out).exit_code == 0
    assert out.read_bytes() == source.read_bytes()


def test_the_avbcw_board_is_where_the_log_put_it(db_url):
    assert umpire("import", TABLETOP / "avbcw-example.jsonl", "--db", db_url).exit_code == 0
    board = json.loads(umpire("state", "avbcw-example", "--db", db_url, "--format", "json").output)
    car = board["units"]["s-car"]
    # Line 20: the car's path ends at (34.3, 21.0) with "f": 240, the facing on arrival.
    assert (car["position"], car["facing"], car["footprint"]) == ({"x": 34.3, "y": 21.0}, 240, {"w": 2.0, "d": 4.0})
    assert car["type"] == "vehicle:car"  # from its ArmyListed row (line 4)
    assert board["units"]["s-mil"]["status"] == ["suppressed"]  # line 16
    assert board["table"]["width"] == 48.0 and [f["id"] for f in board["table"]["features"]] == ["w-1", "h-1", "gg-1"]
    early = json.loads(umpire("state", "avbcw-example", "--db", db_url, "--at", "7", "--format", "json").output)
    assert early["units"]["s-car"]["position"] == {"x": 36.0, "y": 30.0}  # deployed at line 7


def _write(tmp_path, lines: list[dict]):
    path = tmp_path / "log.jsonl"
    # Without `prev` (optional on import): these logs are changed copies of the examples.
    path.write_text("".join(json.dumps({k: v for k, v in line.items() if k != "prev"}) + "\n" for line in lines),
                    encoding="utf-8")
    return path


def _refusal(result) -> str:
    assert result.exit_code == 2, result.output
    return result.stderr.strip().splitlines()[-1]


def test_a_hex_location_in_a_tabletop_game_is_a_format_error(tmp_path):
    # game-log-tabletop.md: "a hex in a tabletop game, or a point in a hex game, is a format error".
    lines = lines_of("avbcw-example")
    lines[4]["data"]["position"] = "5:6613"
    message = _refusal(umpire("import", _write(tmp_path, lines), "--db", tmp_path / "u.db"))
    assert "line 5: data" in message and "position" in message


def test_a_point_off_the_table_is_a_format_error(tmp_path):
    # game-log-tabletop.md, Geometry: "a point off the table is a format error" (the table is 48" deep).
    lines = lines_of("avbcw-example")
    lines[4]["data"]["position"] = {"x": 24.0, "y": 49.0}
    message = _refusal(umpire("import", _write(tmp_path, lines), "--db", tmp_path / "u.db"))
    assert "line 5: data.position" in message


def test_a_point_in_a_hex_game_is_a_format_error(tmp_path):
    lines = [json.loads(t) for t in (SPEC / "examples" / "first-turn-barrage.jsonl").read_text().splitlines()]
    deployed = next(i for i, line in enumerate(lines) if line["type"] == "UnitDeployed")
    lines[deployed]["data"]["location"] = {"x": 1.0, "y": 2.0}
    message = _refusal(umpire("import", _write(tmp_path, lines), "--db", tmp_path / "u.db"))
    assert f"line {deployed + 1}: data (UnitDeployed).location" in message


def test_a_phase_of_another_rule_system_is_a_format_error(tmp_path):
    # Dux Bellorum has no barrage phase (its turn sequence: leadership, missile fire, move, ...).
    lines = lines_of("avbcw-example")
    lines[8]["phase"] = lines[8]["data"]["phase"] = "barrage"
    message = _refusal(umpire("import", _write(tmp_path, lines), "--db", tmp_path / "u.db"))
    assert "line 9: phase: unknown phase 'barrage'" in message


def test_a_rule_system_that_is_not_installed_is_named(tmp_path):
    lines = lines_of("mog-example")
    lines[0]["data"]["ruleset"] = "warhammer"
    message = _refusal(umpire("import", _write(tmp_path, lines), "--db", tmp_path / "u.db"))
    assert "line 1: data (GameStarted).ruleset" in message and "no rule system 'warhammer'" in message


def _renumbered(lines: list[dict]) -> list[dict]:
    return [{**line, "seq": i} for i, line in enumerate(lines, start=1)]


def test_a_listed_unit_may_be_named_before_it_deploys(tmp_path):
    # AVBCW.ARMY.SUBTERFUGE: "Before either army deploys" a unit of the other army is its target.
    lines = lines_of("avbcw-example")
    subterfuge = {**lines[3], "side": "royalist", "type": "ArmyRuleUsed",
                  "data": {"rule": "AVBCW.ARMY.SUBTERFUGE", "target": "s-mil"}}
    result = umpire("import", _write(tmp_path, _renumbered(lines[:4] + [subterfuge] + lines[4:])),
                    "--db", tmp_path / "u.db")
    assert result.exit_code == 0, result.output


def test_a_unit_named_inside_a_list_must_exist(tmp_path):
    lines = lines_of("avbcw-example")
    last = lines[-1]
    phase = {**last, "phase": "close-combat", "side": None, "type": "PhaseStarted",
             "data": {"phase": "close-combat", "active": None}}
    combat = {**last, "phase": "close-combat", "type": "CloseCombatFought", "data": {"combat": "c-1", "sides": [
        {"units": ["s-car"], "charged": True, "flank": False, "in_terrain": False},
        {"units": ["r-inf", "r-ghost"], "charged": False, "flank": False, "in_terrain": False}]}}
    message = _refusal(umpire("import", _write(tmp_path, _renumbered(lines + [phase, combat])),
                              "--db", tmp_path / "u.db"))
    assert "line 22: data.sides[1].units[1]: unit 'r-ghost' does not exist" in message


def test_a_status_before_deployment_is_carried_onto_the_table(tmp_path):
    # game-log-tabletop.md, AVBCW UnitStatusChanged: `not-arrived` (ARMY.SUBTERFUGE, before deployment).
    lines = lines_of("avbcw-example")
    before = {**lines[3], "side": "socialist", "type": "UnitStatusChanged",
              "data": {"unit": "s-mil", "status": "not-arrived", "cause": "AVBCW.ARMY.SUBTERFUGE"}}
    db = tmp_path / "u.db"
    assert umpire("import", _write(tmp_path, _renumbered(lines[:4] + [before] + lines[4:])), "--db", db).exit_code == 0
    board = json.loads(umpire("state", "avbcw-example", "--db", db, "--format", "json").output)
    assert board["units"]["s-mil"]["status"][0] == "not-arrived" and board["problems"] == []
