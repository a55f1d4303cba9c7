"""Tabletop geometry in inches (domain/tabletop/geometry.py), from game-log-tabletop.md, Geometry
and its examples, and the Blocked line of sight passage of dux-bellorum-avbcw.txt. Expected
values are worked by hand from those words and from the coordinates written here."""
from __future__ import annotations

import math

import pytest
from shapely.geometry import Point, Polygon

from domain.tabletop.geometry import (
    bearing, covered_by, edge_centre, extent, facings_of, farthest, feature_shape, features_touched,
    first_contact, footprint, in_arc, in_contact, measure, more_than, on_road, on_table,
    path_length, path_turn, reach_region, round_inches, sight, swept, to_table, touches_any, touching,
    vertex_turns, within,
)

# game-log-tabletop.md, Examples: the AVBCW table and the car's move (line 20).
WOOD = {"id": "w-1", "kind": "woodland", "points": [[2.0, 30.0], [12.0, 30.0], [12.0, 40.0], [2.0, 40.0]]}
HEDGE = {"id": "h-1", "kind": "hedge", "points": [[44.0, 30.0], [44.0, 46.0]]}
GOOD_GOING = {"id": "gg-1", "kind": "good-going",
              "points": [[30.0, 15.0], [42.0, 15.0], [42.0, 35.0], [30.0, 35.0]]}
AVBCW_TABLE = [WOOD, HEDGE, GOOD_GOING]
CAR = {"unit": "s-car", "position": {"x": 36.0, "y": 30.0}, "facing": 180, "footprint": {"w": 2.0, "d": 4.0}}
CAR_PATH = [{"x": 36.0, "y": 30.0, "f": 180}, {"x": 36.0, "y": 22.0}, {"x": 34.3, "y": 21.0, "f": 240}]
# The Mogdonazia table: "the road at y 36", width 3.
ROAD = {"id": "rd-1", "kind": "road", "width": 3.0, "points": [[0.0, 36.0], [72.0, 36.0]]}


def base(x, y, facing=0, w=2.0, d=2.0):
    return {"position": {"x": x, "y": y}, "facing": facing, "footprint": {"w": w, "d": d}}


# ---------------------------------------------------------------- the page's example

def test_the_cars_path_is_8_plus_2_inches_and_turns_60_degrees():
    # "the car moves 8.0 + 2.0 = 10.0" and turns from 180 to 240, 60°"
    assert path_length(CAR_PATH[:2]) == 8.0
    assert path_length(CAR_PATH[1:]) == 2.0          # sqrt(1.7² + 1²) = 1.97
    assert path_length(CAR_PATH) == 10.0
    assert path_turn(facings_of(CAR_PATH), start=CAR["facing"]) == 60


def test_the_car_stays_on_good_going_and_touches_nothing_else():
    # "The rest is legal (the car stays on gg-1, ground designated good going for wheels)"
    assert covered_by(swept(CAR, CAR_PATH), [GOOD_GOING])
    assert features_touched(CAR, CAR_PATH, AVBCW_TABLE) == ["gg-1"]
    assert first_contact(CAR, CAR_PATH, [WOOD, HEDGE]) is None


def test_the_landship_at_y_24_is_off_the_road_at_y_36():
    # "the landship (5 dice) is off road, at y 24 with the road at y 36"
    assert not on_road([{"x": 10.0, "y": 24.0}, {"x": 24.0, "y": 24.0}], [ROAD])


# ---------------------------------------------------------------- rounding and measuring

@pytest.mark.parametrize("value, rounded", [(2.25, 2.3), (2.24, 2.2), (2.35, 2.4), (0.05, 0.1), (0.049, 0.0)])
def test_a_distance_rounds_half_up_to_a_tenth(value, rounded):
    # "A computed distance is rounded half-up to 0.1" before comparison"
    assert round_inches(value) == rounded


def test_a_computed_2_25_rounds_up_despite_float_noise():
    # 1.35² + 1.8² = 5.0625, whose root is 2.25 on paper
    assert measure((0.0, 0.0), (1.35, 1.8)) == 2.3


def test_within_is_at_most_and_more_than_is_strictly_more():
    # "within X" and "X or less" are <= X, "more than X" is > X, after rounding
    assert within((0, 0), (3.0, 0), 3) and not more_than((0, 0), (3.0, 0), 3)
    assert within((0, 0), (3.04, 0), 3)                 # rounds to 3.0
    assert more_than((0, 0), (3.05, 0), 3) and not within((0, 0), (3.05, 0), 3)


