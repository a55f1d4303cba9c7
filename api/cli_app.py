"""The `umpire` Typer app and what its commands share: the store, reading a game, failing clearly.

Command modules in `api/commands/` add their commands to `app`; `api/cli.py` imports them.
"""
from __future__ import annotations

import atexit
import os
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer

from api.settings import get_settings, ledger_env
from domain.application import Ledger, UnknownGame
from domain.log import LogError, read_lines

app = typer.Typer(name="umpire", no_args_is_help=True, add_completion=False,
                  help="Umpire: replay and audit recorded wargames.")

DbOption = Annotated[Optional[str], typer.Option(
    "--db", help="Store: a SQLite file path or a postgresql:// URL (default: $UMPIRE_DB, else var/umpire.db).")]

_LEDGERS: dict[str, Ledger] = {}


def open_ledger(db: Optional[str]) -> Ledger:
    """One Ledger per store per process."""
    target = get_settings(db).db
    if target not in _LEDGERS:
        _LEDGERS[target] = Ledger(ledger_env(target))
        # Close before interpreter shutdown: the PostgreSQL pool cannot close itself that late.
        atexit.register(_LEDGERS[target].close)
    return _LEDGERS[target]


def fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"umpire: {message}", err=True)
    raise typer.Exit(code)


def read_file_lines(path: str | Path, *, allow_unknown: bool = False) -> list[dict[str, Any]]:
    """A log file, checked whole; a bad line ends the command with status 2, naming line and field."""
    try:
        with open(path, encoding="utf-8") as fh:
            return read_lines(fh, allow_unknown=allow_unknown)
    except LogError as err:
        fail(f"{path}: {err}")
    except (OSError, UnicodeDecodeError) as err:
        fail(f"{path}: cannot read: {err}")


def game_lines(game_or_file: str, db: Optional[str], *, allow_unknown: bool = True) -> list[dict[str, Any]]:
    """The lines of a stored game, or of a log file when the argument is a file."""
    if os.path.isfile(game_or_file):
        return read_file_lines(game_or_file, allow_unknown=allow_unknown)
    ledger = open_ledger(db)
    lines = list(ledger.iter_lines(game_or_file))
    if not lines:
        fail(str(UnknownGame(game_or_file)))
    return lines


def stored_game(ledger: Ledger, game: str) -> None:
    if not ledger.has_game(game):
        fail(str(UnknownGame(game)))


def echo_err(message: str) -> None:
    print(message, file=sys.stderr)
