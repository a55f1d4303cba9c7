"""`umpire reach` and `umpire sight` on a stored game (SQLite store in a temporary folder)."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from api.cli import app
from tests.board_helpers import BoardLog

runner = CliRunner()


def stored(tmp_path) -> str:
    g = BoardLog(hexes={"5:1010": {"terrain": "wood"}}, tables="sample",
                 hexsides=[{"between": ["5:1012", "5:1013"], "feature": "ridgeline"}])
    g.deploy("t1", "british", "tank", "5:1011", movement=2).marker("wire-high", "5:1110")
    g.at(1, "vehicle-movement")
    log, db = tmp_path / "g.jsonl", str(tmp_path / "u.db")
    log.write_text("\n".join(g.canonical()) + "\n")
    assert runner.invoke(app, ["import", str(log), "--db", db]).exit_code == 0
    return db


def test_reach_lists_costs_and_stopping_rules(tmp_path):
    db = stored(tmp_path)
    result = runner.invoke(app, ["reach", "t-game", "t1", "--db", db, "--format", "json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    rows = {r["hex"]: r for r in out["hexes"]}
    assert rows["5:1011"]["cost"] == 0 and rows["5:1010"]["cost"] == 2      # wood: 2 MP in the sample pack
    assert rows["5:1013"] == {"hex": "5:1013", "cost": 2, "stopped_by": "IM.ENV.TSTATE.TYPES"}
    assert "ILLUSTRATIVE" in out["tables"]


def test_reach_before_the_unit_exists_fails_clearly(tmp_path):
    db = stored(tmp_path)
    result = runner.invoke(app, ["reach", "t-game", "t1", "--db", db, "--at", "3"])
    assert result.exit_code == 2 and "no unit 't1'" in result.output


def test_sight_names_the_blocking_hexside_and_rule(tmp_path):
    db = stored(tmp_path)
    result = runner.invoke(app, ["sight", "t-game", "5:1011", "5:1015", "--db", db, "--format", "json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert (out["clear"], out["blocker"], out["rule"]) == (False, "5:1012|5:1013", "IM.TER.RIDGE.LOS")
    text = runner.invoke(app, ["sight", "t-game", "5:1009", "5:1011", "--db", db]).output
    assert "blocked at 5:1010" in text
    assert runner.invoke(app, ["sight", "t-game", "5:1011", "5:1015", "--db", db, "--observer", "aircraft"]
                         ).output.find(": clear") > 0
