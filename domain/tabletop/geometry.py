"""Tabletop geometry in inches, on shapely (game-log-tabletop.md, Geometry).

Pure functions over plain data: a point is `{"x", "y"}`, `(x, y)` or `[x, y]`; a unit is a
mapping with `position`, `facing`, `footprint` {`w`, `d`} and optionally `figures` [points] with
`figure_base` (UnitDeployed, tabletop form); a feature is a TableDefined feature {`id`, `kind`,
`points`, `width`?, flags?}. Facing and bearings are degrees clockwise from +y (0 faces +y, 90
faces +x). Every computed distance is rounded half-up to 0.1" before it is compared
(`round_inches`): "within X" is <= X, "more than X" is > X, and extents 0.0 apart are in contact.

A unit's extent is an `Extent`: a core geometry and a radius. A footprint is its rectangle with
radius 0; individually based figures are their centres with the bases' radius, so distances to
round bases are exact (centre distance less the radius) rather than those of a polygon that only
approximates a circle, which could tip a 2.25" case to 2.2".

Interpretations are the caller's to pass in: `measure(how=...)` is the `measure` reading, the
half-width of `in_arc` the `avbcw-arc` one; `avbcw-range` is `measure(origin, target)` from the
LOS origin or between extents. "In contact" is the page's one sense everywhere: a feature is
touched, met or entered when the extent's distance to it rounds to 0.0.
"""
from __future__ import annotations

import heapq
import math
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import repeat
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from typing import Any, Callable, Iterable, Optional, Sequence, Union

import shapely
from shapely.geometry import LineString, MultiPoint, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

XY = tuple[float, float]
# game-log-tabletop.md, TableDefined: the shape column of the kinds table.
POLYGON_KINDS = frozenset({"woodland", "dense-woodland", "building", "town", "trench", "rough",
                           "hill", "good-going", "impassable"})
POLYLINE_KINDS = frozenset({"hedge", "fence", "wall", "river", "stream", "road"})
# The AVBCW column: "linear obstacle" (hedge, fence, wall) and "area" kinds; a feature's `area`
# flag overrides its kind ("Flags override the kind's defaults as the scenario designates").
LINEAR_OBSTACLES = frozenset({"hedge", "fence", "wall"})
AREA_TERRAIN = frozenset({"woodland", "dense-woodland", "building", "town", "rough"})
# Sight samples a target's outline every tape-measure step ("a tape measure gives 1/10 inch");
# the road check samples the path finer, as the distance it compares is rounded to that step.
SAMPLE_STEP = 0.1
ROAD_STEP = 0.01
BISECTIONS = 40
QUAD_SEGS = 64


# ---------------------------------------------------------------- numbers, points, angles

def round_inches(value: float) -> float:
    """Half-up to 0.1" ("A computed distance is rounded half-up to 0.1" before comparison").

    Float noise is taken off first (to 1e-9"), so a distance that is 2.25 on paper but
    2.2499999999999996 after a square root still rounds up to 2.3."""
    value = float(value)
    tenths = value * 10
    if 0.0 <= tenths < 1e12:
        whole = math.floor(tenths)
        rest = tenths - whole
        # Away from a half (by far more than the 1e-9" of noise taken off below) the rounding
        # is plain: the result is the nearest tenth, which `n / 10` gives exactly as the
        # Decimal's float does. Only a value about a half tenth goes the careful way.
        if abs(rest - 0.5) > 1e-6:
            return (whole + (1 if rest > 0.5 else 0)) / 10
    settled = Decimal(repr(value)).quantize(Decimal("1e-9"), ROUND_HALF_EVEN)
    return float(settled.quantize(Decimal("0.1"), ROUND_HALF_UP))


def xy(point: Any) -> XY:
    """(x, y) from a `{"x", "y"}` mapping, an object with `x` and `y` (a shapely Point, a model),
    or an `(x, y)` sequence (a tuple, a TableDefined `[x, y]`, a coordinate array row)."""
    kind = type(point)
    if kind is dict:          # the usual cases first, without the ABC checks below
        return float(point["x"]), float(point["y"])
    if kind is tuple or kind is list:
        return float(point[0]), float(point[1])
    if isinstance(point, Mapping):
        return float(point["x"]), float(point["y"])
    if hasattr(point, "x"):
        return float(point.x), float(point.y)
    return float(point[0]), float(point[1])


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if type(obj) is dict:
        return obj.get(name, default)
    return obj.get(name, default) if isinstance(obj, Mapping) else getattr(obj, name, default)


def _sin_cos(degrees: float) -> tuple[float, float]:
    """Exact for quarter turns, so a base turned by 90 keeps exact corners (no 6e-17 offsets)."""
    turned = degrees % 360
    exact = {0: (0.0, 1.0), 90: (1.0, 0.0), 180: (0.0, -1.0), 270: (-1.0, 0.0)}
    if turned in exact:
        return exact[turned]
    rad = math.radians(turned)
    return math.sin(rad), math.cos(rad)


def to_table(position: Any, facing: float, local: Any) -> XY:
    """A point given in the hull's frame (x to the right of the front, y forward) on the table:
    a `turret` offset or a weapon's `at` point ("offset in the hull's frame")."""
    (px, py), (u, v) = xy(position), xy(local)
    s, c = _sin_cos(facing)
    # forward is (sin f, cos f); turning clockwise, the right-hand side is (cos f, -sin f)
    return px + u * c + v * s, py - u * s + v * c


def edge_centre(position: Any, facing: float, w: float, d: float, side: str) -> XY:
    """The centre of a hull's F, R, B or L edge: a vehicle's LOS origin ("from the centre edge of
    the facing being fired from", dux-bellorum-avbcw.txt, Vehicles: Blocked line of sight)."""
    local = {"F": (0.0, d / 2), "R": (w / 2, 0.0), "B": (0.0, -d / 2), "L": (-w / 2, 0.0)}[side]
    return to_table(position, facing, local)


def bearing(a: Any, b: Any) -> float:
    """Degrees clockwise from +y of the direction a -> b, in [0, 360)."""
    (ax, ay), (bx, by) = xy(a), xy(b)
    return math.degrees(math.atan2(bx - ax, by - ay)) % 360


def rotation(a: float, b: float) -> float:
    """The smallest rotation between two facings, 0 to 180."""
    turned = abs(a - b) % 360
    return min(turned, 360 - turned)


def _signed_rotation(a: float, b: float) -> float:
    return ((b - a + 180) % 360) - 180


def on_table(point: Any, width: float, depth: float) -> bool:
    """x in 0..width and y in 0..depth ("a point off the table is a format error")."""
    x, y = xy(point)
    return 0 <= x <= width and 0 <= y <= depth


# ---------------------------------------------------------------- footprints and extents

