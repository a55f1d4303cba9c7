"""Landships of Mogdonazia vehicles, from the text (landships-of-mogdonazia.txt, Vehicles statistics):
building a vehicle, the movement dice, breakdown, restart and repair. Each game is the page's
example (game-log-tabletop.md, Examples: a 72" x 48" table, the road rd-1 along y 36, 3" wide, the
rough ro-1 over x 30-40, y 2-12, the landship l-1 of 5 dice at (10, 24) facing 90, 4" x 6") with
the lines a case changes; expected numbers are worked out by hand from the quoted passages."""
from __future__ import annotations

import copy
import json

import pytest

from domain.rules.engine import Verdict, audit
from domain.rules.interpretations import Interpretations
from domain.rules.tables import resolve
from tests.conftest import SPEC

EXAMPLE = [json.loads(l) for l in (SPEC / "examples-tabletop" / "mog-example.jsonl").read_text().splitlines() if l.strip()]
SETUP = [l for l in EXAMPLE if l["turn"] == 0]          # seq 1-8: the table, the deck, l-1 built, r-1


def line(kind: str, data: dict, turn: int = 1, phase: str = "movement", side: str = "mogdonazia") -> dict:
    return {"v": 1, "game": "mog-example", "turn": turn, "phase": phase, "side": side, "type": kind, "data": data}


def roll(purpose: str, results: list[int], subject: str = "l-1", **kw) -> dict:
    die = "d6" if len(results) == 1 else f"{len(results)}d6"
    return line("DieRolled", {"purpose": purpose, "die": die, "results": results, "result": sum(results),
                              "subject": subject}, **kw)


def turn(n: int) -> list[dict]:
    return [line("TurnStarted", {"turn": n}, turn=n, phase="start", side=None),
            line("PhaseStarted", {"phase": "movement", "active": None}, turn=n, side=None)]


def breakdown(face: int, terrain: str = "off-road", broke: bool = False, n: int = 1) -> list[dict]:
    return [roll("MOG.VEH.BREAKDOWN", [face], turn=n),
            line("BreakdownTested", {"unit": "l-1", "kind": "breakdown", "terrain": terrain, "broke_down": broke}, turn=n)]


def move(*points, n: int = 1, unit: str = "l-1") -> dict:
    return line("UnitMoved", {"unit": unit, "path": [{"x": x, "y": y} for x, y in points]}, turn=n)


def game(*lines, options=("mog-speed-roll=once",), setup=None) -> list[dict]:
    out = copy.deepcopy(setup if setup is not None else SETUP)
    out[0]["data"]["options"] = list(options)
    out += [copy.deepcopy(l) for l in lines]
    for seq, l in enumerate(out, 1):
        l["seq"] = seq
        if l.get("side") is None:
            l.pop("side", None)
    return out


def judged(lines, rule: str, interpretations=()):
    report = audit(lines, tables=resolve("none"), interpretations=Interpretations.from_pairs(interpretations))
    return [a for a in report.applications if a.rule == rule]


def failing(lines, prefix: str = "MOG.", interpretations=()):
    report = audit(lines, tables=resolve("none"), interpretations=Interpretations.from_pairs(interpretations))
    return [(a.seq, a.rule, a.verdict.value) for a in report.applications
            if a.rule.startswith(prefix) and a.verdict is not Verdict.OK]


def built(**changes) -> list[dict]:
    """The example's setup with VehicleBuilt (seq 7) and its rolls (seq 5 speed, 6 armour) changed."""
    setup = copy.deepcopy(SETUP)
    speed, armour = changes.pop("speed_roll", None), changes.pop("armour_roll", None)
    if speed is not None:
        setup[4]["data"].update(result=speed)
    if armour is not None:
        setup[5]["data"].update(result=armour)
    setup[6]["data"].update(changes)
    return setup


# --- Building: MOG.VEH.SPEED, MOG.VEH.ARMOUR, MOG.VEH.CREW, MOG.WEAP.MOUNTS -----------------

def test_the_example_vehicle_is_built_legally():
    # armoured-looking 5 "become ... 3" (class III); 5 speed dice from the d6 5; crew 8 >= 4 + 2 + 1
    assert failing(game(setup=built())) == []


