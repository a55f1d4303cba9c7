"""Carrying units: the counters' circled capacity, trucks, motorcycles, the Mk V* and Mk IX, the Benz. Each
expectation quotes the rulebook."""
from __future__ import annotations

from domain.board.state import fold
from tests.vehicle_helpers import BRIT, GER, VehicleLog, verdicts

A, B, C, D = "5:0502", "5:0503", "5:0504", "5:0505"


def board_of(g: VehicleLog):
    return fold(g.lines)


def embark(g: VehicleLog, carrier: str, units: list[str], side: str = BRIT) -> int:
    return g.add("Embarked", {"carrier": carrier, "units": units}, side=side)["seq"]


def test_a_truck_carries_a_platoon_or_four_squads_or_four_crews():
    # Trucks: "Each truck counter may carry up to one platoon of infantry or machine gunners, or up to four squads, or
    # four crews, plus the weapons carried by these units."
    g = VehicleLog()
    g.unit("t1", BRIT, "light-vehicle", A, model="Truck")
    g.unit("t2", BRIT, "light-vehicle", A, model="Truck")
    for name, cls in (("p1", "infantry-platoon"), ("p2", "mg-platoon"), ("s1", "infantry-squad"), ("s2", "infantry-squad"),
                      ("s3", "infantry-squad"), ("s4", "infantry-squad"), ("s5", "infantry-squad"),
                      ("w1", "support-weapon")):
        g.unit(name, BRIT, cls, A)
    g.at(1, "first-foot-movement", BRIT)
    platoon = embark(g, "t1", ["p1", "w1"])
    second = embark(g, "t1", ["p2"])
    squads = embark(g, "t2", ["s1", "s2", "s3", "s4"])
    fifth = embark(g, "t2", ["s5"])
    report = g.audit()
    assert verdicts(report, "IM.LV.TRUCK.CAPACITY", platoon) == ["ok"]
    assert verdicts(report, "IM.LV.TRUCK.CAPACITY", second) == ["violation"]
    assert verdicts(report, "IM.LV.TRUCK.CAPACITY", squads) == ["ok"]
    assert verdicts(report, "IM.LV.TRUCK.CAPACITY", fifth) == ["violation"]


def test_passengers_move_with_their_carrier_and_leave_it():
    # aboard, a unit goes where its carrier goes (the board's fold of Embarked / Disembarked)
    g = VehicleLog()
    g.unit("t1", BRIT, "light-vehicle", A, model="Truck")
    g.unit("p1", BRIT, "infantry-platoon", A)
    g.at(1, "first-foot-movement", BRIT)
    embark(g, "t1", ["p1"])
    g.at(2, "vehicle-movement", BRIT)
    g.move("t1", [A, B, C])
    assert board_of(g).units["p1"].location == C
    g.at(2, "first-foot-movement", BRIT)
    g.add("Disembarked", {"carrier": "t1", "units": ["p1"]}, side=BRIT)
    g.at(3, "vehicle-movement", BRIT)
    g.move("t1", [C, D])
    board = board_of(g)
    assert board.units["p1"].location == C and "aboard" not in board.units["p1"].attrs


def test_unarmed_motorcycles_carry_one_squad():
    # Motorcycles: "Each unarmed motorcycle counter may carry one squad-sized unit."
    g = VehicleLog()
    g.unit("m1", BRIT, "light-vehicle", A, model="Motorcycle")
    g.unit("m2", BRIT, "light-vehicle", A, model="Motorcycle")
    g.unit("s1", BRIT, "infantry-squad", A)
    g.unit("s2", BRIT, "infantry-squad", A)
    g.unit("p1", BRIT, "infantry-platoon", A)
    g.at(1, "first-foot-movement", BRIT)
    one = embark(g, "m1", ["s1"])
    two = embark(g, "m1", ["s2"])
    platoon = embark(g, "m2", ["p1"])
    report = g.audit()
    assert verdicts(report, "IM.LV.MOTO.UNARMED", one) == ["ok"]
    assert verdicts(report, "IM.LV.MOTO.UNARMED", two) == ["violation"]
    assert verdicts(report, "IM.LV.MOTO.UNARMED", platoon) == ["violation"]


def test_the_mk_v_star_carries_one_squad_the_mk_ix_two():
    # "The Mark V* could carry only one squad, and the Mark IX could carry up to two squads."
    g = VehicleLog()
    g.unit("star", BRIT, "tank", A, model="Mk V*")
    g.unit("nine", BRIT, "tank", A, model="Mk IX")
    for name in ("s1", "s2", "s3", "s4"):
        g.unit(name, BRIT, "infantry-squad", A)
    g.at(1, "vehicle-movement", BRIT)
    star_two = embark(g, "star", ["s1", "s2"])
    nine_two = embark(g, "nine", ["s3", "s4"])
    report = g.audit()
    assert verdicts(report, "IM.VEH.MKVSTAR_IX.CAPACITY", star_two) == ["violation"]
    assert verdicts(report, "IM.VEH.MKVSTAR_IX.CAPACITY", nine_two) == ["ok"]