@dataclass(frozen=True)
class Extent:
    """Every point within `radius` of `core`: a footprint (radius 0) or figures' round bases."""
    core: BaseGeometry
    radius: float
    centre: XY          # the unit's position: the base centre or the leader figure

    @cached_property
    def shape(self) -> BaseGeometry:
        """A polygon for drawing and for area tests (round bases approximated). Built once per
        extent: a unit's extent is kept while it stands (`unit_extent`), and every shot at it, every
        melee and every move past it asks its shape."""
        return self.core.buffer(self.radius, quad_segs=QUAD_SEGS) if self.radius else self.core

    def shrunk(self, depth: float) -> BaseGeometry:
        """`shape` less `depth` all round (what lies more than `depth` inside it), once per depth."""
        kept = self.__dict__.setdefault("_shrunk", {})
        found = kept.get(depth)
        if found is None:
            found = kept[depth] = self.shape.buffer(-depth)
        return found


Shape = Union[Extent, BaseGeometry]


def footprint(position: Any, facing: float, w: float, d: float) -> Polygon:
    """The base rectangle centred on `position`, `w` across the front, turned by `facing`."""
    corners = [(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2)]
    # `to_table` of each corner (the same sums), the position read and the facing turned once
    (px, py), (s, c) = xy(position), _sin_cos(facing)
    points = [(px + u * c + v * s, py - u * s + v * c) for u, v in corners]
    if points[0] == points[-1]:
        rectangle = Polygon(points)    # no base: Polygon() closes its ring with no fifth point
    else:
        # the Polygon() of these corners (its ring closed by the first again), read from its
        # Well-Known Binary: a third of the time of Polygon() on a machine slow to make shapes
        ring = (*points[0], *points[1], *points[2], *points[3], *points[0])
        rectangle = shapely.from_wkb(_RECTANGLE.pack(1, 3, 1, 5, *ring))
    xs, ys = [x for x, _ in points], [y for _, y in points]
    # its box is the least and greatest of its corners, as GEOS finds it (the first of equals):
    # every move's end and every placed unit is boxed, and GEOS is slow to box a new shape
    _keep_bounds(rectangle, (min(xs), min(ys), max(xs), max(ys)))
    return rectangle


# a polygon (3) of one ring of five points in little-endian (1) Well-Known Binary
_RECTANGLE = struct.Struct("<BIII10d")


@dataclass(frozen=True)
class _Body:
    """A unit's shape in its own frame, to be placed at any pose along a path."""
    w: float
    d: float
    figures: Optional[tuple[XY, ...]]   # figure centres in the hull's frame, else None
    radius: float

    def place(self, x: float, y: float, facing: float) -> BaseGeometry:
        """The core at a pose, kept by body and pose: a move's poses are placed by every rule that
        sweeps it, and its segments share their ends."""
        key = (self, x, y, facing)
        found = _PLACED.get(key)
        if found is None:
            if len(_PLACED) >= _PLACED_KEPT:
                _PLACED.clear()
            found = _PLACED[key] = (footprint((x, y), facing, self.w, self.d) if self.figures is None
                                    else MultiPoint([to_table((x, y), facing, f) for f in self.figures]))
        return found


_PLACED: dict[tuple, BaseGeometry] = {}
_PLACED_KEPT = 4096


def rectangle(position: Any, facing: float, w: float, d: float) -> Polygon:
    """`footprint`, kept as a unit's body placed at a pose is (by value): a deployed unit's
    rectangle is drawn for its basing and again as its extent."""
    x, y = xy(position)
    return _Body(float(w), float(d), None, 0.0).place(x, y, float(facing))


def _body(unit: Any) -> _Body:
    """The unit's body; a board unit's found by its position, figures and footprint objects (as
    `unit_extent`), since every rule that sweeps or places a move asks it again."""
    if isinstance(unit, Mapping):
        return _made_body(unit)
    return _kept_by_objects(_BODIES, unit, _made_body)


def _kept_by_objects(cache: dict[int, tuple], unit: Any, make: Callable[[Any], Any]) -> Any:
    """`make(unit)`, kept in `cache` by the objects the unit is made of (its position, figures and
    footprint, with its facing and figures' base): the board replaces them when the unit moves and
    never changes them in place, so the same objects at the same point give the same answer.
    Asked ~850 times an audit, mostly of units standing still: found by its position object's id
    (its objects then compared by identity, the rest by value), with no key tuple built."""
    try:
        position, figures, size = unit.position, unit.figures, unit.footprint
        facing, base = unit.facing, unit.figure_base
    except AttributeError:    # a unit-like object (a generator's counter) may lack some of them
        position, figures, size = getattr(unit, "position", None), getattr(unit, "figures", None), getattr(unit, "footprint", None)
        facing, base = getattr(unit, "facing", 0), getattr(unit, "figure_base", None)
    # where it stands, read as stored (a dict's values compare as their floats do)
    at = ((position["x"], position["y"]) if type(position) is dict
          else xy(position) if position is not None else None)
    kept = cache.get(id(position))
    if (kept is not None and kept[0] is position and kept[1] is figures and kept[2] is size
            and kept[3] == at and kept[4] == facing and kept[5] == base):
        return kept[6]
    found = make(unit)
    if len(cache) >= _EXTENTS_KEPT:
        cache.clear()
    cache[id(position)] = (position, figures, size, at, facing, base, found)   # kept alive: ids not reused
    return found


_BODIES: dict[int, tuple] = {}


def _made_body(unit: Any) -> _Body:
    size = _get(unit, "footprint") or {}
    w, d = float(_get(size, "w", 0.0)), float(_get(size, "d", 0.0))
    figures = _get(unit, "figures")
    if not isinstance(figures, (list, tuple)):
        return _Body(w, d, None, 0.0)      # Mogdonazia's `figures` is a count: the footprint
    base = _get(unit, "figure_base")
    if base is None:
        raise ValueError("`figures` placed without `figure_base`: their bases have no size")
    (px, py), facing = xy(_get(unit, "position")), float(_get(unit, "facing", 0))
    s, c = _sin_cos(facing)
    local = tuple(((fx - px) * c - (fy - py) * s, (fx - px) * s + (fy - py) * c)
                  for fx, fy in map(xy, figures))
    return _Body(w, d, local, float(base) / 2)


def extent(unit: Any) -> Extent:
    """The figures' round bases (each `figure_base` across) when `figures` are placed, else the
    footprint (game-log-tabletop.md, Position and footprint: "the unit's extent is then their
    bases, else the footprint")."""
    body, (x, y) = _body(unit), xy(_get(unit, "position"))
    return Extent(body.place(x, y, float(_get(unit, "facing", 0))), body.radius, (x, y))


_EXTENTS: dict[tuple, Extent] = {}
_EXTENTS_KEPT = 4096


def extent_key(unit: Any) -> tuple:
    """What a board unit's extent is made of: position, facing, footprint, figures and their base."""
    figures = unit.figures
    placed = tuple(map(xy, figures)) if isinstance(figures, (list, tuple)) else figures
    return _key_at(unit, xy(unit.position), unit.facing, placed)


def _key_at(unit: Any, at: XY, facing: Any, figures: Any) -> tuple:
    size = unit.footprint or {}
    # a unit-like object (a generator's counter) may carry no figures' base
    return at, facing, _get(size, "w"), _get(size, "d"), figures, getattr(unit, "figure_base", None)


