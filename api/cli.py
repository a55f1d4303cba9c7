"""`umpire`: import, export, verify, list, replay and audit recorded games; serve the API."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from api.cli_app import (DbOption, FormatOption, app, created_store, echo_err, existing_store, fail, game_lines,
                         installation_pack, open_ledger, optional_store, progress, read_text, store_exists,
                         stored_game)
from api.settings import get_settings
from domain.application import ConflictError
from domain.log import LogError, head_hash, read_lines, text_lines, verify_lines
from domain.rules.engine import iter_findings
from domain.rules.interpretations import InterpretationError
from domain.rules.tables import TablePackError, load_pack_file
from projections.audit_trail import audit_lines
from projections.board_state import BoardCheckpoints, seq_of
from projections.store import ProjectionStore


def projection_store(db: Optional[str]) -> ProjectionStore:
    settings = get_settings(db)
    return ProjectionStore(settings.db, settings.connect_timeout)


@app.command("import")
def import_(files: Annotated[list[Path], typer.Argument(help="JSONL game logs")],
            db: DbOption = None,
            allow_unknown: Annotated[bool, typer.Option("--allow-unknown", help="keep unknown event types")] = False):
    """Import game logs: each file whole or not at all; a re-import changes nothing."""
    ledger = None
    status, changed = 0, []
    with progress("importing", len(files)) as steps:
        for path in files:
            texts = text_lines(read_text(path))
            if ledger is None and not store_exists(db):
                # The store is created only once there is a valid file to put in it: a refused
                # first file leaves no empty store behind.
                try:
                    read_lines(texts, allow_unknown=allow_unknown)
                except LogError as err:
                    fail(f"{path}: {err} (nothing of this file was stored)")
            ledger = ledger or open_ledger(created_store(db))
            try:
                result = ledger.import_lines(texts, allow_unknown=allow_unknown)
            except LogError as err:
                fail(f"{path}: {err} (nothing of this file was stored)")
            except ConflictError as err:
                echo_err(f"umpire: {path}: conflict: {err}")
                status = 1
                steps.done()
                continue
            steps.done(f"{path}: {result.game}: {IMPORT_WORDS[result.status].format(r=result)}")
            if result.status != "unchanged":
                changed.append(result.game)
    boards = BoardCheckpoints(ledger, projection_store(db))
    for game in changed:  # the checkpoints of the games this import changed, and no others
        boards.catch_up_game(game)
    raise typer.Exit(status)


IMPORT_WORDS = {"created": "imported {r.appended} events",
                "appended": "appended {r.appended} new events (now {r.last_seq})",
                "unchanged": "already imported ({r.last_seq} events): nothing changed"}


@app.command()
def export(game: str, db: DbOption = None,
           output: Annotated[Optional[Path], typer.Option("-o", "--output", help="file (default: stdout)")] = None):
    """Export a game as canonical JSONL with the hash chain."""
    ledger = open_ledger(existing_store(db))
    stored_game(ledger, game)
    if output and not output.parent.is_dir():
        fail(f"{output}: no folder {output.parent} to write into")
    text = "".join(line + "\n" for line in ledger.export(game))
    if output:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as err:
            fail(f"{output}: cannot write: {err.strerror or err}")
    else:
        sys.stdout.write(text)


@app.command()
def verify(file: Path, db: DbOption = None,
           expect_head: Annotated[Optional[str], typer.Option("--expect-head", help="published hash of the last line")] = None,
           seed: Annotated[Optional[Path], typer.Option("--seed", help="the revealed dice seed (hex file), to recompute service rolls")] = None):
    """Check an exported log's schema and hash chain (and against the store, when it holds the game)."""
    texts = read_text(file).splitlines()
    try:
        error = verify_lines(texts)
    except LogError as err:
        error = err
    if error is None:
        error = _against_store(texts, db)
    if error is None and expect_head and head_hash(texts) != expect_head:
        error = LogError(len([t for t in texts if t.strip()]), "(line)", "the last line does not match the published head hash")
    if error is not None:
        typer.echo(f"{file}: line {error.line} does not match: {error.field}: {error.message}")
        raise typer.Exit(1)
    from api.verify_hooks import extra_verifications
    for problem in extra_verifications(texts, db, seed):
        typer.echo(f"{file}: {problem}")
        raise typer.Exit(1)
    typer.echo(f"{file}: ok: {len([t for t in texts if t.strip()])} lines, chain intact, head {head_hash(texts)}")


