"""Tanks and Fascines (new), IM.TANK.FASCINE.*: each expectation quotes the rulebook's section (and EC-38)."""
from __future__ import annotations

from tests.vehicle_helpers import BRIT, GER, VehicleLog, verdicts

# a row of map 5 (0502 north of 0503 ...): the extra-wide trench is W = 0504
A, B, W, C, D = "5:0502", "5:0503", "5:0504", "5:0505", "5:0506"


def trench_game(model: str = "Mark IV male", permissions=("extra-wide-trenches",), **attrs) -> VehicleLog:
    g = VehicleLog(permissions=list(permissions),
                   hexes={W: {"terrain": "clear", "features": ["trench-prepared", "trench-extra-wide"]}})
    g.unit("b-tank", BRIT, "tank", A, model=model, **attrs)
    g.unit("b-tank2", BRIT, "tank", A, model="Mark IV female")
    g.unit("g-inf", GER, "infantry-platoon", "5:0510")
    return g


def test_ec_38_a_jam_then_an_unjam_then_a_drop():
    # EC-38: "Turn 5 drop d6 = 2 -> jammed; the tank cannot cross but may move elsewhere. Turn 6: unjam attempt (no
    # movement) d6 = 4 -> unjammed. Turn 7: drop d6 = 3 -> dropped, and other tanks may cross at that point."
    g = trench_game()
    g.at(5, "vehicle-movement", BRIT)
    g.move("b-tank", [A, B])
    jam = g.die("IM.TANK.FASCINE.DROP", 2, "b-tank", BRIT)
    cross = g.move("b-tank", [B, W])["seq"]                     # "the tank cannot cross the trench"
    g.at(6, "vehicle-movement", BRIT)
    unjam = g.die("IM.TANK.FASCINE.UNJAM", 4, "b-tank", BRIT)
    early = g.die("IM.TANK.FASCINE.DROP", 5, "b-tank", BRIT)   # "may attempt again to drop it the following turn"
    g.at(7, "vehicle-movement", BRIT)
    drop = g.die("IM.TANK.FASCINE.DROP", 3, "b-tank", BRIT)
    marker = g.marker("fascine", W).lines[-1]["seq"]
    over = g.move("b-tank", [B, W, C])["seq"]
    report = g.audit()
    assert verdicts(report, "IM.TANK.FASCINE.DROP", jam) == ["ok", "ok"]
    assert verdicts(report, "IM.TANK.FASCINE.DROP", cross) == ["violation"]
    assert verdicts(report, "IM.TANK.FASCINE.UNJAM", unjam) == ["ok"]
    assert verdicts(report, "IM.TANK.FASCINE.UNJAM", early) == ["violation"]
    assert verdicts(report, "IM.TANK.FASCINE.DROP", drop) == ["ok", "ok"]
    assert verdicts(report, "IM.TANK.FASCINE.DROP", marker) == ["ok"]
    assert [a for a in report.applications if a.seq == over and a.rule.startswith("IM.TANK.FASCINE")
            and a.verdict.value != "ok"] == []


def test_ec_38_a_failed_unjam_jams_it_for_good_and_unjamming_means_not_moving():
    # "Otherwise, it remains jammed for the rest of the scenario" (EC-38: unjam d6 = 5 -> any later drop attempt is
    # refused); "the crew may attempt to unjam the fascine during the Vehicle Movement Phase by not moving"
    g = trench_game()
    g.at(5, "vehicle-movement", BRIT)
    g.move("b-tank", [A, B])
    g.die("IM.TANK.FASCINE.DROP", 1, "b-tank", BRIT)
    g.at(6, "vehicle-movement", BRIT)
    failed = g.die("IM.TANK.FASCINE.UNJAM", 5, "b-tank", BRIT)
    g.at(7, "vehicle-movement", BRIT)
    later = g.die("IM.TANK.FASCINE.DROP", 6, "b-tank", BRIT)
    report = g.audit()
    assert verdicts(report, "IM.TANK.FASCINE.UNJAM", failed) == ["ok"]
    assert verdicts(report, "IM.TANK.FASCINE.UNJAM", later) == ["violation"]

    g = trench_game()
    g.at(5, "vehicle-movement", BRIT)
    g.move("b-tank", [A, B])
    g.die("IM.TANK.FASCINE.DROP", 2, "b-tank", BRIT)
    same_turn = g.die("IM.TANK.FASCINE.UNJAM", 1, "b-tank", BRIT)   # "The following turn"
    g.at(6, "vehicle-movement", BRIT)
    g.move("b-tank", [B, A])
    moved = g.die("IM.TANK.FASCINE.UNJAM", 2, "b-tank", BRIT)
    report = g.audit()
    assert verdicts(report, "IM.TANK.FASCINE.UNJAM", same_turn) == ["violation"]
    assert verdicts(report, "IM.TANK.FASCINE.UNJAM", moved) == ["violation", "ok"]