@pytest.mark.parametrize("rolled, declared, verdict", [(5, 5, "ok"), (4, 5, "violation"), (2, 2, "ok")])
def test_speed_dice_are_the_d6(rolled, declared, verdict):
    # A. Movement 1: "roll a D6. This is the number of dice it can use for movement."
    found = judged(game(setup=built(speed_roll=rolled, speed_dice=declared)), "MOG.VEH.SPEED")
    assert [(a.seq, a.verdict.value) for a in found] == [(7, verdict)]


# C. Armour: armoured "the 1, 5 & 6 become 2, 3 & 4"; unarmoured "the 4, 5 & 6 become 1, 2 & 3"
# (rule-cases.md EC-MOG-03).
@pytest.mark.parametrize("looks, face, cls", [
    ("armoured", 1, 2), ("armoured", 5, 3), ("armoured", 6, 4), ("armoured", 3, 3),
    ("unarmoured", 4, 1), ("unarmoured", 6, 3), ("unarmoured", 2, 2), ("neither", 4, 4)])
def test_target_class_from_the_look_and_the_roll(looks, face, cls):
    right = judged(game(setup=built(looks=looks, armour_roll=face, target_class=cls)), "MOG.VEH.ARMOUR")
    wrong = judged(game(setup=built(looks=looks, armour_roll=face, target_class=cls % 4 + 1)), "MOG.VEH.ARMOUR")
    assert [a.verdict for a in right] == [Verdict.OK] and [a.verdict for a in wrong] == [Verdict.VIOLATION]
    assert wrong[0].expected == cls


@pytest.mark.parametrize("face", [5, 6])
def test_a_neutral_look_rolling_5_or_6_is_ambiguous(face):
    # AP-MOG-01 (MOG.Z 3): "The armour remap leaves 5-6 undefined for 'neutral' models."
    found = judged(game(setup=built(looks="neither", armour_roll=face, target_class=3)), "MOG.VEH.ARMOUR")
    assert [a.verdict for a in found] == [Verdict.AMBIGUOUS] and "mog-armour-neutral" in found[0].interpretation


def test_no_armour_roll_is_a_missing_roll():
    setup = built()
    del setup[5]                        # the MOG.VEH.ARMOUR d6
    assert [a.verdict for a in judged(game(setup=setup), "MOG.VEH.ARMOUR")] == [Verdict.MISSING_ROLL]


@pytest.mark.parametrize("crew, verdict", [(7, "ok"), (12, "ok"), (6, "violation")])
def test_crew_is_the_weapon_crews_and_a_commanding_officer(crew, verdict):
    # B. 1: "first count the number of weapon crews" (4 + 2 here) "and then add whatever number ...
    # One of those extra crewmen will be the commanding officer"; EX-MOG-02: crew >= crews + 1.
    assert [a.verdict.value for a in judged(game(setup=built(crew=crew)), "MOG.VEH.CREW")] == [verdict]


def test_powered_armour_has_one_crew_and_at_most_two_weapons():
    # E. "they have one 1 crew ... and they can carry a maximum of two weapons"
    weapons = [{"weapon": f"w{i}", "type": "rifle", "mount": "forward", "crew": 1} for i in range(3)]
    good = judged(game(setup=built(kind="powered-armour", crew=1, weapons=weapons[:2])), "MOG.PA")
    bad = judged(game(setup=built(kind="powered-armour", crew=1, weapons=weapons)), "MOG.PA")
    assert [a.verdict for a in good] == [Verdict.OK] and [a.verdict for a in bad] == [Verdict.VIOLATION]


def test_airships_count_as_class_iv():
    # A. 3: "Both count as class IV."
    assert [a.verdict for a in judged(game(setup=built(kind="airship", target_class=3)), "MOG.AIR.SHOOT")] \
        == [Verdict.VIOLATION]


def test_a_weapon_has_its_crew_and_a_forward_weapon_fires_forward():
    # E. "Each weapon has the available crew necessary for it"; "Forward: ... can only fire forward"
    weapons = [{"weapon": "g", "type": "field-gun", "mount": "forward", "bearing": 90, "crew": 4}]
    assert [a.verdict for a in judged(game(setup=built(weapons=weapons)), "MOG.WEAP.MOUNTS")] == [Verdict.VIOLATION]
    weapons[0]["bearing"] = 0
    assert [a.verdict for a in judged(game(setup=built(weapons=weapons)), "MOG.WEAP.MOUNTS")] == [Verdict.OK]


