"""Landships of Mogdonazia, airships and airplanes (landships-of-mogdonazia.txt, Airships and Fixed
Wings A. 1-4): their movement dice and turns, boarding, being shot at within 12", bombs, and an
airship repairing. Headings and lengths on the tabletop geometry; a flying model's turn is "each
change of heading" (game-log-tabletop.md, UnitMoved), its first from the facing it had.
"""
from __future__ import annotations

import math
from typing import Any, Optional

from domain.rules.engine import RuleApplication, RuleModule, Verdict
from domain.rules.landships_of_mogdonazia.criticals import DAMAGES, _repaired_at, _repairs
from domain.rules.landships_of_mogdonazia.common import RULEBOOK, faces, last_roll, this_turn, vehicle_of
from domain.tabletop.geometry import bearing, extent, in_contact, measure, path_length, rotation, vertex_turns, xy

AIRSHIP = RULEBOOK.rule("MOG.AIRSHIP.MOVE")
AIRPLANE = RULEBOOK.rule("MOG.AIRPLANE.MOVE")
BOARD = RULEBOOK.rule("MOG.AIRSHIP.BOARD")
SHOOT = RULEBOOK.rule("MOG.AIR.SHOOT")
BOMB = RULEBOOK.rule("MOG.AIRPLANE.BOMB")
AIR_CRIT = RULEBOOK.rule("MOG.AIR.CRIT")
AIR_REPAIR = RULEBOOK.rule("MOG.AIR.REPAIR")
AIR = ("airship", "airplane")
SHOT_RANGE = 12.0   # "can be shot at if they are within 12 of the targeter"


def heading_turn(facing: Optional[float], path) -> float:
    """The degrees a flying model turns along its path: from its facing to the first heading, then
    at each vertex."""
    points = [xy(p) for p in path]
    legs = [(a, b) for a, b in zip(points, points[1:]) if a != b]
    first = rotation(facing, bearing(*legs[0])) if legs and facing is not None else 0.0
    return first + sum(vertex_turns(path))


def dice_lost(turn: float) -> int:
    """"When turning more than 45º, the airship loses 1 die per excess 45º" (4d6 turning 80 has 3d6
    left: a part step counts, EX-MOG-01)."""
    return math.ceil(round(turn - 45, 6) / 45) if turn > 45 else 0


