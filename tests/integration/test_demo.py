"""The demo store of `make demo`: the hand-written game played with mistakes (its findings, the
dispute and the referee's ruling) and the seeded league of generated games for the analytics."""
from __future__ import annotations

import json
import os
import subprocess
import time

import pytest
from typer.testing import CliRunner

from api.cli import app
from domain.board.state import fold
from tests.conftest import FIXTURE_GAMES, ROOT

runner = CliRunner()
CAMBRAI = FIXTURE_GAMES / "cambrai-1917-flesquieres.jsonl"
FAILING = {"violation", "mismatch", "missing-roll"}
INFANTRY = {"infantry-platoon", "infantry-squad"}


def umpire(*args):
    return runner.invoke(app, [str(a) for a in args])


def read_log(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def breaches_by_the_text(log):
    """The (seq, rule) pairs that the rulebook's own words make findings, read off the log."""
    found, hits, barrages, rolls, where, classes = set(), set(), {}, {}, {}, {}
    for line in log:
        kind, d, seq = line["type"], line["data"], line["seq"]
        if kind == "UnitDeployed":
            where[d["unit"]], classes[d["unit"]] = d["location"], d["class"]
        elif kind == "UnitMoved":
            where[d["unit"]] = d["path"][-1]
        elif kind == "DieRolled":
            rolls[(d["subject"], d["purpose"])] = d["result"]
        elif kind == "BarrageDeclared":
            barrages[d["barrage"]] = d
            # Artillery Fire Missions: "Suppression mission ... drumfire only".
            if d["mission"] == "suppression" and d["barrage_type"] != "drumfire":
                found.add((seq, "IM.ART.MISSION.SUPP"))
        elif kind == "CommunicationTested" and d["link"] == "fo-artillery":
            # Indirect Barrage Fire Procedure: "a result of 1 to 3 is always a failure".
            if rolls[(d["barrage"], "IM.ART.COMM.TEST")] <= 3 and d["in_communication"]:
                found.add((seq, "IM.ART.COMM.TEST"))
        elif kind == "ScatterTested" and barrages[d["barrage"]]["barrage_type"] == "drumfire":
            # Scatter test: "All off-map artillery elements scatter if a 5 or a 6 is obtained."
            if rolls[(d["barrage"], "IM.ART.SCATTER.DRUMFIRE")] >= 5 and not d["scattered"]:
                found.add((seq, "IM.ART.SCATTER.DRUMFIRE"))
        elif kind == "BarrageResolved":
            hits.update({(d["barrage"], r["location"]) for r in d["results"]
                         if r["zone"] == "primary" and r["result"].startswith("H")})
        elif kind == "UnitStatusChanged" and d.get("cause") in barrages:
            # Effects of a destruction mission with HE on infantry: "H -> eliminated".
            barrage = barrages[d["cause"]]
            if (barrage["mission"], barrage["ammunition"]) == ("destruction", "he") \
                    and classes[d["unit"]] in INFANTRY and (d["cause"], where[d["unit"]]) in hits \
                    and d["status"] != "eliminated":
                found.add((seq, "IM.ART.EFF.DEST.HE.INF"))
    return found


def test_the_game_with_mistakes_has_the_findings_the_text_gives():
    log = read_log(CAMBRAI)
    expected = breaches_by_the_text(log)
    result = umpire("audit", CAMBRAI, "--format", "json")
    report = json.loads(result.output)
    failing = {(f["seq"], f["rule"]) for f in report["findings"] if f["verdict"] in FAILING}
    assert result.exit_code == 1
    assert failing == expected
    assert {rule for _, rule in expected} == {"IM.ART.MISSION.SUPP", "IM.ART.COMM.TEST",
                                              "IM.ART.SCATTER.DRUMFIRE", "IM.ART.EFF.DEST.HE.INF"}
    # beside them only the SACRT readings: a Landships! chart the text does not hold (rules-catalogue
    # LS.SACRT: a table-pack table) and the sample pack has none, so they are unverifiable, never guessed
    others = [f for f in report["findings"] if f["verdict"] not in FAILING]
    assert {(f["rule"], f["verdict"]) for f in others} == {("LS.SACRT", "unverifiable")}


def test_the_disputes_are_about_findings_and_the_ruling_cites_its_rule():
    log = read_log(CAMBRAI)
    findings = {seq: rule for seq, rule in breaches_by_the_text(log)}
    disputes = {line["data"]["dispute"]: line["data"] for line in log if line["type"] == "DisputeRaised"}
    rulings = [line["data"] for line in log if line["type"] == "RulingIssued"]
    assert len(disputes) == 2 and len(rulings) == 1
    assert all(d["about"] in findings for d in disputes.values())
    ruling = rulings[0]
    # one ruled (overturned, citing the rule of the finding it is about), one left open
    assert ruling["decision"] == "overturned"
    assert ruling["rule"] == findings[disputes[ruling["dispute"]]["about"]]


def test_the_ruling_changes_the_board_at_the_disputed_unit(tmp_path):
    db, out = tmp_path / "demo.db", tmp_path / "out.jsonl"
    assert umpire("import", CAMBRAI, "--db", db).exit_code == 0
    assert umpire("export", CAMBRAI.stem, "--db", db, "-o", out).exit_code == 0
    stored = read_log(out)
    ruled_dispute = next(line["data"]["dispute"] for line in stored if line["type"] == "RulingIssued")
    about = next(line["data"]["about"] for line in stored
                 if line["type"] == "DisputeRaised" and line["data"]["dispute"] == ruled_dispute)
    unit = stored[about - 1]["data"]["unit"]
    played = fold(stored).public()["units"]
    ruled = fold(stored, ruled=True).public()["units"]
    assert "eliminated" not in played[unit]["status"]
    assert "eliminated" in ruled[unit]["status"]
    assert {k: v for k, v in played.items() if k != unit} == {k: v for k, v in ruled.items() if k != unit}


# -- the league ------------------------------------------------------------------------------------
def make_demo(db, league):
    """`make demo` as `make run` calls it, into a store and league folder of the test's own."""
    # -o: the virtualenv is already installed; do not let make reinstall it. Under `make test`
    # the parent make's flags and variables would reach this one through the environment.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    started = time.monotonic()
    done = subprocess.run(["make", "-s", "-o", "install", "-o", ".venv/bin/umpire", "demo",
                           f"DB={db}", f"LEAGUE={league}"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr, time.monotonic() - started


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory):
    base = tmp_path_factory.mktemp("demo")
    db, league = base / "umpire.db", base / "league"
    output, seconds = make_demo(db, league)
    return db, league, output, seconds


def stored_games(db):
    result = umpire("games", "--db", db, "--format", "json")
    assert result.exit_code == 0, result.output
    return {g["game"]: g for g in json.loads(result.output)}


def test_make_demo_loads_the_hand_written_games_and_a_league(demo_store):
    db, league, _, _ = demo_store
    generated = {p.stem for p in league.glob("*.jsonl")}
    hand_written = {p.stem for p in FIXTURE_GAMES.glob("*.jsonl")}
    assert len(generated) >= 30
    assert set(stored_games(db)) == generated | hand_written


def test_every_league_game_has_analytics_rows_and_the_league_spans_dates(demo_store):
    db, league, _, _ = demo_store
    generated = {p.stem for p in league.glob("*.jsonl")}
    def games_with_rows(query):
        result = umpire("analytics", query, "--db", db, "--format", "json")
        assert result.exit_code == 0, result.output
        return {row["game"] for row in json.loads(result.output)["rows"]} & generated

    # every game spends points; a game whose barrages all failed before the Fire Order Table
    # (communication, turn 1's shortcut) has no fire-order row, but most go to the table
    assert games_with_rows("ammunition") == generated
    assert len(games_with_rows("fire-orders")) >= len(generated) // 2
    dates = {g["date"] for name, g in stored_games(db).items() if name in generated}
    assert len(dates) >= 3


def test_a_handful_of_league_games_carry_injected_violations_the_auditor_finds(demo_store):
    db, league, _, _ = demo_store
    listed = {p.name.split(".")[0]: json.loads(p.read_text()) for p in league.glob("*.violations.json")}
    listed = {game: v for game, v in listed.items() if v}
    assert 1 <= len(listed) <= len(list(league.glob("*.jsonl"))) // 4
    game, violations = sorted(listed.items())[0]
    result = umpire("audit", game, "--db", db, "--format", "json")
    found = {(f["seq"], f["rule"]) for f in json.loads(result.output)["findings"]}
    assert result.exit_code == 1
    for v in violations:
        assert any(seq == v["seq"] and rule.startswith(v["rule"]) for seq, rule in found), v


def test_make_demo_again_changes_nothing(demo_store, tmp_path):
    db, league, _, _ = demo_store

    def exports(folder):
        folder.mkdir()
        for game in sorted(stored_games(db)):
            assert umpire("export", game, "--db", db, "-o", folder / f"{game}.jsonl").exit_code == 0
        return {p.name: p.read_bytes() for p in folder.iterdir()}

    before = exports(tmp_path / "before")
    output, _ = make_demo(db, league)
    after = exports(tmp_path / "after")
    reports = [line for line in output.splitlines() if ".jsonl: " in line]
    assert len(reports) == len(before) and all("nothing changed" in line for line in reports), output
    assert after == before