def test_extents_0_0_apart_are_in_contact():
    # "extents 0.0 apart are in contact": touching, and 0.04" that rounds to 0.0; 0.05" is 0.1
    left = extent(base(10.0, 10.0))
    assert in_contact(left, extent(base(12.0, 10.0)))
    assert in_contact(left, extent(base(12.04, 10.0)))
    assert not in_contact(left, extent(base(12.05, 10.0)))


def test_closest_and_centre_measures_differ_by_the_bases():
    # two 2"-deep bases, centres 10" apart front to back: 8" between their edges
    a, b = extent(base(10.0, 10.0, w=5.0)), extent(base(10.0, 20.0, w=5.0))
    assert measure(a, b) == 8.0
    assert measure(a, b, how="centre") == 10.0
    with pytest.raises(ValueError):
        measure(a, b, how="nearest")


def test_nearest_and_farthest_points_of_an_extent():
    # ExplosionResolved: a distance "must lie between the nearest and farthest points of that
    # unit's extent from the vehicle": a 10" x 2" base 4" ahead of a point spans 4.0 to
    # sqrt(5² + 6²) = 7.81 -> 7.8
    unit = extent(base(0.0, 5.0, w=10.0, d=2.0))
    assert (measure((0.0, 0.0), unit), farthest((0.0, 0.0), unit)) == (4.0, 7.8)


# ---------------------------------------------------------------- footprints and extents

def test_facing_0_faces_plus_y_and_90_faces_plus_x():
    # "degrees clockwise from +y (0 faces away from the first side's edge, 90 faces +x)"
    assert edge_centre((10, 10), 0, 2.0, 4.0, "F") == (10.0, 12.0)
    assert edge_centre((10, 10), 90, 2.0, 4.0, "F") == (12.0, 10.0)
    assert edge_centre((10, 10), 90, 2.0, 4.0, "R") == (10.0, 9.0)   # clockwise: right is -y
    assert [bearing((0, 0), p) for p in [(0, 1), (1, 0), (0, -1), (-1, 0)]] == [0, 90, 180, 270]


def test_a_footprint_turned_by_90_swaps_width_and_depth():
    # "`w` across the front, turned by `facing`"
    assert footprint((24.0, 8.0), 0, 5.0, 2.0).bounds == (21.5, 7.0, 26.5, 9.0)
    assert footprint((24.0, 8.0), 90, 5.0, 2.0).bounds == (23.0, 5.5, 25.0, 10.5)
    turned = footprint((0, 0), 30, 5.0, 2.0)
    assert turned.area == pytest.approx(10.0) and turned.centroid.coords[0] == pytest.approx((0, 0))


def test_a_turret_offset_is_in_the_hulls_frame():
    # "`turret` {`x`, `y`} (offset in the hull's frame ...)": 1" forward of a hull facing 90 is +x
    assert to_table((10, 10), 90, {"x": 0.0, "y": 1.0}) == (11.0, 10.0)


def test_figures_extent_is_their_round_bases():
    # "Optional `figures` [points] with `figure_base` (diameter) ... the unit's extent is then
    # their bases": bases 1" across at x 0 and 2, so 5 - 2 - 0.5 = 2.5" from (5, 0)
    unit = {"position": {"x": 0.0, "y": 0.0}, "facing": 0, "footprint": {"w": 3.0, "d": 1.0},
            "figures": [{"x": 0.0, "y": 0.0}, {"x": 2.0, "y": 0.0}], "figure_base": 1.0}
    assert measure(extent(unit), (5.0, 0.0)) == 2.5
    assert measure(extent(unit), (1.0, 2.0)) == 1.7      # sqrt(1 + 4) - 0.5 = 1.736
    without_bases = dict(unit, figure_base=None)
    with pytest.raises(ValueError):
        extent(without_bases)


def test_a_figure_count_leaves_the_footprint_as_extent():
    # Mogdonazia's UnitDeployed gives `figures` as a count ("figures": 20): no placed figures
    unit = dict(base(40.0, 24.0, 270, w=10.0, d=2.0), figures=20)
    assert extent(unit).core.equals(footprint((40.0, 24.0), 270, 10.0, 2.0))


# ---------------------------------------------------------------- paths

def test_path_turn_sums_the_smallest_rotations_and_omitted_facings_keep_the_last():
    # "the sum of the smallest rotations between successive facings"; `f` omitted: unchanged
    assert path_turn([350, None, 10]) == 20
    assert path_turn([0, 90, 0]) == 180
    assert path_turn([90], start=0) == 90            # a turn on the spot before moving
    assert path_turn([None, None]) == 0


