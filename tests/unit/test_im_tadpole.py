"""The British Mk. IV "Tadpole" (1918), IM.VEH.TADPOLE.*: each expectation quotes its section (and EX-IM-05, EC-33).

The Tadpole stands at T = 5:0505 facing north; its mortar and crew are counters under it (attrs.vehicle)."""
from __future__ import annotations

from tests.vehicle_helpers import BRIT, GER, VehicleLog, verdicts

T, AHEAD, NEXT, BEHIND, HALF = "5:0505", "5:0502", "5:0501", "5:0508", "5:0605"


def tadpole_game(friend_at: str = "5:0506") -> VehicleLog:
    g = VehicleLog()
    g.unit("tad", BRIT, "tank", T, model="Tadpole", movement=3)
    g.unit("mtr", BRIT, "mortar", T, vehicle="tad", type="light", rate_of_fire=6, range_=13, firepower=2)
    g.unit("crew", BRIT, "crew", T, vehicle="tad")
    g.unit("b-inf", BRIT, "infantry-platoon", friend_at)
    g.unit("g-inf", GER, "infantry-platoon", AHEAD)
    g.unit("g-inf2", GER, "infantry-platoon", NEXT)
    g.unit("g-back", GER, "infantry-platoon", BEHIND)
    return g


def mortar(g: VehicleLog, attack: str, target: str = AHEAD, *, fell: str = NEXT, test: bool = False,
           direction: bool = True, results=()) -> tuple[int, int]:
    g.spot("mtr", target, BRIT)
    fired = g.add("SmallArmsFired", {"attack": attack, "firers": ["mtr"], "target": target, "firepower": 2},
                  side=BRIT)["seq"]
    if test:
        g.die("IM.SW.MORTAR.SCATTER", 5, attack, BRIT)
    if direction:
        g.die("IM.VEH.TADPOLE.SCATTER", 1, attack, BRIT)
    g.die("LS.SACRT", 4, attack, BRIT, mods=(-1,))
    resolved = g.add("SmallArmsResolved", {"attack": attack, "location": fell,
                                           "results": [{"unit": u, "result": r} for u, r in results]}, side=BRIT)["seq"]
    return fired, resolved


def test_ex_im_05_twenty_shots_at_most_six_a_turn():
    # EX-IM-05: "if the mortar fired four times in one turn, its ammunition would be exhausted in five turns" (case a:
    # shot 1 of turn 6 is refused); "A light mortar may fire a total of six times per turn"
    g = tadpole_game()
    for turn in range(1, 6):
        g.at(turn, "offensive-small-arms-fire", BRIT)
        fives = [mortar(g, f"t{turn}s{i}")[0] for i in range(4)]
    g.at(6, "offensive-small-arms-fire", BRIT)
    twenty_first, _ = mortar(g, "t6s1")
    report = g.audit()
    assert verdicts(report, "IM.VEH.TADPOLE.AMMO", fives[-1]) == ["ok"]
    assert verdicts(report, "IM.VEH.TADPOLE.AMMO", twenty_first) == ["violation"]
    g = tadpole_game()
    g.at(1, "offensive-small-arms-fire", BRIT)
    shots = [mortar(g, f"s{i}")[0] for i in range(7)]
    report = g.audit()
    assert verdicts(report, "IM.VEH.TADPOLE.ROF", shots[5]) == ["ok"]
    assert verdicts(report, "IM.VEH.TADPOLE.ROF", shots[6]) == ["violation"]


def test_the_mortar_fires_ahead_only_with_the_tank_still():
    # "The mortar may only fire at spotted targets located in front of the tank, in the direction the tank faces (use
    # rule 8.12) ... may only fire when the tank does not move ... A pinned crew cannot fire the mortar." (EC-33)
    g = tadpole_game()
    g.at(1, "offensive-small-arms-fire", BRIT)
    ahead, _ = mortar(g, "a1")
    behind, _ = mortar(g, "a2", BEHIND, fell="5:0509")
    half, _ = mortar(g, "a3", HALF, fell="5:0705")
    g.at(2, "vehicle-movement", BRIT)
    g.move("tad", [T, "5:0504"], facing=0)
    g.at(2, "offensive-small-arms-fire", BRIT)
    moved, _ = mortar(g, "a4")
    g.at(3, "defensive-small-arms-fire", GER)
    g.status("crew", "pinned", BRIT)
    pinned, _ = mortar(g, "a5")
    report = g.audit()
    assert verdicts(report, "IM.VEH.TADPOLE.FIRE_ARC", ahead) == ["ok"]
    assert verdicts(report, "IM.VEH.TADPOLE.FIRE_ARC", behind) == ["violation"]
    assert verdicts(report, "IM.VEH.TADPOLE.FIRE_ARC", half) == ["unverifiable"]
    assert verdicts(report, "IM.VEH.TADPOLE.NOMOVE", ahead) == ["ok", "ok"]
    assert "violation" in verdicts(report, "IM.VEH.TADPOLE.NOMOVE", moved)
    assert "violation" in verdicts(report, "IM.VEH.TADPOLE.NOMOVE", pinned)


