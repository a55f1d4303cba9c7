"""`umpire backup` and `umpire restore`: a whole store to one file and back (docs/backup.md)."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from api.backup import backup_logical, backup_sqlite, restore as restore_backup
from api.backup_archive import BackupError
from api.cli_app import SCHEME, DbOption, app, close_ledgers, existing_store, fail, open_ledger, store_exists
from api.settings import get_settings


class BackupFormat(str, Enum):
    sqlite = "sqlite"
    logical = "logical"


FormatOption = Annotated[Optional[BackupFormat], typer.Option(
    "--format", help="sqlite: the SQLite store's own database file (its default); logical: every game's "
                     "canonical log, the tokens and the dice seeds (PostgreSQL's default; restores into "
                     "either kind of store)")]


@app.command()
def backup(output: Annotated[Path, typer.Option("-o", "--output", help="the backup file to write")],
           db: DbOption = None, format: FormatOption = None):
    """Back up a whole store to one file, as it stands at one moment, while it is in use."""
    target = existing_store(db)
    settings = get_settings(target)
    kind = format.value if format else ("logical" if settings.is_postgres else "sqlite")
    if target == ":memory:":
        fail("an in-memory store has nothing to back up")
    if kind == "sqlite" and settings.is_postgres:
        fail("a PostgreSQL store is backed up as --format logical (every game's canonical log, tokens and seeds)")
    if not output.parent.is_dir():
        fail(f"{output}: no folder {output.parent} to write into")
    if not settings.is_postgres and output.resolve() == Path(target).resolve():
        fail(f"{output}: the store itself; name another file")
    ledger = open_ledger(target)
    try:
        if kind == "sqlite":
            contents = backup_sqlite(target, ledger, output)
        else:
            contents = backup_logical(target, ledger, output, "postgresql" if settings.is_postgres else "sqlite",
                                      settings.connect_timeout)
    except BackupError as err:
        fail(str(err))
    except OSError as err:
        fail(f"{output}: cannot write: {err.strerror or err}")
    typer.echo(f"{output}: {kind} backup: {contents.describe()}")


@app.command()
def restore(file: Path, db: DbOption = None,
            force: Annotated[bool, typer.Option("--force", help="replace a store that is not empty")] = False):
    """Restore a backup (either format) into a store: everything checked first, then all of it or nothing."""
    if not file.is_file():
        fail(f"{file}: no such file")
    target = existing_store(db) if store_exists(db) else _new_store(db)
    close_ledgers()  # what this process holds of the store must be read again after the restore
    try:
        kind, contents = restore_backup(file, target, force=force, timeout=get_settings(target).connect_timeout)
    except BackupError as err:
        fail(str(err))
    except OSError as err:
        fail(f"{file}: cannot read: {err.strerror or err}")
    typer.echo(f"restored {contents.describe()} from the {kind} backup {file}")


def _new_store(db: Optional[str]) -> str:
    """A SQLite store that the restore will create (nothing is created before the backup checks out)."""
    target = get_settings(db).db
    scheme = SCHEME.match(target)
    if scheme and len(scheme.group(1)) > 1:
        fail(f"--db {target}: unknown kind of store {scheme.group(1)!r}: "
             "give a SQLite file path or a postgresql:// URL")
    if Path(target).is_dir():
        fail(f"--db {target}: a folder, not a SQLite file")
    return target