def test_squads_dropped_off_are_sick_that_turn():
    # "during the turn in which they are dropped off, their morale value is reduced by 1 ... Their morale returns to the
    # printed value the following turn. If a squad fires while in 'sick' mode, the SACRT die roll is modified by +1."
    g = VehicleLog()
    g.unit("star", BRIT, "tank", A, model="Mk V*")
    g.unit("s1", BRIT, "infantry-squad", A, morale=4, firepower=1)
    g.unit("g1", GER, "infantry-platoon", C)
    g.at(1, "vehicle-movement", BRIT)
    embark(g, "star", ["s1"])
    g.at(2, "vehicle-movement", BRIT)
    g.add("Disembarked", {"carrier": "star", "units": ["s1"]}, side=BRIT)
    g.at(2, "offensive-small-arms-fire", BRIT)
    _, plain = g.small_arms("a1", ["s1"], C, BRIT, firepower=1)
    _, sick = g.small_arms("a2", ["s1"], C, BRIT, firepower=1, mods=(1,))
    g.at(2, "close-combat", BRIT)
    printed = g.add("MoraleChecked", {"units": ["s1"], "morale": 4, "passed": True}, side=BRIT)["seq"]
    reduced = g.add("MoraleChecked", {"units": ["s1"], "morale": 3, "passed": True}, side=BRIT)["seq"]
    g.at(3, "offensive-small-arms-fire", BRIT)
    _, next_turn = g.small_arms("a3", ["s1"], C, BRIT, firepower=1)
    report = g.audit()
    assert verdicts(report, "IM.VEH.MKVSTAR_IX.SICK", plain) == ["mismatch"]
    assert verdicts(report, "IM.VEH.MKVSTAR_IX.SICK", sick) == ["ok"]
    assert verdicts(report, "IM.VEH.MKVSTAR_IX.SICK", printed) == ["violation"]
    assert verdicts(report, "IM.VEH.MKVSTAR_IX.SICK", reduced) == ["ok"]
    assert verdicts(report, "IM.VEH.MKVSTAR_IX.SICK", next_turn) == []


def test_benz_passengers_dismount_to_fight():
    # Benz: "it could carry a squad-sized unit ... Passenger units may not fight from the Benz; they must first
    # dismount."
    g = VehicleLog()
    g.unit("benz", GER, "armoured-car", A, model="Benz")
    g.unit("s1", GER, "infantry-squad", A, firepower=1)
    g.unit("s2", GER, "infantry-squad", A, firepower=1)
    g.unit("b1", BRIT, "infantry-platoon", C)
    g.at(1, "vehicle-movement", GER)
    one = embark(g, "benz", ["s1"], GER)
    two = embark(g, "benz", ["s2"], GER)
    g.at(1, "offensive-small-arms-fire", GER)
    fired, _ = g.small_arms("a1", ["s1"], C, GER, firepower=1)
    report = g.audit()
    assert verdicts(report, "IM.VEH.BENZ", one) == ["ok"]
    assert verdicts(report, "IM.VEH.BENZ", two) == ["violation"]
    assert verdicts(report, "IM.VEH.BENZ", fired) == ["violation"]
    assert board_of(g).units["benz"].attrs["movement_class"] == "tracked"    # "as a tank for movement"


def test_a_counters_circled_capacity():
    # New Vehicles: "A carrying capacity is now indicated by a figure in a circle ... If this figure is red it shows how
    # many squad-sized units can be carried; if it is black, the number of platoon-sized units."
    g = VehicleLog()
    g.unit("car", BRIT, "armoured-car", A, capacity={"platoons": 1})
    g.unit("car2", BRIT, "armoured-car", A)
    g.unit("p1", BRIT, "infantry-platoon", A)
    g.unit("p2", BRIT, "infantry-platoon", A)
    g.at(1, "first-foot-movement", BRIT)
    one = embark(g, "car", ["p1"])
    two = embark(g, "car", ["p2"])
    unknown = embark(g, "car2", ["p2"])
    report = g.audit()
    assert verdicts(report, "IM.VEH.CAPACITY", one) == ["ok"]
    assert verdicts(report, "IM.VEH.CAPACITY", two) == ["violation"]
    assert verdicts(report, "IM.VEH.CAPACITY", unknown) == ["unverifiable"]
