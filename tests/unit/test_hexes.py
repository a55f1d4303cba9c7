"""Hex geometry: odd-q locations, cube coordinates, distance, neighbours, lines, map placement."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from domain.board.hexes import (
    Placement, PlacementError, cube_to_offset, distance, from_cube, line, lines, neighbours, offset_to_cube,
    parse_loc, to_cube)

locs = st.builds(lambda c, r: f"5:{c:02d}{r:02d}", st.integers(1, 98), st.integers(1, 98))
TWO_MAPS = Placement.from_maps([{"id": "5", "origin": [0, 0], "extent": [[0, 1], [39, 30]]},
                                {"id": "6", "origin": [40, 0], "extent": [[0, 1], [39, 30]]}])


def test_game_log_example_neighbours_of_6613():
    # game-log.md, Locations: 5:6613 touches 6612, 6614, 6512, 6513, 6712 and 6713
    assert sorted(neighbours("5:6613")) == ["5:6512", "5:6513", "5:6612", "5:6614", "5:6712", "5:6713"]


def test_odd_columns_sit_half_a_hex_lower():
    # an odd column's neighbours in the next column are the same row and the row below
    assert {"5:6613", "5:6614"} <= set(neighbours("5:6713"))
    assert "5:6612" not in neighbours("5:6713")


def test_sturmtruppen_example_paths_are_adjacent():
    # Infiltration bonus of Sturmtruppen squads: 6713 -> 6613 or 6712, ending in 6612 or 6512
    for path in (["5:6713", "5:6613", "5:6612"], ["5:6713", "5:6613", "5:6512"], ["5:6713", "5:6712", "5:6612"]):
        assert all(distance(a, b) == 1 for a, b in zip(path, path[1:]))


def test_parse_and_cube_round_trip():
    assert parse_loc("5:6613") == ("5", 66, 13)
    with pytest.raises(ValueError):
        parse_loc("5:661")
    assert from_cube(to_cube("5:0708"), map_id="5") == "5:0708"


def test_two_maps_side_by_side():
    # map 6 is placed 40 columns to the right: its column 00 touches map 5's column 39
    assert distance("5:3910", "6:0010", TWO_MAPS) == 1
    assert distance("5:0110", "6:0110", TWO_MAPS) == 40
    assert "6:0010" in neighbours("5:3910", TWO_MAPS)
    path = line("5:3810", "6:0210", TWO_MAPS)
    assert len(path) == 5 and path[2] == "6:0010" and path[-1] == "6:0210"


def test_an_odd_origin_column_is_refused():
    with pytest.raises(PlacementError):
        Placement.from_maps([{"id": "5", "origin": [3, 0]}])


def test_line_along_a_hexside_yields_both_sides():
    # 0202 -> 0402 runs along the hexside between 0301 and 0302
    paths = lines("5:0202", "5:0402")
    assert {p[1] for p in paths} == {"5:0301", "5:0302"}


@given(st.integers(-50, 50), st.integers(-50, 50))
def test_offset_cube_round_trip(col, row):
    assert cube_to_offset(offset_to_cube(col, row)) == (col, row)
    assert sum(offset_to_cube(col, row)) == 0


@settings(max_examples=200)
@given(locs, locs, locs)
def test_distance_is_a_metric(a, b, c):
    assert distance(a, b) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(locs)
def test_neighbours_are_symmetric_and_at_distance_one(a):
    for n in neighbours(a):
        assert a in neighbours(n)
        assert distance(a, n) == 1


@settings(max_examples=200)
@given(locs, locs)
def test_line_is_connected_and_as_long_as_the_distance(a, b):
    path = line(a, b)
    assert path[0] == a and path[-1] == b
    assert len(path) == distance(a, b) + 1
    assert all(distance(x, y) == 1 for x, y in zip(path, path[1:]))
