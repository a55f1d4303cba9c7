"""What every answer to a mutated log must look like, on the CLI and over HTTP: taken whole, or
refused with one message naming a line that really was changed and a field of it."""
from __future__ import annotations

import json
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional

from hypothesis import event
from hypothesis.control import currently_in_test_context
from typer.testing import CliRunner, Result

from api.cli import app
from api.deps import close_services
from domain.log import text_lines
from tests.fuzz.mutations import MutatedLog, json_object

ENVELOPE = {"v", "game", "seq", "turn", "phase", "side", "type", "data", "prev", "by", "at"}
# Fields that are about a whole line or file rather than one of its fields.
WHOLE = {"(json)", "(file)", "(event)", "(line)", "(body)", "not UTF-8", "events"}

runner = CliRunner()


def umpire(*args: str) -> Result:
    """The `umpire` command, run in this process; an exception it let out fails the test."""
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"umpire {' '.join(args)} raised {result.exception!r}") from result.exception
    assert "Traceback" not in result.output, result.output
    return result


def tally(outcome: str) -> None:
    """Count an outcome in hypothesis's statistics (outside a hypothesis test: nothing to count)."""
    if currently_in_test_context():
        event(outcome)


@contextmanager
def closed_after(db: str) -> Iterator[str]:
    """The store `db`, whose ledger and services are closed when the block ends."""
    try:
        yield db
    finally:
        close_services(db)


def fresh_store(tmp: Path):
    """A SQLite store path that no command has opened yet, closed afterwards."""
    return closed_after(str(tmp / "umpire.db"))


def refused_line(log: MutatedLog, line: int, field: str) -> None:
    """A refusal names a line that was changed (never one of the untouched valid lines before
    the first change) and, unless it is about the whole line, a field the line holds."""
    first = log.first_change
    assert first is not None, f"the valid log {log.steps} was refused at line {line}: {field}"
    assert first <= line <= max(1, len(log.lines)), (line, first, len(log.lines), log.steps)
    if field in WHOLE:
        return
    names = ENVELOPE | set(_keys(log.lines[line - 1]))
    names |= {json.dumps(name, ensure_ascii=False) for name in names}  # as a name that would not show is named
    assert field in names or field_head(field) in names, (field, log.lines[line - 1][:200], log.steps)


def field_head(field: str) -> str:
    """The top-level name in a field ("data" of "data (UnitMoved).path[0]")."""
    return re.split(r"[.\[ ]", field, maxsplit=1)[0]


def _keys(text: str) -> list[str]:
    return list(json_object(text) or {})


LINE_ERROR = r"line (\d+): (.+?): (.+)"


def cli_refusal(result: Result, path: Path, log: MutatedLog) -> str:
    """The single `umpire: FILE: line N: FIELD: message` line of an exit 2; its message."""
    assert result.exit_code == 2, (result.exit_code, result.output, log.steps)
    lines = [line for line in result.stderr.splitlines() if not line.startswith("umpire: created store ")]
    assert len(lines) == 1, (result.stderr, log.steps)
    match = re.fullmatch(rf"umpire: {re.escape(str(path))}: {LINE_ERROR}", lines[0])
    assert match, (lines[0], log.steps)
    refused_line(log, int(match[1]), match[2])
    tally(f"refused at {field_head(match[2])}")
    return match[3]


def stored_objects(lines: list[str]) -> list[str]:
    """The canonical text of each event of a log without `prev`: what the store must hold."""
    out = []
    for text in lines:
        if text.strip():
            out.append(_without_prev(json.loads(text)))
    return out


def _without_prev(obj: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in obj.items() if k != "prev"}, sort_keys=True, ensure_ascii=False)


def game_ids(db: str) -> list[str]:
    """The games a store holds, through `umpire games` (none when a SQLite store was never made)."""
    if "://" not in db and not Path(db).exists():
        return []
    listed = umpire("games", "--db", db, "--format", "json")
    assert listed.exit_code == 0, listed.output
    return sorted(g["game"] for g in json.loads(listed.stdout))


def stored_game(db: str, game: str) -> Optional[list[str]]:
    """The game's export through `umpire export` (None when the store does not hold it)."""
    if game not in game_ids(db):
        return None
    exported = umpire("export", game, "--db", db)
    assert exported.exit_code == 0, exported.output
    return lines_of(exported.stdout)


def lines_of(text: str) -> list[str]:
    """An exported log's lines, split as `umpire import` reads them (U+2028 stays inside its line)."""
    return [line.rstrip("\r\n") for line in text_lines(text)]
