"""The figures of `umpire bench` and the time of one audit, for two checkouts of Umpire measured in
one run: the rounds alternate between them, so both see the same load on the shared machine.

    python -m bench.before_after --before /tmp/umpire-before --after /tmp/umpire-after \
        [--pg postgresql://...] [--rounds 3] [--audits 5]

Each checkout runs as its own process with the same interpreter, `PYTHONPATH` and the working
directory set to the checkout, so the code measured is the checkout's and nothing else.
Prints, for every figure, the median before, the median after, after / before and the range of the runs.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

DEMO_GAME = "fixtures/games/michael-1918-ronssoy.jsonl"  # the 432-event demo game
# (section, store or None, figure) read from `umpire bench`'s JSON.
FIGURES = [(section, store, figure)
           for store in ("sqlite", "postgresql")
           for section, figure in (("ledger", "import_ratio"), ("ledger", "rebuild_ratio"),
                                   ("ledger", "random_ratio"), ("ledger", "import_s"),
                                   ("ledger", "rebuild_s"), ("ledger", "board_at_random_seq_median_s"))] + \
          [("board", None, "reachable_vs_plain"), ("board", None, "reachable_s"),
           ("board", None, "sight_checks_per_s")]


def _umpire(checkout: Path, *args: str, statuses: tuple[int, ...] = (0,)) -> tuple[str, float]:
    """Run `umpire ARGS` from this checkout; its stdout and its wall time."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "api.cli", *args], cwd=checkout, env=env,
                          capture_output=True, text=True)
    if done.returncode not in statuses:
        raise RuntimeError(f"umpire {' '.join(args)} in {checkout}: exit {done.returncode}: {done.stderr[-400:]}")
    return done.stdout, time.perf_counter() - start


def _bench_figures(checkout: Path, events: int, pg: Optional[str]) -> dict[str, float]:
    # A checkout whose `umpire bench` measures the audit curve too runs it on the smallest game
    # here (the audit is timed below, on the same game for both); exit 1 is a missed target.
    source = (checkout / "api" / "commands" / "bench.py").read_text(encoding="utf-8")
    audit = ["--audit-turns", "2", "--audit-runs", "1"] if "--audit-turns" in source else []
    audit += ["--audit-tabletop-turns", "3"] if "--audit-tabletop-turns" in source else []
    out, _ = _umpire(checkout, "bench", "--events", str(events), *audit, *(["--pg", pg] if pg else []),
                     statuses=(0, 1))
    figures = json.loads(out)
    for store in ("sqlite", "postgresql"):
        _flatten_ledger(figures.get("ledger", {}).get(store))
    picked = {}
    for section, store, figure in FIGURES:
        values = figures[section].get(store, {}) if store else figures[section]
        if figure in values:
            picked[".".join(p for p in (section, store, figure) if p)] = values[figure]
    return picked


# The ledger's figures as `umpire bench` writes them since each carries its target, under the
# names the earlier flat form gave them, so that two checkouts compare figure by figure.
NESTED = {"import_ratio": ("import", "ratio"), "import_s": ("import", "s"),
          "rebuild_ratio": ("board_at_last_event", "ratio"), "rebuild_s": ("board_at_last_event", "s"),
          "random_ratio": ("board_at_random_seq", "ratio"), "board_at_random_seq_median_s": ("board_at_random_seq", "s")}


def _flatten_ledger(figures: Optional[dict[str, Any]]) -> None:
    for flat, (name, key) in NESTED.items():
        if figures is not None and flat not in figures and isinstance(figures.get(name), dict):
            figures[flat] = figures[name][key]


def _audit_seconds(checkout: Path, game: Path) -> float:
    return _umpire(checkout, "audit", str(game), "--format", "json", statuses=(0, 1))[1]


def _generated_game(checkout: Path, turns: int = 512, seed: int = 7) -> Path:
    """A game `umpire generate` plays (about 14,000 events at 512 turns), written once."""
    folder = Path("/tmp") / f"umpire-before-after-g{turns}-{seed}"
    if not any(folder.glob("*.jsonl")):
        _umpire(checkout, "generate", "--turns", str(turns), "--seed", str(seed), "-o", str(folder))
    return next(folder.glob("*.jsonl"))


def _compare(samples: dict[str, dict[str, list[float]]]) -> dict[str, dict[str, Any]]:
    table = {}
    for name in samples["before"]:
        before = statistics.median(samples["before"][name])
        after = statistics.median(samples["after"].get(name, [float("nan")]))
        table[name] = {"before": before, "after": after, "after_over_before": round(after / before, 3) if before else None,
                       "runs": len(samples["before"][name]),
                       # The spread of the runs: a change inside it is noise.
                       "before_range": [min(samples["before"][name]), max(samples["before"][name])],
                       "after_range": [min(samples["after"].get(name, [0])), max(samples["after"].get(name, [0]))]}
    return table


def run(before: Path, after: Path, pg: Optional[str], rounds: int, audits: int, events: int) -> dict[str, Any]:
    checkouts = {"before": before, "after": after}
    samples: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    for round_ in range(max(rounds, audits)):
        # Who goes first alternates too: a warm disk cache or a busy neighbour favours neither.
        order = ("before", "after") if round_ % 2 == 0 else ("after", "before")
        for which in order:
            if round_ < rounds:
                for name, value in _bench_figures(checkouts[which], events, pg).items():
                    samples[which].setdefault(name, []).append(value)
            if round_ < audits:
                seconds = _audit_seconds(checkouts[which], before / DEMO_GAME)
                samples[which].setdefault("audit_demo_game_s", []).append(round(seconds, 3))
                seconds = _audit_seconds(checkouts[which], _generated_game(before))
                samples[which].setdefault("audit_generated_512_turns_s", []).append(round(seconds, 3))
    return _compare(samples)


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description="umpire bench and one audit, two checkouts, one run")
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--pg", help="also the ledger on this PostgreSQL server")
    parser.add_argument("--rounds", type=int, default=3, help="umpire bench runs per checkout")
    parser.add_argument("--audits", type=int, default=5, help="audits of the demo game per checkout")
    parser.add_argument("--events", type=int, default=10_000)
    args = parser.parse_args(argv)
    print(json.dumps(run(args.before.resolve(), args.after.resolve(), args.pg, args.rounds, args.audits, args.events),
                     indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
