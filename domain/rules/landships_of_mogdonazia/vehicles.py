"""Landships of Mogdonazia, vehicles: building a vehicle (speed dice, target class, crew, weapons
and mounts) and its movement dice (landships-of-mogdonazia.txt, Vehicles statistics A to C, E).

Breakdown, restarting and repair are in `breakdown.py`.
"""
from __future__ import annotations

import math
from typing import Any, Optional

from domain.rules.engine import RuleApplication, RuleModule
from domain.rules.landships_of_mogdonazia.common import (RULEBOOK, faces, last_roll, restarted_this_turn, this_turn,
                                                          vehicle_of)
from domain.rules.landships_of_mogdonazia.criticals import gears_hits, standing_status
from domain.rules.landships_of_mogdonazia.terrain import move_class_of
from domain.tabletop.geometry import path_length

SPEED = RULEBOOK.rule("MOG.VEH.SPEED")
ARMOUR = RULEBOOK.rule("MOG.VEH.ARMOUR")
CREW = RULEBOOK.rule("MOG.VEH.CREW")
MOUNTS = RULEBOOK.rule("MOG.WEAP.MOUNTS")
PA = RULEBOOK.rule("MOG.PA")
CLOCKWORK = RULEBOOK.rule("MOG.CLOCKWORK")
AIR_SHOOT = RULEBOOK.rule("MOG.AIR.SHOOT")

# C. Armour: "If the vehicle model looks like it is armoured, the 1, 5 & 6 become 2, 3 & 4. If the
# vehicle looks like it is unarmoured, the 4, 5 & 6 become 1, 2 & 3." Otherwise "roll a D6, this
# is its target class" (I to IV): a neutral 5 or 6 has no class (AP-MOG-01, `mog-armour-neutral`).
TARGET_CLASS = {
    "armoured": {1: 2, 2: 2, 3: 3, 4: 4, 5: 3, 6: 4},
    "unarmoured": {1: 1, 2: 2, 3: 3, 4: 1, 5: 2, 6: 3},
    "neither": {1: 1, 2: 2, 3: 3, 4: 4},
}
# "PAs are constructed in the same way as landships"; a Clockwork "functions like Powered Armour".
ROLLED_SPEED = frozenset({"landship", "powered-armour", "clockwork"})
# A. 3 Shooting: airships and airplanes "Both count as class IV".
AIR_KINDS = frozenset({"airship", "airplane"})
STOPPED = ("broken-down", "immobilized")  # "except if it is broken down or immobilized"
SPEED_DICE_ROLL = "MOG.VEH.SPEED.DICE"