class Flying(RuleModule):
    """UnitMoved of airships and airplanes, UnitEmbarked onto an airship, fire at them, bombs."""

    ruleset = "landships-of-mogdonazia"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.moves: dict[str, list[tuple[int, int, float]]] = {}   # airship -> (turn, speed, length) of its moves
        self.embarked: dict[str, int] = {}                  # unit -> turn it climbed in
        self.cockpit: dict[str, int] = {}                   # plane -> turn its bomb fell in

    def on_UnitMoved(self, line):
        move, seq = self.ctx.typed(line), line["seq"]
        kind = (vehicle_of(self.ctx, move.unit) or {}).get("kind")
        if kind not in AIR or path_length(move.path) == 0:
            return ()
        turned = heading_turn(self.ctx.board.units[move.unit].facing, move.path)
        out = self._no_turn(move.unit, turned, seq)
        if kind == "airplane":
            return out + self._airplane(move, turned, seq)
        return out + self._airship(line, move, turned)

    def _no_turn(self, unit: str, turned: float, seq: int) -> list[RuleApplication]:
        """Airship chart 2 "cannot change direction" and 4 (4-6) "cannot change direction"."""
        repairs = _repairs(self.ctx, unit, seq)
        for line in self.ctx.of_type("CriticalHit", before=seq):
            hit = self.ctx.typed(line)
            if hit.unit == unit and hit.chart == "airship" and (hit.result == 2 or (hit.result == 4 and
                                                                                  (hit.sub_roll or 0) >= 4)):
                # A. 4: "Airship crew can repair systems": the engine or propulsion repaired steers again
                if _repaired_at(repairs, DAMAGES[("airship", hit.result)], line["seq"]) is not None:
                    continue
                if turned > 0:
                    return [AIR_CRIT.violation(seq, f"{unit} cannot change direction (airship critical "
                                               f"{hit.result}), yet turns {turned:.0f}°", recorded=round(turned))]
        return []

    def _airplane(self, move, turned: float, seq: int) -> list[RuleApplication]:
        roll = last_roll(self.ctx, move.unit, "MOG.AIRPLANE.MOVE", seq)
        if roll is None:
            return [AIRPLANE.missing_roll(seq, f"{move.unit} moves without its MOG.AIRPLANE.MOVE 4d6")]
        rolled, length = faces(self.ctx.typed(roll)), path_length(move.path)
        sharp = [round(t) for t in vertex_turns(move.path) if t >= 90]   # `mog-airplane-sharp` 90
        problems = ([f"{len(rolled)} dice, not 4 (\"Moves 4d6 per turn\")"] if len(rolled) != 4 else []) + \
            ([f"{length}\" is more than its dice's {sum(rolled)}\""] if length > sum(rolled) else []) + \
            ([f"a sharp turn of {sharp[0]}° (\"cannot make a sharp, right angle turn, but can curve around\")"]
             if sharp else [])
        return [AIRPLANE.judge(seq, not problems, f"4d6 {rolled}: {length}\", no sharp turn", "; ".join(problems),
                               related=[roll["seq"]], recorded=length,
                               interpretation=self.ctx.interpretations.label("mog-airplane-sharp"))]

    def _airship(self, line, move, turned: float) -> list[RuleApplication]:
        seq, length = line["seq"], path_length(move.path)
        previous = self._previous(move.unit, line["turn"])
        if self._repairing(move.unit, seq):
            self.moves.setdefault(move.unit, []).append((line["turn"], previous[1] if previous else 0, length))
            return [self._repair_move(move.unit, previous, turned, length, seq)]
        roll = last_roll(self.ctx, move.unit, "MOG.AIRSHIP.MOVE", seq)
        if roll is None:
            return [AIRSHIP.missing_roll(seq, f"{move.unit} moves without its MOG.AIRSHIP.MOVE dice")]
        rolled = faces(self.ctx.typed(roll))
        speed = len(rolled) + dice_lost(turned)
        self.moves.setdefault(move.unit, []).append((line["turn"], speed, length))
        out = [AIRSHIP.judge(seq, length <= sum(rolled), f"{length}\" within its dice's {sum(rolled)}\"",
                             f"{length}\" is more than its dice {rolled} give", related=[roll["seq"]],
                             recorded=length)]
        return out + [self._speed(move.unit, previous, speed, len(rolled), turned, seq, roll["seq"])]

    def _speed(self, unit, previous, speed: int, rolled: int, turned: float, seq: int, roll_seq: int) -> RuleApplication:
        """"Moves 2d6 per turn, plus an additional d6 every turn after until it reaches 4d6 per turn ...
        can decelerate at a rate of 2d6 per turn"; holding a speed below 4d6 is `mog-airship-accel`."""
        what = f"{rolled} dice rolled after turning {turned:.0f}° (speed {speed}d6)"
        if previous is None:
            return AIRSHIP.judge(seq, speed == 2, f"{what}: its first move, 2d6", f"{what}: its first move is 2d6",
                                 expected=2, recorded=speed, related=[roll_seq])
        before = previous[1]
        allowed = {min(before + 1, 4), before - 1, before - 2} - {0, -1}
        if speed in allowed:
            return AIRSHIP.ok(seq, f"{what}, from {before}d6", related=[roll_seq])
        label = self.ctx.interpretations.label("mog-airship-accel")
        reading = self.ctx.interpretations.reading("mog-airship-accel")
        if speed == before:
            if reading is None:
                return AIRSHIP.ambiguous(seq, f"{what}: it holds {before}d6; whether the extra d6 is compulsory is not "
                                         "said", interpretation=label, related=[roll_seq])
            return AIRSHIP.judge(seq, reading == "optional", f"{what}: it holds {before}d6",
                                 f"{what}: the extra d6 is compulsory, {min(before + 1, 4)}d6", interpretation=label,
                                 expected=sorted(allowed), recorded=speed, related=[roll_seq])
        return AIRSHIP.violation(seq, f"{what}: from {before}d6 it may go to {sorted(allowed)}", expected=sorted(allowed),
                                 recorded=speed, related=[roll_seq])

    def _previous(self, unit: str, turn: int) -> Optional[tuple[int, int, float]]:
        """Its last move before this turn: the speed it accelerates from, the length a repair repeats."""
        return next((m for m in reversed(self.moves.get(unit, [])) if m[0] < turn), None)

    def _repairing(self, unit: str, seq: int) -> bool:
        return any(self.ctx.typed(l).unit == unit for l in this_turn(self.ctx, seq, "RepairAttempted"))

    def _repair_move(self, unit, previous, turned: float, length: float, seq: int) -> RuleApplication:
        """A. 4: "the airship will continue moving at the same speed it did the previous turn and will not
        be able to turn" (game-log-tabletop.md: "an airship repeats last turn's length, no turn")."""
        same = previous is None or abs(previous[2] - length) <= 0.1
        return AIR_REPAIR.judge(seq, same and turned == 0, f"repairing: {length}\" as last turn, no turn",
                                f"repairing, {unit} moves {length}\" turning {turned:.0f}°; last turn it moved "
                                f"{previous[2] if previous else '?'}\" and it cannot turn",
                                expected=previous[2] if previous else None, recorded=length)

    def on_RepairAttempted(self, line):
        attempt, seq = self.ctx.typed(line), line["seq"]
        if (vehicle_of(self.ctx, attempt.unit) or {}).get("kind") != "airship":
            return ()
        moves = [l for l in this_turn(self.ctx, seq, "UnitMoved") if self.ctx.typed(l).unit == attempt.unit]
        previous = self._previous(attempt.unit, line["turn"])
        return [self._repair_move(attempt.unit, previous, heading_turn(None, self.ctx.typed(l).path),
                                  path_length(self.ctx.typed(l).path), l["seq"]) for l in moves]

    def on_UnitEmbarked(self, line):
        boarding, seq = self.ctx.typed(line), line["seq"]
        if (vehicle_of(self.ctx, boarding.vehicle) or {}).get("kind") != "airship":
            return ()
        self.embarked[boarding.unit] = line["turn"]
        units = self.ctx.board.units
        touching = in_contact(extent(units[boarding.unit]), extent(units[boarding.vehicle]))
        return [BOARD.judge(seq, touching, f"{boarding.unit} is beside {boarding.vehicle}'s base",
                            f"{boarding.unit} is not in contact with {boarding.vehicle}'s base (\"one simply has to move "
                            "besides its base\")")]

    def on_UnitStatusChanged(self, line):
        change, seq = self.ctx.typed(line), line["seq"]
        if change.status != "aboard" or self.embarked.get(change.unit) != line["turn"]:
            return ()
        return [BOARD.violation(seq, f"{change.unit} climbed in this turn: \"The next turn, they will be on board\"")]

    def on_ShotFired(self, line):
        shot, seq = self.ctx.typed(line), line["seq"]
        kind = (vehicle_of(self.ctx, shot.target) or {}).get("kind")
        units = self.ctx.board.units
        if kind not in AIR or shot.shooter not in units or shot.target not in units:
            return ()
        how = self.ctx.interpretations.reading("measure") or "closest"
        distance = measure(extent(units[shot.shooter]), extent(units[shot.target]), how)
        return [SHOOT.judge(seq, distance <= SHOT_RANGE, f"{distance}\": within 12\"",
                            f"{shot.target} is {distance}\" away: \"can be shot at if they are within 12 of the "
                            "targeter\"", expected="<= 12", recorded=distance)]

    def on_BombDropped(self, line):
        bomb, seq = self.ctx.typed(line), line["seq"]
        roll = last_roll(self.ctx, bomb.plane, "MOG.AIRPLANE.BOMB", seq)
        if roll is None:
            return [BOMB.missing_roll(seq, f"no MOG.AIRPLANE.BOMB 2d6 about {bomb.plane} before its bomb")]
        dark, light = faces(self.ctx.typed(roll))[:2] if len(faces(self.ctx.typed(roll))) >= 2 else (None, None)
        if [dark, light] != bomb.results:
            return [BOMB.mismatch(seq, f"the 2d6 show {[dark, light]} (dark, light), not {bomb.results}",
                                  expected=[dark, light], recorded=bomb.results, related=[roll["seq"]])]
        if dark == light == 1:
            self.cockpit[bomb.plane] = line["turn"]
        out = [BOMB.judge(seq, bomb.hit == (dark == light), f"{dark}, {light}: hit {dark == light}",
                          f"\"On doubles, it will count as a hit\": {dark}, {light} is hit {dark == light}",
                          verdict=Verdict.MISMATCH, expected=dark == light, recorded=bomb.hit, related=[roll["seq"]])]
        return out + self._offset(bomb, light, seq)

    def _offset(self, bomb, light: int, seq: int) -> list[RuleApplication]:
        """"the light die will indicate how many inches": a miss lands there; a hit there or under the
        plane (`mog-bomb`, MOG.Z 6)."""
        plane = self.ctx.board.units.get(bomb.plane)
        if plane is None:
            return []
        distance = round(math.dist(xy(plane.position), xy(bomb.point)), 1)
        reading, label = self.ctx.interpretations.reading("mog-bomb"), self.ctx.interpretations.label("mog-bomb")
        if bomb.hit and reading is None:
            return [BOMB.ambiguous(seq, f"a hit {distance}\" from the plane: at the light die's {light}\" or under it "
                                   "(MOG.Z 6)", interpretation=label)]
        expected = 0.0 if bomb.hit and reading == "offset-on-miss" else float(light)
        return [BOMB.judge(seq, abs(distance - expected) <= 0.1, f"the bomb falls {distance}\" from the plane",
                           f"the bomb falls {distance}\" from the plane, not {expected}\"", expected=expected,
                           recorded=distance, interpretation=label if bomb.hit else None)]

    def on_TurnStarted(self, line):
        """"If a double one is rolled ... Every turn after, roll a D6. On a one, the plane explodes, on a
        six the bomb is a dud.": each turn after the bomb's, one d6 until a 1 or a 6."""
        out, seq = [], line["seq"]
        for plane, since in list(self.cockpit.items()):
            began = self.ctx.of_type("TurnStarted", before=seq)
            if not began or self.ctx.typed(began[-1]).turn <= since:
                continue
            rolls = [r for r in self.ctx.rolls_for(plane, "MOG.AIRPLANE.BOMB", after=began[-1]["seq"], before=seq)
                     if self.ctx.typed(r).die == "d6"]
            if not rolls:
                out.append(BOMB.missing_roll(seq - 1, f"{plane} carries a bomb in its cockpit: a d6 every turn"))
            elif self.ctx.typed(rolls[-1]).result in (1, 6):
                del self.cockpit[plane]
        return out


