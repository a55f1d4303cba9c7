"""Where hexes are drawn: flat-topped hexes in the odd-q offset layout of the Landships! maps.

A location is "<map>:<CCRR>": column CC, row RR. Odd columns sit half a hex lower than even ones.
Drawing coordinates are plotly's (y grows upward), so rows are drawn downward as negative y.

Several maps: a `MapDefined` entry may place a map itself, as {"id": "5", "origin": [col, row]}
(domain.board.hexes.Placement: its printed hex (c, r) is drawn at (c + col, r + row) of the
combined board). Plain map ids are taken, as the domain takes them, to share one grid, unless the
hexes the game uses on a map overlap the box of a map already drawn: then that map is drawn to the
right of everything before it (column offset = the widest column drawn so far, rounded up to an
even number, plus 2 spare columns), so that two maps numbered alike do not land on each other.
Offsets stay even so that odd columns stay odd.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from domain.board.hexes import parse_loc

SQRT3 = math.sqrt(3)
SIZE = 1.0  # centre to corner
MAP_GAP = 2


def _even_up(n: int) -> int:
    return n + (n % 2)


@dataclass
class HexLayout:
    """Each map's offset on the combined board, in columns and rows."""

    origins: dict[str, tuple[int, int]] = field(default_factory=dict)

    def offset(self, map_id: str) -> tuple[int, int]:
        return self.origins.get(map_id, (0, 0))

    def cell(self, loc: str) -> tuple[int, int]:
        map_id, col, row = parse_loc(loc)
        dc, dr = self.offset(map_id)
        return col + dc, row + dr

    def center(self, loc: str) -> tuple[float, float]:
        return cell_center(*self.cell(loc))

    def corners(self, loc: str) -> list[tuple[float, float]]:
        return hex_corners(*self.center(loc))


def cell_center(col: int, row: int) -> tuple[float, float]:
    x = 1.5 * SIZE * col
    y = SQRT3 * SIZE * row + (SQRT3 / 2 * SIZE if col % 2 else 0.0)
    return x, -y


def hex_corners(x: float, y: float) -> list[tuple[float, float]]:
    return [(x + SIZE * math.cos(math.radians(a)), y + SIZE * math.sin(math.radians(a)))
            for a in range(0, 360, 60)]


def _map_entry(entry: Any) -> tuple[str, Optional[tuple[int, int]]]:
    if isinstance(entry, dict):
        map_id = str(entry.get("id", entry.get("map", "")))
        origin = entry.get("origin")
        if origin is None and ("col_offset" in entry or "row_offset" in entry):
            origin = [entry.get("col_offset", 0), entry.get("row_offset", 0)]
        return map_id, (int(origin[0]), int(origin[1])) if origin is not None else None
    return str(entry), None


def _boxes(locations: Iterable[str]) -> dict[str, tuple[int, int, int, int]]:
    """Per map, the box (c0, c1, r0, r1) of the hexes used."""
    boxes: dict[str, tuple[int, int, int, int]] = {}
    for loc in locations:
        map_id, col, row = parse_loc(loc)
        c0, c1, r0, r1 = boxes.get(map_id, (col, col, row, row))
        boxes[map_id] = (min(c0, col), max(c1, col), min(r0, row), max(r1, row))
    return boxes


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1] and a[2] <= b[3] and b[2] <= a[3]


def _shifted(box: tuple[int, int, int, int], dc: int, dr: int) -> tuple[int, int, int, int]:
    return box[0] + dc, box[1] + dc, box[2] + dr, box[3] + dr


def layout_maps(maps: Iterable[Any], locations: Iterable[str]) -> HexLayout:
    """Place every map named in `maps` (and any other map a location names) on one board."""
    boxes = _boxes(locations)
    order: list[tuple[str, Optional[tuple[int, int]]]] = [_map_entry(m) for m in maps]
    named = {m for m, _ in order}
    order += [(m, None) for m in sorted(boxes) if m not in named]
    origins: dict[str, tuple[int, int]] = {}
    drawn: list[tuple[int, int, int, int]] = []
    for map_id, origin in order:
        box = boxes.get(map_id)
        if origin is None:
            origin = (0, 0)
            if box is not None and any(_overlaps(box, other) for other in drawn):
                right = max(other[1] for other in drawn)
                origin = (_even_up(right + 1 + MAP_GAP - box[0]), 0)
        origins[map_id] = origin
        if box is not None:
            drawn.append(_shifted(box, *origin))
    return HexLayout(origins)


def grid_cells(layout: HexLayout, locations: Iterable[str], margin: int = 1) -> list[tuple[int, int]]:
    """The board's cells: per map, the box around every location it uses, plus a margin."""
    boxes: dict[str, list[int]] = {}
    for loc in locations:
        map_id, col, row = parse_loc(loc)
        box = boxes.setdefault(map_id, [col, col, row, row])
        box[:] = [min(box[0], col), max(box[1], col), min(box[2], row), max(box[3], row)]
    cells: set[tuple[int, int]] = set()
    for map_id, (c0, c1, r0, r1) in boxes.items():
        dc, dr = layout.offset(map_id)
        for col in range(max(c0 - margin, 0), c1 + margin + 1):
            for row in range(max(r0 - margin, 0), r1 + margin + 1):
                cells.add((col + dc, row + dr))
    return sorted(cells)


def hexside_segment(layout: HexLayout, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The edge two neighbouring hexes share: perpendicular to the line between their centres."""
    (x1, y1), (x2, y2) = layout.center(a), layout.center(b)
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    px, py = -dy / length * SIZE / 2, dx / length * SIZE / 2
    return (mx - px, my - py), (mx + px, my + py)
