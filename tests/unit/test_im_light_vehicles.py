"""Light Vehicles (changed), Trucks (changed), Motorcycles (new): IM.LV.*. Each expectation quotes the text."""
from __future__ import annotations

from tests.vehicle_helpers import BRIT, GER, VehicleLog, verdicts

A, B, C, D, E = "5:0502", "5:0503", "5:0504", "5:0505", "5:0506"
WOOD = "5:0508"


def truck_game(**hexes) -> VehicleLog:
    g = VehicleLog(hexes={WOOD: {"terrain": "wood"}, **hexes})
    g.unit("b-truck", BRIT, "light-vehicle", D, morale=4, model="Truck")
    g.unit("g-inf", GER, "infantry-platoon", A)
    return g


def hit(g: VehicleLog, attack: str = "a1", result: str = "hit") -> int:
    g.at(1, "offensive-small-arms-fire", GER)
    _, resolved = g.small_arms(attack, ["g-inf"], D, GER, firepower=4, results=[("b-truck", result)])
    return resolved


def test_no_crew_counter_until_the_light_vehicle_is_attacked():
    # Light Vehicles: "As in Landships!, do not place a crew counter on light vehicles until they are attacked."
    g = truck_game()
    g.at(1, "vehicle-movement", BRIT)
    early = g.add("MarkerPlaced", {"marker": "crew", "unit": "b-truck", "location": D})["seq"]
    hit(g)
    later = g.add("MarkerPlaced", {"marker": "crew", "unit": "b-truck", "location": D})["seq"]
    report = g.audit()
    assert verdicts(report, "IM.LV.CREWMARKER", early) == ["violation"]
    assert verdicts(report, "IM.LV.CREWMARKER", later) == ["ok"]


def test_a_natural_1_eliminates_crew_and_vehicle():
    # "The crew and vehicle counters are automatically eliminated on a natural result of '1' and removed from play."
    # EC-46: "On a later SACRT hit, special MC with natural 1 -> truck and crew eliminated."
    g = truck_game()
    hit(g)
    one = g.die("IM.LV.HITCHECK", 1, "b-truck", BRIT)
    g.add("MoraleChecked", {"units": ["b-truck"], "morale": 4, "passed": True}, side=BRIT)
    g.at(1, "close-combat", GER)
    assert verdicts(g.audit(), "IM.LV.HITCHECK", one) == ["violation"]       # not eliminated
    g = truck_game()
    hit(g)
    one = g.die("IM.LV.HITCHECK", 1, "b-truck", BRIT)
    g.status("b-truck", "eliminated", BRIT)
    assert verdicts(g.audit(), "IM.LV.HITCHECK", one) == ["ok"]
    g = truck_game()
    resolved = hit(g)
    g.at(1, "close-combat", GER)
    assert verdicts(g.audit(), "IM.LV.HITCHECK", resolved) == ["missing-roll"]


def test_a_failed_check_pins_and_a_passed_one_drives_to_cover():
    # "if the crew fails its morale check, it becomes pinned in the hexagon and the light vehicle may not move. If the
    # crew passes its morale check, the light vehicle must always automatically move during its next Vehicle Movement
    # Phase toward the nearest hexagon (counted using movement points) that contains cover (any hexagon other than
    # clear terrain)."
    g = truck_game()
    hit(g)
    fail = g.die("IM.LV.HITCHECK", 6, "b-truck", BRIT)
    g.at(1, "close-combat", GER)
    assert verdicts(g.audit(), "IM.LV.HITCHECK", fail) == ["violation"]    # morale 4, a 6 fails: not pinned
    g = truck_game()
    hit(g)
    fail = g.die("IM.LV.HITCHECK", 6, "b-truck", BRIT)
    g.status("b-truck", "pinned", BRIT)
    assert verdicts(g.audit(), "IM.LV.HITCHECK", fail) == ["ok"]
    # a pass (3 against morale 4): in its next VMP it moves toward the wood at 0508; away from it, or not at all, is
    # refused
    for path, verdict in (([D, E], "ok"), ([D, C], "violation"), (None, "violation")):
        g = truck_game()
        hit(g)
        passed = g.die("IM.LV.HITCHECK", 3, "b-truck", BRIT)
        g.at(2, "vehicle-movement", BRIT)
        seq = g.move("b-truck", path)["seq"] if path else passed
        g.at(2, "first-foot-movement", BRIT)
        assert verdicts(g.audit(), "IM.LV.HITCHECK", seq)[-1] == verdict, path


