"""The replay's machines on a hex board: a vehicle's facing, its crew and damage state, an armoured
train as its cars, a boat on its river (docs/dashboard.md, "The machines")."""
from __future__ import annotations

import math

import pytest

from dashboard.data import GameView
from dashboard.fire_panel import fire_panel
from dashboard.hex_machines import MACHINE_TRACES, train_cars
from dashboard.renderers import facings_at, fire_at, hex_at
from domain.rulesets import find
from tests.unit.test_dashboard_army import text_of

SIDES = {"british": {"nation": "british", "bloc": "allied"}, "german": {"nation": "german", "bloc": "central"}}


def ev(seq, kind, data, turn=1, phase="vehicle-movement", side="british"):
    return {"v": 1, "game": "g", "seq": seq, "turn": turn, "phase": phase, "side": side, "type": kind, "data": data}


def game(*events):
    """A map with a river hex (5:6412) and a railway, then `events` (numbered from 3)."""
    lines = [
        ev(1, "GameStarted", {"ruleset": "infernal-machines", "scenario": "t", "date": "1918-08", "sides": SIDES},
           0, "setup", None),
        ev(2, "MapDefined", {"maps": ["5"], "hexes": {
            "5:6412": {"terrain": "river"}, "5:6613": {"features": ["railway"]}, "5:6612": {"features": ["railway"]}}},
           0, "setup", None),
    ]
    return GameView("g", lines + [dict(e, seq=3 + i) for i, e in enumerate(events)])


def deploy(unit, cls, location, side="british", **more):
    return ev(0, "UnitDeployed", {"unit": unit, "class": cls, "location": location, **more}, 0, "setup", side)


def named(traces, name):
    return next(t for t in traces if t["name"] == name)


def hover(traces, unit):
    return next(h for h in named(traces, "units")["hovertext"] if h.startswith(f"{unit} "))


# -- facing ------------------------------------------------------------------------------------------
def test_the_rule_systems_facings_read_the_deployment_a_moves_facing_and_else_its_last_step():
    # game-log-extensions.md: UnitDeployed.facing, UnitMoved facing? (0-5, 0 = north, clockwise);
    # "without one after a move, the direction of its last step"
    fold = find("infernal-machines").facings()
    deployed = deploy("t-1", "tank", "5:6613", facing=1)
    assert fold([deployed], []) == {"t-1": 60.0}
    south = ev(4, "UnitMoved", {"unit": "t-1", "path": ["5:6613", "5:6614"]})
    assert fold([deployed, south], []) == {"t-1": 180.0}
    turned = ev(5, "UnitMoved", {"unit": "t-1", "path": ["5:6614", "5:6613"], "facing": 4})
    assert fold([deployed, south, turned], []) == {"t-1": 240.0}


def test_a_vehicle_is_drawn_with_an_arrow_toward_its_facing():
    gv = game(deploy("t-1", "tank", "5:6613", facing=2), deploy("b-1", "infantry-platoon", "5:6513", facing=1))
    traces, _ = hex_at(gv, 4, False)
    arrows = named(traces, "facing")
    assert arrows["hovertext"] == ["t-1 faces south-east (120°)"], "only vehicles carry an arrow"
    x, y = gv.layout.center("5:6613")
    assert arrows["marker"]["angle"] == [120.0]
    assert math.atan2(arrows["x"][0] - x, arrows["y"][0] - y) == pytest.approx(math.radians(120))
    assert facings_at(gv, 4) == {"t-1": 120.0, "b-1": 60.0}


# -- crew and damage ---------------------------------------------------------------------------------
def test_a_vehicles_hover_says_its_state_crew_and_the_hits_recorded_against_it():
    gv = game(deploy("t-1", "tank", "5:6613", facing=0, attrs={"model": "Mark IV male"}),
              deploy("c-1", "crew", "5:6613", attrs={"vehicle": "t-1"}),
              deploy("g-at", "support-weapon", "5:6610", side="german", attrs={"weapon": "atr"}),
              ev(0, "UnitStatusChanged", {"unit": "t-1", "status": "broken-down"}),
              ev(0, "AntiTankFired", {"attack": "at-1", "firers": ["g-at"], "target": "5:6613", "target_unit": "t-1"},
                 phase="defensive-anti-tank-fire", side="german"),
              ev(0, "AntiTankResolved", {"attack": "at-1", "results": [{"unit": "t-1", "result": "engine-hit"}]},
                 phase="defensive-anti-tank-fire", side="german"))
    traces, highlight = hex_at(gv, 8, False)
    said = hover(traces, "t-1")
    for words in ("model Mark IV male", "faces north (0°)", "state: broken down", "crew: c-1 (crew)",
                  "hits recorded: engine-hit at event 8"):
        assert words in said
    assert highlight["fire"].outcome == ("t-1: engine-hit",) and highlight["fire"].hits == 1
    before, _ = hex_at(gv, 6, False)
    assert "no hits recorded" in hover(before, "t-1") and "engine-hit" not in hover(before, "t-1")


