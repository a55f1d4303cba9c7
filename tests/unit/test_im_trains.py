"""Armoured Trains (IM.TRAIN): each expectation quotes the rulebook's section (and EC-56, AP-19).

A railway runs along column 05 of map 5 (rows 01-14); the train's locomotive is car 0."""
from __future__ import annotations

from domain.rules.infernal_machines.ruleset import RULESET
from tests.vehicle_helpers import BRIT, GER, VehicleLog, verdicts

RAIL = {f"5:05{r:02d}": {"terrain": "clear", "features": ["railway"]} for r in range(1, 15)}
COSTS = {"MOVEMENT": {"train": {"railway": 1}}}


def rail(r: int) -> str:
    return f"5:05{r:02d}"


def train_game(**hexes) -> VehicleLog:
    g = VehicleLog(hexes={**RAIL, **hexes})
    g.unit("train", BRIT, "armoured-train", rail(6), movement=8, protection=2, cars=3)
    g.unit("loco", BRIT, "crew", rail(6), aboard="train", car=0)
    return g


def test_ec_56_a_reversing_train_moves_half():
    # Movement: "Any armoured train that reverses from one turn to the next may only move half of its printed movement
    # allowance that turn" (EC-56: MA 8 reverses -> at most 4)
    g = train_game()
    g.at(1, "vehicle-movement", BRIT)
    g.move("train", [rail(6), rail(5), rail(4)])
    g.at(2, "vehicle-movement", BRIT)
    five = g.move("train", [rail(4), rail(5), rail(6), rail(7), rail(8), rail(9)])["seq"]
    g.at(3, "vehicle-movement", BRIT)
    onward = g.move("train", [rail(9), rail(10), rail(11), rail(12), rail(13), rail(14)])["seq"]
    report = g.audit_with(COSTS)
    assert verdicts(report, "IM.TRAIN.MOVE.REVERSE", five) == ["violation"]
    assert verdicts(report, "IM.TRAIN.MOVE.REVERSE", onward) == []
    assert verdicts(g.audit(), "IM.TRAIN.MOVE.REVERSE", five) == ["unverifiable"]


def test_ec_56_no_move_with_a_pinned_or_lost_locomotive():
    # "An armoured train that loses its locomotive may not move at all ... Armoured trains never suffer breakdowns. An
    # armoured train may not move if the locomotive's crew (see below) is pinned."
    g = train_game()
    g.unit("g-gun", GER, "artillery-gun", "5:0510")
    g.at(1, "defensive-small-arms-fire", GER)
    g.status("loco", "pinned", BRIT)
    g.at(1, "vehicle-movement", BRIT)
    pinned = g.move("train", [rail(6), rail(5)])["seq"]
    broken = g.status("train", "broken-down", BRIT).lines[-1]["seq"]
    g.at(2, "pin-removal", BRIT)
    g.status("loco", "unpinned", BRIT)
    g.at(2, "defensive-anti-tank-fire", BRIT)
    g.add("AntiTankFired", {"attack": "at1", "firers": ["g-gun"], "target": rail(5), "target_unit": "train"}, side=GER)
    g.die("IM.TRAIN.AT_AGAINST", 1, "at1", GER)
    g.die("LS.ATCRT", 2, "at1", GER, die="d10", mods=(-1, 2))
    g.add("AntiTankResolved", {"attack": "at1", "results": [{"unit": "train", "result": "hit", "car": 0}]}, side=GER)
    g.status("loco", "eliminated", GER)
    g.at(3, "vehicle-movement", BRIT)
    lost = g.move("train", [rail(5), rail(4)])["seq"]
    report = g.audit()
    assert verdicts(report, "IM.TRAIN.MOVE.LOCO", pinned) == ["violation"]
    assert verdicts(report, "IM.TRAIN.MOVE.LOCO", broken) == ["violation"]
    assert verdicts(report, "IM.TRAIN.MOVE.LOCO", lost) == ["violation"]


def board_on(g: VehicleLog, car: int, *units: tuple[str, str]) -> int:
    for name, cls in units:
        g.unit(name, BRIT, cls, rail(6))
    return g.add("Embarked", {"carrier": "train", "units": [n for n, _ in units], "car": car}, side=BRIT)["seq"]


