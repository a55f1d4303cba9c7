"""Line of sight: what blocks it and what does not, from the Infernal Machines text."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from domain.board.hexes import line
from domain.board.los import sight
from domain.board.state import BoardState, UnitState

locs = st.builds(lambda c, r: f"5:{c:02d}{r:02d}", st.integers(1, 14), st.integers(1, 14))


def board(hexes=None, hexsides=None, markers=(), units=()) -> BoardState:
    state = BoardState(maps=["5"], hexes={k: {"terrain": "clear", "features": [], "elevation": 0, **v}
                                          for k, v in (hexes or {}).items()},
                       hexsides=list(hexsides or []))
    state.markers = [{"marker": m, "location": loc} for m, loc in markers]
    for u in units:
        state.units[u.unit] = u
    return state


def test_open_ground_is_clear():
    assert sight(board(), "5:0505", "5:0510").clear


def test_a_wood_between_ground_units_blocks():
    result = sight(board({"5:0507": {"terrain": "wood"}}), "5:0505", "5:0510")
    assert not result.clear and result.blocker == "5:0507"


def test_a_town_without_storeys_is_as_high_as_a_wood():
    # Multi-storey buildings: buildings without storeys have the same height as wood hexes
    result = sight(board({"5:0507": {"terrain": "town"}}), "5:0505", "5:0510")
    assert (result.clear, result.rule) == (False, "IM.TER.MS.LOS")


def test_a_high_observer_sees_over_a_wood_near_it():
    # heights against elevation: eye 2 over a wood (height 1) one hex out, target four hexes away at 0
    state = board({"5:0505": {"elevation": 2, "terrain": "hill"}, "5:0506": {"terrain": "wood"}})
    assert sight(state, "5:0505", "5:0509").clear
    assert not sight(board({"5:0506": {"terrain": "wood"}}), "5:0505", "5:0509").clear


def test_a_multi_storey_building_blocks_whatever_the_heights():
    # Multi-storey buildings: they block any line of sight traced through them
    state = board({"5:0505": {"elevation": 3}, "5:0507": {"terrain": "town", "features": ["multi-storey"]}})
    result = sight(state, "5:0505", "5:0510")
    assert (result.clear, result.rule, result.blocker) == (False, "IM.TER.MS.LOS", "5:0507")


RIDGE = [{"between": ["5:0507", "5:0508"], "feature": "ridgeline"}]


def test_a_non_adjacent_ridgeline_blocks_ground_units():
    # Ridgelines: units at ground level may not spot or observe over a non-adjacent ridgeline
    result = sight(board(hexsides=RIDGE), "5:0505", "5:0510")
    assert (result.clear, result.rule, result.blocker) == (False, "IM.TER.RIDGE.LOS", "5:0507|5:0508")


def test_an_observer_adjacent_to_the_ridgeline_sees_over_it():
    assert sight(board(hexsides=RIDGE), "5:0507", "5:0510").clear


def test_hills_multi_storey_buildings_and_aircraft_see_over_ridgelines():
    # Ridgelines: non-adjacent ridgelines do not block aircraft, units on hills or in multi-storey buildings
    assert sight(board({"5:0505": {"terrain": "hill", "elevation": 1}}, RIDGE), "5:0505", "5:0510").clear
    assert sight(board({"5:0505": {"terrain": "town", "features": ["multi-storey"]}}, RIDGE),
                 "5:0505", "5:0510").clear
    assert sight(board(hexsides=RIDGE), "5:0505", "5:0510", "aircraft").clear
    assert sight(board(hexsides=RIDGE), "5:0505", "5:0510", observer_level=2).clear


def test_stone_walls_and_tanks_do_not_block():
    # Stone walls: units may freely spot or observe through them; tanks no longer block LOS
    wall = [{"between": ["5:0507", "5:0508"], "feature": "stone-wall"}]
    tank = UnitState("t1", "german", "tank", location="5:0507")
    assert sight(board(hexsides=wall, units=[tank]), "5:0505", "5:0510").clear


def test_gunboats_and_steamboats_block_barges_do_not():
    # Naval units, Combat: gunboats and steamboats block any LOS traced through their hex; barges do not
    gunboat = UnitState("g1", "german", "boat", location="5:0507", attrs={"kind": "gunboat"})
    barge = UnitState("b1", "german", "boat", location="5:0507", attrs={"kind": "barge"})
    result = sight(board(units=[gunboat]), "5:0505", "5:0510")
    assert (result.clear, result.rule) == (False, "IM.NAV.LOS")
    assert sight(board(units=[barge]), "5:0505", "5:0510").clear


def test_smoke_blocks_through_into_and_out_of_its_hex():
    # Use of the forward observer: not through smoke; Smoke: units in smoke neither see out nor are seen
    assert sight(board(markers=[("smoke", "5:0507")]), "5:0505", "5:0510").rule == "IM.ART.FO.SMOKE"
    assert sight(board(markers=[("smoke", "5:0510")]), "5:0505", "5:0510").rule == "IM.ART.AMMO.SMOKE.EFFECT"
    assert not sight(board(markers=[("smoke", "5:0505")]), "5:0505", "5:0510").clear


def test_a_line_along_a_hexside_is_blocked_only_if_both_sides_block():
    # 0202 -> 0402 passes between 0301 and 0302 (docs/maps.md: the hexside convention)
    one_side = board({"5:0301": {"terrain": "wood"}})
    assert sight(one_side, "5:0202", "5:0402").clear
    assert not sight(one_side, "5:0202", "5:0402", spine="either-side-blocks").clear
    both = board({"5:0301": {"terrain": "wood"}, "5:0302": {"terrain": "wood"}})
    assert not sight(both, "5:0202", "5:0402").clear


obstacles = st.dictionaries(locs, st.sampled_from(["wood", "town", "clear"]), max_size=12)


@settings(max_examples=150)
@given(obstacles, locs, locs)
def test_sight_is_symmetric_on_flat_ground(terrain, a, b):
    state = board({loc: {"terrain": t} for loc, t in terrain.items()})
    assert sight(state, a, b).clear == sight(state, b, a).clear


@settings(max_examples=150)
@given(obstacles, locs, locs, locs, st.sampled_from(["wood", "smoke", "multi-storey", "ridgeline"]))
def test_adding_a_blocker_never_clears_a_line(terrain, a, b, where, blocker):
    before = board({loc: {"terrain": t} for loc, t in terrain.items()})
    after = board({loc: {"terrain": t} for loc, t in terrain.items()})
    if blocker == "wood":
        after.hexes[where] = {"terrain": "wood", "features": [], "elevation": 0}
    elif blocker == "multi-storey":
        after.hexes[where] = {"terrain": "town", "features": ["multi-storey"], "elevation": 0}
    elif blocker == "smoke":
        after.markers.append({"marker": "smoke", "location": where})
    else:
        path = line(a, b)
        if len(path) > 2:
            after.hexsides.append({"between": [path[1], path[2]], "feature": "ridgeline"})
    if not sight(before, a, b).clear:
        assert not sight(after, a, b).clear
