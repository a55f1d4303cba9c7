"""Naval Units (IM.NAV): each expectation quotes the rulebook's section (and EC-57). A river runs along column 05 of
map 5 (rows 01-14); its banks are land."""
from __future__ import annotations

from tests.vehicle_helpers import BRIT, GER, VehicleLog, verdicts

RIVER = {f"5:05{r:02d}": {"terrain": "river"} for r in range(1, 15)}


def river(r: int) -> str:
    return f"5:05{r:02d}"


def boat_game() -> VehicleLog:
    g = VehicleLog(hexes=RIVER)
    g.unit("steam", BRIT, "boat", river(8), kind="steamboat", facing=0)
    g.unit("barge", BRIT, "boat", river(8), kind="barge")
    g.unit("gunboat", BRIT, "boat", river(3), kind="gunboat", facing=0)
    return g


def test_ec_57_one_ship_a_hex_barges_towed_and_facing_costs():
    # "Barges may only be towed by steamboats (place the barge in the hexagon beneath the steamboat) ... there may be no
    # more than one ship per hexagon ... They spend 1 movement point to change facing" (EC-57: two ships in one hex ->
    # REJECT)
    g = boat_game()
    g.at(1, "vehicle-movement", BRIT)
    towed = g.move("barge", [river(8), river(7)])["seq"]          # with its steamboat still beneath it in 0508
    g.move("steam", [river(8), river(7)])
    alone = g.move("barge", [river(7), river(6)])["seq"]          # the steamboat stays in 0507
    two = g.move("gunboat", [river(3), river(4), river(5), river(6)])["seq"]
    g.at(2, "vehicle-movement", BRIT)
    g.move("gunboat", [river(6), river(7), river(6), river(5), river(4), river(3), river(2), river(1)])  # 7 + 3 = 10
    g.at(3, "vehicle-movement", BRIT)
    turns = g.move("gunboat", [river(1), river(2), river(1), river(2)])["seq"]    # 3 hexes, 9 hexsides turned
    report = g.audit()
    assert "violation" not in verdicts(report, "IM.NAV.MOVE", towed)
    assert "violation" in verdicts(report, "IM.NAV.MOVE", alone)
    assert "violation" in verdicts(report, "IM.NAV.MOVE", two)
    assert "violation" in verdicts(report, "IM.NAV.MOVE", turns)     # 3 + 9 = 12 of 10


def test_boat_crews_never_check_morale():
    # "Steamboats and gunboats have crews included in the counter, and they never take morale checks"; the gas
    # mission: "Tanks, armoured cars and boats are invulnerable to gas"
    g = boat_game()
    g.at(1, "defensive-small-arms-fire", GER)
    check = g.add("MoraleChecked", {"units": ["gunboat"], "passed": True}, side=BRIT)["seq"]
    gassed = g.add("UnitStatusChanged", {"unit": "steam", "status": "pinned", "cause": "gas"}, side=BRIT)["seq"]
    report = g.audit()
    assert verdicts(report, "IM.NAV.CREW", check) == ["violation"]
    assert verdicts(report, "IM.NAV.GAS", gassed) == ["violation"]


def test_ec_57_boarding_and_landing():
    # "each barge or steamboat may carry up to two or four platoons respectively. Non-pinned platoons may board ...
    # during the second foot movement phase by being adjacent to the steamboat or barge at the start of the Vehicle
    # Movement Phase. The steamboat may move on the following turn ... Platoons may disembark ... during the second
    # foot movement phase if the ship is adjacent to land." (EC-57: a pinned platoon boarding -> REJECT)
    g = boat_game()
    for name in ("p1", "p2", "p3"):
        g.unit(name, BRIT, "infantry-platoon", "5:0608")
    g.unit("p4", BRIT, "infantry-platoon", "5:0608")
    g.status("p4", "pinned", BRIT)
    g.at(1, "vehicle-movement", BRIT)
    g.at(1, "second-foot-movement", BRIT)
    two = g.add("Embarked", {"carrier": "barge", "units": ["p1", "p2"]}, side=BRIT)["seq"]
    third = g.add("Embarked", {"carrier": "barge", "units": ["p3"]}, side=BRIT)["seq"]
    pinned = g.add("Embarked", {"carrier": "steam", "units": ["p4"]}, side=BRIT)["seq"]
    g.at(1, "close-combat", BRIT)
    moved = g.move("steam", [river(8), river(9)])["seq"]
    g.at(2, "second-foot-movement", BRIT)
    land = g.add("Disembarked", {"carrier": "barge", "units": ["p1"], "location": "5:0608"}, side=BRIT)["seq"]
    water = g.add("Disembarked", {"carrier": "barge", "units": ["p2"], "location": river(7)}, side=BRIT)["seq"]
    report = g.audit()
    assert verdicts(report, "IM.NAV.CARRY", two) == ["ok", "ok", "ok"]
    assert "violation" in verdicts(report, "IM.NAV.CARRY", third)
    assert "violation" in verdicts(report, "IM.NAV.CARRY", pinned)
    assert "violation" in verdicts(report, "IM.NAV.CARRY", moved)
    assert verdicts(report, "IM.NAV.CARRY", land) == ["ok"]
    assert verdicts(report, "IM.NAV.CARRY", water) == ["violation"]


