"""The Mine Clearer, the Bridge Layer, the 3-Pounder armoured car and the Mk. I Gun Carrier (IM.VEH): each
expectation quotes the vehicle's section of the text (and EC-37)."""
from __future__ import annotations

from tests.vehicle_helpers import BRIT, GER, VehicleLog, failing, verdicts

A, M, C, D, E = "5:0502", "5:0503", "5:0504", "5:0505", "5:0506"
COSTS = {"MOVEMENT": {"tracked": {"clear": 1, "river": 2}, "wheeled": {"clear": 1}, "foot": {"clear": 1}}}


def test_the_mine_clearer_clears_the_way():
    # "The mine clearer is not affected by enemy minefields. The tank simply has to enter a minefield hexagon to clear it.
    # Friendly units may then enter the hexagon safely with no further effect." OPTIONAL RULE: "allow friendly units to
    # follow only these 'paths' through the minefield created by the mine clearer"
    g = VehicleLog(options=["IM.VEH.MINECLEARER.PATH"])
    g.marker("minefield", M)
    g.unit("mc", BRIT, "tank", A, model="Mine Clearer")
    g.unit("b1", BRIT, "infantry-platoon", A)
    g.unit("b2", BRIT, "infantry-platoon", "5:0603")
    g.at(1, "vehicle-movement", BRIT)
    g.move("mc", [A, M, C])
    clearer_roll = g.die("LS.MINEFIELD", 3, "mc", BRIT)
    g.at(1, "first-foot-movement", BRIT)
    along = g.move("b1", [A, M, C])["seq"]
    friend_roll = g.die("LS.MINEFIELD", 3, "b1", BRIT)
    astray = g.move("b2", ["5:0603", M])["seq"]
    report = g.audit()
    assert verdicts(report, "IM.VEH.MINECLEARER.CLEAR", clearer_roll) == ["violation"]
    assert verdicts(report, "IM.VEH.MINECLEARER.CLEAR", friend_roll) == ["violation"]
    assert verdicts(report, "IM.VEH.MINECLEARER.PATH", along) == ["ok"]
    assert verdicts(report, "IM.VEH.MINECLEARER.PATH", astray) == ["violation"]


def test_the_bridge_layer_carries_then_lays_its_bridge():
    # "it loses 1 movement point from its normal movement allowance when carrying the bridge ... When the tank reaches a
    # river or trench hexagon, it may stop and deploy the bridge ... Once placed, the bridge cannot be picked up or
    # reused in any way. Once the bridge has been dropped, the tank becomes a standard male Mk. V again"
    g = VehicleLog(hexes={E: {"terrain": "river"}})
    g.unit("bl", BRIT, "tank", A, model="Bridge Layer", movement=3)
    g.at(1, "vehicle-movement", BRIT)
    three = g.move("bl", [A, M, C, D])["seq"]
    g.at(2, "vehicle-movement", BRIT)
    two = g.move("bl", [D, "5:0504", D])["seq"]
    laid = g.marker("bridge", E, vehicle="bl").lines[-1]["seq"]
    again = g.marker("bridge", "5:0507", vehicle="bl").lines[-1]["seq"]
    g.at(3, "vehicle-movement", BRIT)
    free = g.move("bl", [D, "5:0504", M, A])["seq"]
    g.at(3, "first-foot-movement", BRIT)
    lifted = g.add("MarkerRemoved", {"marker": "bridge", "location": E})["seq"]
    report = g.audit_with(COSTS)
    assert verdicts(report, "IM.VEH.BRIDGELAYER.CARRY", three) == ["violation"]
    assert verdicts(report, "IM.VEH.BRIDGELAYER.CARRY", two) == ["ok"]
    assert verdicts(report, "IM.VEH.BRIDGELAYER.DEPLOY", laid) == ["ok"]
    assert verdicts(report, "IM.VEH.BRIDGELAYER.DEPLOY", again) == ["violation"]
    assert verdicts(report, "IM.VEH.BRIDGELAYER.CARRY", free) == []
    assert verdicts(report, "IM.VEH.BRIDGELAYER.DEPLOY", lifted) == ["violation"]
    assert verdicts(g.audit(), "IM.VEH.BRIDGELAYER.CARRY", three) == ["unverifiable"]    # the costs: the pack's