def placed(unit: Any, x: float, y: float, facing: float) -> Extent:
    """`unit_extent` of the board's unit (a UnitState without figures placed: its footprint) once
    it stands at (x, y) turned to `facing`: a move's end, found before the board holds the move.
    It is kept as `unit_extent` keeps that extent by what it is made of, so the unit standing there
    after the move finds it (and its box) again instead of building it a second time."""
    if isinstance(unit.figures, (list, tuple)):
        raise ValueError("`placed` moves a footprint: placed figures are moved in their formation")
    key = _key_at(unit, (x, y), facing, unit.figures)
    found = _EXTENTS.get(key)
    if found is None:
        body = _body(unit)      # a footprint's body is the same wherever it stands
        if len(_EXTENTS) >= _EXTENTS_KEPT:
            _EXTENTS.clear()
        found = _EXTENTS[key] = Extent(body.place(x, y, float(facing)), body.radius, (x, y))
    return found


def unit_extent(unit: Any) -> Extent:
    """`extent` of a board's unit (a UnitState), kept by what it is made of (position, facing,
    footprint, figures and their base): a unit that has not moved is not built again for every
    rule that measures it. The board gives a unit a new position (and new figures) at each move
    and never changes them in place: the same objects, at the same point, are the same extent,
    found without reading every figure again."""
    return _kept_by_objects(_BY_OBJECTS, unit, _extent_by_key)


def _extent_by_key(unit: Any) -> Extent:
    key = extent_key(unit)
    found = _EXTENTS.get(key)
    if found is None:
        if len(_EXTENTS) >= _EXTENTS_KEPT:
            _EXTENTS.clear()
        found = _EXTENTS[key] = extent(unit)
    return found


_BY_OBJECTS: dict[int, tuple] = {}


def _as_extent(thing: Any) -> Extent:
    if isinstance(thing, Extent):
        return thing
    if isinstance(thing, BaseGeometry):
        centre = thing.centroid
        return Extent(thing, 0.0, (centre.x, centre.y))
    point = xy(thing)
    return Extent(Point(point), 0.0, point)


def _core_of(thing: Any) -> tuple[BaseGeometry, float]:
    """The core and radius `_as_extent` gives, without the centre a distance does not read (a bare
    geometry's centroid is not drawn for every feature a unit is measured against)."""
    if type(thing) is Extent:
        return thing.core, thing.radius
    if isinstance(thing, BaseGeometry):
        return thing, 0.0
    if isinstance(thing, Extent):
        return thing.core, thing.radius
    return Point(xy(thing)), 0.0


def _on(here: XY, shape: Extent) -> bool:
    """`_gap(here, shape) == 0.0`: a point beyond the core's box by more than the radius (and far
    more than GEOS's rounding, on a table of inches) lies apart from it, found without drawing the
    point and measuring; a shot's or an arc's origin seldom lies on its target."""
    low_x, low_y, high_x, high_y = _bounds(shape.core)
    x, y = here
    reach = shape.radius + _ON_MARGIN
    if low_x - x > reach or x - high_x > reach or low_y - y > reach or y - high_y > reach:
        return False
    return _gap(here, shape) == 0.0


_ON_MARGIN = 1e-6


def _gap(a: Shape, b: Shape) -> float:
    """Unrounded closest-point distance (exact for round bases: centre distance less radii)."""
    (core_a, radius_a), (core_b, radius_b) = _core_of(a), _core_of(b)
    return max(0.0, core_a.distance(core_b) - radius_a - radius_b)


# ---------------------------------------------------------------- measuring

def measure(a: Any, b: Any, how: str = "closest") -> float:
    """Distance in inches, rounded half-up to 0.1". `how` is the `measure` interpretation:
    `closest` (closest point to closest point, the default) or `centre` (position to position;
    a bare geometry's centroid). Points, geometries and extents are accepted."""
    if how == "closest":
        if type(b) is Extent:
            if type(a) is Extent:
                return _extents_apart(a, b)
            if type(a) is tuple:
                return _point_apart(a, b)
        return round_inches(_gap(a, b))
    if how == "centre":
        return round_inches(math.dist(_as_extent(a).centre, _as_extent(b).centre))
    raise ValueError(f"`measure` reads `closest` or `centre`, not {how!r}")


def _extents_apart(a: Extent, b: Extent) -> float:
    """`measure` of two extents, kept by the pair (the objects): units that have not moved are
    measured apart once, not at every turn's leadership points, moves and shots."""
    key = (id(a), id(b))
    kept = _APART.get(key)
    if kept is None or kept[0] is not a or kept[1] is not b:
        if len(_APART) >= 4096:
            _APART.clear()
        kept = _APART[key] = (a, b, round_inches(_gap(a, b)))   # kept alive: their ids are not reused
    return kept[2]


_APART: dict[tuple, tuple] = {}


def _point_apart(a: tuple, b: Extent) -> float:
    """`measure` of a point (a line of sight's origin) to an extent, kept by the point and the
    extent (the object): a shot weighs the same origin against every enemy, shot after shot."""
    key = (a, id(b))
    kept = _POINT_APART.get(key)
    if kept is None or kept[0] is not b:
        if len(_POINT_APART) >= 4096:
            _POINT_APART.clear()
        kept = _POINT_APART[key] = (b, round_inches(_gap(a, b)))   # the extent kept: its id is not reused
    return kept[1]


_POINT_APART: dict[tuple, tuple] = {}


def within(a: Any, b: Any, x: float, how: str = "closest") -> bool:
    """ "within X" and "X or less" are <= X."""
    return measure(a, b, how) <= x


def more_than(a: Any, b: Any, x: float, how: str = "closest") -> bool:
    """ "more than X" is > X."""
    return measure(a, b, how) > x


def farthest(a: Any, b: Any) -> float:
    """The distance between the farthest two points of two shapes, rounded half-up: with `measure`,
    the span a figure's distance must lie in when only the unit's extent is known (Mogdonazia
    ExplosionResolved: "between the nearest and farthest points of that unit's extent"). The
    farthest pair of a polygon lies at its vertices, of round bases at centre distance plus radii."""
    (points_a, radius_a), (points_b, radius_b) = _vertices(a), _vertices(b)
    return round_inches(max(math.dist(p, q) for p in points_a for q in points_b) + radius_a + radius_b)


def _vertices(thing: Any) -> tuple[list, float]:
    """The coordinates of the core `_core_of` gives and its radius (without the centroid
    `_as_extent` draws of a bare geometry); a plain point is its own coordinates, read without
    drawing a Point to read them back."""
    if isinstance(thing, (Extent, BaseGeometry)):
        core, radius = _core_of(thing)
        return shapely.get_coordinates(core).tolist(), radius
    return [list(xy(thing))], 0.0


def in_contact(a: Any, b: Any) -> bool:
    """ "extents 0.0 apart are in contact" (rounded: 0.04" apart is contact, 0.05" is not)."""
    return measure(a, b) == 0.0


