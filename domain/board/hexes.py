"""Hex geometry of the Landships! maps: `map:CCRR` locations, odd-q offsets, cube coordinates.

A location is `"<map>:<CCRR>"`: two digits of column, two of row. Columns are vertical lines of
hexes and odd columns sit half a hex lower ("odd-q"), so `5:6613` touches 6612, 6614, 6512,
6513, 6712 and 6713 (game-log.md, Locations). Distances, neighbours and lines are computed in
cube coordinates (x + y + z = 0), where they are plain vector arithmetic.

Several maps make one board through a `Placement`: each map's printed (column, row) is shifted
by its `origin` onto one global grid (see docs/maps.md). A plain list of ids puts every map at
origin (0, 0): one map needs nothing more; several maps are then taken to be numbered on one
common grid already.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Optional

Cube = tuple[int, int, int]
LOC_RE = re.compile(r"^([A-Za-z0-9_-]+):(\d{2})(\d{2})$")
# Cube directions, clockwise from north (0 = north, 1 = north-east, ... 5 = north-west).
DIRECTIONS: tuple[Cube, ...] = ((0, 1, -1), (1, 0, -1), (1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0))
# Nudges for line drawing (Red Blob Games): a point exactly on a hexside rounds to one side
# with +EPS and to the other with -EPS, so a line along hexsides yields both neighbours.
EPS = (1e-6, 2e-6, -3e-6)
LOCAL_MAX = 99


class PlacementError(ValueError):
    pass


def parse_loc(loc: str) -> tuple[str, int, int]:
    """("5", 66, 13) from "5:6613"."""
    m = LOC_RE.match(loc)
    if not m:
        raise ValueError(f"{loc!r} is not a hex location like '5:6613'")
    return m.group(1), int(m.group(2)), int(m.group(3))


def format_loc(map_id: str, col: int, row: int) -> str:
    return f"{map_id}:{col:02d}{row:02d}"


@dataclass(frozen=True)
class MapPlacement:
    id: str
    origin: tuple[int, int] = (0, 0)
    # inclusive printed (column, row) bounds; the whole 00-99 range when the map does not say
    extent: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (LOCAL_MAX, LOCAL_MAX))

    def contains_local(self, col: int, row: int) -> bool:
        (c0, r0), (c1, r1) = self.extent
        return c0 <= col <= c1 and r0 <= row <= r1


@dataclass(frozen=True)
class Placement:
    """Where each map of a board lies on the global grid."""

    maps: tuple[MapPlacement, ...] = field(default_factory=tuple)

    @classmethod
    def from_maps(cls, maps: Iterable[Any]) -> "Placement":
        """From `MapDefined.maps`: plain ids, or {"id", "origin": [col, row], "extent": [[c, r], [c, r]]}."""
        out: list[MapPlacement] = []
        for m in maps:
            try:
                out.append(cls._one(m))
            except (TypeError, ValueError, IndexError, KeyError) as err:
                if isinstance(err, PlacementError):
                    raise
                raise PlacementError(f"map entry {m!r} is not an id or {{id, origin, extent}}: {err}") from err
        return cls(tuple(out))

    @classmethod
    def tolerant(cls, maps: Iterable[Any]) -> "Placement":
        """As `from_maps`, keeping only the entries that place a map well (the rest at the origin):
        the auditor must read any log the format accepts, whatever its placement says."""
        out: list[MapPlacement] = []
        for m in maps:
            try:
                out.append(cls._one(m))
            except (TypeError, ValueError, IndexError, KeyError):
                map_id = m.get("id") if isinstance(m, dict) else m
                if map_id is not None:
                    out.append(MapPlacement(str(map_id)))
        return cls(tuple(out))

    @staticmethod
    def _one(m: Any) -> MapPlacement:
        if isinstance(m, dict):
            if "id" not in m:
                raise PlacementError(f"map entry {m!r} has no 'id'")
            origin = tuple(int(v) for v in m.get("origin", (0, 0)))
            if len(origin) != 2:
                raise PlacementError(f"map {m['id']}: origin must be [column, row]")
            if origin[0] % 2:
                # an odd shift would move the printed odd columns onto global even ones
                raise PlacementError(f"map {m['id']}: origin column {origin[0]} must be even (odd-q layout)")
            extent = m.get("extent")
            ext = ((int(extent[0][0]), int(extent[0][1])), (int(extent[1][0]), int(extent[1][1]))) \
                if extent else ((0, 0), (LOCAL_MAX, LOCAL_MAX))
            return MapPlacement(str(m["id"]), (origin[0], origin[1]), ext)
        return MapPlacement(str(m))

    def origin_of(self, map_id: str) -> tuple[int, int]:
        for m in self.maps:
            if m.id == map_id:
                return m.origin
        return (0, 0)

    def global_offset(self, loc: str) -> tuple[int, int]:
        map_id, col, row = parse_loc(loc)
        oc, orow = self.origin_of(map_id)
        return col + oc, row + orow

    def locate(self, gcol: int, grow: int) -> Optional[str]:
        """The location printed at global (column, row): the first listed map that holds it."""
        for m in self.maps:
            col, row = gcol - m.origin[0], grow - m.origin[1]
            if 0 <= col <= LOCAL_MAX and 0 <= row <= LOCAL_MAX and m.contains_local(col, row):
                return format_loc(m.id, col, row)
        return None


DEFAULT = Placement()


def offset_to_cube(col: int, row: int) -> Cube:
    x = col
    z = row - (col - (col & 1)) // 2
    return (x, -x - z, z)


def cube_to_offset(c: Cube) -> tuple[int, int]:
    x, _, z = c
    return x, z + (x - (x & 1)) // 2


@lru_cache(maxsize=65536)
def _cube_cached(loc: str, placement: Placement) -> Cube:
    return offset_to_cube(*placement.global_offset(loc))


def to_cube(loc: str, placement: Placement = DEFAULT) -> Cube:
    return _cube_cached(loc, placement)


def from_cube(c: Cube, placement: Placement = DEFAULT, map_id: Optional[str] = None) -> Optional[str]:
    """The location of a cube on the board; with no placement, on `map_id` (default: the only map)."""
    col, row = cube_to_offset(c)
    if placement.maps:
        return placement.locate(col, row)
    if map_id is None or not (0 <= col <= LOCAL_MAX and 0 <= row <= LOCAL_MAX):
        return None
    return format_loc(map_id, col, row)


def cube_distance(a: Cube, b: Cube) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def distance(a: str, b: str, placement: Placement = DEFAULT) -> int:
    """Hexes between two locations (adjacent = 1, same hex = 0)."""
    return cube_distance(to_cube(a, placement), to_cube(b, placement))


def _home_map(loc: str, placement: Placement) -> Optional[str]:
    return None if placement.maps else parse_loc(loc)[0]


def neighbours(loc: str, placement: Placement = DEFAULT) -> list[str]:
    """The up-to-six adjacent locations on the board, clockwise from north."""
    c = to_cube(loc, placement)
    home = _home_map(loc, placement)
    out = []
    for d in DIRECTIONS:
        n = from_cube((c[0] + d[0], c[1] + d[1], c[2] + d[2]), placement, home)
        if n is not None:
            out.append(n)
    return out


def adjacent(a: str, b: str, placement: Placement = DEFAULT) -> bool:
    return distance(a, b, placement) == 1


def _cube_round(x: float, y: float, z: float) -> Cube:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return (int(rx), int(ry), int(rz))


def cube_line(a: Cube, b: Cube, sign: int = 1) -> list[Cube]:
    n = cube_distance(a, b)
    if n == 0:
        return [a]
    ex, ey, ez = (sign * e for e in EPS)
    ax, ay, az = a[0] + ex, a[1] + ey, a[2] + ez
    bx, by, bz = b[0] + ex, b[1] + ey, b[2] + ez
    return [_cube_round(ax + (bx - ax) * i / n, ay + (by - ay) * i / n, az + (bz - az) * i / n)
            for i in range(n + 1)]


def _to_locs(cubes: list[Cube], a: str, b: str, placement: Placement) -> list[str]:
    home = _home_map(a, placement)
    out = []
    for i, c in enumerate(cubes):
        if i == 0:
            out.append(a)
        elif i == len(cubes) - 1:
            out.append(b)
        else:
            loc = from_cube(c, placement, home)
            col, row = cube_to_offset(c)
            out.append(loc if loc is not None else f"*:{col % 100:02d}{row % 100:02d}")
    return out


def line(a: str, b: str, placement: Placement = DEFAULT) -> list[str]:
    """The hexes a straight line from the centre of `a` to the centre of `b` passes, ends included."""
    return list(_line(a, b, placement))


@lru_cache(maxsize=1 << 14)
def _line(a: str, b: str, placement: Placement) -> tuple[str, ...]:
    return tuple(_to_locs(cube_line(to_cube(a, placement), to_cube(b, placement), 1), a, b, placement))


def lines(a: str, b: str, placement: Placement = DEFAULT) -> list[list[str]]:
    """Both nudged lines; two different ones mean the line runs along hexsides somewhere."""
    return [list(found) for found in _lines(a, b, placement)]


@lru_cache(maxsize=1 << 14)
def _lines(a: str, b: str, placement: Placement) -> tuple[tuple[str, ...], ...]:
    # a line is asked again for the same two hexes (a spot's sight and its hexside reading, a
    # shot after its spot): built once, handed out as new lists
    ca, cb = to_cube(a, placement), to_cube(b, placement)
    first = tuple(_to_locs(cube_line(ca, cb, 1), a, b, placement))
    second = tuple(_to_locs(cube_line(ca, cb, -1), a, b, placement))
    return (first,) if first == second else (first, second)


def hexside(a: str, b: str) -> frozenset[str]:
    """The hexside between two adjacent hexes, as an unordered pair."""
    return frozenset((a, b))