def test_the_mortar_scatters_one_hexagon_without_a_test():
    # "the fire automatically scatters one hexagon from the targeted hexagon"; "If mortar fire scatters onto a tank or
    # armoured car, the result is automatically 'no effect'" (EC-33)
    g = tadpole_game()
    g.unit("g-car", GER, "armoured-car", NEXT)
    g.at(1, "offensive-small-arms-fire", BRIT)
    _, good = mortar(g, "a1", results=[("g-inf2", "pinned"), ("g-car", "no-effect")])
    _, tested = mortar(g, "a2", test=True)
    _, no_direction = mortar(g, "a3", direction=False)
    _, on_target = mortar(g, "a4", fell=AHEAD)
    _, car_hit = mortar(g, "a5", results=[("g-car", "eliminated")])
    report = g.audit()
    assert verdicts(report, "IM.VEH.TADPOLE.SCATTER", good) == ["ok"]
    assert verdicts(report, "IM.SW.MORTAR.SCATTER", good) == []   # no trench mortar's scatter d6 is asked of it
    assert "violation" in verdicts(report, "IM.VEH.TADPOLE.SCATTER", tested - 3)     # the scatter test
    assert "missing-roll" in verdicts(report, "IM.VEH.TADPOLE.SCATTER", no_direction)
    assert "mismatch" in verdicts(report, "IM.VEH.TADPOLE.SCATTER", on_target)
    assert verdicts(report, "IM.VEH.TADPOLE.TARGETS", good) == ["ok"]
    assert verdicts(report, "IM.VEH.TADPOLE.TARGETS", car_hit) == ["violation"]


def test_the_crew_observes_for_the_mortar_only():
    # "the crew counter has an inherent forward observer, but one that can spot only for the mortar"
    g = tadpole_game()
    g.at(1, "barrage", BRIT)
    seen = g.add("HexObserved", {"observer": "crew", "target": AHEAD, "via": "forward-observer"}, side=BRIT)["seq"]
    assert verdicts(g.audit(), "IM.VEH.TADPOLE.FO", seen) == ["violation"]


def test_the_exposed_crew_and_the_ammunition():
    # "enemy units conducting small arms fire on the tank from the side or rear automatically target the crew ... If
    # enemy small arms fire is made directly from the rear of the tank, apply a -2 modifier ... from the rear only ...
    # a result of 1 or 2 disables the tank and destroys the 'mortar' and 'crew' counters. Small arms fire originating
    # from the front half of the tank has no impact on the mortar crew"
    g = tadpole_game()
    g.at(1, "defensive-small-arms-fire", BRIT)
    _, front = g.small_arms("f1", ["g-inf"], T, GER, firepower=4, results=[("crew", "pinned")])
    _, rear = g.small_arms("f3", ["g-back"], T, GER, firepower=4, mods=(-2,), results=[("crew", "no-effect")])
    ammo = g.die("IM.VEH.TADPOLE.AMMO_HIT", 2, "tad", GER)
    _, rear_no_mod = g.small_arms("f2", ["g-back"], T, GER, firepower=4, results=[("crew", "no-effect")])
    g.at(1, "offensive-small-arms-fire", BRIT)
    report = g.audit()
    assert verdicts(report, "IM.VEH.TADPOLE.CREW_EXPOSED", front) == ["violation"]
    assert verdicts(report, "IM.VEH.TADPOLE.CREW_EXPOSED", rear_no_mod) == ["mismatch"]
    assert verdicts(report, "IM.VEH.TADPOLE.CREW_EXPOSED", rear) == ["ok"]
    assert "missing-roll" in verdicts(report, "IM.VEH.TADPOLE.AMMO_HIT", rear_no_mod)   # its own d6 was not rolled
    assert verdicts(report, "IM.VEH.TADPOLE.AMMO_HIT", ammo) == ["violation"]          # 2: mortar and crew remain
    g = tadpole_game()
    g.unit("g-side", GER, "infantry-platoon", "5:0707")       # behind the flank line, not directly behind
    g.at(1, "defensive-small-arms-fire", BRIT)
    _, side = g.small_arms("f1", ["g-side"], T, GER, firepower=4, results=[("crew", "no-effect")])
    g.at(1, "offensive-small-arms-fire", BRIT)
    assert verdicts(g.audit(), "IM.VEH.TADPOLE.AMMO_HIT", side) == ["ambiguous"]
    assert "missing-roll" in verdicts(g.audit(IM__VEH__TADPOLE__REAR="rear-half"), "IM.VEH.TADPOLE.AMMO_HIT", side)


def test_the_tadpole_stays_near_its_infantry():
    # "a Tadpole tank in play may never end its Vehicle Movement Phase more than two hexagons away from the nearest
    # friendly infantry or machine gun platoon" (EC-33: ending 3 hexes away is refused)
    g = tadpole_game(friend_at="5:0507")
    g.at(1, "vehicle-movement", BRIT)
    two = g.move("tad", [T, "5:0504"], facing=0)["seq"]            # 3 hexes from 0507
    g.at(1, "first-foot-movement", BRIT)
    g.at(2, "vehicle-movement", BRIT)
    back = g.move("tad", ["5:0504", T], facing=0)["seq"]           # 2 hexes
    g.at(2, "first-foot-movement", BRIT)
    report = g.audit()
    assert verdicts(report, "IM.VEH.TADPOLE.LEASH", two) == ["violation"]
    assert verdicts(report, "IM.VEH.TADPOLE.LEASH", back) == ["ok"]
