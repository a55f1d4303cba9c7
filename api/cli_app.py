"""The `umpire` Typer app and what its commands share: the store, reading a game, failing clearly.

Command modules in `api/commands/` add their commands to `app`; `api/cli.py` imports them.
"""
from __future__ import annotations

import atexit
import os
import re
import sys
import time
from contextlib import contextmanager
from enum import Enum
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Annotated, Any, Callable, Iterator, NoReturn, Optional
from urllib.parse import urlparse

import typer

from api.settings import get_settings, ledger_env
from domain.application import Ledger, UnknownGame
from domain.log import LogError, read_lines, text_lines
from domain.rules.tables import TablePackError
from projections.packs import PACK_ENV, configured_pack

app = typer.Typer(name="umpire", no_args_is_help=True, add_completion=False,
                  help="Umpire: replay and audit recorded wargames.")

DbOption = Annotated[Optional[str], typer.Option(
    "--db", help="Store: a SQLite file path or a postgresql:// URL (default: $UMPIRE_DB, else var/umpire.db).")]


class OutputFormat(str, Enum):
    """`--format` of the commands that print for people (text) or for tools (json)."""
    text = "text"
    json = "json"


FormatOption = Annotated[OutputFormat, typer.Option("--format", help="text (for people) or json (for tools)")]


def _print_version(asked: bool) -> None:
    if asked:
        typer.echo(f"umpire {package_version('umpire')}")
        raise typer.Exit()


@app.callback()
def _main(version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                                help="Print Umpire's version and exit.")] = False) -> None:
    """Umpire: replay and audit recorded wargames."""


def fail(message: str, code: int = 2) -> NoReturn:
    echo_err(f"umpire: {message}")
    raise typer.Exit(code)


def installation_pack() -> None:
    """A server or a worker audits with UMPIRE_TABLES' pack: one that cannot be read stops it at once
    (exit 2), not at its first audit."""
    try:
        configured_pack()
    except TablePackError as err:
        fail(f"{PACK_ENV}: {err}")


def echo_err(message: str) -> None:
    # print, not typer.echo: click writes to the stream's buffer, past a progress bar's redirection.
    print(message, file=sys.stderr, flush=True)


_LEDGERS: dict[str, Ledger] = {}


def open_ledger(db: Optional[str]) -> Ledger:
    """One Ledger per store per process."""
    target = get_settings(db).db
    if target not in _LEDGERS:
        atexit.unregister(close_ledgers)  # registered once, however many stores
        atexit.register(close_ledgers)
        _LEDGERS[target] = created_racing(lambda: Ledger(ledger_env(target)))
    return _LEDGERS[target]


def created_racing(make: Callable[[], Any], tries: int = 6) -> Any:
    """`make()`, tried again a moment later when PostgreSQL refuses it because another process is
    creating the same tables at that moment (servers and workers started together on an empty
    database: "tuple concurrently updated", or a duplicate type)."""
    import psycopg
    from eventsourcing.persistence import IntegrityError, InternalError
    racing = (InternalError, IntegrityError, psycopg.errors.InternalError_, psycopg.errors.UniqueViolation)
    for attempt in range(tries - 1):
        try:
            return make()
        except racing:
            time.sleep(0.2 * (attempt + 1))
    return make()


def close_ledgers() -> None:
    """Close and forget every Ledger opened here, while the interpreter is whole: a PostgreSQL
    datastore still alive at shutdown closes itself again in `__del__`, after the modules it
    needs are gone (a traceback). Forgetting them, not only closing, is what frees them early."""
    while _LEDGERS:
        _, ledger = _LEDGERS.popitem()
        ledger.close()


# --- Which store a command means: read commands never create one, writing ones say they did.

SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):/")
SQLITE_MAGIC = b"SQLite format 3\x00"


def existing_store(db: Optional[str]) -> str:
    """The store a reading command names; exit 2 when it does not exist."""
    target = _usable_target(db)
    if target == ":memory:" or get_settings(target).is_postgres:
        return target
    if not Path(target).exists():
        fail(f"no store at {target} (`umpire import` or `umpire serve` creates one)")
    return target


def store_exists(db: Optional[str]) -> bool:
    """Whether the store a command names is there already (a PostgreSQL database always is)."""
    settings = get_settings(db)
    return settings.db == ":memory:" or settings.is_postgres or Path(settings.db).exists()


def created_store(db: Optional[str]) -> str:
    """The store a writing command names, created (and said so on stderr) when it does not exist."""
    target = _usable_target(db)
    if target == ":memory:" or get_settings(target).is_postgres or Path(target).exists():
        return target
    try:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        Path(target).touch()
    except OSError as err:
        fail(f"cannot create store {target}: {err.strerror or err}")
    echo_err(f"umpire: created store {target}")
    return target