# --- Movement dice: MOG.VEH.SPEED -------------------------------------------------------------
# rule-cases.md EC-MOG-02: "Max dice 5: road -> 5 dice; off road -> 3; Rough terrain with roll
# [6, 4, 2] -> highest dropped -> 6 inches. Max dice 1 off road -> still 1."

def speed_cases(results, *points, n=1):
    return [*breakdown(3), roll("MOG.VEH.SPEED.DICE", results), move(*points)]


def test_off_road_rolls_half_the_dice_rounded_up():
    off_road = ((10.0, 24.0), (20.0, 24.0))   # y 24, the road at y 36: off road
    assert failing(game(*turn(1), *speed_cases([4, 3, 5], *off_road))) == []
    assert failing(game(*turn(1), *speed_cases([4, 3, 5, 2, 6], *off_road))) == [(len(SETUP) + 5, "MOG.VEH.SPEED", "violation")]


def on_road_setup():
    setup = built()
    setup[3]["data"]["position"] = {"x": 10.0, "y": 36.0}
    return setup


def test_on_road_rolls_all_the_dice():
    # "Movement on roads uses the maximum number of dice": every point within 1.5" of y 36
    lines = [*breakdown(3, "road"), roll("MOG.VEH.SPEED.DICE", [4, 2, 5, 3, 6]), move((10.0, 36.0), (30.0, 36.0))]
    assert failing(game(*turn(1), *lines, setup=on_road_setup())) == []
    short = [*breakdown(3, "road"), roll("MOG.VEH.SPEED.DICE", [4, 2, 5]), move((10.0, 36.0), (20.0, 36.0))]
    assert [f[1:] for f in failing(game(*turn(1), *short, setup=on_road_setup()))] == [("MOG.VEH.SPEED", "violation")]


def test_leaving_the_road_is_off_road_under_the_worst_class():
    # mog-terrain-class=worst (default): "road if all on road", so a move off it is off road (3 dice);
    # =start: the class where it starts, the road (5 dice).
    lines = [*breakdown(3, "road"), roll("MOG.VEH.SPEED.DICE", [4, 2, 5, 3, 6]), move((10.0, 36.0), (10.0, 30.0))]
    worst = failing(game(*turn(1), *lines, setup=on_road_setup()))
    assert ("MOG.VEH.SPEED", "violation") in [f[1:] for f in worst]
    start = failing(game(*turn(1), *lines, setup=on_road_setup()), interpretations=["mog-terrain-class=start"])
    assert start == []


def test_rough_drops_the_highest_die():
    # "Movement in rough terrain negates the highest die rolled": 3 dice [6, 4, 2] give 6" (EC-MOG-02)
    setup = built()
    setup[3]["data"]["position"] = {"x": 26.0, "y": 8.0}   # hull x 23-29; moving east into ro-1 (x 30)
    ok = [*breakdown(3, "rough"), roll("MOG.VEH.SPEED.DICE", [6, 4, 2]), move((26.0, 8.0), (32.0, 8.0))]
    assert failing(game(*turn(1), *ok, setup=setup)) == []
    far = [*breakdown(3, "rough"), roll("MOG.VEH.SPEED.DICE", [6, 4, 2]), move((26.0, 8.0), (32.5, 8.0))]
    assert [f[1:] for f in failing(game(*turn(1), *far, setup=setup))] == [("MOG.VEH.SPEED", "violation")]
    # mog-rough-dice=maximum: all 5 dice are rolled in rough
    assert ("MOG.VEH.SPEED", "violation") in [f[1:] for f in failing(
        game(*turn(1), *ok, setup=setup), interpretations=["mog-rough-dice=maximum"])]


def test_one_die_at_least():
    # "A vehicle has a minimum number of one die for movement in all cases": 1 die off road is ceil(1/2) = 1
    lines = [*breakdown(3), roll("MOG.VEH.SPEED.DICE", [4]), move((10.0, 24.0), (14.0, 24.0))]
    assert failing(game(*turn(1), *lines, setup=built(speed_roll=1, speed_dice=1))) == []