def test_the_locomotive_takes_a_crew_and_each_car_three_boxes():
    # Layout and Design: "only a crew counter may be placed on it ... Each other car ... has three boxes. A player may
    # place up to one artillery, anti-aircraft or anti-tank gun plus one crew counter, or up to three machine gun
    # platoons, or one infantry platoon, or any combination of these, per car."
    g = train_game()
    loco = board_on(g, 0, ("inf0", "infantry-platoon"))
    gun = board_on(g, 1, ("gun1", "artillery-gun"), ("crew1", "crew"))
    four = board_on(g, 2, ("mg1", "mg-platoon"), ("mg2", "mg-platoon"), ("mg3", "mg-platoon"), ("mg4", "mg-platoon"))
    mixed = board_on(g, 3, ("inf3", "infantry-platoon"), ("mg5", "mg-platoon"), ("mg6", "mg-platoon"))
    report = g.audit()
    assert verdicts(report, "IM.TRAIN.LAYOUT", loco) == ["violation"]
    assert "ok" in verdicts(report, "IM.TRAIN.LAYOUT", gun)
    assert "violation" in verdicts(report, "IM.TRAIN.LAYOUT", four)
    assert "ambiguous" in verdicts(report, "IM.TRAIN.LAYOUT", mixed)
    assert "ok" in verdicts(g.audit(IM__TRAIN__LAYOUT__MIX="boxes"), "IM.TRAIN.LAYOUT", mixed)


def test_fire_from_the_train():
    # Combat: "All support weapons and machine gun/infantry platoons aboard have a direct fire range of 10 (if their normal
    # range is less than 10) ... OPTIONAL RULE: support weapons with a printed range of 10 may fire up to 12 hexagons
    # ... Crews and platoons may not fire if pinned"; the cars' firing arcs are on the template
    for target, verdict in (("5:0516", "violation"), ("5:0515", "ok")):       # 11 and 10 hexes
        g = VehicleLog(hexes=RAIL)
        g.unit("train", BRIT, "armoured-train", rail(5), protection=1, cars=1)
        g.unit("mg", BRIT, "mg-platoon", rail(5), aboard="train", car=1, range_=6)
        g.unit("g", GER, "infantry-platoon", target)
        g.at(1, "offensive-small-arms-fire", BRIT)
        shot = g.small_arms("a1", ["mg"], target, BRIT, firepower=4)[0]
        report = g.audit()
        assert verdicts(report, "IM.TRAIN.RANGE", shot) == [verdict], target
        assert verdicts(report, "IM.TRAIN.ARCS", shot) == ["unverifiable"]
    g = VehicleLog(hexes=RAIL, options=["IM.TRAIN.RANGE"])
    g.unit("train", BRIT, "armoured-train", rail(2), protection=1, cars=1)
    g.unit("atg", BRIT, "support-weapon", rail(2), aboard="train", car=1, range_=10)
    g.unit("g", GER, "infantry-platoon", rail(14))
    g.at(1, "offensive-small-arms-fire", BRIT)
    twelve = g.small_arms("a1", ["atg"], rail(14), BRIT, firepower=4)[0]
    g.at(1, "close-combat", BRIT)
    g.status("atg", "pinned", GER)
    g.at(2, "offensive-small-arms-fire", BRIT)
    pinned = g.small_arms("a2", ["atg"], rail(14), BRIT, firepower=4)[0]
    report = g.audit()
    assert verdicts(report, "IM.TRAIN.RANGE", twelve) == ["ok"]
    assert verdicts(report, "IM.TRAIN.NOINDIRECT", pinned) == ["violation"]


