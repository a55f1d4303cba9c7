"""The `umpire` command line: import, export, verify, games, state, audit, on both stores."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from api.cli import app
from tests.conftest import EXAMPLES, example_lines

runner = CliRunner()


def umpire(*args: str):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def loaded(db_url):
    files = sorted(EXAMPLES.glob("*.jsonl"))
    result = umpire("import", *files, "--db", db_url)
    assert result.exit_code == 0, result.output
    return db_url


def test_import_then_reimport_reports_nothing_changed(loaded):
    result = umpire("import", EXAMPLES / "resistance-turns.jsonl", "--db", loaded)
    assert result.exit_code == 0 and "already imported (37 events): nothing changed" in result.output


def test_export_comes_back_byte_for_byte(loaded, tmp_path):
    out = tmp_path / "out.jsonl"
    assert umpire("export", "first-turn-barrage", "--db", loaded, "-o", out).exit_code == 0
    assert out.read_text().splitlines() == example_lines("first-turn-barrage")


def test_verify_ok_and_a_changed_byte(loaded, tmp_path):
    good = EXAMPLES / "resistance-turns.jsonl"
    result = umpire("verify", good, "--db", loaded)
    assert result.exit_code == 0 and "chain intact" in result.output
    texts = example_lines("resistance-turns")
    texts[-1] = texts[-1].replace('"eliminated"', '"retreated"')  # last line: caught by the store
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(texts) + "\n")
    result = umpire("verify", bad, "--db", loaded)
    assert result.exit_code == 1 and "line 37 does not match" in result.output
    other_db = str(tmp_path / "other.db")  # a store that does not hold this game
    assert umpire("import", EXAMPLES / "first-turn-barrage.jsonl", "--db", other_db).exit_code == 0
    result = umpire("verify", bad, "--db", other_db, "--expect-head", "0" * 64)
    assert result.exit_code == 1 and "head hash" in result.output
    texts = example_lines("resistance-turns")
    texts[9] = texts[9].replace('"turn":1', '"turn":7', 1)
    bad.write_text("\n".join(texts) + "\n")
    result = umpire("verify", bad, "--db", other_db)
    assert result.exit_code == 1 and "line 10 does not match" in result.output


def test_games_lists_id_ruleset_scenario_events_last_turn(loaded):
    result = umpire("games", "--db", loaded)
    assert result.exit_code == 0
    assert "resistance-turns\tinfernal-machines\texample\t37 events\tlast turn 2" in result.output


def test_state_json_at_seq_turn_and_phase(loaded):
    result = umpire("state", "resistance-turns", "--db", loaded, "--at", "18", "--format", "json")
    data = json.loads(result.output)
    assert data["seq"] == 18 and data["units"]["g-1"]["status"] == ["pinned"]
    assert data["units"]["g-1"]["location"] == "1:1010"
    assert data["elements"]["obm-1"] == {"side": "british", "firepower": 20, "artillery_points": None,
                                         "points_spent": 0, "points_left": None, "eliminated": False}
    empty = json.loads(umpire("state", "resistance-turns", "--db", loaded, "--at", "0", "--format", "json").output)
    assert empty["units"] == {} and empty["seq"] == 0
    end_of_turn_1 = json.loads(umpire("state", "resistance-turns", "--db", loaded, "--turn", "1",
                                      "--format", "json").output)
    assert end_of_turn_1["seq"] == 24
    barrage_phase = json.loads(umpire("state", "resistance-turns", "--db", loaded, "--turn", "2",
                                      "--phase", "barrage", "--format", "json").output)
    assert barrage_phase["seq"] == 37 and "eliminated" in barrage_phase["units"]["g-1"]["status"]


def test_state_refuses_a_seq_out_of_range(loaded):
    result = umpire("state", "resistance-turns", "--db", loaded, "--at", "99")
    assert result.exit_code == 2 and "1..37" in result.output


def test_audit_a_file_and_a_stored_game_give_the_same_report(loaded):
    stored = json.loads(umpire("audit", "resistance-turns", "--db", loaded, "--format", "json").output)
    from_file = json.loads(umpire("audit", EXAMPLES / "resistance-turns.jsonl", "--format", "json").output)
    assert stored == from_file
    assert stored["game"] == "resistance-turns" and stored["events"] == 37
    assert set(stored["summary"]) == {"applications", "ok", "violation", "mismatch", "missing-roll",
                                      "unverifiable", "ambiguous"}


def test_bad_input_exits_2_naming_line_and_field_and_stores_nothing(tmp_path, db_url):
    texts = example_lines("first-turn-barrage")
    obj = json.loads(texts[11])
    obj["data"]["elements"] = ["obm-9"]
    texts[11] = json.dumps(obj)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(texts) + "\n")
    result = umpire("import", bad, "--db", db_url)
    assert result.exit_code == 2
    assert "line 12" in result.output and "data.elements[0]" in result.output
    if db_url.startswith("postgresql"):
        assert umpire("games", "--db", db_url).output.strip() == ""
    else:   # a refused first file leaves no store behind at all
        assert not Path(db_url).exists()
    assert umpire("audit", bad).exit_code == 2


def test_unknown_types_import_with_allow_unknown_and_audit_unverifiable(tmp_path, db_url):
    texts = example_lines("first-turn-barrage")
    extra = {"v": 1, "game": "first-turn-barrage", "seq": 27, "turn": 2, "phase": "barrage",
             "side": None, "type": "TeaServed", "data": {}}
    path = tmp_path / "tea.jsonl"
    path.write_text("\n".join(texts + [json.dumps(extra)]) + "\n")
    assert umpire("import", path, "--db", db_url).exit_code == 2
    assert umpire("import", path, "--db", db_url, "--allow-unknown").exit_code == 0
    report = json.loads(umpire("audit", "first-turn-barrage", "--db", db_url, "--format", "json").output)
    assert {"seq": 27, "verdict": "unverifiable"}.items() <= next(
        f for f in report["findings"] if f["seq"] == 27).items()