def test_ec_46_caution_then_a_hit():
    # EC-46: "A truck is fired on by SAF (miss) and by a barrage (miss) in one enemy turn -> its next movement phase MA
    # is reduced by 10" ("A light vehicle loses 5 movement points during its next movement phase each time small arms
    # or barrage fire is directed against it, whether or not a 'hit' result is obtained"): a miss asks no check
    g = truck_game()
    g.at(1, "offensive-small-arms-fire", GER)
    _, miss = g.small_arms("a1", ["g-inf"], D, GER, firepower=4, results=[("b-truck", "no-effect")])
    g.at(1, "close-combat", GER)
    assert verdicts(g.audit(), "IM.LV.HITCHECK", miss) == []


def test_motorcycles_off_road_enter_clear_hexes_only():
    # Motorcycles: "Using their cross-country movement allowance, motorcycles may only enter clear terrain hexagons."
    g = VehicleLog(hexes={C: {"terrain": "wood"}, "5:0603": {"terrain": "wood", "features": ["road"]},
                          B: {"terrain": "clear", "features": ["road"]}})
    g.unit("b-moto", BRIT, "light-vehicle", A, model="Motorcycle")
    g.unit("b-moto2", BRIT, "light-vehicle", B, model="Motorcycle")
    g.at(1, "vehicle-movement", BRIT)
    wood = g.move("b-moto", [A, B, C])["seq"]
    road = g.move("b-moto2", [B, "5:0603"])["seq"]
    report = g.audit()
    assert verdicts(report, "IM.LV.MOTO.XC", wood) == ["violation"]
    assert verdicts(report, "IM.LV.MOTO.XC", road) == ["ok"]


def test_armed_motorcycles_fire_three_guns_at_up_to_three_hexes():
    # "armed motorcycle counters carry three machine guns (each with a firepower of 2, range 9) and may engage up to
    # three different hexagons within their firing arc"
    g = VehicleLog()
    g.unit("b-moto", BRIT, "light-vehicle", A, model="Armed motorcycles", range_=None)
    for name, at in (("g1", B), ("g2", C), ("g3", D), ("g4", E)):
        g.unit(name, GER, "infantry-platoon", at)
    g.unit("g-far", GER, "infantry-platoon", "5:0512")
    g.at(1, "offensive-small-arms-fire", BRIT)
    shots = [g.small_arms(f"a{i}", ["b-moto"], at, BRIT, firepower=2)[0] for i, at in enumerate((B, C, D), 1)]
    fourth, _ = g.small_arms("a4", ["b-moto"], E, BRIT, firepower=2)
    g.at(2, "offensive-small-arms-fire", BRIT)
    all_six, _ = g.small_arms("a5", ["b-moto"], B, BRIT, firepower=6)
    seven, _ = g.small_arms("a6", ["b-moto"], C, BRIT, firepower=7)
    far, _ = g.small_arms("a7", ["b-moto"], "5:0512", BRIT, firepower=2)
    report = g.audit()
    # each shot: the phase's hexagons and firepower, the shot's firepower (6 at most) and its range (9)
    assert [set(verdicts(report, "IM.LV.MOTO.ARMED", s)) for s in shots] == [{"ok"}] * 3
    assert verdicts(report, "IM.LV.MOTO.ARMED", fourth).count("violation") == 1
    assert set(verdicts(report, "IM.LV.MOTO.ARMED", all_six)) == {"ok"}
    assert "violation" in verdicts(report, "IM.LV.MOTO.ARMED", seven)
    assert "violation" in verdicts(report, "IM.LV.MOTO.ARMED", far)                # 10 hexes: beyond range 9
