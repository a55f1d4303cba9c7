"""Board benchmarks (pytest-benchmark): reachable hexes on a 2,400-hex two-map board, and sight checks.

Quick in the normal suite: each benchmark is capped at a few rounds (and runs once under
`--benchmark-disable`). The figures for docs come from `domain.rules.infernal_machines.bench_board.run_board_bench()`.
"""
from __future__ import annotations

import random

import pytest

from domain.rules.infernal_machines.bench_board import bench_board, plain_dijkstra, run_board_bench
from domain.rules.infernal_machines.graph import movement_graph, reachable
from domain.board.hexes import distance
from domain.board.los import sight
from domain.board.terrain import Board
from domain.rules.infernal_machines.movement_costs import Conditions, mover_for
from domain.rules.interpretations import Interpretations
from domain.rules.tables import builtin

QUICK = pytest.mark.benchmark(group="board", min_rounds=1, max_time=0.2, warmup=False)


@pytest.fixture(scope="module")
def setup():
    state, tables, interp = bench_board(), builtin("sample"), Interpretations()
    board = Board(state)
    graph = movement_graph(board, mover_for(board, state.units["t1"], tables), Conditions("fair", "good"),
                           tables, interp)
    adj = {u: [(v, d["weight"]) for v, d in graph.succ[u].items()] for u in graph.nodes}
    return board, tables, interp, adj


@QUICK
def test_bench_reachable_two_maps(benchmark, setup):
    board, tables, interp, _ = setup
    result = benchmark(reachable, board, "t1", tables, interp)
    assert len(board.state.hexes) == 2400 and 100 < len(result) < 2400


@QUICK
def test_bench_plain_dijkstra_baseline(benchmark, setup):
    board, tables, interp, adj = setup
    plain = benchmark(plain_dijkstra, adj, "5:3015", 12.0)
    ours = reachable(board, "t1", tables, interp)
    assert {k: v for k, (v, _rule) in ours.items() if k in plain} == plain


@QUICK
def test_bench_sight_checks(benchmark, setup):
    board = setup[0]
    rng = random.Random(3)
    hexes = sorted(board.state.hexes)
    pairs = [(a, b) for a, b in ((rng.choice(hexes), rng.choice(hexes)) for _ in range(2000))
             if distance(a, b, board.placement) <= 15][:200]
    results = benchmark(lambda: [sight(board, a, b) for a, b in pairs])
    assert len(results) == len(pairs) and any(r.clear for r in results) and any(not r.clear for r in results)


def test_the_board_bench_reports_its_figures():
    # Figures, not a timing assertion: the ratio is recorded by `umpire bench` in docs/benchmarks.md.
    figures = run_board_bench(repeat=1, sight_checks=50)
    assert figures["hexes"] == 2400
    assert figures["reachable_vs_plain"] > 0 and figures["sight_checks_per_s"] > 0
