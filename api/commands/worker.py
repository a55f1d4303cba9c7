"""`umpire worker`: keep the projections of a store current in the background (projections/worker.py)."""
from __future__ import annotations

import signal
import threading
from enum import Enum
from typing import Annotated, Optional

import typer

from api.cli_app import DbOption, app, existing_store
from api.settings import get_settings, ledger_env
from projections.worker import PROJECTIONS, Worker

ProjectionName = Enum("ProjectionName", {name: name for name in PROJECTIONS}, type=str)  # type: ignore[misc]
# A worker's own connections: the runner's subscription and reads, and the view's writes.
WORKER_POOL = {"POSTGRES_POOL_SIZE": "2", "POSTGRES_MAX_OVERFLOW": "2"}


@app.command()
def worker(db: DbOption = None,
           projection: Annotated[Optional[list[ProjectionName]], typer.Option(
               "--projection", help="keep only this projection (repeat for several; default: all of "
                                    f"{', '.join(PROJECTIONS)})")] = None,
           exit_with: Annotated[Optional[int], typer.Option(
               "--exit-with", hidden=True, help="stop when the process with this id is gone")] = None):
    """Keep the projections current in the background (analytics, board checkpoints, audit reports),
    until stopped: reads then never wait for a catch-up. Several workers may run on one store;
    each projection is kept by one of them at a time, the others stand by."""
    target = existing_store(db)
    settings = get_settings(target)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    names = [p.value for p in projection] if projection else list(PROJECTIONS)
    Worker(target, {**ledger_env(target), **WORKER_POOL}, names,
           connect_timeout=settings.connect_timeout).run(stop, exit_with=exit_with)