def _against_store(texts: list[str], db: Optional[str]) -> Optional[LogError]:
    """Where the store holds the game, every line must be the stored one."""
    first = json.loads(texts[0])
    target = optional_store(db)
    if target is None:
        return None
    ledger = open_ledger(target)
    if not ledger.has_game(first["game"]):
        return None
    for number, (stored, text) in enumerate(zip(ledger.export(first["game"]), texts), start=1):
        if stored != text:
            return LogError(number, "(line)", "differs from the stored game")
    return None


@app.command()
def games(db: DbOption = None, format: FormatOption = "text"):
    """List the stored games: id, ruleset, scenario, events, last turn."""
    rows = open_ledger(existing_store(db)).games()
    if format == "json":
        typer.echo(json.dumps([r.__dict__ for r in rows], indent=1))
        return
    for r in rows:
        typer.echo(f"{r.game}\t{r.ruleset}\t{r.scenario}\t{r.events} events\tlast turn {r.last_turn}")


@app.command()
def state(game: str, db: DbOption = None,
          at: Annotated[Optional[int], typer.Option("--at", help="after event SEQ (0: the empty board)")] = None,
          turn: Annotated[Optional[int], typer.Option("--turn", help="at the end of turn N")] = None,
          phase: Annotated[Optional[str], typer.Option("--phase", help="with --turn: at the end of phase P")] = None,
          format: FormatOption = "text"):
    """The board at any point of a stored game."""
    ledger = open_ledger(existing_store(db))
    stored_game(ledger, game)
    if at is not None and turn is not None:
        fail("give --at or --turn, not both")
    if phase is not None and turn is None:
        fail("--phase needs --turn")
    if at is not None and not 0 <= at <= ledger.last_seq(game):
        fail(f"--at {at}: the game has events 1..{ledger.last_seq(game)}")
    if turn is not None:
        at = seq_of(ledger.lines(game), turn, phase)
        if at is None:
            fail(f"no events in turn {turn}" + (f", phase {phase}" if phase else ""))
    board = BoardCheckpoints(ledger, projection_store(db)).board_at(game, at)
    data = board.public()
    if format == "json":
        typer.echo(json.dumps(data, indent=1, sort_keys=True))
        return
    if data.get("geometry") == "tabletop":
        _echo_tabletop(game, data)
        return
    typer.echo(f"{game} after seq {data['seq']}: turn {data['turn']}, phase {data['phase']}, "
               f"weather {data['weather']}, terrain {data['terrain_state']}")
    for uid, u in sorted(data["units"].items()):
        typer.echo(f"  {uid:<12} {u['side'] or '-':<10} {u['class']:<18} {u['location'] or '-':<10} {','.join(u['status'])}")
    for eid, e in sorted(data["elements"].items()):
        typer.echo(f"  {eid:<12} {e['side']:<10} firepower {e['firepower']}, points spent {e['points_spent']}"
                   f", left {e['points_left']}{', eliminated' if e['eliminated'] else ''}")
    for m in data["markers"]:
        typer.echo(f"  marker {m['marker']} at {m.get('location')}")


def _echo_tabletop(game: str, data: dict) -> None:
    """A tabletop board for people: where each base stands (inches) and faces."""
    table = data["table"] or {}
    typer.echo(f"{game} after seq {data['seq']}: turn {data['turn']}, phase {data['phase']}, "
               f"table {table.get('width')}\" x {table.get('depth')}\", {len(table.get('features', []))} features")
    for uid, u in sorted(data["units"].items()):
        at = f"({u['position']['x']}, {u['position']['y']}) facing {u['facing']}" if u["position"] else "-"
        typer.echo(f"  {uid:<12} {u['side'] or '-':<12} {u['type'] or u['class'] or '-':<22} {at:<28} "
                   f"{','.join(u['status'])}")
    for m in data["markers"]:
        typer.echo(f"  marker {m.get('marker')} {m.get('id', '')} at {m.get('position')}")


