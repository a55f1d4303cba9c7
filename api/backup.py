"""Backup and restore of a whole store (docs/backup.md).

A backup is one of two files, told apart by their first bytes when restored:
- a SQLite store's own database file, copied by SQLite's online backup API in one step (one
  read transaction: the store as it stood at one moment, while a server goes on writing);
- a logical archive (api/backup_archive.py): every game's canonical log, the tokens and the
  dice seeds, read in one transaction (PostgreSQL: REPEATABLE READ), from either kind of store.

A restore first builds a whole, verified store in a scratch SQLite file (a SQLite backup is
copied there, an archive imported there through the ledger's checks), then moves it into the
target in one transaction: SQLite's backup API onto a SQLite target, one PostgreSQL
transaction (TRUNCATE, COPY) onto a PostgreSQL one. Anything wrong is found before the target
is touched, and a failure while moving it leaves the target as it was.
"""
from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional
from uuid import UUID

from api.backup_archive import (TOKEN_COLUMNS, Archive, BackupError, Contents, is_archive, private_file,
                                write_archive)
from api.security import TokenStore
from api.settings import ledger_env
from domain.application import Ledger
from domain.log import LogError, chain, read_stored_line, verify_lines
from domain.model import Game
from domain.recorders import line_of
from projections.dice_seeds import SPACE as SEED_SPACE
from projections.store import ProjectionStore, is_postgres

SQLITE_MAGIC = b"SQLite format 3\x00"
SQLITE_EVENTS, SQLITE_SNAPSHOTS = "stored_events", "stored_snapshots"  # the library's tables on SQLite
STARTED = f"{Game.__module__}:{Game.__qualname__}.Started"
RECORDED = f"{Game.__module__}:{Game.__qualname__}.Recorded"
# What a restore replaces on PostgreSQL: the ledger's tables and every table Umpire keeps beside
# them (tokens, dice seeds, and the projections, whose positions name notification ids).
UMPIRE_TABLES = r"tablename LIKE 'umpire\_%' OR tablename LIKE '%\_tracking'"


class _Db:
    """A plain connection to a store's database, for what the library's recorders do not do: one
    read of everything at one moment, and one transaction that puts a whole store in."""

    def __init__(self, db: str, timeout: int = 5, *, read_only_file: bool = False):
        self.pg = is_postgres(db)
        if self.pg:
            import psycopg
            self.conn = psycopg.connect(db, connect_timeout=timeout)
        else:
            target = f"{Path(db).resolve().as_uri()}?mode=ro" if read_only_file else db
            self.conn = sqlite3.connect(target, timeout=30, isolation_level=None, uri=read_only_file)

    def close(self) -> None:
        self.conn.close()

    def execute(self, sql: str, params: tuple = ()) -> Any:
        cursor = self.conn.cursor()
        if self.pg:  # psycopg reads `%` as a placeholder only when given parameters
            cursor.execute(sql.replace("?", "%s") if params else sql, params or None)
        else:
            cursor.execute(sql, params)
        return cursor

    def has_table(self, name: str) -> bool:
        if self.pg:
            return self.execute("SELECT to_regclass(?) IS NOT NULL", (name,)).fetchone()[0]
        return _has(self.conn, name)

    def rows(self, table: str, columns: tuple[str, ...], where: str = "", params: tuple = ()) -> list[tuple]:
        if not self.has_table(table):
            return []
        return self.execute(f"SELECT {', '.join(columns)} FROM {table} {where}", params).fetchall()