# ---------------------------------------------------------------- features

def feature_line(feature: Mapping) -> BaseGeometry:
    """A feature's own outline: a polygon (closed implicitly) or the centre line of a polyline."""
    kind, points = feature["kind"], [xy(p) for p in feature["points"]]
    if kind in POLYGON_KINDS:
        return Polygon(points)
    if kind in POLYLINE_KINDS:
        return LineString(points)
    raise ValueError(f"unknown feature kind {kind!r}")


_SHAPES: dict[int, tuple[Mapping, BaseGeometry]] = {}
_SHAPES_KEPT = 4096


def feature_shape(feature: Mapping) -> BaseGeometry:
    """What a unit can touch: a polygon, a polyline, or a road or river buffered by width/2. Kept
    per feature (a table's features never change once defined): every move, sight and melee asks
    for the shapes of the whole table."""
    kept = _SHAPES.get(id(feature))
    if kept is not None and kept[0] is feature:
        return kept[1]
    line = feature_line(feature)
    width = feature.get("width")
    shape = line.buffer(width / 2, quad_segs=QUAD_SEGS) if width and isinstance(line, LineString) else line
    if len(_SHAPES) >= _SHAPES_KEPT:
        _SHAPES.clear()
    _SHAPES[id(feature)] = (feature, shape)   # the feature is kept alive: its id is not reused
    return shape


def is_area(feature: Mapping, area_kinds: Iterable[str] = AREA_TERRAIN) -> bool:
    return bool(feature.get("area", feature["kind"] in area_kinds))


def touching(thing: Shape, features: Iterable[Mapping]) -> list[str]:
    """The ids of the features a (still) extent is in contact with, in the order given."""
    return [f["id"] for f in features if in_contact(thing, feature_shape(f))]


def covered_by(thing: Shape, features: Iterable[Mapping]) -> bool:
    """Whether the extent lies wholly on the given features (good going, roads): "the car stays
    on gg-1" (game-log-tabletop.md, Examples)."""
    shapes = [feature_shape(f) for f in features]
    return bool(shapes) and _as_extent(thing).shape.covered_by(unary_union(shapes))


# ---------------------------------------------------------------- paths

def path_length(points: Sequence[Any]) -> float:
    """The base centre's polyline, rounded to 0.1" (UnitMoved: "the path's length")."""
    coords = [xy(p) for p in points]
    return round_inches(sum(math.dist(a, b) for a, b in zip(coords, coords[1:])))


def facings_of(path: Sequence[Any]) -> list[Optional[float]]:
    """Each point's `f`, the facing on arrival, or None (unchanged)."""
    return [_get(p, "f") if isinstance(p, Mapping) or hasattr(p, "f") else None for p in path]


def path_turn(facings: Sequence[Optional[float]], start: Optional[float] = None) -> float:
    """The sum of the smallest rotations between successive facings (None: unchanged); `start`,
    the facing before the move, counts a turn on the spot at the first point."""
    turned, current = 0.0, start
    for facing in facings:
        if facing is None:
            continue
        if current is not None:
            turned += rotation(current, facing)
        current = facing
    return turned


def vertex_turns(points: Sequence[Any]) -> list[float]:
    """The change of heading at each vertex (flying models: "each change of heading")."""
    coords = [xy(p) for p in points]
    headings = [bearing(a, b) for a, b in zip(coords, coords[1:]) if a != b]
    return [rotation(h, k) for h, k in zip(headings, headings[1:])]


def _poses(unit: Any, path: Sequence[Any]) -> tuple[tuple[float, float, float], ...]:
    """(x, y, facing) at each point of the path; kept by the path (the object: one move's, which
    every rule judging the move sweeps) and the facing it starts from."""
    start = float(_get(unit, "facing", 0))
    key = (id(path), start)
    kept = _POSES.get(key)
    if kept is not None and kept[0] is path:
        return kept[1]
    facing, poses = start, []
    for point, f in zip(path, facings_of(path)):
        facing = facing if f is None else float(f)
        poses.append((*xy(point), facing))
    if len(_POSES) >= 64:
        _POSES.clear()
    _POSES[key] = (path, tuple(poses))   # the path kept alive: its id is not reused
    return _POSES[key][1]


_POSES: dict[tuple, tuple] = {}


def _pose_at(a: tuple[float, float, float], b: tuple[float, float, float], t: float):
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t,
            a[2] + _signed_rotation(a[2], b[2]) * t)


def _segment_core(body: _Body, a, b) -> BaseGeometry:
    return unary_union([body.place(*a), body.place(*b)]).convex_hull


_CORES: dict[tuple, BaseGeometry] = {}
_CORES_KEPT = 1024


def _path_cores(body: _Body, poses: list) -> list[BaseGeometry]:
    """Each segment's swept core of a move, kept by the body and the poses: the rules that sweep a
    move (its stops, the units it passes, the terrain it crosses) ask the same hulls of it."""
    key = (body, tuple(poses))
    found = _CORES.get(key)
    if found is None:
        if len(_CORES) >= _CORES_KEPT:
            _CORES.clear()
        found = _CORES[key] = [_segment_core(body, a, b) for a, b in zip(poses, poses[1:])]
    return found


def swept(unit: Any, path: Sequence[Any]) -> Extent:
    """The extent moved along the path: the union of each segment's hull of the extent at its two
    ends, turned by the facing on arrival."""
    body, poses = _body(unit), _poses(unit, path)
    if len(poses) == 1:
        return Extent(body.place(*poses[0]), body.radius, poses[0][:2])
    key = (body, tuple(poses))
    found = _SWEPT.get(key)
    if found is None:   # the rules that sweep a move (passing units, intermixing) ask it once
        if len(_SWEPT) >= _CORES_KEPT:
            _SWEPT.clear()
        found = _SWEPT[key] = Extent(unary_union(_path_cores(body, poses)), body.radius, poses[-1][:2])
    return found


_SWEPT: dict[tuple, Extent] = {}


@dataclass(frozen=True)
class Contact:
    feature: str
    distance: float   # along the path of the base centre, rounded to 0.1"
    index: int        # the segment, from path[index] to path[index + 1]
    point: XY         # the base centre at that moment


def _touching(gaps: Any) -> Any:
    """Which closest-point gaps (inches, less the radius) are contact: `in_contact`, at once."""
    return [round_inches(max(0.0, gap)) == 0.0 for gap in gaps.tolist()]


def _contact_along(body: _Body, poses, first: int, shape: BaseGeometry, feature_id: str) -> Contact:
    """Where the moving extent first comes into contact with `shape`, on segment `first` (the first
    whose swept core touches it): bisection on the part of that segment swept so far, which only
    grows."""
    def touches(core: BaseGeometry) -> bool:
        return in_contact(Extent(core, body.radius, (0.0, 0.0)), shape)

    a, b = poses[first], poses[first + 1]
    done = sum(math.dist(p[:2], q[:2]) for p, q in zip(poses[:first], poses[1:first + 1]))
    low, high = 0.0, 1.0
    for _ in range(BISECTIONS):
        mid = (low + high) / 2
        reached = touches(_segment_core(body, a, _pose_at(a, b, mid)))
        low, high = (low, mid) if reached else (mid, high)
    x, y, _ = _pose_at(a, b, high)
    return Contact(feature_id, round_inches(done + math.dist(a[:2], b[:2]) * high), first, (x, y))


