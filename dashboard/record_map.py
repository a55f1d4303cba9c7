"""The scribe's map: the replay's board (dashboard/renderers.py, figures.py, tabletop.py) with room
to click on it, and a click read back as a place of the game: a hex of a hex game, a point in
inches of a tabletop game. Pure functions.

A hex board is drawn `AREA` hexes beyond every hex the game names, so that a unit can be
deployed or moved where no event has been yet; before any hex is named, each of the game's maps
is drawn from its first hexes (a map's printed hex 0101 at its top left).
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Optional

import plotly.graph_objects as go

from dashboard.data import GameView
from dashboard.figures import MapData, board_traces, map_figure, touches
from dashboard.geometry import SIZE, HexLayout
from dashboard.renderers import HEX, renderer_for
from domain.board.hexes import parse_loc

AREA = 3                 # hexes drawn around those the game names
FIRST = (1, 12, 1, 10)   # the columns and rows drawn of a map no event names yet
TENTH = 10               # a point on the table is read to 0.1", as a tape measures


def location(map_id: str, col: int, row: int) -> str:
    """game-log.md, Locations: "<map>:<hex>", column then row, two digits each."""
    return f"{map_id}:{col:02d}{row:02d}"


def room(maps: Iterable[str], named: Iterable[str], around: int = AREA) -> set[str]:
    """The hexes to draw: every hex within `around` columns and rows of the box of those a map's
    events name, or the first hexes of a map none names."""
    boxes: dict[str, list[int]] = {}
    for loc in named:
        map_id, col, row = parse_loc(loc)
        box = boxes.setdefault(map_id, [col, col, row, row])
        box[:] = [min(box[0], col), max(box[1], col), min(box[2], row), max(box[3], row)]
    out = set()
    for map_id in maps:
        c0, c1, r0, r1 = boxes.get(map_id, FIRST)
        if map_id in boxes:
            c0, c1, r0, r1 = c0 - around, c1 + around, r0 - around, r1 + around
        out |= {location(map_id, c, r) for c in range(max(c0, 0), min(c1, 99) + 1)
                for r in range(max(r0, 0), min(r1, 99) + 1)}
    return out


def drawn_map(gv: GameView) -> MapData:
    """The game's map with room to click around what it names."""
    data = gv.map
    maps = list(data.layout().origins)
    return MapData(data.maps, data.hexes, data.hexsides, set(data.locations) | room(maps, data.all_locations()))


def hex_at(layout: HexLayout, locations: Iterable[str], x: float, y: float) -> Optional[str]:
    """The drawn hex under a point of the figure (None off the hexes)."""
    best, distance = None, SIZE
    for loc in locations:
        cx, cy = layout.center(loc)
        d = math.hypot(cx - x, cy - y)
        if d < distance:
            best, distance = loc, d
    return best


def table_point(x: float, y: float, table: dict[str, Any]) -> Optional[dict[str, float]]:
    """A click on the table as a point in inches, to 0.1" (None off the table)."""
    px, py = round(x * TENTH) / TENTH, round(y * TENTH) / TENTH
    if 0 <= px <= float(table["width"]) and 0 <= py <= float(table["depth"]):
        return {"x": px, "y": py}
    return None


def is_hex_board(gv: GameView) -> bool:
    return renderer_for(gv) is HEX


def figure(gv: GameView) -> go.Figure:
    """The board after the game's last event, as the replay draws it (a hex board with room)."""
    if not is_hex_board(gv):
        fig = renderer_for(gv).figure(gv, gv.last, False)
        table = gv.final.table or {}
        extent = f"{table.get('width')}x{table.get('depth')}"
    else:
        data = drawn_map(gv)
        board = gv.board(gv.last)
        layout = data.layout()
        traces = board_traces(board, layout, touches(gv.line(gv.last), board, gv.targets), gv.colours,
                              gv.resistance(gv.last))
        fig = map_figure(data, traces, height=520)
        extent = f"{len(data.locations)}:{min(data.locations, default='')}:{max(data.locations, default='')}"
    # The view is kept between events (no flicker) but fitted again when the drawn area changes:
    # a view kept from a smaller map would leave the new hexes off screen, out of a click's reach.
    fig.update_layout(dragmode=False, uirevision=f"record-{gv.game}-{extent}")
    return fig


def place_at(gv: GameView, x: Any, y: Any) -> Optional[Any]:
    """The place of the game a click on its map names: a hex, or a point on the table."""
    if not isinstance(x, (int, float)) or not isinstance(y, (int, float)):
        return None
    if not is_hex_board(gv):
        return table_point(x, y, gv.final.table)
    data = drawn_map(gv)
    return hex_at(data.layout(), data.all_locations(), x, y)