def test_ec_57_a_gunboat_of_fifty_is_refused():
    # "Each 6-inch gun has a firepower of 20, each 3-inch gun a firepower of 10"; "gunboats may not have more than 40
    # points of firepower from artillery guns or 8 machine gun units" (EC-57: 2 x 6-inch + 1 x 3-inch = 50 -> REJECT)
    g = boat_game()
    for name, gun, fp in (("g1", "6-inch", 20), ("g2", "6-inch", 20), ("g3", "3-inch", 10), ("g4", "3-inch", 20)):
        g.unit(name, BRIT, "artillery-gun", river(3), firepower=fp, gun=gun)
    forty = g.add("Embarked", {"carrier": "gunboat", "units": ["g1", "g2"]}, side=BRIT)["seq"]
    fifty = g.add("Embarked", {"carrier": "gunboat", "units": ["g3"]}, side=BRIT)["seq"]
    wrong = g.add("Embarked", {"carrier": "steam", "units": ["g4"]}, side=BRIT)["seq"]
    g.add("Disembarked", {"carrier": "steam", "units": ["g4"]}, side=BRIT)
    g2 = boat_game()
    g2.unit("g4", BRIT, "artillery-gun", river(3), firepower=20, gun="3-inch")
    bad_gun = g2.add("Embarked", {"carrier": "gunboat", "units": ["g4"]}, side=BRIT)["seq"]
    report = g.audit()
    assert verdicts(report, "IM.NAV.GUNBOAT.DESIGN", forty) == ["ok"]
    assert verdicts(report, "IM.NAV.GUNBOAT.DESIGN", fifty) == ["violation"]
    assert verdicts(report, "IM.NAV.GUNBOAT.ARMS", wrong) == []                        # not a gunboat
    assert verdicts(g2.audit(), "IM.NAV.GUNBOAT.ARMS", bad_gun) == ["violation"]


def test_gunboat_weapons_reach_ten():
    # "All weapons have a range of 10 hexagons in direct fire when mounted on a gunboat."
    g = boat_game()
    g.unit("gun", BRIT, "artillery-gun", river(3), firepower=20, gun="6-inch", range_=20, aboard="gunboat")
    g.unit("far", GER, "infantry-platoon", "5:0614")
    g.unit("near", GER, "infantry-platoon", "5:0612")
    g.at(1, "offensive-small-arms-fire", BRIT)
    eleven = g.small_arms("a1", ["gun"], "5:0614", BRIT, firepower=10)[0]
    nine = g.small_arms("a2", ["gun"], "5:0612", BRIT, firepower=10)[0]
    report = g.audit()
    assert verdicts(report, "IM.NAV.GUNBOAT.FIRE", eleven) == ["violation"]
    assert verdicts(report, "IM.NAV.GUNBOAT.FIRE", nine) == ["ok"]


def test_ec_57_only_artillery_guns_hurt_boats():
    # "Small arms fire alone has no effect on boats or their passengers. Only direct fire by enemy artillery guns ... may
    # damage them. Artillery guns use the ATCRT as if they were vehicles. Subtract 1 from the die roll to hit ... If a
    # boat is hit ..., it is not automatically eliminated. Instead, roll a six-sided die on the Naval Combat Results
    # Table (NCRT)" (EC-57)
    g = boat_game()
    g.unit("g-inf", GER, "infantry-platoon", "5:0608")
    g.unit("g-tank", GER, "tank", "5:0607", gun="47mm", mgs=1)
    g.unit("g-gun", GER, "artillery-gun", "5:0606")
    g.at(1, "defensive-small-arms-fire", BRIT)
    _, rifles = g.small_arms("a1", ["g-inf"], river(8), GER, firepower=4, results=[("steam", "hit")])
    g.at(1, "defensive-anti-tank-fire", BRIT)
    _, tank = g.anti_tank("at1", ["g-tank"], river(8), GER, target_unit="steam", results=[("steam", "hit")])
    roll_plain, _ = g.anti_tank("at2", ["g-gun"], river(3), GER, target_unit="gunboat", results=[("gunboat", "miss")])
    _, hit = g.anti_tank("at3", ["g-gun"], river(3), GER, target_unit="gunboat", mods=(-1,),
                         results=[("gunboat", "hit")])
    sunk = g.status("gunboat", "eliminated", GER).lines[-1]["seq"]
    g.at(1, "offensive-small-arms-fire", BRIT)
    report = g.audit()
    assert verdicts(report, "IM.NAV.VULN", rifles) == ["violation"]
    assert verdicts(report, "IM.NAV.VULN", tank) == ["violation"]
    assert verdicts(report, "IM.NAV.VULN", roll_plain + 1) == ["mismatch"]
    assert verdicts(report, "IM.NAV.VULN", sunk) == ["violation"]           # eliminated with no NCRT die
    assert verdicts(report, "IM.NAV.VULN", hit) == ["missing-roll"]
    g.lines = g.lines[:sunk - 1]
    g.die("IM.NAV.VULN", 4, "gunboat", GER)
    g.at(1, "offensive-small-arms-fire", BRIT)
    assert verdicts(g.audit(), "IM.NAV.VULN", sunk) == ["unverifiable"]       # the NCRT: a table pack's
    assert verdicts(g.audit_with({"NCRT": {"4": "sunk"}}), "IM.NAV.VULN", sunk) == []
