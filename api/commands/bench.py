"""`umpire bench`: performance against raw baselines measured in the same run; with `--write-docs`,
recorded in docs/benchmarks.md."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Annotated, Any, Callable, Optional

import typer

from api.cli_app import app, progress
from bench.ledger import run_bench

DOC = Path("docs/benchmarks.md")


def write_section(doc: Path, name: str, command: str, figures: dict[str, Any]) -> None:
    """Replace (or add) the section `name` of docs/benchmarks.md with these figures."""
    begin, end = f"<!-- bench:{name}:begin -->", f"<!-- bench:{name}:end -->"
    body = (f"{begin}\n### {name}\n\nCommand: `{command}`\n\n```json\n"
            f"{json.dumps(figures, indent=1, sort_keys=True)}\n```\n{end}")
    text = doc.read_text(encoding="utf-8") if doc.exists() else "# Benchmarks\n"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + body + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + body + "\n"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(text, encoding="utf-8")


@app.command()
def bench(events: Annotated[int, typer.Option("--events", help="events in the benchmark game")] = 10_000,
          pg: Annotated[Optional[str], typer.Option("--pg", help="also on this PostgreSQL URL (default: $UMPIRE_TEST_PG)")] = None,
          scale: Annotated[bool, typer.Option("--scale", help="the many-games benchmark instead")] = False,
          games: Annotated[Optional[int], typer.Option("--games", min=1, help="with --scale: how many games (1000); with --federation: games a run (60)")] = None,
          writers: Annotated[int, typer.Option("--writers", min=1, help="with --scale: writing processes; with --federation: runs with 1 to this many")] = 3,
          audit_buckets: Annotated[int, typer.Option("--audit-buckets", min=0, help="with --scale: audit workers, one a bucket of games (0: one worker for the whole audits)")] = 0,
          federation: Annotated[bool, typer.Option("--federation", help="the write lock with 1..--writers writers, partitions by game and a streaming replica's lag, on a throwaway PostgreSQL 15 primary and replica under /tmp, instead")] = False,
          batch: Annotated[int, typer.Option("--batch", min=1, help="with --federation: events a batch")] = 50,
          api: Annotated[bool, typer.Option("--api", help="the HTTP load benchmark instead (loopback)")] = False,
          growth: Annotated[bool, typer.Option("--growth", help="a quiet game's board beside a game that keeps growing, instead")] = False,
          audit: Annotated[bool, typer.Option("--audit", help="only the audit against a raw read, and its growth curve")] = False,
          audit_turns: Annotated[Optional[list[int]], typer.Option("--audit-turns", help="the audit curve's game lengths in turns (default: 512 1024 2048 3800, about 14k-100k events)")] = None,
          audit_runs: Annotated[int, typer.Option("--audit-runs", min=1, help="audits of each game (the median is taken)")] = 5,
          tabletop_turns: Annotated[int, typer.Option("--audit-tabletop-turns", min=3, help="the tabletop rule systems' audited games in turns")] = 64,
          markers: Annotated[int, typer.Option("--markers", help="with --growth: markers in the growing game")] = 24_000,
          clients: Annotated[int, typer.Option("--clients", help="with --api: concurrent clients")] = 8,
          write_docs: Annotated[bool, typer.Option("--write-docs", help="also record the figures in --doc")] = False,
          doc: Annotated[Path, typer.Option("--doc", help="where --write-docs records the figures")] = DOC):
    """Measure import, rebuild, random access and the audit against raw baselines; print the figures
    (exit status 1 when a figure misses its target, naming it)."""
    pg = pg or os.environ.get("UMPIRE_TEST_PG")
    work = Path(tempfile.mkdtemp(prefix="umpire-bench-"))
    if api:
        sections = _api_sections(work, pg, clients)
    elif growth:
        sections = _growth_sections(work, pg, markers)
    elif scale:
        sections = _scale_sections(work, pg, games or 1000, writers, audit_buckets)
    elif federation:
        sections = [_federation_section(games or 60, writers, batch)]
    elif audit:
        sections = [_audit_section(work, audit_turns, audit_runs, tabletop_turns)]
    else:
        sections = _ledger_sections(work, pg, events) + [_audit_section(work, audit_turns, audit_runs, tabletop_turns)]
    figures: dict[str, Any] = {}
    with progress("benchmarking", len(sections)) as steps:
        for name, command, measure in sections:
            figures[name] = measure()
            if write_docs:
                write_section(doc, name, command, figures[name])
            steps.done()
    typer.echo(json.dumps(next(iter(figures.values())) if scale or federation else figures, indent=1, sort_keys=True))
    missed = misses(figures)
    for miss in missed:
        typer.echo(f"umpire bench: missed {miss}", err=True)
    if missed:
        raise typer.Exit(1)


def misses(figures: Any, path: str = "") -> list[str]:
    """Every figure that misses its target: a dict with `met: false`, or a `<x>_ratio` above its
    `<x>_target` beside it, named by its path in the figures."""
    out: list[str] = []
    if isinstance(figures, dict):
        if figures.get("met") is False:
            out.append(f"{path or 'figures'}: {_measured(figures)} against a target of {figures.get('target')}")
        for key, target in figures.items():
            ratio = figures.get(key[:-len("_target")] + "_ratio") if key.endswith("_target") else None
            if isinstance(ratio, (int, float)) and isinstance(target, (int, float)) and ratio > target \
                    and "met" not in figures:
                out.append(f"{path}.{key[:-len('_target')]}: {ratio}x against a target of {target}x")
        for key, value in figures.items():
            out.extend(misses(value, f"{path}.{key}" if path else key))
    elif isinstance(figures, list):
        for i, value in enumerate(figures):
            out.extend(misses(value, f"{path}[{i}]"))
    return out


def _measured(figure: dict[str, Any]) -> str:
    for key in ("ratio", "per_event_growth", "value"):
        if key in figure:
            return f"{figure[key]}"
    return "measured"


Section = tuple[str, str, Callable[[], Any]]


def _ledger_sections(work: Path, pg: Optional[str], events: int) -> list[Section]:
    from domain.rulesets import ruleset
    run_board_bench = ruleset("infernal-machines").benchmarks()["board"]
    return [("ledger", f"umpire bench --events {events}", lambda: run_bench(str(work / "bench.db"), _fresh_pg(pg), events)),
            ("board", "umpire bench (the Infernal Machines RuleSet's board benchmark)", run_board_bench)]


def _audit_section(work: Path, turns: Optional[list[int]], runs: int, tabletop_turns: int = 64) -> Section:
    from bench.audit import TABLETOP_TURNS, TURNS, run_audit_bench
    chosen = tuple(turns or TURNS)
    command = "umpire bench --audit" + ("".join(f" --audit-turns {n}" for n in chosen) if turns else "") \
        + (f" --audit-runs {runs}" if runs != 5 else "") \
        + (f" --audit-tabletop-turns {tabletop_turns}" if tabletop_turns != TABLETOP_TURNS else "")
    return ("audit", command, lambda: run_audit_bench(work / "audit", runs=runs, turns=chosen,
                                                      tabletop_turns=tabletop_turns))


def _scale_sections(work: Path, pg: Optional[str], games: int, writers: int, buckets: int = 0) -> list[Section]:
    """On a scratch database of the PostgreSQL server (--pg), else on a new SQLite file."""
    from bench.scale import run_scale_bench
    name = f"scale-buckets-{buckets}" if buckets else "scale"
    return [(name, f"umpire bench --scale --games {games} --writers {writers}"
                   + (f" --audit-buckets {buckets}" if buckets else "") + (" --pg URL" if pg else ""),
             lambda: run_scale_bench(pg_url=pg, sqlite_path=None if pg else str(work / "scale.db"),
                                     games=games, writers=writers, audit_buckets=buckets))]


def _federation_section(games: int, writers: int, batch: int) -> Section:
    from bench.federation import run_federation_bench
    return ("federation", f"umpire bench --federation --games {games} --writers {writers} --batch {batch}",
            lambda: run_federation_bench(games=games, writers=writers, batch=batch))


def _api_sections(work: Path, pg: Optional[str], clients: int) -> list[Section]:
    from bench.api import run_api_bench

    def measure() -> list[dict[str, Any]]:
        stores = [str(work / "api.db")] + ([_fresh_pg(pg)] if pg else [])
        return [run_api_bench(db, clients=clients) for db in stores]
    return [("api", f"umpire bench --api --clients {clients}", measure)]


def _growth_sections(work: Path, pg: Optional[str], markers: int) -> list[Section]:
    from api.settings import ledger_env
    from domain.application import Ledger
    from bench.growth import run_growth_bench
    from projections.store import ProjectionStore

    def measure() -> list[dict[str, Any]]:
        stores = [str(work / "growth.db")] + ([_fresh_pg(pg)] if pg else [])
        return [run_growth_bench(Ledger(ledger_env(db)), ProjectionStore(db), str(work / f"raw-{i}.db"), markers)
                for i, db in enumerate(stores)]
    return [("growth", f"umpire bench --growth --markers {markers}", measure)]


def _fresh_pg(server: Optional[str]) -> Optional[str]:
    """A new database on the server, so the benchmark starts from an empty store."""
    if not server:
        return None
    import uuid

    import psycopg
    name = f"umpire_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return f"{server.rsplit('/', 1)[0]}/{name}"