def test_a_laid_bridge_is_crossed_as_clear_terrain():
    # The Mk. V** "Bridge Layer": "When the tank reaches a river or trench hexagon, it may stop and deploy the bridge
    # across the hexagon ... Friendly units and vehicles may cross the bridge, treating the hexagon as clear terrain."
    costs = {"MOVEMENT": {"tracked": {"clear": 1, "river": None}, "foot": {"clear": 1, "river": 2}}}
    g = VehicleLog(hexes={E: {"terrain": "river"}})
    g.unit("bl", BRIT, "tank", D, model="Bridge Layer", movement=3)
    g.unit("mk5", BRIT, "tank", C, model="Mk V", movement=3)
    g.unit("inf", BRIT, "infantry-platoon", D, movement=1)
    g.unit("a7v", GER, "tank", "5:0508", model="A7V", movement=3)
    g.at(1, "vehicle-movement", BRIT)
    before = g.move("mk5", [C, D, E])["seq"]                        # no bridge yet: the pack's river
    g.add("MarkerPlaced", {"marker": "bridge", "location": E, "vehicle": "bl"}, side=BRIT)
    g.at(2, "vehicle-movement", BRIT)
    over = g.move("bl", [D, E, "5:0507"])["seq"]                     # 1 + 1 MP: clear, twice
    g.at(2, "first-foot-movement", BRIT)
    foot = g.move("inf", [D, E])["seq"]                               # 1 MP (the river would cost 2)
    g.at(2, "vehicle-movement", GER)
    enemy = g.move("a7v", ["5:0508", "5:0507", E], side=GER)["seq"]  # not the Germans' bridge
    report = g.audit_with(costs)
    assert "IM.ENV.TSTATE.TYPES" in failing(report, before)
    assert failing(report, over) == {} and verdicts(report, "IM.VEH.BRIDGELAYER.DEPLOY", over) == ["ok"]
    assert failing(report, foot) == {} and verdicts(report, "IM.VEH.BRIDGELAYER.DEPLOY", foot) == ["ok"]
    assert "IM.ENV.TSTATE.TYPES" in failing(report, enemy)
    assert verdicts(report, "IM.VEH.BRIDGELAYER.DEPLOY", enemy) == []


def test_the_three_pounder_car_tows_at_half_speed_and_stops_to_fire():
    # "The armoured car has its movement allowance halved to account for the weight of the gun. To use the gun, the car
    # must stop."
    g = VehicleLog()
    g.unit("car", BRIT, "armoured-car", A, model="3-pounder armoured car", movement=8)
    g.unit("gun", BRIT, "artillery-gun", A)
    g.unit("g", GER, "infantry-platoon", "5:0510")
    g.at(1, "vehicle-movement", BRIT)
    g.add("Embarked", {"carrier": "car", "units": ["gun"]}, side=BRIT)
    five = g.move("car", [A, M, C, D, E, "5:0507"])["seq"]
    g.at(1, "offensive-small-arms-fire", BRIT)
    fired = g.small_arms("a1", ["gun"], "5:0510", BRIT, firepower=10)[0]
    g.at(2, "vehicle-movement", BRIT)
    four = g.move("car", ["5:0507", "5:0506", "5:0505", "5:0504", "5:0503"])["seq"]
    report = g.audit_with(COSTS)
    assert verdicts(report, "IM.VEH.3PDR_AC", five) == ["violation"]
    assert verdicts(report, "IM.VEH.3PDR_AC", fired) == ["violation"]
    assert verdicts(report, "IM.VEH.3PDR_AC", four) == ["ok"]


def carrier_game() -> VehicleLog:
    g = VehicleLog()
    g.unit("gc", BRIT, "tank", D, model="Gun Carrier")
    g.unit("crew", BRIT, "crew", D, vehicle="gc")
    g.unit("g", GER, "infantry-platoon", A)
    return g


def unload(g: VehicleLog, turn: int, natural: int, failures: int, purpose: str = "IM.VEH.GUNCARRIER.UNLOAD") -> int:
    g.at(turn, "vehicle-movement", BRIT)
    return g.die(purpose, natural, "gc", BRIT, mods=({"value": failures, "why": "previous failures"},) if failures else ())


