"""Landships of Mogdonazia fire at vehicles and close combat with them, from the text
(landships-of-mogdonazia.txt, D. 1, E. Weapons, F. Close Combat). The games are the page's example:
l-1 at (10, 24) facing 90 (its front toward +x) with a turret gun and a sponson MG bearing 90 (its
right, toward -y), the rebels r-1 at (40, 24) in front of it."""
from __future__ import annotations

import copy

from tests.unit.test_mog_vehicles import built, game, judged, line, turn


def verdicts(lines, rule):
    return [a.verdict.value for a in judged(lines, rule)]


def shot(shooter, target, weapon=None, part="vehicle", weapon_class="gun"):
    return line("ShotFired", {"attack": "a-1", "shooter": shooter, "weapon": weapon, "target": target,
                              "target_part": part, "weapon_class": weapon_class, "dice": 2, "range": 25.0},
                phase="shooting", side="mogdonazia" if shooter == "l-1" else "rebels")


def test_only_an_open_topped_vehicle_has_its_crew_shot_at():
    # D. 1: "if the vehicle is opentopped, it must be specified if the target is the vehicle or the crew"
    assert verdicts(game(*turn(1), shot("r-1", "l-1", part="crew")), "MOG.FIRE.TARGET") == ["violation"]
    lorry = built(open_topped=True)
    assert verdicts(game(*turn(1), shot("r-1", "l-1", part="crew"), setup=lorry), "MOG.FIRE.TARGET") == ["ok"]


def test_weapon_arcs_are_measured_on_the_table():
    # E.: "Sponson: This is a weapon that may fire 180 degrees"; "Turret: ... 360 degrees"; "Forward: ...
    # can only fire forward, following the same rules as TSATF"
    assert verdicts(game(*turn(1), shot("l-1", "r-1", "l-1/gun")), "MOG.WEAP.MOUNTS")[-1] == "ok"
    # the sponson bears 90 from the hull front (facing 90): it fires 180 degrees about 180, toward -y;
    # r-1 moved to (30, 5) is inside, at (30, 44) outside
    south = copy.deepcopy(game(*turn(1), shot("l-1", "r-1", "l-1/mg")))
    south[7]["data"]["position"] = {"x": 30.0, "y": 5.0}
    assert verdicts(south, "MOG.WEAP.MOUNTS")[-1] == "ok"
    north = copy.deepcopy(south)
    north[7]["data"]["position"] = {"x": 30.0, "y": 44.0}
    assert verdicts(north, "MOG.WEAP.MOUNTS")[-1] == "violation"
    forward = built(weapons=[{"weapon": "l-1/gun", "type": "field-gun", "mount": "forward", "crew": 4}])
    assert verdicts(game(*turn(1), shot("l-1", "r-1", "l-1/gun"), setup=forward), "MOG.WEAP.MOUNTS")[-1] == \
        "unverifiable"
    rear = copy.deepcopy(game(*turn(1), shot("l-1", "r-1", "l-1/gun"), setup=forward))
    rear[7]["data"]["position"] = {"x": 2.0, "y": 10.0}
    assert verdicts(rear, "MOG.WEAP.MOUNTS")[-1] == "violation"


def fight(step=None, crew_as=None, charged=False, units=("r-1",)):
    data = {"combat": "c-1", "sides": [{"units": list(units), "charged": charged, "flank": False, "in_terrain": False},
                                       {"units": ["l-1"], "charged": False, "flank": False, "in_terrain": False}]}
    if step:
        data["step"] = step
    if crew_as:
        data["crew_as"] = crew_as
    return line("CloseCombatFought", data, phase="close-combat", side="rebels")


def resolved(hits, step=None, modifiers=(), unit="r-1"):
    data = {"combat": "c-1", "results": [{"unit": unit, "dice": 3, "modifiers": list(modifiers), "hits": hits,
                                          "coh_lost": 0}], "fall_back": [], "pursue": []}
    if step:
        data["step"] = step
    return line("CloseCombatResolved", data, phase="close-combat", side="rebels")


def test_the_crew_of_an_open_topped_vehicle_fights_as_cavalry():
    # F. 1: "they engage the crew in close combat. The crew is treated as cavalry."
    lorry = built(open_topped=True)
    assert verdicts(game(*turn(1), fight(crew_as="cavalry"), setup=lorry), "MOG.CC.OPEN") == ["ok"]
    assert verdicts(game(*turn(1), fight(), setup=lorry), "MOG.CC.OPEN") == ["violation"]