def optional_store(db: Optional[str]) -> Optional[str]:
    """For commands that consult a store when there is one: the named store must exist; the default
    one may be absent (then None)."""
    settings = get_settings(db)
    if not settings.named and not settings.is_postgres and not Path(settings.db).exists():
        return None
    return existing_store(db)


def _usable_target(db: Optional[str]) -> str:
    """The store's path or URL once its kind is known and, for PostgreSQL, the server answers."""
    settings = get_settings(db)
    target = settings.db
    scheme = SCHEME.match(target)
    if settings.is_postgres:
        _reach_postgres(target, settings.connect_timeout)
    elif scheme and len(scheme.group(1)) > 1:  # one letter is a Windows drive, a path
        fail(f"--db {target}: unknown kind of store {scheme.group(1)!r}: give a SQLite file path or a postgresql:// URL")
    elif Path(target).is_dir():
        fail(f"--db {target}: a folder, not a SQLite file")
    elif target != ":memory:" and Path(target).is_file() and not _is_sqlite(Path(target)):
        fail(f"--db {target}: not a SQLite store")
    return target


def _is_sqlite(path: Path) -> bool:
    """An empty file is a store not yet written; anything else starts with SQLite's header."""
    with open(path, "rb") as fh:
        head = fh.read(len(SQLITE_MAGIC))
    return head in (b"", SQLITE_MAGIC)


def _reach_postgres(url: str, timeout: int) -> None:
    """Connect once, briefly, so that a wrong URL is one line, not the library's retries."""
    import psycopg
    try:
        parts = urlparse(url)
        where = f"{parts.hostname or '127.0.0.1'}:{parts.port or 5432}/{parts.path.lstrip('/') or 'postgres'}"
    except ValueError as err:
        fail(f"--db: not a PostgreSQL URL: {err}")
    try:
        psycopg.connect(url, connect_timeout=timeout).close()
    except psycopg.Error as err:
        first = (str(err).strip().splitlines() or [type(err).__name__])[0]
        fail(f"cannot reach the PostgreSQL store {where}: {first.removeprefix('connection failed: ')}")


# --- Reading files and games.

def read_text(path: str | Path) -> str:
    """A file's text; not UTF-8 or unreadable ends the command with status 2, naming the line and byte."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        fail(f"{path}: cannot read: {err.strerror or err}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        fail(f"{path}: line {line}: not UTF-8: byte 0x{data[err.start]:02x} at byte {column} of the line "
             f"(offset {err.start} of the file)")


def read_file_lines(path: str | Path, *, allow_unknown: bool = False) -> list[dict[str, Any]]:
    """A log file, checked whole; a bad line ends the command with status 2, naming line and field."""
    try:
        return read_lines(text_lines(read_text(path)), allow_unknown=allow_unknown)
    except LogError as err:
        fail(f"{path}: {err}")


def game_lines(game_or_file: str, db: Optional[str], *, allow_unknown: bool = True) -> list[dict[str, Any]]:
    """The lines of a stored game, or of a log file when the argument is a file."""
    if os.path.isfile(game_or_file):
        return read_file_lines(game_or_file, allow_unknown=allow_unknown)
    ledger = open_ledger(existing_store(db))
    lines = list(ledger.iter_lines(game_or_file))
    if not lines:
        fail(str(UnknownGame(game_or_file)))
    return lines


def stored_game(ledger: Ledger, game: str) -> None:
    if not ledger.has_game(game):
        fail(str(UnknownGame(game)))


class Steps:
    """What a command tells its progress display: one item done, with its line for stdout."""

    def __init__(self, advance: Callable[[], None]):
        self._advance = advance

    def done(self, line: Optional[str] = None) -> None:
        if line is not None:
            # print, not typer.echo: it passes through the bar's redirection, above the bar.
            print(line, flush=True)
        self._advance()


@contextmanager
def progress(label: str, total: int) -> Iterator[Steps]:
    """A progress bar on stderr while long work runs, only when stderr is a terminal; the work's
    own lines stay on stdout (printed above the bar when stdout is that terminal too)."""
    from rich.console import Console
    from rich.progress import Progress

    console = Console(stderr=True)
    shown = console.is_terminal
    with Progress(console=console, transient=True, disable=not shown,
                  redirect_stdout=shown and sys.stdout.isatty(), redirect_stderr=shown) as bar:
        task = bar.add_task(label, total=total)
        yield Steps(lambda: bar.advance(task))
