"""The movement graph of a board for one movement class under one set of conditions.

Nodes are the board's hexes; an edge u -> v carries the MP to enter v from u (from
`movement_costs.step_cost`: the text's rules plus the pack's base costs) and the rules that set
it. A prohibited step is no edge (its rule is kept in `graph.graph["blocked"]`); a hex that stops
the unit on entering (interdiction zones, destruction zones for infantry) is a node the search
does not leave. `reachable()` answers "where could this unit go now, at what cost, and what stops
it at the edge"; `path_cost()` costs one given path.

Graphs are cached per board moment, movement class and conditions, so repeated questions about
the same board only pay for the search.
"""
from __future__ import annotations

import heapq
from collections import OrderedDict
from typing import Any, Optional, Union

import networkx as nx

from domain.board.hexes import neighbours
from domain.board.state import BoardState
from domain.board.terrain import Board, Extras
from domain.rules.infernal_machines.movement_costs import (
    SHELL_SPENT, Conditions, Mover, PathEval, destruction_zone, evaluate_path, mover_for, specific_rule,
    step_cost)
from domain.rules.interpretations import Interpretations
from domain.rules.tables import NONE, TablePack

Reach = dict[str, tuple[float, Optional[str]]]
_CACHE: "OrderedDict[tuple, tuple[Any, nx.DiGraph]]" = OrderedDict()
_CACHE_SIZE = 16


class UnknownCost(ValueError):
    """The pack lacks a base cost the question needs."""


def _as_board(board: Union[Board, BoardState], extras: Optional[Extras]) -> Board:
    return board if isinstance(board, Board) else Board(board, extras)


def build_graph(board: Board, mover: Mover, cond: Conditions, tables: TablePack,
                interp: Interpretations) -> nx.DiGraph:
    # "adj" mirrors the edges as plain lists ({u: [(v, MP, rule)]}) for the search loop
    g = nx.DiGraph(blocked={}, blocked_from={}, unknown=set(), adj={}, stops={}, shells=set())
    for u in board.hexes():
        g.add_node(u)
        for v in neighbours(u, board.placement):
            step = step_cost(board, mover, u, v, cond, tables, interp)
            if step.prohibited:
                g.graph["blocked"][(u, v)] = step.prohibited
                g.graph["blocked_from"].setdefault(u, step.prohibited)
            elif step.cost is None:
                g.graph["unknown"].add((u, v))
            else:
                rule = specific_rule(step.rules)
                g.add_edge(u, v, weight=step.cost, rule=rule)
                g.graph["adj"].setdefault(u, []).append((v, step.cost, rule))
                if step.stop:
                    g.nodes[v]["stop"] = g.graph["stops"][v] = step.stop
        if board.shell_holes(u):
            g.graph["shells"].add(u)
    return g


def movement_graph(board: Board, mover: Mover, cond: Conditions, tables: TablePack,
                   interp: Interpretations) -> nx.DiGraph:
    state = board.state
    key = (id(state), state.game, state.seq, len(state.markers), len(state.hexes), len(state.hexsides),
           len(board.extras.zones), len(board.extras.destroyed_walls), mover.mclass, mover.tank,
           mover.poor_crossing, mover.wide_exempt, mover.allowance, cond, tables.name, id(tables), tuple(sorted(interp.chosen.items())))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is state:
        _CACHE.move_to_end(key)
        return hit[1]
    graph = build_graph(board, mover, cond, tables, interp)
    _CACHE[key] = (state, graph)   # the state is kept so that its id is not reused while cached
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return graph


def _allowance(board: Board, mover: Mover, start: str) -> tuple[Optional[float], Optional[int], str]:
    """(MP allowance, hex limit, rule) for a normal move in the board's current phase."""
    phase = board.state.phase
    if mover.mclass == "foot":
        if board.state.terrain_state == "deep-snow" and not mover.skis:
            return None, 1, "IM.ENV.DEEPSNOW.FOOT"
        zone = destruction_zone(board, start)
        if zone:
            return None, 1, zone
        if mover.sturm:
            return (2.0 if phase == "first-foot-movement" else 1.0), None, "IM.INF.ST.MOVE"
    return mover.allowance, None, "IM.ENV.TSTATE.TYPES"