@app.command()
def audit(game_or_file: str, db: DbOption = None, format: FormatOption = "text",
          all_: Annotated[bool, typer.Option("--all", help="list every rule application, ok ones too")] = False,
          tables: Annotated[Optional[Path], typer.Option("--tables", help="a table pack file (JSON)")] = None,
          interpretation: Annotated[Optional[list[str]], typer.Option("--interpretation", help="NAME=READING")] = None):
    """Audit a stored game or a log file against the rulebook."""
    lines = game_lines(game_or_file, db)
    tables = tables or (Path(get_settings(db).tables_dir) if get_settings(db).tables_dir else None)
    try:
        pack = load_pack_file(tables) if tables else None
        report = audit_lines(lines, tables=pack, interpretations=interpretation or ())
    except (TablePackError, InterpretationError) as err:
        fail(str(err))
    if format == "json":
        typer.echo(json.dumps(report.to_json(all_applications=all_), indent=1, ensure_ascii=False))
    else:
        s = report.summary()
        typer.echo(f"{report.game} ({report.ruleset}), {report.events} events, tables: {report.tables.label()}")
        for text in iter_findings(report):
            typer.echo(text)
        if all_:
            for a in sorted(report.applications, key=lambda a: a.seq):
                if a.verdict.value == "ok":
                    typer.echo(f"seq {a.seq:>5}  ok           {a.rule}: {a.message} [{a.citation}]")
        for name, reading in report.interpretations.items():
            typer.echo(f"interpretation {name}: {reading}")
        typer.echo(", ".join(f"{k} {v}" for k, v in s.items()))
    raise typer.Exit(report.exit_status)


@app.command()
def serve(db: DbOption = None,
          host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
          port: Annotated[int, typer.Option("--port", parser=port_number, metavar="PORT", help="1-65535")] = 8000,
          public_read: Annotated[bool, typer.Option(
              "--public-read", help="let anyone who reaches the server read every game on the dashboard "
                                    "(writes still need a token)")] = False,
          worker: Annotated[bool, typer.Option(
              "--worker", help="also run `umpire worker` beside the server (stopped with it), so that "
                               "reads never wait for the projections to catch up")] = False):
    """Serve the HTTP API (/api) and the dashboard (/)."""
    from api.app import create_app
    from api.live import serve as serve_app
    installation_pack()
    target = created_store(db)
    typer.echo(f"Umpire on http://{host}:{port}/  (API http://{host}:{port}/api/docs, store {target})")
    if public_read:
        typer.echo("public read: anyone who can reach this server can read every game on the dashboard")
    beside = _spawn_worker(target) if worker else None
    try:
        serve_app(create_app(db=target, public_read=public_read), host=host, port=port, log_level="info")
    finally:
        if beside is not None:
            beside.terminate()
            beside.wait(30)


def _spawn_worker(target: str):
    """`umpire worker` in a child process, which also stops when this process is gone (even killed)."""
    import os
    import subprocess
    typer.echo("worker: keeping the projections in the background (umpire worker)")
    return subprocess.Popen([sys.executable, "-m", "api.cli", "worker", "--db", target,
                             "--exit-with", str(os.getpid())])


def port_number(value: str | int) -> int:
    """A TCP port; anything else ends the command with one line, before anything is opened."""
    text = str(value)
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        fail(f"--port {text}: a port number from 1 to 65535")
    return int(text)


def _load_command_modules() -> None:
    import importlib
    import pkgutil

    import api.commands
    for info in pkgutil.iter_modules(api.commands.__path__):
        importlib.import_module(f"api.commands.{info.name}")


_load_command_modules()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