class Snapshot:
    """A store read in one transaction: its games (as `umpire export` writes them), tokens and seeds."""

    def __init__(self, db: _Db, events_table: str):
        self.db, self.events = db, events_table

    def _starts(self) -> list[tuple[str, Any]]:
        """(game, originator id as the database holds it) of every game, by game id."""
        rows = self.db.rows(self.events, ("originator_id", "state"), "WHERE topic = ?", (STARTED,))
        return sorted((read_stored_line(line_of(state))["game"], oid) for oid, state in rows)

    def games(self) -> Iterator[tuple[str, Iterator[str]]]:
        for game, oid in self._starts():
            rows = self.db.execute(f"SELECT state FROM {self.events} WHERE originator_id = ? "
                                   "ORDER BY originator_version", (oid,)).fetchall()
            yield game, chain(read_stored_line(line_of(state)) for (state,) in rows)

    def tokens(self) -> list[dict[str, Any]]:
        return [dict(zip(TOKEN_COLUMNS, row)) for row in self.db.rows("umpire_tokens", TOKEN_COLUMNS, "ORDER BY id")]

    def seeds(self) -> dict[str, dict[str, Any]]:
        rows = self.db.rows("umpire_kv", ("key", "value"), "WHERE space = ? ORDER BY key", (SEED_SPACE,))
        return {key: json.loads(value) for key, value in rows}

    def contents(self) -> Contents:
        counts = dict(self.db.execute(f"SELECT originator_id, COUNT(*) FROM {self.events} WHERE topic IN (?, ?) "
                                      "GROUP BY originator_id", (STARTED, RECORDED)).fetchall())
        return Contents({game: counts[oid] for game, oid in self._starts()}, self.tokens(), self.seeds())


@contextmanager
def snapshot(db: str, ledger: Ledger, timeout: int = 5) -> Iterator[Snapshot]:
    """The store as it stands at one moment, whatever is written meanwhile."""
    if ledger.mapper.cipher or ledger.mapper.compressor:
        raise BackupError("this store's events are encrypted or compressed: back it up with the database's own tools")
    conn = _Db(db, timeout)
    try:
        if conn.pg:
            from psycopg import IsolationLevel
            conn.conn.isolation_level, conn.conn.read_only = IsolationLevel.REPEATABLE_READ, True
        else:
            conn.execute("BEGIN")  # WAL: the first read fixes what every later read of it sees
        yield Snapshot(conn, ledger.recorder.events_table_name)
    finally:
        conn.conn.rollback()
        conn.close()


# -- backing up ---------------------------------------------------------------------------------

@contextmanager
def _replacing(out: Path) -> Iterator[Path]:
    """A scratch file beside `out` that replaces it once whole (never a half-written backup)."""
    partial = out.with_name(f".{out.name}.partial")
    try:
        yield partial
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)


def backup_sqlite(db: str, ledger: Ledger, out: Path) -> Contents:
    """The SQLite store's database, copied by the online backup API in one step."""
    with _replacing(out) as partial:
        private_file(partial)
        source, copy = sqlite3.connect(db, timeout=30), sqlite3.connect(partial)
        try:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")  # one file that stands alone, no -wal beside it
            copy.commit()
        finally:
            source.close()
            copy.close()
        with snapshot(str(partial), ledger) as snap:
            return snap.contents()


def backup_logical(db: str, ledger: Ledger, out: Path, store: str, timeout: int = 5) -> Contents:
    """Every game's canonical log, the tokens and the seeds, as of one moment."""
    with _replacing(out) as partial, snapshot(db, ledger, timeout) as snap:
        return write_archive(partial, snap.games(), snap.tokens(), snap.seeds(), store)


# -- restoring ----------------------------------------------------------------------------------

def backup_kind(path: Path) -> str:
    """`sqlite` or `logical`, from the file's first bytes."""
    with open(path, "rb") as fh:
        head = fh.read(len(SQLITE_MAGIC))
    if head == SQLITE_MAGIC:
        return "sqlite"
    if is_archive(path):
        return "logical"
    raise BackupError(f"{path}: not an Umpire backup (neither a SQLite store nor a logical backup archive)")


def restore(path: Path, target: str, *, force: bool = False, timeout: int = 5) -> tuple[str, Contents]:
    """Put the backup at `path` into the store `target`, whole or not at all."""
    kind = backup_kind(path)
    with tempfile.TemporaryDirectory(prefix="umpire-restore-") as scratch:
        staged = str(Path(scratch) / "store.db")
        contents = _stage_sqlite(path, staged) if kind == "sqlite" else _stage_archive(path, staged)
        if is_postgres(target):
            _into_postgres(staged, target, force, timeout)
        else:
            _into_sqlite(staged, target, force)
    return kind, contents