def test_protection_on_every_roll_and_no_terrain():
    # Protection: "The defender may add this protection value as a modifier to the die roll on the SACRT, BCRT and ATCRT,
    # but receives no additional benefit from the terrain"; Combat: "each crew and machine gun/infantry platoon is
    # subject to a separate die roll on the SACRT ... Units forced to retreat outside the armoured train are eliminated
    # instead."
    g = train_game(**{rail(6): {"terrain": "clear", "features": ["railway", "trench-hasty"]}})
    g.unit("p1", BRIT, "infantry-platoon", rail(6), aboard="train", car=1)
    g.unit("p2", BRIT, "mg-platoon", rail(6), aboard="train", car=2)
    g.unit("g", GER, "infantry-platoon", rail(2))
    g.at(1, "defensive-small-arms-fire", BRIT)
    g.spot("g", rail(6), GER)
    fired = g.add("SmallArmsFired", {"attack": "a1", "firers": ["g"], "target": rail(6), "firepower": 4}, side=GER)["seq"]
    for roll in (3, 5, 2):                 # p1, p2 and the locomotive's crew
        g.die("LS.SACRT", roll, "a1", GER, mods=(2,))
    both = g.add("SmallArmsResolved", {"attack": "a1", "results": [{"unit": "p1", "result": "no-effect"},
                                                                    {"unit": "p2", "result": "no-effect"}]}, side=GER)["seq"]
    _, one = g.small_arms("a2", ["g"], rail(6), GER, firepower=4, spot=False, results=[("p1", "no-effect")])
    _, bare = g.small_arms("a3", ["g"], rail(6), GER, firepower=4, spot=False, mods=(), results=[("p1", "no-effect")])
    retreat = g.status("p1", "retreated", BRIT).lines[-1]["seq"]
    report = g.audit()
    assert verdicts(report, "IM.TRAIN.SAF_AGAINST", both) == ["ok"]
    assert verdicts(report, "IM.TRAIN.PROTECTION", both) == ["ok", "ok", "ok"]
    assert verdicts(report, "IM.OBS.TRENCH.HASTY.DEF", both) == []          # no terrain benefit aboard
    assert verdicts(report, "IM.TRAIN.SAF_AGAINST", one) == ["missing-roll"]
    assert verdicts(report, "IM.TRAIN.PROTECTION", bare) == ["mismatch"]
    assert verdicts(report, "IM.TRAIN.SAF_AGAINST", retreat) == ["violation"]
    assert fired


def test_ec_56_anti_tank_fire_picks_a_car():
    # "Anti-tank fire is directed randomly against one of the cars ...; roll a six-sided die to determine which car is hit.
    # Anti-tank fire against armoured trains receives a -1 die modifier ..., while the armoured train's protection value
    # is treated as a positive die modifier. If a 'hit' result is recorded, all support weapons and crews in that car are
    # eliminated (the platoons are unharmed)." (EC-56; AP-19: which face is which car)
    g = train_game()
    g.unit("gun2", BRIT, "artillery-gun", rail(6), aboard="train", car=2)
    g.unit("crew2", BRIT, "crew", rail(6), aboard="train", car=2)
    g.unit("inf2", BRIT, "infantry-platoon", rail(6), aboard="train", car=2)
    g.unit("g-gun", GER, "artillery-gun", rail(1))
    g.at(1, "defensive-anti-tank-fire", BRIT)
    g.spot("g-gun", rail(6), GER)
    g.add("AntiTankFired", {"attack": "at1", "firers": ["g-gun"], "target": rail(6), "target_unit": "train"}, side=GER)
    g.die("IM.TRAIN.AT_AGAINST", 3, "at1", GER)
    good_roll = g.die("LS.ATCRT", 4, "at1", GER, die="d10", mods=(-1, 2))
    hit = g.add("AntiTankResolved", {"attack": "at1", "results": [{"unit": "train", "result": "hit", "car": 2}]},
                side=GER)["seq"]
    g.status("gun2", "eliminated", GER)
    g.add("AntiTankFired", {"attack": "at2", "firers": ["g-gun"], "target": rail(6), "target_unit": "train"}, side=GER)
    bad_roll = g.die("LS.ATCRT", 4, "at2", GER, die="d10")
    no_car = g.add("AntiTankResolved", {"attack": "at2", "results": [{"unit": "train", "result": "miss"}]},
                   side=GER)["seq"]
    g.at(1, "defensive-small-arms-fire", BRIT)
    report = g.audit()
    assert verdicts(report, "IM.TRAIN.AT_AGAINST", good_roll) == ["ok"]
    assert verdicts(report, "IM.TRAIN.PROTECTION", good_roll) == ["ok"]
    assert verdicts(report, "IM.TRAIN.AT_AGAINST", bad_roll) == ["mismatch"]
    assert verdicts(report, "IM.TRAIN.PROTECTION", bad_roll) == ["mismatch"]
    assert verdicts(report, "IM.TRAIN.AT_AGAINST", no_car) == ["missing-roll"]
    assert verdicts(report, "IM.TRAIN.AT_AGAINST", hit) == ["ambiguous", "violation"]    # crew2 remains
    assert verdicts(g.audit(IM__TRAIN__AT_AGAINST__CAR="recorded"), "IM.TRAIN.AT_AGAINST", hit) == ["violation"]


