"""`umpire import-tts` through the CLI, on SQLite and PostgreSQL: a save built here deploys the
AVBCW example's units, a later save moves one, an unchanged save records nothing; `--dry-run`
prints lines that continue the stored chain; bad input is one line, exit 2 and nothing stored."""
from __future__ import annotations

import json

import pytest

from tests.conftest import EXAMPLES, SPEC
from tests.integration.test_cli_newcomer import assert_one_line_error, invoke
from tests.unit.test_tts import AVBCW_MAP, obj, save

GAME = "avbcw-example"
# The example's seq 5-7 on the default frame (the 48" table centred on TTS (0, 0), first side at -Z).
DEPLOYED = save(obj("a1b2c3", "Royalist Regulars", 0.0, -16.0, 0.0),
                obj("d4e5f6", "Chopwell Militia", 0.0, -2.0, 180.0),
                obj("c4c4c4", "Armoured car", 12.0, 6.0, 180.0))
# Then the militia advances 6" (to (24, 16)) and wheels to face 150; the others stand.
ADVANCED = save(obj("a1b2c3", "Royalist Regulars", 0.03, -16.02, 359.8),
                obj("d4e5f6", "Chopwell Militia", 0.0, -8.0, 150.0),
                obj("c4c4c4", "Armoured car", 12.0, 6.0, 180.0))


@pytest.fixture
def files(tmp_path):
    """The example's first four lines (its table and army lists) and the map, as files."""
    lines = (SPEC / "examples-tabletop" / f"{GAME}.jsonl").read_text(encoding="utf-8").splitlines()[:4]
    (tmp_path / "setup.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "map.json").write_text(json.dumps(AVBCW_MAP, indent=2), encoding="utf-8")
    for name, data in (("deployed", DEPLOYED), ("advanced", ADVANCED)):
        (tmp_path / f"{name}.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    return tmp_path


def imported(db: str, files) -> str:
    assert invoke("import", files / "setup.jsonl", "--db", db).exit_code == 0
    return db


def tts(files, db: str, name: str, *more):
    return invoke("import-tts", files / f"{name}.json", "--game", GAME, "--units", files / "map.json", "--db", db, *more)


def stored(db: str) -> list[dict]:
    result = invoke("export", GAME, "--db", db)
    assert result.exit_code == 0, result.output
    return [json.loads(t) for t in result.stdout.splitlines()]


def test_deploy_then_move_then_nothing(db_url, files):
    db = imported(db_url, files)
    first = tts(files, db, "deployed")
    assert first.exit_code == 0, first.output
    assert "r-inf deployed at (24.0, 8.0) facing 0 [object a1b2c3 'Royalist Regulars']" in first.stdout
    assert "recorded 3 events, seq 5 to 7" in first.stdout
    state = json.loads(invoke("state", GAME, "--db", db, "--format", "json").stdout)
    assert {u: (s["side"], s["position"], s["facing"]) for u, s in state["units"].items()} == {
        "r-inf": ("royalist", {"x": 24.0, "y": 8.0}, 0), "s-mil": ("socialist", {"x": 24.0, "y": 22.0}, 180),
        "s-car": ("socialist", {"x": 36.0, "y": 30.0}, 180)}

    second = tts(files, db, "advanced", "--format", "json")
    assert second.exit_code == 0, second.output
    report = json.loads(second.stdout)
    assert [(u["unit"], u["status"]) for u in report["units"]] == [
        ("r-inf", "unchanged"), ("s-mil", "moved"), ("s-car", "unchanged")]
    assert (report["recorded"], report["first_seq"], report["last_seq"]) == (1, 8, 8)
    moved = stored(db)[-1]
    assert (moved["type"], moved["side"], moved["turn"], moved["phase"]) == ("UnitMoved", "socialist", 0, "setup")
    assert moved["data"]["path"] == [{"x": 24.0, "y": 22.0}, {"x": 24.0, "y": 16.0, "f": 150}]

    again = tts(files, db, "advanced")
    assert again.exit_code == 0 and "nothing recorded" in again.stdout
    assert len(stored(db)) == 8


def test_dry_run_prints_the_lines_that_continue_the_stored_chain(db_url, files, tmp_path):
    db = imported(db_url, files)
    result = tts(files, db, "deployed", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "would record 3 events, seq 5 to 7 (--dry-run: nothing stored)" in result.stderr
    assert len(stored(db)) == 4
    exported = invoke("export", GAME, "--db", db).stdout
    (tmp_path / "whole.jsonl").write_text(exported + result.stdout, encoding="utf-8")
    check = invoke("verify", tmp_path / "whole.jsonl")
    assert check.exit_code == 0 and "ok: 7 lines, chain intact" in check.stdout, check.output


@pytest.mark.parametrize("change, words", [
    (lambda f: (f / "map.json").write_text(json.dumps(
        {"units": [{"unit": "r-inf", "nickname": "Twin", "deploy": {"footprint": {"w": 5.0, "d": 2.0}}}]}, indent=2)),
     ["map.json: line 5: units[0].nickname", "names 2 objects", "nothing was stored"]),
    (lambda f: (f / "deployed.json").write_text('{"ObjectStates": [\n  {"GUID": "a1b2c3",}\n]}'),
     ["deployed.json: line 2: (json): malformed JSON"]),
    (lambda f: (f / "deployed.json").write_text(json.dumps(save(obj("a1b2c3", "R", 40.0, -16.0)), indent=2)),
     ["deployed.json: line 15: ObjectStates[0].Transform", "(64, 8)", "off the table"]),
])
def test_bad_input_is_one_line_exit_2_and_nothing_stored(db_url, files, change, words):
    db = imported(db_url, files)
    (files / "deployed.json").write_text(json.dumps(save(obj("t1", "Twin", 0, -16), obj("t2", "Twin", 0, -2)), indent=2))
    change(files)
    assert_one_line_error(tts(files, db, "deployed"), *words)
    assert len(stored(db)) == 4


def test_a_hex_game_and_bad_options_are_refused(tmp_path, files):
    db = str(tmp_path / "umpire.db")
    assert invoke("import", EXAMPLES / "resistance-turns.jsonl", "--db", db).exit_code == 0
    hex_game = invoke("import-tts", files / "deployed.json", "--game", "resistance-turns", "--units",
                      files / "map.json", "--db", db)
    assert_one_line_error(hex_game, "resistance-turns: a hex game (infernal-machines)", "inches")
    imported(db, files)
    assert_one_line_error(tts(files, db, "deployed", "--scale", "0"), "--scale: 0: inches per TTS unit")
    assert_one_line_error(tts(files, db, "deployed", "--origin", "3"), "--origin 3: two numbers X,Z")
    assert_one_line_error(tts(files, db, "deployed", "--tolerance", "-1"), "--tolerance -1")
    assert tts(files, db, "deployed", "--edge", "up").exit_code == 2
    unknown = invoke("import-tts", files / "deployed.json", "--game", "nope", "--units", files / "map.json", "--db", db)
    assert_one_line_error(unknown, "no game 'nope'")
    assert len(stored(db)) == 4