class VehicleBuilding(RuleModule):
    """VehicleBuilt, after its MOG.VEH.SPEED and MOG.VEH.ARMOUR rolls."""

    ruleset = "landships-of-mogdonazia"

    def on_VehicleBuilt(self, line):
        built = self.ctx.typed(line)
        return [a for a in (self._speed(line, built), self._target_class(line, built),
                            self._crew(line, built), self._mounts(line, built)) if a is not None]

    def _roll(self, line, purpose: str, rule) -> tuple[Optional[int], Optional[RuleApplication]]:
        unit = self.ctx.typed(line).unit
        roll = last_roll(self.ctx, unit, purpose, line["seq"], turn_only=False)
        if roll is None:
            return None, rule.missing_roll(line["seq"], f"no {purpose} d6 about {unit} before it is built")
        return self.ctx.typed(roll).result, None

    def _speed(self, line, built) -> Optional[RuleApplication]:
        if built.kind not in ROLLED_SPEED:
            return None  # airships and airplanes move by their own dice (MOG.AIRSHIP.MOVE, MOG.AIRPLANE.MOVE)
        face, missing = self._roll(line, "MOG.VEH.SPEED", SPEED)
        if missing:
            return missing
        # A. Movement 1: "roll a D6. This is the number of dice it can use for movement."
        return SPEED.judge(line["seq"], built.speed_dice == face, f"{face} speed dice, as rolled",
                           f"the speed d6 shows {face}: \"This is the number of dice\", not {built.speed_dice}",
                           expected=face, recorded=built.speed_dice)

    def _target_class(self, line, built) -> Optional[RuleApplication]:
        seq = line["seq"]
        if built.kind in AIR_KINDS:
            return AIR_SHOOT.judge(seq, built.target_class == 4, "class IV (\"Both count as class IV\")",
                                   f"an {built.kind} counts as class IV, not {built.target_class}",
                                   expected=4, recorded=built.target_class)
        face, missing = self._roll(line, "MOG.VEH.ARMOUR", ARMOUR)
        if missing:
            return missing
        expected = TARGET_CLASS[built.looks].get(face)
        if expected is None:
            label = self.ctx.interpretations.label("mog-armour-neutral")
            return ARMOUR.ambiguous(seq, f"a model that looks neither armoured nor unarmoured rolled {face}: the "
                                    "text gives no class for it (AP-MOG-01)", recorded=built.target_class,
                                    interpretation=label)
        return ARMOUR.judge(seq, built.target_class == expected, f"{built.looks}-looking, {face} gives class {expected}",
                            f"{built.looks}-looking, the armour d6 {face} gives class {expected}, not {built.target_class}",
                            expected=expected, recorded=built.target_class, inputs={"looks": built.looks, "d6": face})

    def _crew(self, line, built) -> Optional[RuleApplication]:
        seq = line["seq"]
        if built.kind == "powered-armour":
            # E. Steam-Powered Armour: "they have one 1 crew ... a maximum of two weapons"
            good = built.crew == 1 and len(built.weapons) <= 2
            return PA.judge(seq, good, "one crew, at most two weapons",
                            f"a PA has 1 crew and at most two weapons, not {built.crew} crew and "
                            f"{len(built.weapons)} weapons", expected={"crew": 1, "weapons": "<= 2"},
                            recorded={"crew": built.crew, "weapons": len(built.weapons)})
        if built.kind == "clockwork":
            # F. Clockwork Men: "They must, however, have an operator to look after them."
            return CLOCKWORK.judge(seq, bool(built.operator), f"operator {built.operator}",
                                   "a Clockwork must have an operator to look after it", recorded=built.operator)
        if built.kind == "airplane":
            return None  # "the pilot ... the only persons on board": no weapon crews to count
        # B. 1: "first count the number of weapon crews ... and then add whatever number of crewmen that
        # looks sufficient ... One of those extra crewmen will be the commanding officer": at least one more.
        needed = sum(w.crew for w in built.weapons) + 1
        return CREW.judge(seq, built.crew >= needed, f"{built.crew} crew: the weapon crews and a commanding officer",
                          f"{built.crew} crew is fewer than the weapon crews ({needed - 1}) and the commanding officer",
                          expected=f">= {needed}", recorded=built.crew)

    def _mounts(self, line, built) -> Optional[RuleApplication]:
        if not built.weapons:
            return None
        wrong = []
        for w in built.weapons:
            # E. Weapons: "Each weapon has the available crew necessary for it" (cut back, not to none)
            if w.crew < 1:
                wrong.append(f"{w.weapon} has no crew")
            # "Forward: ... can only fire forward": its bearing, if given, is the hull front (0)
            if w.mount == "forward" and w.bearing not in (None, 0):
                wrong.append(f"{w.weapon} is mounted forward yet bears {w.bearing}")
        return MOUNTS.judge(line["seq"], not wrong, "every weapon crewed, on a forward, sponson or turret mount",
                            "; ".join(wrong), recorded=[w.weapon for w in built.weapons])


def dice_for(maximum: int, terrain: str, rough_reading: str) -> tuple[int, bool]:
    """(dice rolled, highest dropped) for a move. A. Movement 1: "Movement on roads uses the maximum
    number of dice. Movement off roads uses half the maximum number of dice rounded up. Movement in
    rough terrain negates the highest die rolled. A vehicle has a minimum number of one die"; rough
    rolls the off-road count or all the dice (`mog-rough-dice`)."""
    if terrain == "road" or (terrain == "rough" and rough_reading == "maximum"):
        rolled = maximum
    else:
        rolled = math.ceil(maximum / 2)
    return max(1, rolled), terrain == "rough"


def allowance(rolled: list[int], drop_highest: bool) -> int:
    """Inches moved: the kept faces; the highest negated in rough, keeping at least one die."""
    kept = sorted(rolled)
    if drop_highest and len(kept) > 1:
        kept = kept[:-1]
    return sum(kept)