def _stage_sqlite(path: Path, staged: str) -> Contents:
    """A copy of a SQLite backup (never written to itself), checked: SQLite's integrity check,
    then every game's schema and hash chain as `umpire verify` checks an export."""
    source, copy = _Db(str(path), read_only_file=True), sqlite3.connect(staged)
    try:
        source.conn.backup(copy)
        problem = copy.execute("PRAGMA integrity_check").fetchone()[0]
        ours = _has(copy, SQLITE_EVENTS)
    except sqlite3.DatabaseError as err:
        raise BackupError(f"{path}: not a whole SQLite store: {err}") from None
    finally:
        source.close()
        copy.close()
    if problem != "ok":
        raise BackupError(f"{path}: the SQLite store is damaged: {problem}")
    if not ours:
        raise BackupError(f"{path}: a SQLite database, but not an Umpire store (no {SQLITE_EVENTS} table)")
    ledger = Ledger(ledger_env(staged))
    try:
        with snapshot(staged, ledger) as snap:
            contents = snap.contents()
            for game, lines in snap.games():
                error = verify_lines(list(lines))
                if error is not None:
                    raise BackupError(f"{path}: game {game}: {error}")
    finally:
        ledger.close()
    return contents


def _stage_archive(path: Path, staged: str) -> Contents:
    """A new store holding the archive: each game imported through the ledger's checks (as
    `umpire import --allow-unknown` would) and exported again to the same bytes."""
    archive, ledger = Archive(path), Ledger(ledger_env(staged))
    contents = Contents()
    try:
        contents.tokens, contents.seeds = archive.tokens(), archive.seeds()  # small: checked first
        for game, texts in archive.games():
            try:
                ledger.import_lines(texts, allow_unknown=True)
            except LogError as err:
                raise BackupError(f"{path}: games/{game}.jsonl: {err}") from None
            if list(ledger.export(game)) != texts:
                raise BackupError(f"{path}: games/{game}.jsonl does not export to the same lines once imported")
            contents.games[game] = len(texts)
    finally:
        archive.close()
        ledger.close()
    store = ProjectionStore(staged)
    try:
        TokenStore(store)  # its table
        with store.transaction() as cur:
            _put_tokens_and_seeds(cur, store.q, contents)
    finally:
        store.close()
    return contents


def _put_tokens_and_seeds(cur: Any, q: Any, contents: Contents) -> None:
    columns, marks = ", ".join(TOKEN_COLUMNS), ", ".join("?" * len(TOKEN_COLUMNS))
    cur.executemany(q(f"INSERT INTO umpire_tokens ({columns}) VALUES ({marks})"),
                    [tuple(token[c] for c in TOKEN_COLUMNS) for token in contents.tokens])
    cur.executemany(q("INSERT INTO umpire_kv (space, key, value) VALUES (?, ?, ?)"),
                    [(SEED_SPACE, game, json.dumps(value, sort_keys=True)) for game, value in contents.seeds.items()])


def _held(db: _Db, events_table: str) -> Optional[str]:
    """What the target holds already, in words, or None when it holds nothing to lose."""
    games = db.rows(events_table, ("COUNT(*)",), "WHERE topic = ?", (STARTED,))
    tokens = db.rows("umpire_tokens", ("COUNT(*)",))
    seeds = db.rows("umpire_kv", ("COUNT(*)",), "WHERE space = ?", (SEED_SPACE,))
    counts = [rows[0][0] if rows else 0 for rows in (games, tokens, seeds)]
    if not any(counts):
        return None
    return f"{counts[0]} games, {counts[1]} tokens and {counts[2]} dice seeds"