def test_a_move_without_its_roll_is_a_missing_roll():
    lines = [*breakdown(3), move((10.0, 24.0), (14.0, 24.0))]
    assert [f[1:] for f in failing(game(*turn(1), *lines))] == [("MOG.VEH.SPEED", "missing-roll")]


def test_unchosen_speed_roll_reading_is_ambiguous_when_the_readings_differ():
    # MOG.Z 7: "The movement-dice roll may be made once or per turn"; no roll this turn: once gives
    # 3 dice, per turn none was rolled.
    lines = [*breakdown(3), roll("MOG.VEH.SPEED.DICE", [4, 3, 5]), move((10.0, 24.0), (20.0, 24.0))]
    assert [f[1:] for f in failing(game(*turn(1), *lines, options=()))] == [("MOG.VEH.SPEED", "ambiguous")]


# --- Breakdown and restart: MOG.VEH.BREAKDOWN ----------------------------------------------------
# "Breakdown Roll 1D6 On road 6 Off road 5-6 In rough terrain 4-6" (EC-MOG-01).

@pytest.mark.parametrize("face, broke, verdict", [(4, False, "ok"), (5, True, "ok"), (5, False, "mismatch"),
                                                   (4, True, "mismatch")])
def test_breakdown_off_road(face, broke, verdict):
    found = judged(game(*turn(1), *breakdown(face, "off-road", broke)), "MOG.VEH.BREAKDOWN")
    assert [a.verdict.value for a in found] == [verdict]


def test_breakdown_on_road_only_on_a_6():
    found = judged(game(*turn(1), *breakdown(5, "road", False), setup=on_road_setup()), "MOG.VEH.BREAKDOWN")
    assert [a.verdict for a in found] == [Verdict.OK]


def test_the_terrain_recorded_is_that_of_the_move():
    # the vehicle stands off road and tests as on road: off road breaks on 5-6, so its 5 breaks it
    found = judged(game(*turn(1), *breakdown(5, "road", False)), "MOG.VEH.BREAKDOWN")
    assert [(a.verdict, a.expected) for a in found] == [(Verdict.VIOLATION, "off-road")]


def test_every_turn_once():
    # "Vehicles must roll for breakdown every turn"
    assert [f[1:] for f in failing(game(*turn(1), *turn(2), *breakdown(3, n=2)))] == \
        [("MOG.VEH.BREAKDOWN", "missing-roll")]
    twice = failing(game(*turn(1), *breakdown(3), *breakdown(4)))
    assert [f[1:] for f in twice] == [("MOG.VEH.BREAKDOWN", "violation")]


def broken_down() -> list[dict]:
    return [*breakdown(6, "off-road", True),
            line("UnitStatusChanged", {"unit": "l-1", "status": "broken-down", "cause": "MOG.VEH.BREAKDOWN"})]


def restart(face: int, restarted: bool, n: int) -> list[dict]:
    return [roll("MOG.VEH.BREAKDOWN.RESTART", [face], turn=n),
            line("BreakdownTested", {"unit": "l-1", "kind": "restart", "terrain": "off-road", "restarted": restarted},
                 turn=n)]


def test_a_broken_down_vehicle_does_not_move_and_restarts_for_next_turn():
    # "To restart a broke down vehicle, roll a D6. On a 4 to 6, the vehicle will move normally next turn."
    back = [*restart(4, True, 2), line("UnitStatusChanged", {"unit": "l-1", "status": "restarted"}, turn=2)]
    moved_same_turn = game(*turn(1), *broken_down(), *turn(2), *back, move((10.0, 24.0), (12.0, 24.0), n=2))
    assert [f[1:] for f in failing(moved_same_turn)] == [("MOG.VEH.BREAKDOWN", "violation")]
    next_turn = game(*turn(1), *broken_down(), *turn(2), *back, *turn(3), *breakdown(3, n=3),
                     roll("MOG.VEH.SPEED.DICE", [2, 2, 2], turn=3), move((10.0, 24.0), (12.0, 24.0), n=3))
    assert failing(next_turn) == []
    assert [a.verdict for a in judged(game(*turn(1), *broken_down(), *turn(2), *restart(3, True, 2)),
                                      "MOG.VEH.BREAKDOWN.RESTART")] == [Verdict.MISMATCH]