def test_vertex_turns_are_changes_of_heading():
    assert vertex_turns([(0, 0), (0, 5), (5, 5), (5, 5), (10, 10)]) == [90, 45]


def test_swept_is_the_hull_of_the_base_along_each_segment():
    # a 2" x 2" base moved 10" straight ahead sweeps 2" x 12"
    unit = base(10.0, 10.0)
    region = swept(unit, [{"x": 10.0, "y": 10.0}, {"x": 10.0, "y": 20.0}]).shape
    assert region.area == pytest.approx(24.0)
    assert region.bounds == pytest.approx((9.0, 9.0, 11.0, 21.0))


def test_a_move_stops_where_the_base_meets_a_linear_obstacle():
    # AVBCW.MOVE.TERRAIN: "A unit stops and ends its move if it meets a linear obstacle". A 2"
    # base facing +x meets a hedge at x 15 when its centre is at 14: 4.0" along the path.
    hedge = {"id": "h", "kind": "hedge", "points": [[15.0, 0.0], [15.0, 20.0]]}
    contact = first_contact(base(10.0, 10.0, 90), [{"x": 10.0, "y": 10.0}, {"x": 20.0, "y": 10.0}], [hedge])
    assert (contact.feature, contact.distance, contact.index) == ("h", 4.0, 0)


def test_an_obstacle_touched_at_the_start_does_not_stop_the_move():
    # "... a linear obstacle that it did not begin in contact with"
    start = {"id": "h0", "kind": "hedge", "points": [[11.0, 0.0], [11.0, 20.0]]}
    ahead = {"id": "h1", "kind": "hedge", "points": [[18.0, 0.0], [18.0, 20.0]]}
    path = [{"x": 10.0, "y": 10.0}, {"x": 10.0, "y": 12.0}, {"x": 20.0, "y": 12.0}]
    contact = first_contact(base(10.0, 10.0, 90), path, [start, ahead])
    # second segment: the front (centre + 1) reaches 18 at centre 17, after 2 + 7 inches
    assert (contact.feature, contact.distance, contact.index) == ("h1", 9.0, 1)
    # contact begins just under 0.05" short of touching, where the gap first rounds to 0.0
    assert contact.point == pytest.approx((16.95, 12.0), abs=1e-6)


def test_a_move_stops_on_entering_area_terrain_but_not_inside_it():
    # "It stops upon entering area terrain (e.g. woodland or a building)": a 2" base facing -y
    # from y 45 meets the wood's edge at y 40 when its front (centre - 1) gets there, after 4"
    path = [{"x": 7.0, "y": 45.0}, {"x": 7.0, "y": 30.0}]
    contact = first_contact(base(7.0, 45.0, 180), path, AVBCW_TABLE, kinds={"woodland", "hedge"})
    assert (contact.feature, contact.distance) == ("w-1", 4.0)
    inside = [{"x": 7.0, "y": 35.0}, {"x": 7.0, "y": 33.0}]
    assert first_contact(base(7.0, 35.0, 180), inside, [WOOD]) is None


def test_features_touched_come_in_path_order():
    # UnitMoved: "its terrain (features the swept extent touches, in order)"
    near = {"id": "near", "kind": "rough", "points": [[0, 5], [20, 5], [20, 6], [0, 6]]}
    far = {"id": "far", "kind": "fence", "points": [[0, 15], [20, 15]]}
    untouched = {"id": "aside", "kind": "wall", "points": [[40, 0], [40, 20]]}
    path = [{"x": 10.0, "y": 0.0}, {"x": 10.0, "y": 20.0}]
    assert features_touched(base(10.0, 0.0), path, [untouched, far, near]) == ["near", "far"]


def test_touches_any_says_whether_the_swept_extent_touches_a_feature():
    # Mogdonazia's move class: "rough if any part touches rough", touched at the start or on the way
    on_the_way = {"id": "near", "kind": "rough", "points": [[0, 5], [20, 5], [20, 6], [0, 6]]}
    under_it = {"id": "under", "kind": "rough", "points": [[8, -1], [12, -1], [12, 1], [8, 1]]}
    aside = {"id": "aside", "kind": "rough", "points": [[40, 0], [40, 20], [41, 20], [41, 0]]}
    path = [{"x": 10.0, "y": 0.0}, {"x": 10.0, "y": 20.0}]
    assert touches_any(base(10.0, 0.0), path, [aside, on_the_way])
    assert touches_any(base(10.0, 0.0), path, [under_it])
    assert not touches_any(base(10.0, 0.0), path, [aside])
    assert not touches_any(base(10.0, 0.0), path, [])


