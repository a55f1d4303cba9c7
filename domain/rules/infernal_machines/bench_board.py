"""Board benchmark figures for `umpire bench`: reachable hexes against a plain Dijkstra, and sight checks.

The board is two 40 x 30 maps side by side (2,400 hexes) with seeded random terrain. `reachable`
(on the cached networkx graph, with the edge rules) is timed against a plain dictionary Dijkstra
over the same edge costs in the same run; the ratio is what counts, not the bare times.
"""
from __future__ import annotations

import heapq
import random
import statistics
import time
from typing import Any, Callable

from domain.rules.infernal_machines.graph import movement_graph, reachable
from domain.board.hexes import distance
from domain.board.los import sight
from domain.board.state import BoardState, UnitState
from domain.board.terrain import Board
from domain.rules.infernal_machines.movement_costs import Conditions, mover_for
from domain.rules.interpretations import Interpretations
from domain.rules.tables import TablePack, builtin

MAPS = [{"id": "5", "origin": [0, 0], "extent": [[0, 1], [39, 30]]},
        {"id": "6", "origin": [40, 0], "extent": [[0, 1], [39, 30]]}]


def bench_board(seed: int = 11) -> BoardState:
    """A two-map board of 2,400 hexes with woods, towns, hills, marsh and a road."""
    rng = random.Random(seed)
    state = BoardState(game="bench", maps=[dict(m) for m in MAPS], phase="vehicle-movement", weather="fair",
                       terrain_state="good")
    for map_id in ("5", "6"):
        for col in range(40):
            for row in range(1, 31):
                terrain = rng.choices(["clear", "wood", "town", "hill", "marsh"], [60, 20, 5, 10, 5])[0]
                features = ["road"] if row == 15 else []
                state.hexes[f"{map_id}:{col:02d}{row:02d}"] = {"terrain": terrain, "features": features,
                                                               "elevation": 1 if terrain == "hill" else 0}
    state.units["t1"] = UnitState("t1", "british", "tank", location="5:3015", movement=12)
    return state


def plain_dijkstra(adj: dict[str, list[tuple[str, float]]], source: str, cutoff: float) -> dict[str, float]:
    dist = {source: 0.0}
    heap = [(0.0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist.get(u, float("inf")):
            continue
        for v, w in adj[u]:
            nd = d + w
            if nd <= cutoff and nd < dist.get(v, float("inf")):
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return dist


def _best(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def run_board_bench(repeat: int = 7, sight_checks: int = 2000, tables: TablePack | None = None) -> dict[str, Any]:
    """The figures: graph build time, reachable vs plain Dijkstra (ratio), sight checks per second."""
    tables = tables or builtin("sample")
    state = bench_board()
    board = Board(state)
    interp = Interpretations()
    mover = mover_for(board, state.units["t1"], tables)
    cond = Conditions(state.weather, state.terrain_state)
    t0 = time.perf_counter()
    graph = movement_graph(board, mover, cond, tables, interp)
    build = time.perf_counter() - t0
    adj = {u: [(v, d["weight"]) for v, d in graph.succ[u].items()] for u in graph.nodes}
    ours = reachable(board, "t1", tables, interp)
    plain = plain_dijkstra(adj, "5:3015", 12.0)
    assert set(plain) <= set(ours) and all(abs(ours[k][0] - plain[k]) < 1e-9 for k in plain)
    t_ours = _best(lambda: reachable(board, "t1", tables, interp), repeat)
    t_plain = _best(lambda: plain_dijkstra(adj, "5:3015", 12.0), repeat)
    rng = random.Random(5)
    hexes = sorted(state.hexes)
    pairs = []
    while len(pairs) < sight_checks:
        a, b = rng.choice(hexes), rng.choice(hexes)
        if distance(a, b, board.placement) <= 15:
            pairs.append((a, b))
    t_sight = _best(lambda: [sight(board, a, b) for a, b in pairs], 3)
    return {"hexes": len(graph), "edges": graph.number_of_edges(), "reached": len(ours),
            "graph_build_s": round(build, 4), "reachable_s": round(t_ours, 5), "plain_dijkstra_s": round(t_plain, 5),
            "reachable_vs_plain": round(t_ours / t_plain, 2), "target_ratio": 3.0,
            "met": t_ours / t_plain <= 3.0,
            "sight_checks_per_s": round(sight_checks / t_sight)}