def test_a_drop_places_the_fascine_where_other_tanks_cross():
    # "the fascine drops into the trench and the tank may continue to move over it (costs +0 MP), and any other tank
    # may cross the extra wide trench at that point": the roll of 3-6 makes the crossing point (a marker may show it)
    g = trench_game()
    g.at(5, "vehicle-movement", BRIT)
    g.move("b-tank", [A, B])
    g.die("IM.TANK.FASCINE.DROP", 4, "b-tank", BRIT)
    over = g.move("b-tank2", [A, B, W, C])["seq"]
    g.at(5, "first-foot-movement", BRIT)
    stray = g.marker("fascine", C).lines[-1]["seq"]       # no drop roll for it
    report = g.audit()
    assert [a for a in report.applications if a.seq == over and a.rule.startswith("IM.TANK.FASCINE")
            and a.verdict.value != "ok"] == []
    assert verdicts(report, "IM.TANK.FASCINE.DROP", stray) == ["violation"]
    g = trench_game()
    g.at(5, "vehicle-movement", BRIT)
    g.move("b-tank", [A, B])
    g.die("IM.TANK.FASCINE.DROP", 6, "b-tank", BRIT)
    g.marker("fascine", W)
    other = g.move("b-tank2", [A, B, W, C])["seq"]
    assert [a.verdict.value for a in g.audit().applications if a.seq == other
            and a.rule.startswith(("IM.TANK.FASCINE", "IM.OBS.TRENCH.EXTRAWIDE")) and a.verdict.value != "ok"] == []


def test_a_fascine_drops_once_and_stays():
    # "Once the fascine has dropped, it cannot be picked up again during the scenario. For simplicity, fascines cannot
    # be destroyed by enemy fire."
    g = trench_game()
    g.at(5, "vehicle-movement", BRIT)
    g.move("b-tank", [A, B])
    g.die("IM.TANK.FASCINE.DROP", 5, "b-tank", BRIT)
    g.marker("fascine", W)
    again = g.die("IM.TANK.FASCINE.DROP", 5, "b-tank", BRIT)
    g.at(5, "offensive-small-arms-fire", BRIT)
    gone = g.add("MarkerRemoved", {"marker": "fascine", "location": W})["seq"]
    report = g.audit()
    assert verdicts(report, "IM.TANK.FASCINE.ONCE", again) == ["violation"]
    assert verdicts(report, "IM.TANK.FASCINE.ONCE", gone) == ["violation"]


def test_ec_38_the_mk_v_crosses_without_a_fascine_the_mk_iv_does_not():
    # "EXCEPTION: the British Mk. V and Mk. VIII tanks may cross extra wide trenches without using a fascine."
    # EC-38: "A Mk V crossing an extra-wide trench without a fascine -> ACCEPT. A Mk IV without a fascine -> REJECT."
    g = trench_game(model="Mark V")
    g.at(5, "vehicle-movement", BRIT)
    mk_v = g.move("b-tank", [A, B, W, C])["seq"]
    mk_iv = g.move("b-tank2", [A, B, W])["seq"]
    report = g.audit()
    assert verdicts(report, "IM.TANK.FASCINE.EXEMPT", mk_v) == ["ok"]
    assert verdicts(report, "IM.TANK.FASCINE.EXEMPT", mk_iv) == ["violation"]


def test_fascines_need_extra_wide_trenches_and_a_british_tank():
    # "This rule applies only if the scenario states that certain trenches are extra wide. A fascine was a large
    # bundle of wood carried on top of British tanks."
    g = trench_game(permissions=())
    g.lines[1]["data"]["hexes"] = {}                      # and no extra-wide trench on the map
    g.unit("g-tank", GER, "tank", D, model="A7V")
    g.at(5, "vehicle-movement", BRIT)
    g.move("b-tank", [A, B])
    no_scope = g.die("IM.TANK.FASCINE.DROP", 4, "b-tank", BRIT)
    g.at(5, "vehicle-movement", GER)
    german = g.die("IM.TANK.FASCINE.DROP", 4, "g-tank", GER)
    report = g.audit()
    assert verdicts(report, "IM.TANK.FASCINE.SCOPE", no_scope) == ["violation"]
    assert verdicts(report, "IM.TANK.FASCINE.SCOPE", german) == ["violation", "violation"]
    assert verdicts(report, "IM.TANK.FASCINE.DROP", german)[0] == "violation"     # not beside the trench