def _swept_touches(unit: Any, path: Sequence[Any], features: list[Mapping]):
    """Which features the extent touches at the start, and which each segment's swept core
    touches: each feature's gap to them, all features at once (the cores built once per move)."""
    body, poses = _body(unit), _poses(unit, path)
    shapes = [feature_shape(f) for f in features]
    near = _in_reach(body, poses, shapes)
    segments = len(poses) - 1
    if not near:   # no feature within the move's reach: none touched, no hull built
        return body, poses, shapes, [False] * len(shapes), [[False] * len(shapes) for _ in range(segments)]
    chosen = [shapes[i] for i in near]
    start, along = [False] * len(shapes), [[False] * len(shapes) for _ in range(segments)]
    for i, touched in zip(near, _touching(shapely.distance(body.place(*poses[0]), chosen) - body.radius)):
        start[i] = touched
    for k, core in enumerate(_path_cores(body, poses)):
        for i, touched in zip(near, _touching(shapely.distance(core, chosen) - body.radius)):
            along[k][i] = touched
    return body, poses, shapes, start, along


def _in_reach(body: _Body, poses: list, shapes: list[BaseGeometry]) -> list[int]:
    """The indexes of the shapes the moving extent may touch. Every point of the body at a pose
    lies within its reach (the half-diagonal of its base, or its farthest figure, plus the bases'
    radius) of the pose's centre, and so every point of a segment's hull within that reach of the
    centre's path: a shape farther from the path than the reach and a margin (0.1", twice the
    0.05" that rounds to contact) is not touched, and is not measured against the hulls."""
    key = (body, tuple(poses), tuple(map(id, shapes)))
    kept = _NEAR.get(key)
    if kept is not None and all(a is b for a, b in zip(kept[0], shapes)):
        return kept[1]
    if len(_NEAR) >= _CORES_KEPT:
        _NEAR.clear()
    found = _NEAR[key] = (shapes, _near(body, poses, shapes))   # the shapes kept: their ids are not reused
    return found[1]


_NEAR: dict[tuple, tuple] = {}


def _near(body: _Body, poses: list, shapes: list[BaseGeometry]) -> list[int]:
    if body.figures is None:
        reach = math.hypot(body.w / 2, body.d / 2)
    else:
        reach = max((math.hypot(fx, fy) for fx, fy in body.figures), default=0.0)
    reach += body.radius + 0.1
    centres = [p[:2] for p in poses]
    # first the boxes: a shape whose box lies beyond the path's box grown by the reach is farther
    # than the reach (most features, most moves), without a distance measured
    xs, ys = [c[0] for c in centres], [c[1] for c in centres]
    low_x, high_x, low_y, high_y = min(xs) - reach, max(xs) + reach, min(ys) - reach, max(ys) + reach
    boxed = [i for i, (x0, y0, x1, y1) in enumerate(map(_bounds, shapes))
             if not (x0 > high_x or x1 < low_x or y0 > high_y or y1 < low_y)]   # NaN (an empty shape): kept
    if not boxed:
        return []
    track = shapely.linestrings(centres) if len(set(centres)) > 1 else shapely.points(centres[0])
    gaps = shapely.distance(track, [shapes[i] for i in boxed]).tolist()
    return [i for i, gap in zip(boxed, gaps) if not gap > reach]   # NaN: measured


def _bounds(shape: BaseGeometry) -> tuple[float, float, float, float]:
    """A shape's box, once per shape (the object: a feature's shape is kept per table)."""
    kept = _BOUNDS.get(id(shape))
    if kept is None or kept[0] is not shape:
        if len(_BOUNDS) >= _SHAPES_KEPT:
            _BOUNDS.clear()
        kept = _BOUNDS[id(shape)] = (shape, tuple(shape.bounds))   # the shape kept: its id is not reused
    return kept[1]


_BOUNDS: dict[int, tuple] = {}


def _keep_bounds(shape: BaseGeometry, box: tuple) -> None:
    """Keep the box a shape was made with, for `_bounds` (a NaN box is left for GEOS)."""
    if box[0] <= box[2] and box[1] <= box[3]:
        if len(_BOUNDS) >= _SHAPES_KEPT:
            _BOUNDS.clear()
        _BOUNDS[id(shape)] = (shape, box)   # the shape kept: its id is not reused


def core_box(extent: Extent) -> tuple[float, float, float, float]:
    """The extent's core's box (`shape.bounds`), once per core: a unit that has not moved keeps
    its core, and a move's end is the core its unit stands on after it."""
    return _bounds(extent.core)


def boxes_apart(a: BaseGeometry, b: BaseGeometry, margin: float) -> bool:
    """Whether the two shapes' boxes lie more than `margin` apart along one axis: then every
    point of one is more than `margin` from every point of the other, and nothing finer need be
    measured (an empty shape's NaN box is never apart)."""
    return _box_apart(_bounds(a), _bounds(b), margin)


def extents_far(a: Extent, b: Extent, margin: float = 0.1) -> bool:
    """Whether the two extents' boxes (their cores' grown by their radii) lie more than `margin`
    apart: then their gap is more than `margin` (0.1": not in contact, more than the 0.05" that
    rounds to it; 0.0: not overlapping), found without measuring it."""
    return _box_apart(_bounds(a.core), _bounds(b.core), a.radius + b.radius + margin)


def _box_apart(a: tuple, b: tuple, margin: float) -> bool:
    return b[0] - a[2] > margin or a[0] - b[2] > margin or b[1] - a[3] > margin or a[1] - b[3] > margin


def _contacts(unit: Any, path: Sequence[Any], features: Iterable[Mapping],
              fresh_only: bool) -> list[Contact]:
    features = list(features)
    if not features:
        return []
    body, poses, shapes, start, along = _swept_touches(unit, path, features)
    found = []
    for i, (feature, shape) in enumerate(zip(features, shapes)):
        if start[i]:
            if not fresh_only:
                found.append(Contact(feature["id"], 0.0, 0, poses[0][:2]))
            continue
        first = next((k for k, touched in enumerate(along) if touched[i]), None)
        if first is not None:
            found.append(_contact_along(body, poses, first, shape, feature["id"]))
    return sorted(found, key=lambda c: (c.distance, c.index))   # stable: ties keep table order


def features_touched(unit: Any, path: Sequence[Any], features: Iterable[Mapping]) -> list[str]:
    """The features the swept extent touches, in path order (UnitMoved: "its terrain")."""
    return [c.feature for c in _contacts(unit, path, features, fresh_only=False)]


