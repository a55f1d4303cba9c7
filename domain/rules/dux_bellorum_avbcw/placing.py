"""Where Dux Bellorum AVBCW units stand on the table, for the rules that measure between them: a
unit's extent where a move leaves it, its enemies and friends on the table, and the distance the
`measure` reading gives (game-log-tabletop.md, Geometry: "all else closest point to closest
point (`measure`)"). Every distance is the tabletop geometry's, rounded half-up to 0.1"."""
from __future__ import annotations

import math
import operator
from collections.abc import Mapping
from dataclasses import dataclass
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
    and figures (the objects) and what the unit's extent before it is made of (its position,
    figures and footprint objects, where its position is, its facing and figures' base, as
    `unit_extent` keeps that extent), without finding that extent again at every asking."""
    made = (unit.position, unit.figures, unit.footprint)
    at, facing, base = geo.xy(made[0]), unit.facing, unit.figure_base
    key = (id(path), id(figures), unit.unit)
    kept = _AFTER.get(key)
    if (kept is not None and kept[0] is path and kept[1] is figures and all(map(operator.is_, kept[2], made))
            and kept[3] == (at, facing, base)):
        return kept[4]
    found = _extent_after(unit, path, figures)
    if len(_AFTER) >= 64:
        _AFTER.clear()
    # path, figures and the unit's objects kept alive: their ids are not reused
    _AFTER[key] = (path, figures, made, (at, facing, base), found)
    return found


_AFTER: dict[tuple, tuple] = {}


def _extent_after(unit: UnitState, path: Sequence[Any], figures: Optional[Sequence[Any]]) -> geo.Extent:
    end, facing = geo.xy(path[-1]), facing_after(unit, path)
    if figures is None and not unit.figures and not isinstance(unit.figures, (list, tuple)):
        # its footprint placed there (what `extent` of `placed` below builds), kept as the extent
        # the unit has once the board holds the move
        return geo.placed(unit, end[0], end[1], facing)
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


@dataclass
class Around:
    """A move's end extent and every other unit on the table (its enemies, then its friends, each
    in the board's order) with its extent and its core's box: found once per move, at the board's
    moment before it, for every rule that weighs the move against the other units (skirmish.py:
    intermixing and passing through; melee.py: contact at its end)."""
    unit: UnitState
    path: Sequence[Any]
    figures: Optional[Sequence[Any]]
    end: geo.Extent
    end_box: tuple
    others: dict[str, UnitState]
    standing: dict[str, tuple[geo.Extent, tuple]]   # `others`' extents and boxes, in their order

    def near_end(self, margin: float, but: Sequence[str] = ()) -> dict[str, geo.Extent]:
        """The units, less `but`, that `geo.extents_far(end, theirs, margin)` does not put apart
        (the same sums, so the same answer): those farther cannot overlap or touch the end."""
        mine, radius = self.end_box, self.end.radius
        return {uid: e for uid, (e, box) in self.standing.items()
                if uid not in but and not geo._box_apart(mine, box, radius + e.radius + margin)}

    def near_path(self, but: Sequence[str] = ()) -> dict[str, geo.Extent]:
        """The units, less `but`, whose boxes may meet the box of the extent swept along the path
        (`swept_box`): the others are apart from it, as `intermixed` would find them."""
        grown = swept_box(self.unit, self.path, 0.0)
        return {uid: e for uid, (e, box) in self.standing.items()
                if uid not in but and not geo._box_apart(grown, box, e.radius)}


def swept_box(unit: UnitState, path: Sequence[Any], margin: float) -> tuple:
    """A box holding the unit's extent swept along the path, grown by `margin`: every point of the
    moving extent lies within its reach (and its figures' round bases) of the base centre, so within
    the centres' box grown by that (and a little more, for the rounding of turned figures). What
    lies farther than that is apart from the swept extent, found without sweeping it."""
    low_x, low_y, high_x, high_y = _centres_box(path)
    reach = _reach(unit) + _radius(unit) + _REACH_MARGIN + margin
    return low_x - reach, low_y - reach, high_x + reach, high_y + reach


def _centres_box(path: Sequence[Any]) -> tuple:
    """The box of the path's points, kept for the last path (the object): movement and skirmish
    box the same move's path (a typed event's, never changed in place)."""
    if _LAST_PATH and _LAST_PATH[0] is path:
        return _LAST_PATH[1]
    centres = [geo.xy(p) for p in path]
    xs, ys = [c[0] for c in centres], [c[1] for c in centres]
    found = (min(xs), min(ys), max(xs), max(ys))
    _LAST_PATH[:] = [path, found]   # the path kept alive: no other object takes its place unseen
    return found


_LAST_PATH: list = []


# far more than a turned figure's rounding (1e-15"), far less than anything measured
_REACH_MARGIN = 0.01


def around(ctx, unit: UnitState, path: Sequence[Any], figures: Optional[Sequence[Any]]) -> Around:
    """`Around` of this move, kept for the board's moment: the rules judging one UnitMoved ask it
    of the same unit, path and figures (the objects), and the board does not change between them."""
    found = ctx.at_moment("avbcw-around-move", lambda: _around(ctx.board, unit, path, figures))
    if found.unit is not unit or found.path is not path or found.figures is not figures:
        found = _around(ctx.board, unit, path, figures)   # another move asked at this moment: not kept
    return found


def _around(board: BoardState, unit: UnitState, path: Sequence[Any], figures: Optional[Sequence[Any]]) -> Around:
    """The units on the table of the other sides, then of the unit's own less itself, each with
    where it stands (`_standing`), in one pass over the board's units: every move weighs them all."""
    side, me = unit.side, unit.unit
    enemies: dict[str, UnitState] = {}
    friends: dict[str, UnitState] = {}
    theirs: dict[str, tuple] = {}
    ours: dict[str, tuple] = {}
    if side is not None:
        for uid, u in board.units.items():
            if u.side is None or not on_table(u):
                continue
            if u.side != side:
                enemies[uid], theirs[uid] = u, _standing(u)
            elif uid != me:
                friends[uid], ours[uid] = u, _standing(u)
    end = extent_after(unit, path, figures)
    return Around(unit, path, figures, end, geo.core_box(end), {**enemies, **friends}, {**theirs, **ours})