TESTS = "tests/unit/test_mog_air.py::"
# rule id -> (status, tests, what is judged and what is not yet): docs/rules/landships-of-mogdonazia.md
COVERAGE = {
    "MOG.AIRSHIP.MOVE": ("ambiguous", "; ".join(TESTS + t for t in (
        "test_an_airship_starts_at_2d6_and_gains_a_die_a_turn", "test_turning_over_45_loses_a_die_per_step",
        "test_holding_speed_follows_mog_airship_accel")),
        "`Flying`: 2d6, +1d6 a turn to 4d6, down 2d6 a turn; a turn over 45° loses a die per 45° (part steps "
        "count, EX-MOG-01); the length within the dice; holding a speed below 4d6 is `mog-airship-accel` (no "
        "default: `ambiguous`)"),
    "MOG.AIRPLANE.MOVE": ("implemented", TESTS + "test_an_airplane_moves_4d6_and_curves",
                          "`Flying`: 4d6, the length within them, no vertex turning 90° or more (`mog-airplane-sharp`)"),
    "MOG.AIRSHIP.BOARD": ("implemented", TESTS + "test_boarding_is_beside_the_base_and_aboard_next_turn",
                          "`Flying`: in contact with the base, aboard not before the next turn; \"count as in Open "
                          "Order\" is TSATF (the fire at them is `TSATF.FIRE`)"),
    "MOG.AIR.SHOOT": ("implemented", TESTS + "test_airships_are_shot_at_within_12_inches",
                      "`Flying`: the target within 12\" of the shooter, measured on the table"),
    "MOG.AIRPLANE.BOMB": ("ambiguous", TESTS + "test_bombs_hit_on_doubles_and_fall_by_the_light_die",
                          "`Flying`: the 2d6 (dark, light), doubles hit, a miss falls the light die's inches away, a "
                          "hit there or under the plane (`mog-bomb`, no default: `ambiguous`); a double 1's d6 every "
                          "later turn until 1 or 6; the dark die's bearing is recorded, not checked"),
    "MOG.AIR.REPAIR": ("implemented", TESTS + "test_a_repairing_airship_keeps_its_speed_and_course",
                       "`Flying`: a repairing airship moves last turn's length and does not turn"),
    "MOG.AIR.CRIT": ("ambiguous", TESTS + "test_an_engine_hit_airship_cannot_change_direction; " + TESTS +
                     "test_a_repaired_airship_engine_steers_again",
                     "`Flying`: after 2 or 4 (4-6), no change of direction until the engine or propulsion is "
                     "repaired"),
}