def test_on_road_means_within_half_the_width_all_along():
    # "road if all on road, i.e. within `width`/2 of a road's line": 1.5" from y 36, rounded
    assert on_road([(0.0, 37.5), (30.0, 37.5)], [ROAD])
    assert on_road([(0.0, 37.54), (30.0, 36.0)], [ROAD])   # 1.54 rounds to 1.5
    assert not on_road([(0.0, 36.0), (30.0, 37.6)], [ROAD])


def test_a_road_is_its_line_buffered_by_half_its_width():
    shape = feature_shape(ROAD)
    assert shape.covers(Point(10.0, 37.5)) and not shape.covers(Point(10.0, 37.6))
    # a 2"-deep base centred at y 38.5 reaches down to y 37.5, the road's edge; at 38.6 it does not
    assert touching(extent(base(20.0, 38.5)), [WOOD, ROAD]) == ["rd-1"]
    assert touching(extent(base(20.0, 38.6)), [WOOD, ROAD]) == []


# ---------------------------------------------------------------- line of sight

def test_a_hedge_between_two_units_blocks_sight():
    # "This LOS is blocked if this LOS; ... Meets a linear obstacle or similar terrain (e.g. a hedge)"
    result = sight((47.0, 38.0), extent(base(40.0, 38.0)), AVBCW_TABLE)
    assert (result.status, result.blocker, result.why) == ("blocked", "h-1", "linear-obstacle")
    assert result.to_json()["line"][0] == [47.0, 38.0]
    assert sight((47.0, 20.0), extent(base(40.0, 20.0)), AVBCW_TABLE).clear   # past the hedge's end


def test_a_target_3_inches_inside_a_wood_is_seen_and_3_1_is_not():
    # "Passes through more than 3" of area terrain": the wood's edge is x 12; a target whose
    # nearest edge is 3.0" in (x 9) is within 3 ("more than X" is > X); 3.1" in (x 8.9) is not
    target_at = lambda edge: Polygon([(edge - 1, 34), (edge, 34), (edge, 36), (edge - 1, 36)])  # noqa: E731
    seen = sight((20.0, 35.0), target_at(9.0), AVBCW_TABLE)
    assert seen.clear and seen.area == 3.0
    hidden = sight((20.0, 35.0), target_at(8.9), AVBCW_TABLE)
    assert (hidden.status, hidden.why, hidden.area) == ("blocked", "area-terrain", 3.1)


def test_a_friend_0_9_inches_from_the_line_blocks_and_1_1_does_not():
    # "Passes within 1" of a friendly unit": the only line runs along y 10 from x 0 to a target
    # point at x 20; a friend's 2" base centred 1.9" off the line has its edge 0.9" from it
    target = Point(20.0, 10.0)
    near = sight((0.0, 10.0), target, [], {"f-1": extent(base(10.0, 11.9))})
    assert (near.status, near.blocker, near.why) == ("blocked", "f-1", "friend")
    assert sight((0.0, 10.0), target, [], {"f-1": extent(base(10.0, 12.1))}).clear
    # the rounding applies: 1.04" is within 1, 1.05" is 1.1
    assert not sight((0.0, 10.0), target, [], {"f-1": extent(base(10.0, 12.04))}).clear
    assert sight((0.0, 10.0), target, [], {"f-1": extent(base(10.0, 12.05))}).clear


def test_any_part_of_the_target_will_do():
    # "measured from its leader figure to any part/figure in the target unit": a friend hides the
    # target's near half only; the line to its far end passes 1.5" clear of the friend
    target = Polygon([(20, 0), (20, 10), (21, 10), (21, 0)])
    friend = {"f-1": Polygon([(9, -1), (11, -1), (11, 1), (9, 1)])}
    result = sight((0.0, 0.0), target, [], friend)
    assert result.clear and result.line[1][1] > 3.0


def test_sight_over_a_hill_is_unchecked():
    # TableDefined: hill, "neither seed has hill rules, so LOS over hills is unchecked"
    hill = {"id": "hl-1", "kind": "hill", "height": 1, "points": [[9, 5], [11, 5], [11, 15], [9, 15]]}
    result = sight((0.0, 10.0), extent(base(21.0, 10.0)), [hill])
    assert (result.status, result.blocker, result.why) == ("unchecked", "hl-1", "hill")