def _refuse_unless(force: bool, held: Optional[str]) -> None:
    if held is not None and not force:
        raise BackupError(f"the store is not empty (it holds {held}): restore into an empty store, "
                          "or give --force to replace everything it holds")


def _into_sqlite(staged: str, target: str, force: bool) -> None:
    """The staged store copied onto the target by SQLite's backup API: one write transaction."""
    new = not Path(target).exists()
    if not new and Path(target).stat().st_size > 0:
        held = _Db(target)
        try:
            other = [name for (name,) in held.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                     if not _umpire_table(name)]
            _refuse_unless(force, f"tables that are not Umpire's: {', '.join(other)}" if other
                           else _held(held, SQLITE_EVENTS))
        finally:
            held.close()
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    source, dest = sqlite3.connect(staged), sqlite3.connect(target, timeout=30)
    try:
        source.backup(dest)
    except sqlite3.Error as err:
        dest.close()
        if new:
            Path(target).unlink(missing_ok=True)
        raise BackupError(f"the restore failed and the store was left as it was: {err}") from None
    finally:
        source.close()
        dest.close()


def _into_postgres(staged: str, target: str, force: bool, timeout: int) -> None:
    """The staged store's rows put into the PostgreSQL store in one transaction: its Umpire tables
    emptied (TRUNCATE, notification ids from 1 again), the events and snapshots copied in their
    order, the tokens and seeds inserted; every projection starts again from the first event."""
    ledger = Ledger(ledger_env(target))  # the tables the ledger, the projections and the tokens keep
    events, snapshots = ledger.recorder.events_table_name, ledger.snapshots.recorder.events_table_name
    ledger.close()
    store = ProjectionStore(target, timeout)
    TokenStore(store)
    store.close()
    import psycopg
    source, dest = _Db(staged), _Db(target, timeout)
    staged_snapshot = Snapshot(source, SQLITE_EVENTS)
    kept = Contents(tokens=staged_snapshot.tokens(), seeds=staged_snapshot.seeds())
    try:
        with dest.conn.transaction():
            dest.execute("SET LOCAL lock_timeout = '10s'")  # a server or worker still at work: say so
            dest.execute(f"LOCK TABLE {events} IN EXCLUSIVE MODE")
            _refuse_unless(force, _held(dest, events))
            tables = [t for (t,) in dest.execute("SELECT tablename FROM pg_tables WHERE schemaname = "
                                                 f"current_schema() AND ({UMPIRE_TABLES})").fetchall()]
            dest.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY")
            _copy_rows(source.conn, f"{SQLITE_EVENTS} ORDER BY rowid", dest, events)
            _copy_rows(source.conn, SQLITE_SNAPSHOTS, dest, snapshots)
            _put_tokens_and_seeds(dest.conn.cursor(), lambda sql: sql.replace("?", "%s"), kept)
    except psycopg.Error as err:
        first = (str(err).strip().splitlines() or [type(err).__name__])[0]
        raise BackupError(f"the restore failed and the store was left as it was: {first}") from None
    finally:
        source.close()
        dest.close()


def _umpire_table(name: str) -> bool:
    """A table of a SQLite store: the library's, or one Umpire keeps beside them (as UMPIRE_TABLES)."""
    return (name in (SQLITE_EVENTS, SQLITE_SNAPSHOTS) or name.startswith(("umpire_", "sqlite_"))
            or name.endswith("_tracking"))


def _has(conn: sqlite3.Connection, table: str) -> bool:
    found = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
    return found is not None


def _copy_rows(source: sqlite3.Connection, select_from: str, dest: _Db, table: str) -> None:
    """COPY a SQLite store's stored events (or snapshots) into a PostgreSQL table of the same form."""
    cursor = dest.conn.cursor()
    columns = "originator_id, originator_version, topic, state"
    with cursor.copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(["uuid", "int8", "text", "bytea"])
        for originator_id, version, topic, state in source.execute(f"SELECT {columns} FROM {select_from}"):
            copy.write_row((UUID(originator_id), version, topic, state))