class MovementDice(RuleModule):
    """A landship's movement roll (MOG.VEH.SPEED.DICE) and the move that follows it."""

    ruleset = "landships-of-mogdonazia"

    def on_DieRolled(self, line):
        roll = self.ctx.typed(line)
        if roll.purpose != SPEED_DICE_ROLL or roll.subject not in self.ctx.board.units:
            return ()
        stopped = [s for s in standing_status(self.ctx, self.ctx.board.units[roll.subject], line["seq"])
                   if s in STOPPED]
        if stopped:
            return [SPEED.violation(line["seq"], f"{roll.subject} is {stopped[0]}: no movement dice (\"a minimum "
                                    "number of one die ... except if it is broken down or immobilized\")",
                                    expected=0, recorded=len(faces(roll)))]
        return ()

    def on_UnitMoved(self, line):
        move = self.ctx.typed(line)
        built = vehicle_of(self.ctx, move.unit)
        if built is None or built.get("kind") != "landship" or move.mode not in (None, "normal"):
            return ()
        unit = self.ctx.board.units[move.unit]
        status = standing_status(self.ctx, unit, line["seq"])
        if any(s in STOPPED for s in status) or restarted_this_turn(self.ctx, move.unit, line["seq"]):
            return ()  # judged by breakdown.py: a stopped vehicle does not move
        roll = self._roll_before(line)
        if roll is None:
            return [SPEED.missing_roll(line["seq"], f"{move.unit} moves without its {SPEED_DICE_ROLL} roll")]
        terrain = move_class_of(self.ctx, line, unit, move.path)
        return [self._judge(line, roll, built, terrain, half="half-speed" in status)]

    def _roll_before(self, line) -> Optional[dict[str, Any]]:
        unit = self.ctx.typed(line).unit
        previous = next((l["seq"] for l in this_turn(self.ctx, line["seq"], "UnitMoved")
                         if self.ctx.typed(l).unit == unit), 0)
        return last_roll(self.ctx, unit, SPEED_DICE_ROLL, line["seq"], after=previous)

    def _maximum(self, line, built) -> tuple[Optional[int], str]:
        """The vehicle's number of dice by `mog-speed-roll` (MOG.Z 7): `once`, its VehicleBuilt
        speed_dice; `per-turn`, this turn's MOG.VEH.SPEED d6 (None when not rolled). Unchosen, the
        readings must agree (a roll this turn equal to the built dice), else None: ambiguous."""
        reading = self.ctx.interpretations.reading("mog-speed-roll")
        label = self.ctx.interpretations.label("mog-speed-roll")
        once = built["speed_dice"]
        fresh = last_roll(self.ctx, self.ctx.typed(line).unit, "MOG.VEH.SPEED", line["seq"])
        per_turn = self.ctx.typed(fresh).result if fresh else None
        if reading == "once":
            return once, label
        if reading == "per-turn":
            return per_turn, label
        return (once if per_turn == once else None), label

    def _judge(self, line, roll, built, terrain: str, half: bool = False) -> RuleApplication:
        maximum, label = self._maximum(line, built)
        rough = self.ctx.interpretations.reading("mog-rough-dice")
        seq, rolled = roll["seq"], faces(self.ctx.typed(roll))
        inputs = {"terrain": terrain, "maximum": maximum, "mog-rough-dice": rough}
        if maximum is None and self.ctx.interpretations.reading("mog-speed-roll") == "per-turn":
            return SPEED.missing_roll(line["seq"], "speed dice rolled per turn: no MOG.VEH.SPEED d6 this turn",
                                      interpretation=label)
        if maximum is None:
            return SPEED.ambiguous(seq, "the speed dice are rolled once or every turn (MOG.Z 7): the two readings "
                                   "give different numbers of dice", related=[line["seq"]], interpretation=label)
        move = self.ctx.typed(line)
        gears = gears_hits(self.ctx, move.unit, line["seq"])
        count, drop = dice_for(maximum, terrain, rough)
        # Vehicle Critical Chart 3, "Gears hit, add 1 to turning, lose one die": lost from the maximum
        # or from the dice this terrain gives; the text does not say, so the two must agree.
        counts = {max(1, count - gears), dice_for(max(1, maximum - gears), terrain, rough)[0]}
        if len(counts) > 1:
            return SPEED.ambiguous(seq, f"after {gears} gears hit(s) \"lose one die\" of the maximum or of the "
                                   f"{terrain} dice: {sorted(counts)} dice", related=[line["seq"]], inputs=inputs)
        count = counts.pop()
        if len(rolled) != count:
            return SPEED.violation(seq, f"{terrain} with {maximum} dice{' less ' + str(gears) if gears else ''}: "
                                   f"{count} dice, not {len(rolled)} ({_passage(terrain)})", expected=count,
                                   recorded=len(rolled), related=[line["seq"]], inputs=inputs, interpretation=label)
        # Vehicle Critical Chart 4, "1-3 not serious (1/2 speed)": half the inches the dice give
        inches = allowance(rolled, drop) / (2 if half else 1)
        length = path_length(move.path)
        return SPEED.judge(line["seq"], length <= inches, f"{length}\" within the {inches}\" its {count} dice give",
                           f"{length}\" is more than the {inches}\" its dice {rolled} give", expected=f"<= {inches}",
                           recorded=length, related=[seq], inputs=inputs, interpretation=label)