# -- trains and boats -------------------------------------------------------------------------------
def test_an_armoured_train_is_drawn_as_its_cars_behind_the_locomotive_with_their_loads():
    # Armoured Trains: "a locomotive plus one to three cars"; a hit names its car (game-log-extensions.md)
    gv = game(deploy("tr-1", "armoured-train", "5:6613", facing=0, attrs={"cars": 2, "protection": 2}),
              deploy("tr-crew", "crew", "5:6613", attrs={"aboard": "tr-1", "car": 0}),
              deploy("b-mg", "mg-platoon", "5:6613", attrs={"aboard": "tr-1", "car": 2}),
              deploy("g-gun", "artillery-gun", "5:6610", side="german"),
              ev(0, "AntiTankFired", {"attack": "at-1", "firers": ["g-gun"], "target": "5:6613"},
                 phase="defensive-anti-tank-fire", side="german"),
              ev(0, "AntiTankResolved", {"attack": "at-1", "results": [{"unit": "tr-1", "result": "hit", "car": 2}]},
                 phase="defensive-anti-tank-fire", side="german"))
    traces, _ = hex_at(gv, 8, False)
    cars = named(traces, "train-cars")
    assert cars["text"] == ["1", "2"]
    x, y = gv.layout.center("5:6613")
    assert all(cy < y for cy in cars["y"]) and cars["y"][1] < cars["y"][0], "behind a train facing north: south"
    assert cars["hovertext"][1] == "tr-1 car 2: b-mg (mg-platoon); hit: hit at event 8"
    assert "tr-1 locomotive: tr-crew (crew)" in hover(traces, "tr-1")
    train = gv.board(8).units["tr-1"]
    assert [car for car, _ in train_cars(gv.board(8), train, {})] == [0, 1, 2]


def test_a_boat_is_ringed_and_its_hover_says_whether_it_is_on_a_river():
    gv = game(deploy("gb-1", "boat", "5:6412", attrs={"kind": "gunboat"}),
              deploy("gb-2", "boat", "5:6613", attrs={"kind": "barge"}))
    traces, _ = hex_at(gv, 4, False)
    assert len(named(traces, "boats")["x"]) == 2
    assert "gunboat on the river" in hover(traces, "gb-1")
    assert "barge, not on a river hex" in hover(traces, "gb-2")


def test_a_board_without_machines_leaves_their_traces_empty():
    gv = game(deploy("b-1", "infantry-platoon", "5:6513"))
    traces, _ = hex_at(gv, 3, False)
    assert all(not named(traces, name)["x"] for name in MACHINE_TRACES)


# -- a vehicle's line of fire -------------------------------------------------------------------------
@pytest.mark.parametrize("target, bearing, off", [("5:6610", 0, 0), ("5:6712", 60, 60), ("5:6616", 180, 180)])
def test_a_vehicles_line_of_fire_says_how_far_off_its_facing_it_leaves(target, bearing, off):
    # 5:6613's neighbours, clockwise from north: 6612, 6712, 6713, 6614, 6513, 6512 (game-log.md, Locations)
    gv = game(deploy("t-1", "tank", "5:6613", facing=0), deploy("g-1", "infantry-platoon", target, side="german"),
              ev(0, "SmallArmsFired", {"attack": "a-1", "firers": ["t-1"], "target": target},
                 phase="offensive-small-arms-fire"))
    (line,) = fire_at(gv, 5, False).lines
    assert (line.facing, line.bearing, line.off_facing) == (0.0, pytest.approx(bearing), pytest.approx(off))
    said = text_of(fire_panel(fire_at(gv, 5, False), [], [], []))
    assert f"the line leaves at {bearing}°: {off}° off its facing" in said


def test_a_foot_units_line_carries_no_facing():
    gv = game(deploy("b-1", "infantry-platoon", "5:6613", facing=0),
              ev(0, "Spotted", {"spotter": "b-1", "target": "5:6610", "spotted": True}, phase="offensive-small-arms-fire"))
    assert fire_at(gv, 4, False).lines[0].off_facing is None