def touches_any(unit: Any, path: Sequence[Any], features: Iterable[Mapping]) -> bool:
    """Whether the swept extent touches any of the features: `features_touched` is not empty,
    without finding where along the path each is met."""
    features = list(features)
    if not features:
        return False
    _, _, _, start, along = _swept_touches(unit, path, features)
    return any(start) or any(any(touched) for touched in along)


def first_contact(unit: Any, path: Sequence[Any], features: Iterable[Mapping],
                  kinds: Optional[Iterable[str]] = None) -> Optional[Contact]:
    """Where the extent first meets a feature it was not in contact with at the start: for
    AVBCW.MOVE.TERRAIN pass the linear obstacles and area terrain ("A unit stops and ends its move
    if it meets a linear obstacle that it did not begin in contact with. It stops upon entering
    area terrain"). A unit starting in a wood has not entered it. `kinds` filters `features`."""
    wanted = None if kinds is None else set(kinds)
    chosen = [f for f in features if wanted is None or f["kind"] in wanted]
    contacts = _contacts(unit, path, chosen, fresh_only=True)
    return contacts[0] if contacts else None


def on_road(path: Sequence[Any], roads: Iterable[Mapping]) -> bool:
    """Every point of the base centre's path within width/2 of a road's line (Mogdonazia's road
    class: "road if all on road, i.e. within width/2 of a road's line"), sampled every 0.01"."""
    kept = _roads(list(roads))
    if kept is None:
        return False
    coords = [xy(p) for p in path]
    # The path's two ends are its first and last samples: a move that starts or ends off every
    # road is off road before the hundreds of samples between are measured (and a path at one
    # point, a standing vehicle's, is its ends).
    if not _all_near(shapely.points([coords[0], coords[-1]]), kept.lines):
        return False
    if len(set(coords)) == 1:
        return True
    track = LineString(coords)
    # A track wholly inside the roads' sure reach has every sample on road: only one that leaves
    # it (near an edge, or off road) is sampled.
    if kept.reach.covers(track):
        return True
    return _all_near(shapely.points(shapely.get_coordinates(shapely.segmentize(track, ROAD_STEP))), kept.lines)


class _Roads:
    """A table's roads: each one's (line, width/2), and their sure reach, drawn when first asked
    for. The sure reach is where every point rounds on road: within the largest tenth at most
    width/2, plus 0.04" (below the 0.05" that rounds up), of a road's line; a buffer's polygon
    lies inside the round reach it draws (its vertices on the circle), so what it covers is
    within that distance."""

    def __init__(self, roads: list[Mapping]):
        self.lines = [(feature_line(r), r.get("width", 0.0) / 2) for r in roads]

    @cached_property
    def reach(self) -> BaseGeometry:
        return unary_union([line.buffer(math.floor(half * 10 + 1e-9) / 10 + 0.04) for line, half in self.lines])


_ROADS: dict[tuple, tuple[list, Optional[_Roads]]] = {}


def _roads(roads: list[Mapping]) -> Optional[_Roads]:
    """The roads' lines and reach, kept by the roads (the objects: a table's features never change
    once defined), None for no road."""
    return _kept_by_features(_ROADS, roads, lambda: _Roads(roads) if roads else None)


def _kept_by_features(cache: dict[tuple, tuple], features: Sequence[Mapping], make: Callable[[], Any],
                      *also: Any) -> Any:
    """`make()`, kept in `cache` by the features (the objects, which a table never changes once
    defined) and `also`: the roads, area terrain and sight terrain of a table are asked again by
    every move and sight line. At most 256 kept; the features kept alive, so their ids are not reused."""
    key = (tuple(map(id, features)), *also)
    kept = cache.get(key)
    if kept is None or any(a is not b for a, b in zip(kept[0], features)):
        if len(cache) >= 256:
            cache.clear()
        kept = cache[key] = (list(features), make())
    return kept[1]


def _all_near(points: Any, lines: list[tuple[BaseGeometry, float]]) -> bool:
    """Whether every point rounds within `half` of one of the (line, half) roads."""
    near = [False] * len(points)
    for line, half in lines:   # each road's distances to every point at once
        for i in _rounded_at_most(shapely.distance(points, line), half):
            near[i] = True
    return all(near)


# ---------------------------------------------------------------- arcs

def _arc_offset(value: float, centre: float) -> float:
    return abs(_signed_rotation(centre, value))


def in_arc(origin: Any, facing: float, target: Shape, centre_offset_deg: float,
           half_width_deg: float) -> bool:
    """Whether any part of the target lies in the arc centred `centre_offset_deg` from the facing
    with `half_width_deg` either side ("A target is in an arc if any part of it is"). AVBCW
    vehicle arcs F, R, B, L are offsets 0, 90, 180, 270; the half-width is the `avbcw-arc`
    reading (45 for `quadrant`, 22.5 for `narrow`): the caller passes it."""
    if half_width_deg >= 180:
        return True
    here = xy(origin)
    if type(target) is not Extent:
        return _in_arc(here, facing, target, centre_offset_deg, half_width_deg)
    # kept by the question (a target extent, the object): a shot weighs every enemy in arc, and
    # units that have not moved are asked again shot after shot
    key = (here, facing, id(target), centre_offset_deg, half_width_deg)
    kept = _ARCS.get(key)
    if kept is None or kept[0] is not target:
        if len(_ARCS) >= 4096:
            _ARCS.clear()
        kept = _ARCS[key] = (target, _in_arc(here, facing, target, centre_offset_deg, half_width_deg))
    return kept[1]


_ARCS: dict[tuple, tuple] = {}


def _in_arc(here: XY, facing: float, target: Shape, centre_offset_deg: float, half_width_deg: float) -> bool:
    centre, shape = facing + centre_offset_deg, _as_extent(target)
    if _on(here, shape):
        return True
    tolerance = 1e-9
    if shape.radius:
        # a round base subtends its centre's bearing +- asin(r / distance)
        for centre_point in shapely.get_coordinates(shape.core):
            spread = math.degrees(math.asin(min(1.0, shape.radius / math.dist(here, centre_point))))
            if _arc_offset(bearing(here, centre_point), centre) <= half_width_deg + spread + tolerance:
                return True
        return False
    coords = shapely.get_coordinates(shape.core)
    if any(_arc_offset(bearing(here, p), centre) <= half_width_deg + tolerance for p in coords):
        return True
    reach = max(math.dist(here, p) for p in coords) + 1.0
    for edge in (centre - half_width_deg, centre + half_width_deg):
        s, c = _sin_cos(edge)
        if LineString([here, (here[0] + reach * s, here[1] + reach * c)]).intersects(shape.core):
            return True
    return False


# ---------------------------------------------------------------- line of sight

@dataclass(frozen=True)
class SightResult:
    status: str              # clear | blocked | unchecked | ambiguous
    blocker: Optional[str]   # the feature or friendly unit that blocks, else None
    why: str                 # friend | linear-obstacle | area-terrain | hill | "" (clear)
    reason: str
    line: tuple[XY, XY]      # the sight line judged
    area: float              # inches of area terrain along it, rounded

    @property
    def clear(self) -> bool:
        return self.status == "clear"

    def to_json(self) -> dict:
        return {"status": self.status, "blocker": self.blocker, "why": self.why, "reason": self.reason,
                "line": [list(self.line[0]), list(self.line[1])], "area": self.area}