def test_a_closed_vehicle_is_fought_in_three_steps():
    # F. 2: "a) The attacker latches onto the vehicle. b) The attacker tries to open the hatch. c) The attacker
    # engages the crew in close combat. In the first two steps, the attacker does not wound anything"
    ordered = game(*turn(1), fight("latch"), resolved(0, "latch"), *turn(2), fight("hatch"), resolved(0, "hatch"),
                   *turn(3), fight("crew"), resolved(2, "crew"))
    assert set(verdicts(ordered, "MOG.CC.CLOSED")) == {"ok"}
    assert verdicts(game(*turn(1), fight("hatch")), "MOG.CC.CLOSED") == ["violation"]
    assert verdicts(game(*turn(1), fight("latch"), resolved(1, "latch")), "MOG.CC.CLOSED") == ["ok", "violation"]
    assert verdicts(game(*turn(1), fight()), "MOG.CC.CLOSED") == ["violation"]


def test_vehicles_charging_get_3_and_the_loser_a_critical():
    # F. 4-5: "the victor of the combat causes damage on the loser. Consult the critical chart"; "Charging +3"
    two = copy.deepcopy(built())
    rival = copy.deepcopy(two[6])
    rival["data"]["unit"], rival["side"] = "r-1", "rebels"
    two.append(rival)
    ram = [fight(charged=True), resolved(2, modifiers=[{"value": 3, "why": "charging"}])]
    crit = [line("DieRolled", {"purpose": "MOG.FIRE.CRIT", "die": "d6", "result": 1, "subject": "l-1"},
                 phase="close-combat"),
            line("CriticalHit", {"unit": "l-1", "chart": "vehicle", "result": 1, "effect": "gun"}, phase="close-combat")]
    assert verdicts(game(*turn(1), *ram, *crit, setup=two), "MOG.CC.VEH_ATTACK") == ["ok", "ok"]
    no_bonus = [fight(charged=True), resolved(2, modifiers=[])]
    assert verdicts(game(*turn(1), *no_bonus, setup=two), "MOG.CC.VEH_ATTACK") == ["violation", "missing-roll"]


def test_a_vehicle_charging_infantry_fights_without_latch_or_hatch():
    # MOG, F. Close Combat: "2. When infantry or cavalry attack a closed vehicle, the combat is in three steps"
    # ... "3. Vehicles can attack infantry, cavalry, artillery and other vehicles without any restrictions."
    charge = line("CloseCombatFought", {"combat": "c-1", "sides": [
        {"units": ["l-1"], "charged": True, "flank": False, "in_terrain": False},
        {"units": ["r-1"], "charged": False, "flank": False, "in_terrain": False}]}, phase="close-combat")
    bonus = resolved(1, modifiers=[{"value": 3, "why": "charging"}], unit="l-1")
    lines = game(*turn(1), charge, bonus)
    assert verdicts(lines, "MOG.CC.CLOSED") == []
    assert verdicts(lines, "MOG.CC.VEH_ATTACK") == ["ok"]
    # the infantry charging the closed landship still goes through the steps
    assert verdicts(game(*turn(1), fight(charged=True)), "MOG.CC.CLOSED") == ["violation"]


def test_powered_armour_fights_as_a_figure_and_wounded_at_minus_2():
    # MOG, E. Steam-Powered Armour: "A PA is treated as a key figure ... When wounded ... they suffer a -2 modifier
    # in close combat"; F. 2's three steps are for "a closed vehicle", not a suit of armour
    pa = built(kind="powered-armour", crew=1, weapons=[{"weapon": "l-1/mg", "type": "machine-gun", "mount": "forward",
                                                        "crew": 1}])
    wounded = line("UnitStatusChanged", {"unit": "l-1", "status": "wounded"}, phase="close-combat")
    def melee(*mods):
        return [fight(charged=True), resolved(0, modifiers=list(mods), unit="l-1")]
    assert verdicts(game(*turn(1), *melee(), setup=pa), "MOG.CC.CLOSED") == []
    assert verdicts(game(*turn(1), wounded, *melee({"value": -2, "why": "wounded"}), setup=pa), "MOG.PA")[-1] == "ok"
    assert verdicts(game(*turn(1), wounded, *melee(), setup=pa), "MOG.PA")[-1] == "violation"
    assert verdicts(game(*turn(1), *melee(), setup=pa), "MOG.PA") == ["ok"]   # built; unwounded: no -2
