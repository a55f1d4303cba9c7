"""One round of the audit benchmark, in a process of its own (bench/audit.py `audit_rounds`): the
audit as `umpire audit GAME --db STORE` spends it once started. The process first audits another
game of the same rule system (the modules imported, their tables read), then reads the measured
game raw, audits it, and reads it raw again, each in CPU time. The measured game is new to the
process, as it is to a started `umpire audit`: the geometry and the figures it works out are not
yet kept from an earlier audit of it (rounds in one process audited it warm)."""
from __future__ import annotations

import argparse
import gc
import json
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--game", required=True)
    parser.add_argument("--raw", type=Path, required=True)
    parser.add_argument("--warm-store", type=Path, required=True)
    parser.add_argument("--warm-game", required=True)
    args = parser.parse_args()
    print(json.dumps(measure(args.store, args.game, args.raw, args.warm_store, args.warm_game)))


def measure(store: Path, game: str, raw: Path, warm_store: Path, warm_game: str) -> dict[str, float]:
    from api.settings import ledger_env
    from bench.audit import raw_read
    from domain.application import Ledger
    from projections.audit_trail import audit_lines
    warm = Ledger(ledger_env(str(warm_store)))
    try:
        audit_lines(warm.lines(warm_game))
    finally:
        warm.close()
    ledger, read = Ledger(ledger_env(str(store))), raw_read(raw)
    try:
        for _ in range(3):   # both files in the page cache and their connections' first costs paid
            read()
        ledger.last_seq(game)
        before = _timed(read)
        audit = _timed(lambda: audit_lines(ledger.lines(game)))
        after = _timed(read)
    finally:
        ledger.close()
    return {"audit_s": audit, "raw_before_s": before, "raw_after_s": after}


def _timed(action) -> float:
    """The CPU time of `action`, begun on a settled heap: the collector's walk of everything this
    process imported, which the allocations before it may have made due, is not laid on either
    side (it cost one raw read 60 ms of its 9)."""
    gc.collect()
    start = time.process_time()
    action()
    return time.process_time() - start


if __name__ == "__main__":
    main()
