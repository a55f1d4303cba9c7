"""The audit against a raw read of the same events, and its growth with the game's length.

Measured as a started `umpire audit GAME --db STORE` spends it (`audit_rounds`): in rounds, each a
process of its own that has first audited another game of the rule system (bench/audit_round.py),
the game's lines are read from the store and audited, against a raw read of the same events (a
SELECT of their JSON text from a plain SQLite table and `json.loads` of each) just before and just
after, all in CPU time; the figure is the median of each audit's ratio to the raw reads either side
of it. (A whole `umpire audit` process less a 2-turn game's was the first way: its start-up, 0.7-0.9
s of CPU, varies more than a 13,000-event audit lasts, so the difference read 3x to 5.5x.) The curve
repeats this for longer games, up to about 100,000 events: the audit is linear when its cost per
event at the longest game is within `LINEAR_SLACK` of its cost per event at the 15,000-event game.

The tabletop rule systems are measured the same way on their own generated games (`tabletop`),
and an Infernal Machines game in play is recorded beside the target's game (`active`).
"""
from __future__ import annotations

import json
import sqlite3
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Optional

AUDIT_TARGET = 5.0          # audit <= 5x the raw read (issue: "An audit as fast as reading the log")
LINEAR_SLACK = 1.5          # cost per event at the longest game / at the 15,000-event game
TURNS = (512, 1024, 2048, 3800)   # about 14,000, 28,000, 55,000 and 100,000 events
TABLETOP = ("dux-bellorum-avbcw", "landships-of-mogdonazia")
TABLETOP_TURNS = 64               # about 1,400 and 800 events: their sides are spent by then
ACTIVE_TURNS = 32                 # about 2,400 events, all in play
ROUNDS = 3                  # rounds (processes) of a raw read, an audit and a raw read per run
WARM_TURNS, WARM_SEED = 8, 8  # the other game of the rule system each round audits first


def umpire() -> str:
    return str(Path(sys.executable).with_name("umpire"))


def stored_game(work: Path, turns: int, seed: int = 7, ruleset: Optional[str] = None) -> tuple[str, Path, Path]:
    """A generated game (of `ruleset`, default Infernal Machines) imported into a store of its
    own, and a plain table of its lines."""
    name = (f"{ruleset}-g{turns}" if ruleset else f"g{turns}") + (f"-s{seed}" if seed != 7 else "")
    folder, store, raw = work / name, work / f"{name}.db", work / f"{name}-raw.db"
    if not store.exists():
        chosen = ["--ruleset", ruleset] if ruleset else []
        subprocess.run([umpire(), "generate", *chosen, "--turns", str(turns), "--seed", str(seed),
                        "-o", str(folder)], check=True, capture_output=True)
        log = next(folder.glob("*.jsonl"))
        subprocess.run([umpire(), "import", "--db", str(store), str(log)], check=True, capture_output=True)
        with sqlite3.connect(raw) as conn:
            conn.execute("CREATE TABLE raw (seq INTEGER PRIMARY KEY, line TEXT)")
            conn.executemany("INSERT INTO raw VALUES (?, ?)",
                             enumerate(log.read_text(encoding="utf-8").splitlines(), 1))
    return next(folder.glob("*.jsonl")).stem, store, raw


def raw_read(raw: Path) -> Callable[[], int]:
    def read() -> int:
        with sqlite3.connect(raw) as conn:
            return len([json.loads(text) for (text,) in conn.execute("SELECT line FROM raw ORDER BY seq")])
    return read


def run_tabletop_audit_bench(work: Path, runs: int = 3, turns: int = TABLETOP_TURNS) -> dict[str, Any]:
    """The same ratio for each tabletop rule system, on its generated game of `turns` turns (their
    sides are spent sooner: about 1,600 and 1,000 events)."""
    out = {}
    for ruleset in TABLETOP:
        figures = audit_rounds(work, turns, runs, ruleset)
        out[ruleset] = {**figures, "target": AUDIT_TARGET, "met": figures["ratio"] <= AUDIT_TARGET}
    return out