def test_ec_37_the_gun_is_ready_on_the_fifth_roll_at_the_earliest():
    # "roll a six-sided die, adding +1 to the die for each previous failed die roll. On a result of 10 or more, the gun
    # is now ready to fire ... it has a firepower of 20 ... it may fire directly only at enemy units that have fired
    # directly at it." EC-37: rolls 3, 5, 2, 6, 6 with 0-4 failures: ready at the fifth (6 + 4 = 10)
    g = carrier_game()
    for turn, natural in enumerate((3, 5, 2, 6), 1):
        unload(g, turn, natural, turn - 1)
    early = g.add("UnitDeployed", {"unit": "early", "class": "artillery-gun", "location": D, "firepower": 20,
                                   "attrs": {}}, side=BRIT)["seq"]
    ready = unload(g, 5, 6, 4)
    gun = g.add("UnitDeployed", {"unit": "gun", "class": "artillery-gun", "location": D, "firepower": 20,
                                 "range": 12, "attrs": {}}, side=BRIT)["seq"]
    g.at(5, "offensive-small-arms-fire", BRIT)
    first = g.small_arms("a1", ["gun"], A, BRIT, firepower=10)[0]
    g.at(6, "offensive-small-arms-fire", GER)
    g.small_arms("a2", ["g"], D, GER, firepower=4)
    g.at(6, "defensive-small-arms-fire", GER)
    back = g.small_arms("a3", ["gun"], A, BRIT, firepower=10)[0]
    report = g.audit()
    assert verdicts(report, "IM.VEH.GUNCARRIER.UNLOAD", early) == ["violation"]      # 6 + 3 = 9 at the fourth roll
    assert verdicts(report, "IM.VEH.GUNCARRIER.UNLOAD", ready) == ["ok", "ok"]
    assert verdicts(report, "IM.VEH.GUNCARRIER.UNLOAD", gun) == ["ok"]
    assert verdicts(report, "IM.VEH.GUNCARRIER.GUN", gun) == ["ok"]
    assert verdicts(report, "IM.VEH.GUNCARRIER.GUN", first) == ["violation"]
    assert verdicts(report, "IM.VEH.GUNCARRIER.GUN", back) == ["ok"]


def test_ec_37_a_pinned_crew_starts_again():
    # "If the crew is pinned or leaves the hexagon, the unloading process must begin again in its entirety" (EC-37: "If
    # the crew is pinned after roll 3, the counter resets and the next roll has +0")
    g = carrier_game()
    for turn, natural in enumerate((3, 5, 2), 1):
        unload(g, turn, natural, turn - 1)
    g.at(3, "defensive-small-arms-fire", GER)
    pinned = g.status("crew", "pinned", BRIT).lines[-1]["seq"]
    kept = unload(g, 4, 4, 3)
    g = carrier_game()
    unload(g, 1, 3, 0)
    g.at(1, "defensive-small-arms-fire", GER)
    g.status("crew", "pinned", BRIT)
    reset = unload(g, 2, 4, 0)
    report = g.audit()
    assert verdicts(report, "IM.VEH.GUNCARRIER.UNLOAD", reset) == ["ok", "ok"]
    g2 = carrier_game()
    for turn, natural in enumerate((3, 5, 2), 1):
        unload(g2, turn, natural, turn - 1)
    g2.at(3, "defensive-small-arms-fire", GER)
    g2.status("crew", "pinned", BRIT)
    wrong = unload(g2, 4, 4, 3)
    report = g2.audit()
    assert verdicts(report, "IM.VEH.GUNCARRIER.RESET", pinned) == ["ok"]
    assert "mismatch" in verdicts(report, "IM.VEH.GUNCARRIER.UNLOAD", wrong)
    assert kept == wrong


def test_ec_37_reloading_needs_twelve_in_the_guns_hex():
    # "To reload the gun at the rear of the carrier, the carrier must be in the same hexagon as the artillery gun. Follow
    # the unloading procedure, except that a result of 12 or more is required" (the earliest success: the 7th roll)
    g = carrier_game()
    for turn, natural in enumerate((6, 6, 6, 6, 6), 1):
        unload(g, turn, natural, turn - 1)
    g.add("UnitDeployed", {"unit": "gun", "class": "artillery-gun", "location": D, "firepower": 20, "attrs": {}},
          side=BRIT)
    g.at(6, "vehicle-movement", BRIT)
    g.move("gc", [D, E])
    away = g.die("IM.VEH.GUNCARRIER.RELOAD", 6, "gc", BRIT)
    g.at(7, "vehicle-movement", BRIT)
    g.move("gc", [E, D])
    g.at(8, "vehicle-movement", BRIT)
    short = g.die("IM.VEH.GUNCARRIER.RELOAD", 6, "gc", BRIT, mods=({"value": 1, "why": "failures"},))
    early = g.add("Embarked", {"carrier": "gc", "units": ["gun"]}, side=BRIT)["seq"]
    report = g.audit()
    assert "violation" in verdicts(report, "IM.VEH.GUNCARRIER.RELOAD", away)
    assert verdicts(report, "IM.VEH.GUNCARRIER.RELOAD", early) == ["violation"]      # 6 + 1 = 7: less than 12
    assert verdicts(report, "IM.VEH.GUNCARRIER.RELOAD", short)[-1] == "ok"
