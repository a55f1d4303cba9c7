"""`umpire worker`: keep the projections of a store current in the background (projections/worker.py)."""
from __future__ import annotations

import signal
import threading
from enum import Enum
from typing import Annotated, Optional

import typer

from api.cli_app import DbOption, app, existing_store, installation_pack
from api.settings import get_settings, ledger_env
from projections.audit_trail import parse_bucket
from projections.worker import PROJECTIONS, Worker

ProjectionName = Enum("ProjectionName", {name: name for name in PROJECTIONS}, type=str)  # type: ignore[misc]
# A worker's own connections: the runner's subscription and reads, and the view's writes.
WORKER_POOL = {"POSTGRES_POOL_SIZE": "2", "POSTGRES_MAX_OVERFLOW": "2"}


@app.command()
def worker(db: DbOption = None,
           projection: Annotated[Optional[list[ProjectionName]], typer.Option(
               "--projection", help="keep only this projection (repeat for several; default: all of "
                                    f"{', '.join(PROJECTIONS)})")] = None,
           bucket: Annotated[Optional[list[str]], typer.Option(
               "--bucket", metavar="K/N", help="keep bucket K of N of the audits (0 <= K < N): the games whose "
                                               "id hashes to K; run one worker per bucket (repeat for several)")] = None,
           exit_with: Annotated[Optional[int], typer.Option(
               "--exit-with", hidden=True, help="stop when the process with this id is gone")] = None):
    """Keep the projections current in the background (analytics, board checkpoints, audit reports),
    until stopped: reads then never wait for a catch-up. Several workers may run on one store;
    each projection is kept by one of them at a time, the others stand by. With --bucket, the audits
    are split between workers by game (only the buckets, unless --projection names others too)."""
    try:
        buckets = [parse_bucket(text) for text in bucket or []]
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--bucket") from None
    if len({n for _, n in buckets}) > 1:
        raise typer.BadParameter("the buckets of one worker split the audits one way (one N)", param_hint="--bucket")
    installation_pack()
    target = existing_store(db)
    settings = get_settings(target)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    names = [p.value for p in projection] if projection else ([] if buckets else list(PROJECTIONS))
    if buckets and "audits" in names:
        raise typer.BadParameter("keep the audits whole (--projection audits) or in buckets (--bucket), not both",
                                 param_hint="--bucket")
    Worker(target, {**ledger_env(target), **WORKER_POOL}, names, buckets=buckets,
           connect_timeout=settings.connect_timeout).run(stop, exit_with=exit_with)
