"""`umpire backup` and `umpire restore` (docs/backup.md) on SQLite and PostgreSQL: a restored store
holds every game byte for byte, its games verify, its board, audit and analytics are the
source's, its tokens and dice seeds work; a store that is not empty, a damaged backup and a
failure while writing leave the target as it was; a backup taken while a game is written holds
a whole prefix of it."""
from __future__ import annotations

import json
import threading
import uuid
import zipfile
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from typer.testing import CliRunner

from api.cli import app
from api.security import TokenStore
from api.settings import ledger_env
from domain.application import Ledger
from projections.dice_seeds import SeedStore
from projections.store import ProjectionStore
from tests.conftest import FIXTURE_GAMES, ROOT, pg_server

runner = CliRunner()
GAMES = sorted(FIXTURE_GAMES.glob("*.jsonl"))
# boards and audits of the Infernal Machines game with artillery and of a tabletop game; the
# analytics of all three rule systems
JUDGED = ("michael-1918-ronssoy", "avbcw-derwent-1938")
ANALYTICS = ("ammunition", "fire-orders", "resistance", "avbcw-supply", "mog-breakdowns")


def umpire(*args):
    return runner.invoke(app, [str(a) for a in args])


@contextmanager
def pg_database():
    """Another fresh PostgreSQL database on the test cluster (the restore's target)."""
    server, name = pg_server(), f"umpire_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield f"{server.rsplit('/', 1)[0]}/{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextmanager
def target_like(db: str, tmp_path: Path):
    """An empty store of the same kind as `db`."""
    if db.startswith("postgresql://"):
        with pg_database() as url:
            yield url
    else:
        yield str(tmp_path / "restored" / "umpire.db")


def load(db: str) -> dict:
    """The fixture games, a token and two dice seeds (one revealed) in the store `db`."""
    assert umpire("import", *GAMES, "--db", db).exit_code == 0
    store = ProjectionStore(db)
    token, _ = TokenStore(store).issue("referee", name="club secretary")
    seeds = SeedStore(store)
    seeds.ensure("michael-1918-ronssoy")
    seeds.ensure("arras-1917-raid")
    seeds.reveal("arras-1917-raid")
    store.close()
    return {"token": token}


def exports(db: str) -> dict[str, str]:
    ledger = Ledger(ledger_env(db))
    try:
        return {g.game: "".join(line + "\n" for line in ledger.export(g.game)) for g in ledger.games()}
    finally:
        ledger.close()


def side_store(db: str) -> tuple[list[dict], dict]:
    store = ProjectionStore(db)
    try:
        seeds = SeedStore(store)
        return TokenStore(store).list(), {g: seeds.get(g).public() for g in ("michael-1918-ronssoy", "arras-1917-raid")}
    finally:
        store.close()


def results(db: str) -> dict:
    """What the projections and the auditor answer of a store: boards, audits, analytics."""
    out = {}
    for game in JUDGED:
        for at in (50, 150):  # the shorter has 152 lines
            board = umpire("state", game, "--at", at, "--format", "json", "--db", db)
            assert board.exit_code == 0, board.output
            out[f"state {game} {at}"] = json.loads(board.output)
        audit = umpire("audit", game, "--format", "json", "--db", db)
        assert audit.exit_code in (0, 1), audit.output  # 1: the game has findings
        out[f"audit {game}"] = json.loads(audit.output)
    for kind in ANALYTICS:
        answer = umpire("analytics", kind, "--db", db)
        assert answer.exit_code == 0, answer.output
        out[f"analytics {kind}"] = json.loads(answer.output)["rows"]
    return out


def verifies(db: str, tmp_path: Path) -> None:
    """Every game of the store exports to a log that `umpire verify` passes against the store."""
    for game, text in exports(db).items():
        path = tmp_path / f"{game}.verify.jsonl"
        path.write_text(text, encoding="utf-8")
        result = umpire("verify", path, "--db", db)
        assert result.exit_code == 0 and "chain intact" in result.output, result.output


@pytest.fixture(scope="module")
def backups(tmp_path_factory):
    """A SQLite store of the fixture games, and its two backups (taken once for the module)."""
    where = tmp_path_factory.mktemp("backups")
    db = str(where / "source.db")
    load(db)
    assert umpire("backup", "--db", db, "-o", where / "store.db").exit_code == 0
    assert umpire("backup", "--db", db, "-o", where / "store.zip", "--format", "logical").exit_code == 0
    return {"db": db, "sqlite": where / "store.db", "logical": where / "store.zip", "exports": exports(db)}


def test_a_backup_restores_a_store_whose_games_verify_with_the_same_results(db_url, tmp_path):
    held = load(db_url)
    backup = tmp_path / "club.backup"
    result = umpire("backup", "--db", db_url, "-o", backup)
    assert result.exit_code == 0, result.output
    events = sum(len(path.read_text(encoding="utf-8").splitlines()) for path in GAMES)
    assert f"{len(GAMES)} games, {events} events, 1 tokens, 2 dice seeds" in result.output
    assert backup.stat().st_mode & 0o077 == 0  # unrevealed seeds: readable by its owner only
    with target_like(db_url, tmp_path) as target:
        result = umpire("restore", backup, "--db", target)
        assert result.exit_code == 0, result.output
        assert exports(target) == exports(db_url)
        verifies(target, tmp_path)
        assert results(target) == results(db_url)
        assert side_store(target) == side_store(db_url)
        store = ProjectionStore(target)
        assert TokenStore(store).lookup(held["token"]).name == "club secretary"
        store.close()


def test_a_logical_backup_moves_a_store_between_sqlite_and_postgresql(backups, pg_url, tmp_path):
    source = backups["exports"]
    for kind in ("logical", "sqlite"):  # a SQLite store's own file restores into PostgreSQL too
        with pg_database() as url:
            assert umpire("restore", backups[kind], "--db", url).exit_code == 0
            assert exports(url) == source and side_store(url) == side_store(backups["db"])
    assert umpire("restore", backups["logical"], "--db", pg_url).exit_code == 0
    refused = umpire("backup", "--db", pg_url, "-o", tmp_path / "pg.db", "--format", "sqlite")
    assert refused.exit_code == 2 and "--format logical" in refused.output
    assert umpire("backup", "--db", pg_url, "-o", tmp_path / "pg.zip").exit_code == 0
    back = str(tmp_path / "back.db")
    assert umpire("restore", tmp_path / "pg.zip", "--db", back).exit_code == 0
    assert exports(back) == source
    verifies(back, tmp_path)


def analytics(db: str) -> list[dict]:
    answer = umpire("analytics", "ammunition", "--db", db)
    assert answer.exit_code == 0, answer.output
    return json.loads(answer.output)["rows"]


def test_restore_refuses_a_store_that_is_not_empty_unless_forced(backups, db_url, tmp_path):
    # other games, more events than come before the backup's last games: a projection that kept its
    # position would pass them by
    cases = sorted((ROOT / "tests" / "acceptance" / "cases").glob("*.jsonl"))[:28]
    assert umpire("import", *cases, "--db", db_url).exit_code == 0
    assert analytics(db_url)  # its projections have taken the events it holds
    before = exports(db_url)
    refused = umpire("restore", backups["logical"], "--db", db_url)
    assert refused.exit_code == 2
    assert "the store is not empty (it holds 28 games, 0 tokens and 0 dice seeds)" in refused.output
    assert "--force" in refused.output and exports(db_url) == before
    assert umpire("restore", backups["sqlite"], "--db", db_url, "--force").exit_code == 0
    assert exports(db_url) == backups["exports"]  # replaced: the game it held is gone
    assert analytics(db_url) == analytics(backups["db"])  # its projections start again from the first event


def damaged(backups, tmp_path: Path, damage: str) -> Path:
    """A backup spoilt one way; the message a restore must give for it."""
    path = tmp_path / f"{damage}.backup"
    if damage == "truncated archive":
        data = backups["logical"].read_bytes()
        path.write_bytes(data[:len(data) * 2 // 3])
    elif damage == "truncated sqlite":
        data = backups["sqlite"].read_bytes()
        path.write_bytes(data[:len(data) // 2])
    elif damage == "changed line":  # a whole zip whose game no longer matches its hash chain
        with zipfile.ZipFile(backups["logical"]) as old, zipfile.ZipFile(path, "w") as new:
            for name in old.namelist():
                data = old.read(name)
                if name == "games/cambrai-1917-flesquieres.jsonl":
                    lines = data.decode().splitlines(keepends=True)
                    lines[40] = lines[40].replace('"turn":1', '"turn":2', 1)
                    data = "".join(lines).encode()
                new.writestr(name, data)
    else:
        path.write_text("not a backup\n")
    return path


@pytest.mark.parametrize("damage, message", [
    ("truncated archive", "not a whole Umpire backup: the archive is truncated or damaged"),
    ("truncated sqlite", "not a whole SQLite store"),
    ("changed line", "games/cambrai-1917-flesquieres.jsonl: line 41"),
    ("not a backup", "not an Umpire backup"),
])
def test_restore_refuses_a_damaged_backup_and_leaves_the_store_as_it_was(backups, db_url, tmp_path,
                                                                         damage, message):
    assert umpire("import", GAMES[0], "--db", db_url).exit_code == 0
    before = exports(db_url)
    result = umpire("restore", damaged(backups, tmp_path, damage), "--db", db_url, "--force")
    assert result.exit_code == 2 and message in result.output, result.output
    assert exports(db_url) == before
    new = tmp_path / "never.db"
    assert umpire("restore", damaged(backups, tmp_path, damage), "--db", new).exit_code == 2
    assert not new.exists()


def test_a_failure_while_postgresql_is_written_leaves_the_store_as_it_was(backups, pg_url):
    assert umpire("import", GAMES[0], "--db", pg_url).exit_code == 0
    before = exports(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:  # the server refuses the 600th row the restore copies
        conn.execute("CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN "
                     "IF (SELECT COUNT(*) FROM umpire_events) >= 600 THEN RAISE EXCEPTION 'disk full'; END IF; "
                     "RETURN NEW; END $$ LANGUAGE plpgsql")
        conn.execute("CREATE TRIGGER refuse BEFORE INSERT ON umpire_events FOR EACH ROW EXECUTE FUNCTION refuse()")
    result = umpire("restore", backups["logical"], "--db", pg_url, "--force")
    assert result.exit_code == 2
    assert "the restore failed and the store was left as it was: disk full" in result.output
    assert exports(pg_url) == before


def test_a_backup_taken_while_a_game_is_written_holds_a_whole_prefix_of_it(db_url, tmp_path):
    lines = [json.loads(t) for t in (FIXTURE_GAMES / "michael-1918-ronssoy.jsonl").read_text().splitlines()]
    for line in lines:
        line.pop("prev")
    head, batch = 20, 4
    writer = Ledger(ledger_env(db_url))
    writer.append("michael-1918-ronssoy", lines[:head])
    assert umpire("import", GAMES[0], "--db", db_url).exit_code == 0
    written, stop = threading.Event(), threading.Event()

    def append() -> None:
        for start in range(head, len(lines), batch):
            if stop.is_set():
                return
            writer.append("michael-1918-ronssoy", lines[start:start + batch])
            if start >= head + 2 * batch:
                written.set()

    thread = threading.Thread(target=append)
    thread.start()
    assert written.wait(60)
    kinds = ("sqlite", "logical") if not db_url.startswith("postgresql://") else ("logical",)
    for kind in kinds:
        result = umpire("backup", "--db", db_url, "-o", tmp_path / kind, "--format", kind)
        assert result.exit_code == 0, result.output
    stop.set()
    thread.join()
    final = exports(db_url)["michael-1918-ronssoy"].splitlines(keepends=True)
    writer.close()
    for kind in kinds:
        target = str(tmp_path / f"restored-{kind}.db")
        assert umpire("restore", tmp_path / kind, "--db", target).exit_code == 0
        verifies(target, tmp_path)
        got = exports(target)["michael-1918-ronssoy"].splitlines(keepends=True)
        assert got == final[:len(got)] and len(got) >= head + 3 * batch
        assert (len(got) - head) % batch == 0 or len(got) == len(lines)  # never half a batch
