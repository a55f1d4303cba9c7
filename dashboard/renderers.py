"""The replay's board renderers: each rule system names the one that draws its games.

A `RuleSet` names its renderer (`RuleSet.renderer`, by default its `geometry`): `hex` draws the
hex map (dashboard.figures), `tabletop` the table to scale in inches (dashboard.tabletop). A
club whose rule system needs a board of its own ships a `Renderer` through the entry-point group
`umpire.renderers` (the name its RuleSet gives), as it ships the RuleSet through
`umpire.rulesets`; the domain never imports the dashboard, so the RuleSet holds the name only.

A renderer draws three things the replay asks for: the whole figure at a position, how many
traces come first and never change (the terrain: a step does not resend them), and the traces
after them at a position with what the chosen event highlights (the event's words read it).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points
from typing import Any, Callable, Optional

import plotly.graph_objects as go

from dashboard.data import GameView
from dashboard.figures import STATIC_TRACES, board_traces, counter_positions, map_figure, touches
from dashboard.geometry import hexside_segment
from dashboard.hex_fire import FireView, board_when_made, fire_traces, fire_view, shot_events
from dashboard.hex_machines import damage_record, machine_notes, machine_traces
from dashboard.tabletop import event_highlight, position_traces, tabletop_figure, terrain_traces
from domain.board.terrain import VEHICLE_CLASSES, Board

GROUP = "umpire.renderers"
Moving = tuple[list[dict[str, Any]], Optional[dict[str, Any]]]


@dataclass(frozen=True)
class Renderer:
    name: str
    figure: Callable[[GameView, int, bool], go.Figure]          # the board at a position
    static_traces: Callable[[GameView], int]                     # traces that never change
    moving: Callable[[GameView, int, bool], Moving]              # the rest, and the highlight


# -- on hexes --------------------------------------------------------------------------------------
def fire_at(gv: GameView, seq: int, ruled: bool) -> Optional[FireView]:
    """The shot or spot the event at `seq` makes or resolves, on the board as it stood when it was
    made (None: the event is none of them)."""
    found = shot_events(gv.lines, seq)
    if found is None:
        return None
    made, resolved = found
    state = gv.board(made["seq"], ruled)
    vehicles = {unit: degrees for unit, degrees in facings_at(gv, made["seq"]).items()   # a foot unit has no arc
                if unit in state.units and state.units[unit].unit_class in VEHICLE_CLASSES}
    return fire_view(made, resolved, board_when_made(gv.lines, state, gv.final, made["seq"]), vehicles,
                     gv.layout.center)


def facings_at(gv: GameView, seq: int) -> dict[str, float]:
    """Where the units face after `seq`, as the game's rule system reads the log (RuleSet.facings)."""
    rules = gv.rules
    fold = rules.facings() if rules is not None and rules.facings is not None else None
    return fold(gv.lines[:seq], list(gv.final.maps)) if fold is not None else {}


def hex_at(gv: GameView, seq: int, ruled: bool) -> Moving:
    """The hex board's traces after the terrain at `seq`, and the event's shot (as {"fire": view})."""
    board = gv.board(seq, ruled)
    touch = touches(gv.line(seq), board, gv.targets)
    facings, damage = facings_at(gv, seq), damage_record(gv.lines[:seq])
    notes = machine_notes(board, facings, damage, Board(gv.final).river)
    shot = fire_at(gv, seq, ruled)
    if shot is not None:   # the shot's own lines (clear, blocked) stand for the event's sight lines
        touch.lines = []
    layout = gv.layout

    def hexside_mid(a: str, b: str) -> tuple[float, float]:
        (x0, y0), (x1, y1) = hexside_segment(layout, a, b)
        return (x0 + x1) / 2, (y0 + y1) / 2

    traces = (board_traces(board, layout, touch, gv.colours, gv.resistance(seq), notes)
              + fire_traces(shot, layout.center, hexside_mid)
              + machine_traces(board, counter_positions(board, layout), facings, damage))
    return traces, ({"fire": shot} if shot is not None else None)


HEX = Renderer("hex", lambda gv, seq, ruled: map_figure(gv.map, hex_at(gv, seq, ruled)[0]),
               lambda gv: STATIC_TRACES, hex_at)


# -- on a tabletop, in inches ----------------------------------------------------------------------
def tabletop_at(gv: GameView, seq: int, ruled: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """A tabletop game's board after `seq` and what its event highlights on it."""
    state = gv.board(seq, ruled)   # folded once for the figure and the shot's measures
    board = gv.tabletop_board(seq, ruled, state)
    return board, event_highlight(gv.line(seq), board, gv.attacks, gv.measure, gv.shot(seq, ruled, state))


def _tabletop_moving(gv: GameView, seq: int, ruled: bool) -> Moving:
    board, highlight = tabletop_at(gv, seq, ruled)
    return position_traces(board, highlight, gv.colours), highlight


TABLETOP = Renderer("tabletop", lambda gv, seq, ruled: tabletop_figure(*tabletop_at(gv, seq, ruled)),
                    lambda gv: len(terrain_traces(gv.final.table or {})), _tabletop_moving)

BUILT_IN = {renderer.name: renderer for renderer in (HEX, TABLETOP)}


@cache
def installed(name: str) -> Optional[Renderer]:
    """A renderer by name: a built-in one, else one a package registers under `umpire.renderers`."""
    if name in BUILT_IN:
        return BUILT_IN[name]
    point = next((p for p in entry_points(group=GROUP) if p.name == name), None)
    found = point.load() if point is not None else None
    return found if isinstance(found, Renderer) else None


def renderer_for(gv: GameView) -> Renderer:
    """The renderer the game's rule system names. A tabletop before its TableDefined has no table
    to scale: the empty hex board stands in (as it always has), and so does an unknown name."""
    found = installed(gv.renderer) or BUILT_IN.get(gv.geometry, HEX)
    if found is TABLETOP and gv.final.table is None:
        return HEX
    return found
