"""`umpire import` of damaged logs: each file is stored whole or refused with one line naming the
line and the field (exit 2), never a traceback, and a refused file leaves nothing behind (no
game, or for a longer log of a stored game, the game's export unchanged byte for byte)."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import ROOT
from tests.fuzz.mutations import KINDS, MutatedLog, mutated, renamed, source_logs, write_log
from tests.fuzz.outcomes import (cli_refusal, closed_after, fresh_store, game_ids, stored_game, stored_objects, tally,
                                  umpire)

SOURCES = source_logs()
NAMES = sorted(SOURCES)
GAME_NUMBERS = itertools.count(1)
FUZZ = dict(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


def game_of(log: MutatedLog) -> str:
    return json.loads(log.original[0])["game"]


def import_and_check(db: str, path: Path, log: MutatedLog, before: list[str] | None) -> None:
    """Import `log` into `db` (holding `before`, the export of a valid prefix, or nothing)."""
    write_log(path, log)
    games_before = game_ids(db)
    result = umpire("import", "--db", db, str(path))
    tally(f"import: exit {result.exit_code}")
    after = stored_game(db, game_of(log))
    if result.exit_code == 0:
        assert after is not None and stored_objects(after) == stored_objects(log.lines), log.steps
        assert before is None or after[:len(before)] == before, log.steps
        assert game_ids(db) == sorted({*games_before, game_of(log)}), log.steps
        exported = path.with_suffix(".export.jsonl")
        exported.write_text("".join(line + "\n" for line in after), encoding="utf-8")
        verified = umpire("verify", str(exported), "--db", db)
        assert verified.exit_code == 0, (verified.output, log.steps)
        return
    if result.exit_code == 1:  # a different log under a stored game's id
        assert before is not None and "conflict" in result.stderr, (result.output, log.steps)
    else:
        cli_refusal(result, path, log)
    assert after == before, f"a refused import changed the game: {log.steps}"
    assert game_ids(db) == games_before, f"a refused import stored a game: {log.steps}"


@settings(max_examples=200, **FUZZ)
@given(name=st.sampled_from(NAMES), data=st.data())
def test_import_stores_a_damaged_log_whole_or_refuses_it(name, data):
    kinds = KINDS[data.draw(st.sampled_from(sorted(KINDS)), label="mutations")]
    log = data.draw(mutated(SOURCES[name], kinds=kinds), label="log")
    with tempfile.TemporaryDirectory() as tmp, fresh_store(Path(tmp)) as db:
        import_and_check(db, Path(tmp) / "game.jsonl", log, None)


@settings(max_examples=50, **FUZZ)
@given(name=st.sampled_from(NAMES), data=st.data())
def test_reimport_of_a_damaged_longer_log_leaves_the_stored_game_unchanged(name, data):
    original = SOURCES[name]
    kept = data.draw(st.integers(1, len(original) - 1), label="lines stored first")
    log = data.draw(mutated(original))
    with tempfile.TemporaryDirectory() as tmp, fresh_store(Path(tmp)) as db:
        prefix = Path(tmp) / "prefix.jsonl"
        prefix.write_text("".join(line + "\n" for line in original[:kept]), encoding="utf-8")
        assert umpire("import", "--db", db, str(prefix)).exit_code == 0
        before = stored_game(db, game_of(log))
        import_and_check(db, Path(tmp) / "game.jsonl", log, before)


@pytest.mark.postgres
@settings(max_examples=15, **FUZZ)
@given(name=st.sampled_from(NAMES), data=st.data())
def test_import_on_postgresql_stores_a_damaged_log_whole_or_refuses_it(pg_url, name, data):
    # One database for all examples: each example's game has an id of its own.
    kinds = KINDS[data.draw(st.sampled_from(sorted(KINDS)), label="mutations")]
    log = data.draw(mutated(renamed(SOURCES[name], f"{name}-{next(GAME_NUMBERS)}"), kinds=kinds), label="log")
    with tempfile.TemporaryDirectory() as tmp, closed_after(pg_url):
        import_and_check(pg_url, Path(tmp) / "game.jsonl", log, None)


def test_the_installed_command_refuses_a_damaged_log_in_one_line(tmp_path):
    """The same through a real process: one line on stderr, exit 2, no store content."""
    original = SOURCES[NAMES[0]]
    broken = json.loads(original[3])
    broken["seq"] = "4"
    log = MutatedLog(original, original[:3] + [json.dumps(broken)] + original[4:], ("seq as a string",))
    path = tmp_path / "game.jsonl"
    write_log(path, log)
    proc = subprocess.run([sys.executable, "-m", "api.cli", "import", "--db", str(tmp_path / "u.db"), str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    refusal = [line for line in proc.stderr.splitlines() if not line.startswith("umpire: created store ")]
    assert len(refusal) == 1 and refusal[0].startswith(f"umpire: {path}: line 4: seq: "), proc.stderr
    assert stored_game(str(tmp_path / "u.db"), game_of(log)) is None


@pytest.mark.parametrize("depth", [260, 1000])
def test_import_refuses_a_line_nested_beyond_what_orjson_writes(tmp_path, depth):
    original = SOURCES[NAMES[0]]
    deep = original[0].replace('"data":{', '"data":{"nested":' + "[" * depth + "]" * depth + ",", 1)
    log = MutatedLog(original, [deep] + original[1:], (f"line 1: data.nested {depth} deep",))
    with fresh_store(tmp_path) as db:
        import_and_check(db, tmp_path / "game.jsonl", log, None)


def test_import_names_an_unknown_field_with_an_empty_name(tmp_path):
    original = SOURCES[NAMES[0]]
    first = json.loads(original[0])
    first[""] = 1
    log = MutatedLog(original, [json.dumps(first)] + original[1:], ("line 1: unknown field ''",))
    with fresh_store(tmp_path) as db:
        import_and_check(db, tmp_path / "game.jsonl", log, None)
