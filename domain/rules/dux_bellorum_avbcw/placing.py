"""Where Dux Bellorum AVBCW units stand on the table, for the rules that measure between them: a
unit's extent where a move leaves it, its enemies and friends on the table, and the distance the
`measure` reading gives (game-log-tabletop.md, Geometry: "all else closest point to closest
point (`measure`)"). Every distance is the tabletop geometry's, rounded half-up to 0.1"."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional, Sequence

import shapely
from shapely import affinity

from domain.board.state import BoardState, UnitState
from domain.rules.dux_bellorum_avbcw.facts import on_table, unit_extent
from domain.tabletop import geometry as geo

# A unit is intermixed with another when their extents overlap by more than a tape-measure step;
# extents 0.0 apart are only "in contact" (game-log-tabletop.md, Measuring).
OVERLAP_DEPTH = 0.05


def facing_after(unit: UnitState, path: Sequence[Any]) -> float:
    facing = float(unit.facing or 0)
    for f in geo.facings_of(path):
        if f is not None:
            facing = float(f)
    return facing


def extent_after(unit: UnitState, path: Sequence[Any], figures: Optional[Sequence[Any]] = None) -> geo.Extent:
    """The unit's extent at the end of its path: its figures as recorded there, else its base (or
    its figures in the same formation) moved to the last point and turned to its last facing.
    Several rules ask it of the same move: the last few answers are kept, by the move's own path
    and figures (the objects) and the unit's extent before it."""
    here = unit_extent(unit)   # the one object for what the unit's extent is made of
    key = (id(path), id(figures), unit.unit, id(here))
    kept = _AFTER.get(key)
    if kept is not None and kept[0] is path and kept[1] is figures and kept[2] is here:
        return kept[3]
    found = _extent_after(unit, path, figures)
    if len(_AFTER) >= 64:
        _AFTER.clear()
    _AFTER[key] = (path, figures, here, found)   # path, figures and extent kept alive: their ids are not reused
    return found


_AFTER: dict[tuple, tuple] = {}


def _extent_after(unit: UnitState, path: Sequence[Any], figures: Optional[Sequence[Any]]) -> geo.Extent:
    end, facing = geo.xy(path[-1]), facing_after(unit, path)
    # what an extent is made of (geometry.extent), without a copy of the whole unit
    placed = {"footprint": unit.footprint, "figures": unit.figures, "figure_base": unit.figure_base,
              "position": {"x": end[0], "y": end[1]}, "facing": facing}
    if figures is not None:
        return geo.extent(placed | {"figures": [geo.xy(p) for p in figures]})
    if not unit.figures:
        return geo.extent(placed)
    here = unit_extent(unit)
    (x0, y0), (x1, y1) = geo.xy(unit.position), end
    core = affinity.rotate(here.core, -(facing - float(unit.facing or 0)), origin=(x0, y0))
    return geo.Extent(affinity.translate(core, x1 - x0, y1 - y0), here.radius, (x1, y1))


def others(board: BoardState, side: Optional[str], *, enemies: bool, but: Sequence[str] = ()) -> dict[str, UnitState]:
    """The units on the table of the other sides (enemies) or of this side (friends), less `but`."""
    return {uid: u for uid, u in board.units.items()
            if on_table(u) and uid not in but and side is not None and u.side is not None
            and (u.side != side) == enemies}


def every_other(board: BoardState, side: Optional[str], but: str) -> dict[str, UnitState]:
    """`others` enemies, then `others` friends less `but`, in one pass over the units."""
    enemies: dict[str, UnitState] = {}
    friends: dict[str, UnitState] = {}
    if side is None:
        return enemies
    for uid, u in board.units.items():
        if u.side is None or not on_table(u):
            continue
        if u.side != side:
            enemies[uid] = u
        elif uid != but:
            friends[uid] = u
    return {**enemies, **friends}


def distance(ctx, a: Any, b: Any) -> float:
    """Closest point to closest point, or centre to centre (the `measure` reading)."""
    return geo.measure(a, b, ctx.interpretations.reading("measure"))


def intermixed(a: geo.Extent, units: Mapping[str, geo.Extent]) -> list[str]:
    """The units (in their order) whose figures "intermix" with `a`'s: their extents overlap, more
    than touching. The gaps to every unit are measured at once; a unit apart (its gap more than the
    radii) has drawn shapes apart too, so only the near ones are buffered, and `a` once for all."""
    # a unit whose box is apart from `a`'s by more than the radii has a gap beyond them too: it is
    # passed over as its measured gap would pass it, and a move far from every unit measures none
    near = [(uid, b) for uid, b in units.items() if not geo.extents_far(a, b, 0.0)]
    if not near:
        return []
    gaps = shapely.distance(a.core, [b.core for _, b in near]).tolist()
    shrunk = None
    found = []
    for (uid, b), gap in zip(near, gaps):
        if gap > a.radius + b.radius:
            continue
        if shrunk is None:
            shrunk = a.shrunk(OVERLAP_DEPTH)
        if shrunk.intersects(b.shrunk(OVERLAP_DEPTH)):
            found.append(uid)
    return found