def _search(g: nx.DiGraph, source: str, allowance: float) -> dict[str, float]:
    """Dijkstra over the graph's edges, bounded by the allowance; stop hexes are not left."""
    adj, stops = g.graph["adj"], g.graph["stops"]
    dist = {source: 0.0}
    heap = [(0.0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u] or (u != source and u in stops):
            continue
        for v, w, _rule in adj.get(u, ()):
            nd = d + w
            if nd <= allowance and nd < dist.get(v, float("inf")):
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return dist


def _shell_search(g: nx.DiGraph, board: Board, source: str, allowance: float, reading: str) -> dict[str, float]:
    """Dijkstra over (hex, previous hex had shell holes, spent when halved) for vehicles."""
    best: dict[str, float] = {source: 0.0}
    heap: list[tuple[float, str, bool, Optional[float]]] = [(0.0, source, False, None)]
    seen: set[tuple[str, bool, Optional[float]]] = set()
    while heap:
        cost, u, shell, trigger = heapq.heappop(heap)
        if (u, shell, trigger) in seen:
            continue
        seen.add((u, shell, trigger))
        if u != source and "stop" in g.nodes[u]:
            continue
        for v, data in g.succ[u].items():
            total = cost + data["weight"]
            here = board.shell_holes(v)
            new_trigger = trigger if trigger is not None else (cost + data["weight"] if here and shell else None)
            if total > allowance:
                continue
            if trigger is not None:   # already halved: the rest must fit the halved allowance
                limit_ok = total <= allowance // 2 if reading == "spent-counts" \
                    else total - trigger <= (allowance - trigger) // 2
                if not limit_ok:
                    continue
            if total < best.get(v, float("inf")):
                best[v] = total
            heapq.heappush(heap, (total, v, here, new_trigger))
    return best


def reach(board: Board, mover: Mover, start: str, cond: Conditions, tables: TablePack,
          interp: Interpretations, *, moved: bool = False) -> Reach:
    """{hex: (cost, rule that stops the unit there or None)} for a normal move from `start`."""
    g = movement_graph(board, mover, cond, tables, interp)
    allowance, hex_limit, limit_rule = _allowance(board, mover, start)
    if hex_limit is None and allowance is None:
        raise UnknownCost(tables.lacks("ALLOWANCE") + f" (no printed allowance for {mover.unit})")
    unknown = {e for e in g.graph["unknown"] if e[0] == start}
    if hex_limit is not None:
        out: Reach = {start: (0.0, limit_rule)}
        for v, data in g.succ[start].items():
            out[v] = (data["weight"], limit_rule)
        return out
    if g.graph["unknown"] and _touches_unknown(g, start, allowance):
        raise UnknownCost(tables.lacks("MOVEMENT") + " (base Landships! terrain costs)")
    shell = mover.vehicle and bool(g.graph["shells"])
    costs = _search(g, start, allowance) if not shell else _shell_search(
        g, board, start, allowance, interp.reading(SHELL_SPENT.name) or "spent-counts")
    out = {v: (c, _edge_rule(g, v, c, allowance)) for v, c in costs.items()}
    if not moved:   # the minimum-move note: one hex is always allowed
        for v, data in g.succ[start].items():
            if v not in out and not unknown:
                out[v] = (data["weight"], "IM.CORE.MINMOVE")
    return out


def _touches_unknown(g: nx.DiGraph, start: str, allowance: float) -> bool:
    """Whether a step of unknown cost starts at a hex the unit can reach."""
    reached = _search(g, start, allowance)
    return any(u in reached for u, _ in g.graph["unknown"])


def _edge_rule(g: nx.DiGraph, v: str, cost: float, allowance: float) -> Optional[str]:
    """Why the unit can go no further from `v` in some direction (None: nothing stops it there)."""
    stop = g.graph["stops"].get(v)
    if stop and cost > 0:
        return stop
    for _n, w, rule in g.graph["adj"].get(v, ()):
        if cost + w > allowance:
            return rule
    return g.graph["blocked_from"].get(v)


def reachable(board_state: Union[BoardState, Board], unit_id: str, tables: TablePack = NONE,
              interpretations: Optional[Interpretations] = None, extras: Optional[Extras] = None) -> Reach:
    """The hexes `unit_id` could reach from where it stands, with the cost of each and the rule that
    stops it there (None for a hex it could still move on from)."""
    board = _as_board(board_state, extras)
    unit = board.state.units[unit_id]
    if unit.location is None:
        raise ValueError(f"{unit_id} is not on the board")
    mover = mover_for(board, unit, tables)
    if mover.mclass in ("air", "static"):
        return {unit.location: (0.0, "IM.ART.BALLOON.STATIC" if mover.mclass == "static" else None)}
    cond = Conditions(board.state.weather, board.state.terrain_state)
    return reach(board, mover, unit.location, cond, tables, interpretations or Interpretations())


def path_cost(board_state: Union[BoardState, Board], unit_id: str, path: list[str], tables: TablePack = NONE,
              interpretations: Optional[Interpretations] = None, extras: Optional[Extras] = None) -> PathEval:
    """The cost of one path for a unit (steps, total, prohibitions, stops, shell-hole halving)."""
    board = _as_board(board_state, extras)
    unit = board.state.units[unit_id]
    mover = mover_for(board, unit, tables)
    cond = Conditions(board.state.weather, board.state.terrain_state)
    return evaluate_path(board, mover, path, cond, tables, interpretations or Interpretations())