def audit_rounds(work: Path, turns: int, runs: int, ruleset: Optional[str] = None) -> dict[str, Any]:
    """A generated game's audit timed as `umpire audit` spends it once started (the game's lines
    read from the store, then audited), against the raw read, in `runs * ROUNDS` rounds, each in a
    process of its own (bench/audit_round.py): a raw read, the audit, a raw read. Each audit is set
    against the mean of the raw reads either side of it, and the ratio is the median of those. This
    machine's speed wanders by a third for seconds at a time; a ratio of neighbours cancels that,
    where a best or a median of separate blocks of audits and of raw reads did not (one code read
    4.3x to 7.8x, run after run). A process of its own audits the game as new to it, as a started
    `umpire audit` does: rounds in one process found what the geometry keeps by value (shapes,
    sweeps) from the audit before."""
    game, store, raw = stored_game(work, turns, ruleset=ruleset)
    warm_game, warm_store, _ = stored_game(work, WARM_TURNS, seed=WARM_SEED, ruleset=ruleset)
    rounds = [_round(store, game, raw, warm_store, warm_game) for _ in range(runs * ROUNDS)]
    audits = [r["audit_s"] for r in rounds]
    raws = [t for r in rounds for t in (r["raw_before_s"], r["raw_after_s"])]
    ratios = [r["audit_s"] / ((r["raw_before_s"] + r["raw_after_s"]) / 2) for r in rounds]
    events, audit_s, raw_s = raw_read(raw)(), statistics.median(audits), statistics.median(raws)
    return {"turns": turns, "events": events, "audit_s": round(audit_s, 6), "raw_read_s": round(raw_s, 6),
            "ratio": round(statistics.median(ratios), 2), "us_per_event": round(1e6 * audit_s / events, 1),
            "ratios": [round(r, 3) for r in ratios]}


def _round(store: Path, game: str, raw: Path, warm_store: Path, warm_game: str) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-m", "bench.audit_round", "--store", str(store), "--game", game,
                           "--raw", str(raw), "--warm-store", str(warm_store), "--warm-game", warm_game],
                          check=True, capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent)
    return json.loads(done.stdout)


def run_active_audit_bench(work: Path, runs: int = 3, turns: int = ACTIVE_TURNS) -> dict[str, Any]:
    """An Infernal Machines game while both sides still fight (its first `turns` turns), recorded
    beside the target's game: by turn 100 or so a generated game's sides are spent, and the rest
    of the 512 turns are turns and phases begun with nothing in them, which cost the audit far less
    per event than moves, spots and shots do. No target: it says what a game in play costs."""
    return {**audit_rounds(work, turns, runs), "target": None, "met": None,
            "note": "recorded, not a target: the cost of events in play"}


def run_audit_bench(work: Path, runs: int = 5, turns: tuple[int, ...] = TURNS,
                    progress: Optional[Callable[[str], None]] = None,
                    tabletop_turns: int = TABLETOP_TURNS, active_turns: int = ACTIVE_TURNS) -> dict[str, Any]:
    """The figures of the audit benchmark: the ratio at the first (15k) point and the curve."""
    work.mkdir(parents=True, exist_ok=True)
    curve = []
    for n in turns:
        curve.append(audit_rounds(work, n, runs if n == turns[0] else max(min(runs, 3), runs // 2)))
        if progress:
            progress(f"audit of {curve[-1]['events']} events: {curve[-1]['ratio']}x the raw read")
    first, last = curve[0], curve[-1]
    growth = round(last["us_per_event"] / first["us_per_event"], 2)
    # a ratio of zero or less is no measurement: it never counts as met
    return {"audit": {"events": first["events"], "ratio": first["ratio"], "target": AUDIT_TARGET,
                      "met": 0 < first["ratio"] <= AUDIT_TARGET},
            "linear": {"per_event_growth": growth, "from_events": first["events"], "to_events": last["events"],
                       "target": LINEAR_SLACK, "met": growth <= LINEAR_SLACK},
            "curve": curve, "runs": runs,
            "active": run_active_audit_bench(work, runs=max(min(runs, 3), 1), turns=active_turns),
            "tabletop": run_tabletop_audit_bench(work, runs=max(min(runs, 3), 1), turns=tabletop_turns)}


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(description="the audit benchmark alone")
    parser.add_argument("--work", type=Path, default=Path("var/bench-audit"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--turns", type=int, nargs="*", default=list(TURNS))
    args = parser.parse_args()
    print(json.dumps(run_audit_bench(args.work, args.runs, tuple(args.turns), progress=print), indent=1))