def _passage(terrain: str) -> str:
    return {"road": "\"Movement on roads uses the maximum number of dice\"",
            "off-road": "\"Movement off roads uses half the maximum number of dice rounded up\"",
            "rough": "\"Movement in rough terrain negates the highest die rolled\""}[terrain]



TESTS = "tests/unit/test_mog_vehicles.py::"
EXAMPLE = "tests/acceptance/test_mog_example.py::"
# rule id -> (status, tests, what is judged and what is not yet): docs/rules/landships-of-mogdonazia.md
COVERAGE = {
    "MOG.VEH.SPEED": ("implemented", "; ".join(TESTS + t for t in (
        "test_speed_dice_are_the_d6", "test_off_road_rolls_half_the_dice_rounded_up",
        "test_on_road_rolls_all_the_dice",
        "test_leaving_the_road_is_off_road_under_the_worst_class", "test_rough_drops_the_highest_die",
        "test_one_die_at_least", "test_a_move_without_its_roll_is_a_missing_roll",
        "test_unchosen_speed_roll_reading_is_ambiguous_when_the_readings_differ",
        "test_a_broken_down_vehicle_rolls_no_movement_dice"))
        + f"; {EXAMPLE}test_the_example_gives_exactly_its_expected_findings",
        "`VehicleBuilding`, `MovementDice`; ambiguous where `mog-speed-roll` (no default) changes the dice, or a gears "
        "hit (\"lose one die\") may come off the maximum or the terrain's dice; `mog-terrain-class` (worst), "
        "`mog-rough-dice` (off-road)"),
    "MOG.VEH.CREW": ("implemented", f"{TESTS}test_crew_is_the_weapon_crews_and_a_commanding_officer; "
                     f"{TESTS}test_the_example_vehicle_is_built_legally",
                     "`VehicleBuilding`: crew >= the weapon crews + 1, EX-MOG-02; \"looks sufficient\" is not judgeable "
                     "from a log: the declared `crew` is judged"),
    "MOG.VEH.ARMOUR": ("implemented", f"{TESTS}test_target_class_from_the_look_and_the_roll; "
                       f"{TESTS}test_a_neutral_look_rolling_5_or_6_is_ambiguous; "
                       f"{TESTS}test_no_armour_roll_is_a_missing_roll; "
                       f"{EXAMPLE}test_the_example_legal_lines_are_judged_ok",
                       "`VehicleBuilding`; ambiguous for a neutral look rolling 5 or 6 (`mog-armour-neutral`, "
                       "AP-MOG-01); \"looks like it is armoured\" is not judgeable from a log: the declared `looks` is "
                       "judged"),
    "MOG.WEAP.MOUNTS": ("implemented", TESTS + "test_a_weapon_has_its_crew_and_a_forward_weapon_fires_forward",
                        "`VehicleBuilding`: judged at build (every weapon crewed; a forward weapon bears 0); arcs at "
                        "fire time: combat.py; \"Weapons and weapon positions must reflect what is on the model\" is "
                        "not judgeable from a log: the declared `weapons` are judged"),
    "MOG.PA": ("implemented", TESTS + "test_powered_armour_has_one_crew_and_at_most_two_weapons",
               "`VehicleBuilding`: built with one crew and at most two weapons; the rest: contraptions.py"),
    "MOG.CLOCKWORK": ("implemented", TESTS + "test_a_clockwork_has_an_operator",
                      "`VehicleBuilding`: an operator at build; breakdown as a landship (breakdown.py), hit cards "
                      "(fire.py; face: the chart every turn, ace: shut down); the chart and repair: contraptions.py"),
    "MOG.AIR.SHOOT": ("implemented", TESTS + "test_airships_count_as_class_iv",
                      "`VehicleBuilding`: class IV at build; the 12\" limit: air.py"),
}
