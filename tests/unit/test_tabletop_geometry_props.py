"""Properties of the tabletop geometry (domain/tabletop/geometry.py) that hold for any table:
measuring is symmetric, a whole turn changes nothing, a path is never shorter than the straight
line, a half-width of 180 is the whole circle, and rounding moves a value by at most 0.05"."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, Polygon

from domain.board.state import UnitState
from domain.tabletop.geometry import (
    core_box, extent, farthest, footprint, in_arc, measure, path_length, path_turn, placed, rectangle, rotation,
    round_inches, swept, to_table, unit_extent,
)

# game-log-tabletop.md, Table and points: inches on a table (72" x 48" is the larger example);
# "Angles are whole degrees, 0 to 359".
coordinate = st.floats(min_value=0.0, max_value=72.0, allow_nan=False)
point = st.tuples(coordinate, coordinate)
facing = st.integers(min_value=0, max_value=359)
size = st.floats(min_value=0.5, max_value=8.0, allow_nan=False)


@st.composite
def units(draw):
    x, y = draw(point)
    return {"position": {"x": x, "y": y}, "facing": draw(facing),
            "footprint": {"w": draw(size), "d": draw(size)}}


@settings(max_examples=150, deadline=None)
@given(units(), units())
def test_distance_is_symmetric(a, b):
    ea, eb = extent(a), extent(b)
    assert measure(ea, eb) == measure(eb, ea)
    assert measure(ea, eb, how="centre") == measure(eb, ea, how="centre")


@settings(max_examples=150, deadline=None)
@given(point, facing, size, size)
def test_a_whole_turn_changes_no_footprint(at, f, w, d):
    assert footprint(at, f, w, d).equals_exact(footprint(at, f + 360, w, d), 1e-9)


@settings(max_examples=150, deadline=None)
@given(point, facing, size, size)
def test_a_footprint_keeps_its_size_and_centre_at_any_facing(at, f, w, d):
    shape = footprint(at, f, w, d)
    assert math.isclose(shape.area, w * d, rel_tol=1e-9)
    assert shape.centroid.distance(Point(at)) < 1e-9


@settings(max_examples=150, deadline=None)
@given(st.lists(point, min_size=2, max_size=8))
def test_a_path_is_never_shorter_than_the_straight_line(points):
    # both are rounded half-up, and rounding never reverses an order
    assert path_length(points) >= measure(points[0], points[-1])


@settings(max_examples=150, deadline=None)
@given(point, facing, st.integers(min_value=0, max_value=359), units())
def test_a_half_width_of_180_is_every_direction(origin, f, offset, target):
    assert in_arc(origin, f, extent(target), offset, 180)


@settings(max_examples=150, deadline=None)
@given(st.floats(min_value=0.0, max_value=1000.0, allow_nan=False))
def test_rounding_lands_on_a_tenth_within_half_a_tenth(value):
    rounded = round_inches(value)
    assert abs(rounded - value) <= 0.05 + 1e-9
    assert round_inches(rounded) == rounded
    assert math.isclose(rounded * 10, round(rounded * 10), abs_tol=1e-6)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.none(), facing), max_size=8))
def test_a_turn_is_at_most_180_a_step_and_never_negative(facings):
    steps = len([f for f in facings if f is not None])
    assert 0 <= path_turn(facings) <= 180 * max(0, steps - 1)


@settings(max_examples=150, deadline=None)
@given(facing, facing)
def test_the_smallest_rotation_is_symmetric_and_at_most_a_half_turn(a, b):
    assert rotation(a, b) == rotation(b, a)
    assert 0 <= rotation(a, b) <= 180


@settings(max_examples=60, deadline=None)
@given(units(), st.lists(point, min_size=1, max_size=4))
def test_the_swept_extent_covers_the_base_at_both_ends(unit, waypoints):
    start = (unit["position"]["x"], unit["position"]["y"])
    path = [start, *waypoints]
    moved = swept(unit, path).shape
    end = dict(unit, position={"x": path[-1][0], "y": path[-1][1]})
    assert moved.buffer(1e-6).covers(extent(unit).shape)
    assert moved.buffer(1e-6).covers(extent(end).shape)


@settings(max_examples=150, deadline=None)
@given(point, st.one_of(facing, st.floats(min_value=0.0, max_value=359.9)),
       st.one_of(st.just(0.0), size), st.one_of(st.just(0.0), size))
def test_a_footprint_is_the_polygon_of_its_corners_and_their_box(at, turned, w, d):
    # footprint reads its rectangle from Well-Known Binary and keeps the corners' box: the same
    # shape, to the last bit, as Polygon() of the corners, and the box GEOS gives it
    corners = [(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2)]
    expected = Polygon([to_table(at, turned, corner) for corner in corners])
    made = footprint(at, turned, w, d)
    assert made.wkb == expected.wkb
    assert core_box(extent({"position": at, "facing": turned, "footprint": {"w": w, "d": d}})) == expected.bounds
    assert core_box(extent({"position": at, "facing": turned, "footprint": {"w": w, "d": d}})) == made.bounds


@settings(max_examples=60, deadline=None)
@given(units(), point, facing)
def test_a_footprint_placed_is_the_extent_of_the_unit_standing_there(unit, at, turned):
    def standing(x, y, f):
        return UnitState(unit="u", side="a", unit_class="c", facing=f, position={"x": x, "y": y},
                         footprint=dict(unit["footprint"]))
    here = standing(unit["position"]["x"], unit["position"]["y"], unit["facing"])
    found = placed(here, at[0], at[1], float(turned))
    there = unit_extent(standing(at[0], at[1], turned))
    assert there is found     # kept by what it is made of: the unit after its move finds it
    assert found.core.wkb == extent(standing(at[0], at[1], turned)).core.wkb
    assert (found.radius, found.centre) == (0.0, at)


@settings(max_examples=100, deadline=None)
@given(point, facing, size, size)
def test_a_kept_rectangle_is_the_footprint_and_a_point_is_measured_as_its_point(at, turned, w, d):
    made = rectangle(at, turned, w, d)
    assert made.wkb == footprint(at, turned, w, d).wkb
    assert made is rectangle(at, turned, w, d)
    assert farthest(made, at) == farthest(made, Point(at)) == farthest(at, made)


@settings(max_examples=150, deadline=None)
@given(units(), point)
def test_a_point_lies_on_an_extent_as_its_measured_gap_says(unit, here):
    # the box test before the measuring (geometry._on) never decides otherwise than the gap
    from domain.tabletop.geometry import _gap, _on
    found = extent(unit)
    assert _on(here, found) == (_gap(here, found) == 0.0)
    x, y = unit["position"]["x"], unit["position"]["y"]
    assert _on((x, y), found)