def _standing(unit: UnitState) -> tuple[geo.Extent, tuple]:
    """`unit_extent` and its box, kept as geometry keeps a unit's extent (by the objects it is made
    of and where it stands): most units stand still from move to move, and every move weighs them all."""
    return geo._kept_by_objects(_STANDING, unit, _made_standing)


def _made_standing(unit: UnitState) -> tuple[geo.Extent, tuple]:
    extent = unit_extent(unit)
    return extent, geo.core_box(extent)


_STANDING: dict[int, tuple] = {}


def boxes_meet(box: tuple, boxes: Sequence[tuple]) -> bool:
    """Whether any of `boxes` overlaps `box` (an empty shape's NaN box always may)."""
    low_x, low_y, high_x, high_y = box
    return any(not (x0 > high_x or x1 < low_x or y0 > high_y or y1 < low_y) for x0, y0, x1, y1 in boxes)


def _reach(unit: UnitState) -> float:
    """How far the unit's core reaches from its base centre: its base's half-diagonal, or its
    farthest figure's centre (their round bases: `_radius`)."""
    if isinstance(unit.figures, (list, tuple)):
        centre = geo.xy(unit.position)
        return max((math.dist(centre, geo.xy(f)) for f in unit.figures), default=0.0)
    size = unit.footprint or {}
    return math.hypot(float(size.get("w", 0.0)) / 2, float(size.get("d", 0.0)) / 2)


def _radius(unit: UnitState) -> float:
    """The round bases' radius of a unit with figures placed (their extent), else none."""
    if isinstance(unit.figures, (list, tuple)):
        return float(unit.figure_base) / 2
    return 0.0


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