def _outline(target: Extent) -> list[XY]:
    """Points of the target's outline every 0.1", in the outline's order (`sight` takes them
    closest first): a clear line to any inner point passes a clear outline point first, so the
    outline is enough ("to any part/figure"). Kept on the extent: a unit that has not moved keeps
    its extent (`unit_extent`), and every shot at it samples the same outline."""
    kept = target.__dict__.get("_outline")
    if kept is None:
        if target.radius:
            offsets = _round_offsets(target.radius)
            kept = [(cx + dx, cy + dy) for cx, cy in shapely.get_coordinates(target.core).tolist()
                    for dx, dy in offsets]
        else:
            # a polygon's coordinates are its rings': its outline, densified
            kept = list(map(tuple, shapely.get_coordinates(shapely.segmentize(target.core, SAMPLE_STEP)).tolist()))
        kept = target.__dict__["_outline"] = tuple(kept)   # shared by every sight to the extent
    return kept


def _closest_first(here: XY, points: Sequence[XY], count: Optional[int] = None) -> list[XY]:
    """The points closest to `here` first, ties in their order (a stable sort by `math.dist`);
    only the first `count` when given, picked without sorting the rest (min and nsmallest give
    what the sort's first would)."""
    apart = list(map(math.dist, repeat(here, len(points)), points))
    if count == 1:
        return [points[apart.index(min(apart))]]   # the first of the closest
    if count is not None and count < len(points):
        return [points[i] for i in heapq.nsmallest(count, range(len(points)), key=apart.__getitem__)]
    return [points[i] for i in sorted(range(len(points)), key=apart.__getitem__)]


_OFFSETS: dict[float, list[XY]] = {}


def _round_offsets(radius: float) -> list[XY]:
    """A round base's outline points about its centre, every 0.1" (at least 16): the same for every
    base of that radius, so worked out once per radius."""
    found = _OFFSETS.get(radius)
    if found is None:
        steps = max(16, math.ceil(2 * math.pi * radius / SAMPLE_STEP))
        found = _OFFSETS[radius] = [(radius * math.sin(2 * math.pi * k / steps),
                                     radius * math.cos(2 * math.pi * k / steps)) for k in range(steps)]
    return found


def _rounded_at_most(gaps: Any, limit: float) -> list[int]:
    """The indexes of the gaps (inches, negatives read as 0) whose `round_inches` is at most
    `limit`. Half-up to 0.1", that is a gap below `limit` + 0.05 for a limit in tenths: only a gap
    about that boundary is rounded one by one, the rest are told apart at once (a sight asks this
    of a hundred lines for every friend and obstacle on the table)."""
    if not math.isclose(limit * 10, round(limit * 10)):
        return [i for i, gap in enumerate(gaps) if round_inches(max(0.0, gap)) <= limit]
    edge = round(limit * 10) / 10 + 0.05
    near = abs(gaps - edge) <= 1e-6
    return [i for i, (gap, close) in enumerate(zip(gaps.tolist(), near.tolist()))
            if (round_inches(max(0.0, gap)) <= limit if close else gap < edge)]


_UNIONS: dict[tuple, tuple[list, BaseGeometry]] = {}


def _union_of(features: list[Mapping]) -> BaseGeometry:
    """The union of the features' shapes, kept by the features (the objects): every sight line
    crosses the same area terrain of the table."""
    return _kept_by_features(_UNIONS, features, lambda: _united(features))


def _united(features: list[Mapping]) -> BaseGeometry:
    union = unary_union([feature_shape(f) for f in features])
    shapely.prepare(union)   # asked whether each sight line meets it before it is cut
    return union


@dataclass(frozen=True)
class _SightTerrain:
    """What of a table's features a sight line asks about, in the features' order: the linear
    obstacles and the hills (id, shape, box), and the area terrain united."""
    obstacles: tuple[tuple[str, BaseGeometry, tuple], ...]
    areas: Optional[BaseGeometry]
    hills: tuple[tuple[str, BaseGeometry, tuple], ...]


_TERRAINS: dict[tuple, tuple[Sequence[Mapping], _SightTerrain]] = {}


def _sight_terrain(features: Sequence[Mapping], obstacle_kinds: frozenset, area_kinds: frozenset) -> _SightTerrain:
    """The table's `_SightTerrain`, kept by the features (the objects, which a table never
    changes once defined) and the kinds: every line of every sight asks the same of them."""
    return _kept_by_features(_TERRAINS, features, lambda: _made_sight_terrain(features, obstacle_kinds, area_kinds),
                             obstacle_kinds, area_kinds)


def _made_sight_terrain(features: Sequence[Mapping], obstacle_kinds: frozenset, area_kinds: frozenset) -> _SightTerrain:
    areas = [f for f in features if is_area(f, area_kinds)]
    return _SightTerrain(
        tuple((f["id"], feature_shape(f), _bounds(feature_shape(f))) for f in features if f["kind"] in obstacle_kinds),
        _union_of(areas) if areas else None,
        tuple((f["id"], feature_shape(f), _bounds(feature_shape(f))) for f in features if f["kind"] == "hill"))


def _blockers(here: XY, ends: list[XY], terrain: _SightTerrain, friends, friend_gap, area_limit):
    """For each line from `here` to an end, its blockers in the seed's order (friend, obstacle,
    area), its inches of area terrain and the hill it crosses, if any. The lines' box passes over
    a friend, obstacle, area terrain or hill whose box lies beyond what could block any line (more
    than the friend gap, or the 0.05" that rounds to contact, plus a margin): it blocks none of
    them, as measuring it would find; the lines are drawn only when something lies near them."""
    xs, ys = [here[0], *(e[0] for e in ends)], [here[1], *(e[1] for e in ends)]
    box = (min(xs), min(ys), max(xs), max(ys))
    drawn = []

    def lines():
        if not drawn:
            drawn.append(shapely.linestrings([[here, end] for end in ends]))
        return drawn[0]
    per_line = [[] for _ in ends]
    for unit_id, shape in friends.items():
        ext = _as_extent(shape)
        if _box_apart(box, _bounds(ext.core), ext.radius + friend_gap + 0.1):
            continue
        gaps = shapely.distance(lines(), ext.core) - ext.radius
        for i in _rounded_at_most(gaps, friend_gap):
            per_line[i].append(("friend", unit_id))
    for feature_id, shape, bounds in terrain.obstacles:
        if _box_apart(box, bounds, 0.1):
            continue
        for i in _rounded_at_most(shapely.distance(lines(), shape), 0.0):
            per_line[i].append(("linear-obstacle", feature_id))
    union = terrain.areas
    # a line that does not meet the area terrain has none of it along it (most lines, their box
    # often apart from its box): cut only when one of them meets it
    meets = union is not None and not _box_apart(box, _bounds(union), 0.0) and shapely.intersects(lines(), union).any()
    area = [round_inches(x) for x in shapely.length(shapely.intersection(lines(), union))] if meets \
        else [0.0] * len(ends)
    for i, inches in enumerate(area):
        if inches > area_limit:
            per_line[i].append(("area-terrain", None))
    # a hill whose box is apart from the lines' is crossed by none
    hills = [(hid, h) for hid, h, bounds in terrain.hills if not _box_apart(box, bounds, 0.0)]
    over_hill = [next((hid for hid, h in hills if line.intersects(h)), None) for line in lines()] \
        if hills else [None] * len(ends)
    return per_line, area, over_hill