def test_a_broken_down_vehicle_rolls_no_movement_dice():
    # "a minimum number of one die for movement in all cases, except if it is broken down"
    lines = game(*turn(1), *broken_down(), roll("MOG.VEH.SPEED.DICE", [3, 3, 3]))
    assert [f[1:] for f in failing(lines)] == [("MOG.VEH.SPEED", "violation")]


# --- Repair: MOG.VEH.REPAIR ----------------------------------------------------------------------

def repair(face: int, repaired: bool, n: int = 1) -> list[dict]:
    return [roll("MOG.VEH.REPAIR", [face], turn=n),
            line("RepairAttempted", {"unit": "l-1", "system": "engine", "repaired": repaired}, turn=n)]


@pytest.mark.parametrize("face, repaired, verdict", [(5, True, "ok"), (4, False, "ok"), (4, True, "mismatch")])
def test_repair_on_a_5_to_6(face, repaired, verdict):
    # B. 2: "To repair, roll a D6. On a 5 to 6, the system is repaired." (EC-MOG-06: 4 is not repaired)
    found = judged(game(*turn(1), *breakdown(3), *repair(face, repaired)), "MOG.VEH.REPAIR")
    assert [a.verdict.value for a in found] == [verdict]


def test_the_crew_repairing_does_nothing_else_that_turn():
    # "While repairing, the whole crew takes part and cannot do anything else for the entire turn."
    lines = game(*turn(1), *breakdown(3), *repair(4, False), roll("MOG.VEH.SPEED.DICE", [2, 2, 2]),
                 move((10.0, 24.0), (12.0, 24.0)))
    assert ("MOG.VEH.REPAIR", "violation") in [f[1:] for f in failing(lines)]
    next_turn = game(*turn(1), *breakdown(3), *repair(4, False), *turn(2), *breakdown(3, n=2),
                     roll("MOG.VEH.SPEED.DICE", [2, 2, 2], turn=2), move((10.0, 24.0), (12.0, 24.0), n=2))
    assert failing(next_turn) == []


def test_an_airplane_pilot_cannot_repair():
    # A. 4: "Airplane pilots cannot repair systems, as they are the only persons on board."
    lines = game(*turn(1), *repair(5, True), setup=built(kind="airplane", target_class=4, weapons=[]))
    assert [a.verdict for a in judged(lines, "MOG.AIR.REPAIR")] == [Verdict.VIOLATION]


def test_a_clockwork_has_an_operator():
    # F. Clockwork Men: "They must, however, have an operator to look after them."
    assert [a.verdict for a in judged(game(setup=built(kind="clockwork")), "MOG.CLOCKWORK")] == [Verdict.VIOLATION]
    assert [a.verdict for a in judged(game(setup=built(kind="clockwork", operator="op-1")), "MOG.CLOCKWORK")] \
        == [Verdict.OK]


def test_a_breakdown_test_that_broke_down_is_enough_without_a_status():
    # MOG, A. 2 Breakdown: "Vehicles must roll for breakdown every turn ... To restart a broke down vehicle, roll a
    # D6. On a 4 to 6, the vehicle will move normally next turn." BreakdownTested broke_down true breaks it down,
    # whether or not a UnitStatusChanged repeats it.
    restart = [roll("MOG.VEH.BREAKDOWN.RESTART", [5], turn=2),
               line("BreakdownTested", {"unit": "l-1", "kind": "restart", "terrain": "off-road", "restarted": True},
                    turn=2)]
    lines = game(*turn(1), *breakdown(6, broke=True), *turn(2), *restart, *turn(3), *breakdown(2, n=3),
                 roll("MOG.VEH.SPEED.DICE", [2, 2, 2], turn=3), move((10.0, 24.0), (14.0, 24.0), n=3))
    assert failing(lines) == []
    stuck = game(*turn(1), *breakdown(6, broke=True), *turn(2), move((10.0, 24.0), (14.0, 24.0), n=2))
    assert ("MOG.VEH.BREAKDOWN", "violation") in [f[1:] for f in failing(stuck)]