def test_ec_56_no_entry_over_cut_rails():
    # "Armoured trains may not enter a hexagon with cut rails." (EC-56)
    g = train_game()
    g.marker("rail-cut", rail(4))
    g.at(1, "vehicle-movement", BRIT)
    seq = g.move("train", [rail(6), rail(5), rail(4)])["seq"]
    assert verdicts(g.audit(), "IM.TRAIN.CUT_RAIL", seq) == ["violation"]


def test_ec_56_a_train_never_starts_close_combat():
    # "Armoured trains may not initiate close combat but may be attacked by enemy units using close combat." (EC-56)
    g = train_game()
    g.unit("g", GER, "infantry-platoon", "5:0606")
    g.at(1, "close-combat", BRIT)
    attack = g.add("CloseCombatFought", {"combat": "c1", "location": "5:0606", "attackers": ["train"],
                                         "defenders": ["g"]}, side=BRIT)["seq"]
    defend = g.add("CloseCombatFought", {"combat": "c2", "location": rail(6), "attackers": ["g"],
                                         "defenders": ["train"]}, side=GER)["seq"]
    report = g.audit()
    assert verdicts(report, "IM.TRAIN.CC", attack) == ["violation"]
    assert verdicts(report, "IM.TRAIN.CC", defend) == ["ok"]


def test_passengers_get_off_but_never_on():
    # Miscellaneous: "armoured trains may unload their passenger platoons (but not the support weapons carried aboard),
    # but may never pick them up (or other units) during the scenario unless the scenario rules exceptionally allow it"
    g = train_game()
    g.unit("p1", BRIT, "infantry-platoon", rail(6), aboard="train", car=1)
    g.unit("gun", BRIT, "artillery-gun", rail(6), aboard="train", car=2)
    g.unit("p2", BRIT, "infantry-platoon", rail(6))
    g.at(1, "second-foot-movement", BRIT)
    off = g.add("Disembarked", {"carrier": "train", "units": ["p1"]}, side=BRIT)["seq"]
    gun_off = g.add("Disembarked", {"carrier": "train", "units": ["gun"]}, side=BRIT)["seq"]
    on = g.add("Embarked", {"carrier": "train", "units": ["p2"], "car": 3}, side=BRIT)["seq"]
    report = g.audit()
    assert verdicts(report, "IM.TRAIN.UNLOAD", off) == ["ok"]
    assert verdicts(report, "IM.TRAIN.UNLOAD", gun_off) == ["violation"]
    assert verdicts(report, "IM.TRAIN.UNLOAD", on) == ["violation"]
    g = VehicleLog(hexes=RAIL, permissions=["train-pickup"])
    g.unit("train", BRIT, "armoured-train", rail(6), protection=1, cars=1)
    g.unit("p2", BRIT, "infantry-platoon", rail(6))
    g.at(1, "second-foot-movement", BRIT)
    allowed = g.add("Embarked", {"carrier": "train", "units": ["p2"], "car": 1}, side=BRIT)["seq"]
    assert verdicts(g.audit(), "IM.TRAIN.UNLOAD", allowed) == []


def test_what_a_log_cannot_show_of_a_train():
    # General rule: "armoured trains are considered simply as wide vehicles for most rules" (Landships!' rules); "The
    # template is kept hidden by the owning player until the armoured train is spotted" (what a player shows); "Aircraft
    # may attempt to bomb armoured trains" (the log format has no air attack event): said so, and judged nowhere
    book = RULESET.rulebook()
    for rule_id in ("IM.TRAIN.WIDE", "IM.TRAIN.HIDDEN", "IM.TRAIN.AIR"):
        assert book.entry(rule_id)["coverage"]["status"] == "not judgeable from a log", rule_id
    g = train_game()
    g.at(1, "vehicle-movement", BRIT)
    g.move("train", [rail(6), rail(5)])
    report = g.audit()
    assert [a for a in report.applications if a.rule in ("IM.TRAIN.WIDE", "IM.TRAIN.HIDDEN", "IM.TRAIN.AIR")] == []