def test_a_hedge_the_target_lines_is_named_ambiguous():
    # the seed blocks LOS that "Meets a linear obstacle" yet gives -1 to a target "behind a 'soft'
    # obstacle (fence, hedge, etc.)"; the page names no reading, so neither is picked
    hedge = {"id": "h", "kind": "hedge", "points": [[19.0, 0.0], [19.0, 20.0]]}
    result = sight((0.0, 10.0), extent(base(20.0, 10.0)), [hedge])   # the base's edge is on x 19
    assert (result.status, result.blocker) == ("ambiguous", "h")
    far_hedge = {"id": "h", "kind": "hedge", "points": [[15.0, 0.0], [15.0, 20.0]]}
    assert sight((0.0, 10.0), extent(base(20.0, 10.0)), [far_hedge]).status == "blocked"


def test_an_area_flag_overrides_the_kind():
    # "Flags override the kind's defaults": a hill flagged `area` counts as area terrain
    hill = {"id": "hl", "kind": "hill", "area": True, "points": [[5, 5], [10, 5], [10, 15], [5, 15]]}
    assert sight((0.0, 10.0), extent(base(21.0, 10.0)), [hill]).why == "area-terrain"


# ---------------------------------------------------------------- arcs

def test_quadrant_and_narrow_arcs():
    # "45° either side (`avbcw-arc=quadrant`)" or 22.5 (`narrow`): a point 30° off the front
    target = Point(10 * math.sin(math.radians(30)), 10 * math.cos(math.radians(30)))
    assert in_arc((0, 0), 0, target, 0, 45) and not in_arc((0, 0), 0, target, 0, 22.5)
    # AVBCW vehicle arcs R (offset 90): the same point is 60° from R's centre
    assert not in_arc((0, 0), 0, target, 90, 45)
    assert in_arc((0, 0), 90, Point(0, -10), 90, 45)      # facing +x, the right is -y


def test_a_target_is_in_an_arc_if_any_part_of_it_is():
    # "A target is in an arc if any part of it is": a base whose centre is 50° off but whose
    # near corner reaches inside 45°, and a wide base straddling the arc with no corner in it
    corner_in = footprint((10 * math.sin(math.radians(50)), 10 * math.cos(math.radians(50))), 0, 4.0, 4.0)
    assert in_arc((0, 0), 0, corner_in, 0, 45)
    straddling = Polygon([(-30, 5), (30, 5), (30, 6), (-30, 6)])
    assert in_arc((0, 0), 0, straddling, 0, 10)
    assert not in_arc((0, 0), 0, straddling, 180, 45)


def test_a_round_base_counts_by_its_rim():
    # a 1"-radius base 10" away at 50°: its rim reaches 50 - asin(0.1) = 44.3°, inside 45
    centre = (10 * math.sin(math.radians(50)), 10 * math.cos(math.radians(50)))
    unit = {"position": {"x": centre[0], "y": centre[1]}, "facing": 0, "footprint": {"w": 2, "d": 2},
            "figures": [{"x": centre[0], "y": centre[1]}], "figure_base": 2.0}
    assert in_arc((0, 0), 0, extent(unit), 0, 45)
    assert not in_arc((0, 0), 0, extent(unit), 0, 40)


# ---------------------------------------------------------------- reach and table

def test_reach_is_the_allowance_circle_less_impassable_ground():
    blocked = Polygon([(10, 10), (14, 10), (14, 14), (10, 14)])
    region = reach_region(base(10.0, 10.0), 6.0, [blocked])
    assert region.contains(Point(10.0, 15.9)) and not region.contains(Point(10.0, 16.1))
    assert not region.contains(Point(12.0, 12.0))
    assert region.area == pytest.approx(math.pi * 36 - 16, rel=1e-3)
    clipped = reach_region(base(2.0, 2.0), 6.0, [], table=(48.0, 48.0))
    assert clipped.bounds == pytest.approx((0.0, 0.0, 8.0, 8.0))


def test_a_point_off_the_table_is_not_on_it():
    # "a point off the table is a format error"
    assert on_table({"x": 48.0, "y": 0.0}, 48.0, 48.0)
    assert not on_table({"x": 48.1, "y": 10.0}, 48.0, 48.0) and not on_table((1.0, -0.1), 48.0, 48.0)