def sight(origin: Any, target: Shape, features: Sequence[Mapping],
          friends: Optional[Mapping[str, Shape]] = None, *, shooter: Optional[Shape] = None,
          friend_gap: float = 1.0, area_limit: float = 3.0,
          obstacle_kinds: Iterable[str] = LINEAR_OBSTACLES,
          area_kinds: Iterable[str] = AREA_TERRAIN) -> SightResult:
    """Line of sight from `origin` (the leader figure, or a vehicle's edge centre or turret) to any
    part of the target. dux-bellorum-avbcw.txt, Blocked line of sight: "This LOS is blocked if
    this LOS; Passes within 1" of a friendly unit; Meets a linear obstacle or similar terrain (e.g.
    a hedge); Passes through more than 3" of area terrain (e.g. a woodland)". `friends` are the
    shooter's side's other units; the inches of area terrain are the total along the line (all
    pieces). Hills: "neither seed has hill rules, so LOS over hills is unchecked": a line clear but
    for a hill is `unchecked`.

    `ambiguous`: no line is clear, and one is blocked only by obstacles that the target (or
    `shooter`) is in contact with. The seed blocks LOS that "Meets a linear obstacle" yet gives -1
    for a target "behind a 'soft' obstacle (fence, hedge, etc.)", and the page's Interpretations
    name no reading for an obstacle at either end of the line."""
    here, goal = xy(origin), _as_extent(target)
    at = Point(here)   # what shapely.points(here) makes, in half its time
    obstacle_kinds = frozenset(obstacle_kinds)
    if _on(here, goal):
        return SightResult("clear", None, "", "the origin lies on the target", (here, here), 0.0)
    # a footprint's outline with its point nearest the origin after it
    points = _outline(goal) if goal.radius else \
        (*_outline(goal), tuple(shapely.get_coordinates(shapely.shortest_line(at, goal.core))[1].tolist()))
    terrain = _sight_terrain(features, obstacle_kinds, frozenset(area_kinds))
    touched: list[set[str]] = []

    def at_ends() -> set[str]:
        """The obstacles an end of the line is in contact with: asked only of a line that meets
        obstacles alone (most lines are clear)."""
        if not touched:
            ends_of_line = [_as_extent(end) for end in (goal, shooter) if end is not None]
            # an obstacle whose box is beyond the 0.05" that rounds to contact of an end's box
            # (grown by its bases' radius) is in contact with neither end, as measuring it would find
            touched.append({f["id"] for f in features if f["kind"] in obstacle_kinds
                            and any(not _box_apart(_bounds(end.core), _bounds(feature_shape(f)), end.radius + 0.1)
                                    and in_contact(end, feature_shape(f)) for end in ends_of_line)})
        return touched[0]

    def judged(chosen: list[XY]):
        per_line, area, hills = _blockers(here, chosen, terrain, friends or {}, friend_gap, area_limit)
        return per_line, area, hills, [_verdict(found, hill, at_ends) for found, hill in zip(per_line, hills)]

    # The answer is the closest line of the best verdict. Most lines are clear, the closest most
    # often: when one of the closest is, it is the answer (a clear line farther out comes later in
    # the order), and the others need not be judged. The closest alone, then a few, then all.
    total = len(points)
    for count in (1, FIRST_LINES, total):
        ends = _closest_first(here, points, count)
        per_line, area, hills, verdicts = judged(ends)
        if "clear" in verdicts or count >= total:
            break
    # the closest of the best (min gives the first of equals)
    best = verdicts.index("clear") if "clear" in verdicts else min(range(len(verdicts)), key=lambda i: RANK[verdicts[i]])
    status, found, line = verdicts[best], per_line[best], (here, ends[best])
    if status == "clear":
        return SightResult(status, None, "", f"clear, {area[best]}\" of area terrain", line, area[best])
    if status == "unchecked":
        return SightResult(status, hills[best], "hill", f"over the hill {hills[best]}: neither seed "
                           "has hill rules", line, area[best])
    why, blocker = found[0]
    reasons = {"friend": f"passes within {friend_gap}\" of the friendly unit {blocker}",
               "linear-obstacle": f"meets the linear obstacle {blocker}",
               "area-terrain": f"passes through {area[best]}\" of area terrain, more than {area_limit}\""}
    if status == "ambiguous":
        reasons[why] += (" at the end of the line: \"Meets a linear obstacle\" or cover \"behind a "
                         "'soft' obstacle\"")
    return SightResult(status, blocker, why, reasons[why], line, area[best])


RANK = {"clear": 0, "unchecked": 1, "ambiguous": 2, "blocked": 3}
FIRST_LINES = 8   # the closest lines judged first


def _verdict(found: list[tuple[str, Optional[str]]], hill: Optional[str], at_ends: Callable[[], set[str]]) -> str:
    if not found:
        return "unchecked" if hill else "clear"
    if all(why == "linear-obstacle" for why, _ in found) and all(blocker in at_ends() for _, blocker in found):
        return "ambiguous"
    return "blocked"


# ---------------------------------------------------------------- reach

def reach_region(unit: Any, allowance: float, blocked: Iterable[BaseGeometry],
                 table: Optional[tuple[float, float]] = None) -> BaseGeometry:
    """Where the base centre could go: a circle of radius `allowance` around the position, less
    the impassable geometries, clipped to the table (width, depth) when given.

    A first approximation for `umpire reach`: distances are straight lines, so ground behind an
    obstacle counts as reached and terrain that stops or slows a move is not applied."""
    region = Point(xy(_get(unit, "position"))).buffer(allowance, quad_segs=QUAD_SEGS)
    if table is not None:
        region = region.intersection(box(0.0, 0.0, *table))
    walls = [g for g in blocked]
    return region.difference(unary_union(walls)) if walls else region


__all__ = ["AREA_TERRAIN", "LINEAR_OBSTACLES", "POLYGON_KINDS", "POLYLINE_KINDS", "Contact", "Extent",
           "SightResult", "bearing", "core_box", "covered_by", "edge_centre", "extent", "facings_of",
           "farthest", "feature_line", "feature_shape", "features_touched", "first_contact", "footprint",
           "in_arc", "in_contact", "is_area", "measure", "more_than", "on_road", "on_table",
           "path_length", "path_turn", "placed", "reach_region", "rectangle", "rotation", "round_inches", "sight",
           "swept", "to_table", "touches_any", "touching", "vertex_turns", "within"]
