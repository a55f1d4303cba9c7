"""The Dux Bellorum AVBCW demo game (fixtures/games/avbcw-derwent-1938.jsonl, README.md there):
it imports, verifies, audits with the findings the README gives, its lists pass `umpire army
check` as the audit judges them, and the tabletop replay draws it. Each expectation is read off
the log and the rulebook's words, not off the auditor's output."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from api.cli import app
from dashboard.tabletop import tabletop_figure
from tests.conftest import FIXTURE_GAMES

DEMO = FIXTURE_GAMES / "avbcw-derwent-1938.jsonl"
FAILING = {"violation", "mismatch", "missing-roll"}
runner = CliRunner()


def umpire(*args):
    return runner.invoke(app, [str(a) for a in args])


def log():
    return [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]


def test_a_full_battle_recorded_the_way_players_would():
    # issue 13: "a full AVBCW battle of at least six turns ... ArmyListed for both sides,
    # deployment, moves, shooting with DieRolled, melee, low ammo, with a dispute and a ruling"
    lines = log()
    kinds = [l["type"] for l in lines]
    assert max(l["turn"] for l in lines) >= 6
    assert {l["side"] for l in lines if l["type"] == "ArmyListed"} == {"royalist", "socialist"}
    assert {"UnitDeployed", "UnitMoved", "ShotFired", "ShotResolved", "CloseCombatFought", "CloseCombatResolved",
            "AmmoStateChanged", "BraveryTested", "LeadershipPointsPlaced", "DisputeRaised", "RulingIssued"} <= set(kinds)
    shots = [l["seq"] for l in lines if l["type"] == "ShotFired"]
    assert all(lines[seq]["type"] == "DieRolled" and lines[seq]["data"]["purpose"] == "DB.SHOOT" for seq in shots)


def test_the_demo_game_audits_as_its_readme_says():
    result = umpire("audit", DEMO, "--format", "json")
    report = json.loads(result.output)
    assert result.exit_code == 0
    assert [f for f in report["findings"] if f["verdict"] in FAILING] == []
    lines = log()
    # "Bicycles @ 1 point (... Supply or Medical units only)" against "Units with the Supply ability
    # cannot be given any further special rules": the socialists' list, the line the dispute is about
    disputed = next(l for l in lines if l["type"] == "DisputeRaised")["data"]["about"]
    assert lines[disputed - 1]["type"] == "ArmyListed" and lines[disputed - 1]["side"] == "socialist"
    assert [(f["seq"], f["rule"], f["verdict"]) for f in report["findings"] if f["verdict"] == "ambiguous"] == \
        [(disputed, "AVBCW.AB.SUPPLY", "ambiguous")]
    tests = [l["seq"] for l in lines if l["type"] == "BraveryTested"]
    assert {(f["seq"], f["rule"]) for f in report["findings"] if f["verdict"] == "unverifiable"} == \
        {(seq, "DB.BRAVERY") for seq in tests}                     # "passed" is Dux Bellorum core
    ruling = next(l for l in lines if l["type"] == "RulingIssued")["data"]
    assert (ruling["decision"], ruling["rule"]) == ("house-rule", "AVBCW.AB.SUPPLY")


def test_the_legal_rest_is_judged():
    report = json.loads(umpire("audit", DEMO, "--format", "json", "--all").output)
    judged = {}
    for a in report["applications"]:
        judged.setdefault(a["rule"], set()).add(a["verdict"])
    for rule in ("AVBCW.UNIT.STATS", "AVBCW.SR.CAP", "AVBCW.DEPLOY", "AVBCW.BASE", "AVBCW.AMMO.LOW",
                 "AVBCW.SUPP.TRIGGER", "AVBCW.MELEE.FALLBACK", "AVBCW.SHOOT.PRIORITY", "AVBCW.LOS"):
        assert judged[rule] == {"ok"}, rule
    lows = [(l["data"]["unit"], l["data"]["state"]) for l in log() if l["type"] == "AmmoStateChanged"]
    # "A unit that suffers a second 'low on ammo' result can no longer shoot"
    assert ("s-mil", "exhausted") in lows and ("r-lmg", "exhausted") in lows and ("r-inf", "low") in lows


def test_the_lists_pass_the_army_check_as_the_audit_judges_them(tmp_path):
    lists = {l["side"]: l["data"] for l in log() if l["type"] == "ArmyListed"}
    for side, data in lists.items():
        path = tmp_path / f"{side}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        result = umpire("army", "check", path)
        assert result.exit_code == 0, result.output
        assert ("ambiguous: s-sup: AVBCW.AB.SUPPLY" in result.stdout) == (side == "socialist")


def test_it_imports_verifies_and_the_tabletop_replay_draws_it(tmp_path):
    db = tmp_path / "demo.db"
    assert umpire("import", DEMO, "--db", db).exit_code == 0
    assert "chain intact" in umpire("verify", DEMO, "--db", db).output
    board = json.loads(umpire("state", "avbcw-derwent-1938", "--db", db, "--format", "json").output)
    deployed = {l["data"]["unit"] for l in log() if l["type"] == "UnitDeployed"}
    assert set(board["units"]) == deployed
    last = {}
    for line in log():
        if line["type"] == "UnitMoved":
            last[line["data"]["unit"]] = line["data"]["path"][-1]
    assert all(board["units"][u]["position"] == p for u, p in last.items())
    figure = tabletop_figure(board)
    labels = next(t for t in figure.data if t.name == "ids")
    assert sorted(labels.text) == sorted(deployed)
    hover = " ".join(next(t for t in figure.data if t.name == "units").hovertext)
    assert "s-mil inf-militia (socialist) at (20.0, 37.1)" in hover and "destroyed" in hover
