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
from dashboard.figures import STATIC_TRACES, board_traces, map_figure, touches
from dashboard.tabletop import event_highlight, position_traces, tabletop_figure, terrain_traces

GROUP = "umpire.renderers"
Moving = tuple[list[dict[str, Any]], Optional[dict[str, Any]]]


@dataclass(frozen=True)
class Renderer:
    name: str
    figure: Callable[[GameView, int, bool], go.Figure]          # the board at a position
    static_traces: Callable[[GameView], int]                     # traces that never change
    moving: Callable[[GameView, int, bool], Moving]              # the rest, and the highlight


# -- on hexes --------------------------------------------------------------------------------------
def _hex_traces(gv: GameView, seq: int, ruled: bool) -> list[dict[str, Any]]:
    board = gv.board(seq, ruled)
    touch = touches(gv.line(seq), board, gv.targets)
    return board_traces(board, gv.layout, touch, gv.colours, gv.resistance(seq))


HEX = Renderer("hex", lambda gv, seq, ruled: map_figure(gv.map, _hex_traces(gv, seq, ruled)),
               lambda gv: STATIC_TRACES, lambda gv, seq, ruled: (_hex_traces(gv, seq, ruled), None))


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
