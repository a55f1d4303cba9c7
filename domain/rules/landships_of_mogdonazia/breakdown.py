"""Landships of Mogdonazia, breakdown and repair (landships-of-mogdonazia.txt, A. 2 Breakdown and
B. 2): the roll every turn by the terrain of the vehicle's move, restarting, and repair, when
"the whole crew takes part and cannot do anything else for the entire turn".

A breakdown test reads the class of the vehicle's move this turn, which may come after the test
(the page's example tests before it moves): the test is judged when its turn ends.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.rules.engine import RuleApplication, RuleModule, Verdict
from domain.rules.landships_of_mogdonazia.common import (RULEBOOK, finer, last_roll, restarted_this_turn, this_turn,
                                                          vehicle_of)
from domain.rules.landships_of_mogdonazia.criticals import broken_down, destroyed_by, standing_status
from domain.rules.landships_of_mogdonazia.terrain import move_class_of, position_class, worst
from domain.tabletop.geometry import path_length

BREAKDOWN = RULEBOOK.rule("MOG.VEH.BREAKDOWN")
RESTART = finer(BREAKDOWN, "RESTART")
REPAIR = RULEBOOK.rule("MOG.VEH.REPAIR")
AIR_REPAIR = RULEBOOK.rule("MOG.AIR.REPAIR")

# "Breakdown Roll 1D6 On road 6 Off road 5-6 In rough terrain 4-6": the lowest face that breaks down.
BREAKS_ON = {"road": 6, "off-road": 5, "rough": 4}
RESTARTS_ON = 4   # "To restart a broke down vehicle, roll a D6. On a 4 to 6, the vehicle will move normally next turn."
REPAIRED_ON = 5   # "To repair, roll a D6. On a 5 to 6, the system is repaired."
# "Vehicles must roll for breakdown every turn": landships, and a Clockwork "needs to roll for breakdown
# just like a landship"; PAs "do not have to roll for breakdowns".
ROLLS_FOR_BREAKDOWN = frozenset({"landship", "clockwork"})
GONE = ("destroyed", "abandoned")
ACTS = ("UnitMoved", "ShotFired")   # what the crew does: moving the vehicle, shooting from it


@dataclass
class Test:
    seq: int
    unit: str
    terrain: str
    broke_down: bool
    face: int


class Breakdown(RuleModule):
    """BreakdownTested (breakdown and restart), the count per turn, and moves after a restart."""

    ruleset = "landships-of-mogdonazia"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.turn = 0
        self.pending: list[Test] = []
        self.tested: set[str] = set()
        self.moves: dict[str, list[str]] = {}
        self.broken_at_start: set[str] = set()

    def on_TurnStarted(self, line):
        out = self._end_of_turn(line["seq"] - 1)
        self.turn = self.ctx.typed(line).turn
        self.pending, self.tested, self.moves = [], set(), {}
        # standing_status's `broken-down` is broken_down's answer (the recorded status is read from the
        # log there): asked of every unit at every turn, without the rest of its statuses
        self.broken_at_start = {u.unit for u in self.ctx.board.units.values()
                                if broken_down(self.ctx, u.unit, line["seq"])}
        self.turn_seq = line["seq"]
        return out

    def finish(self):
        return self._end_of_turn(len(self.ctx.lines))

    def on_BreakdownTested(self, line):
        test = self.ctx.typed(line)
        if test.kind == "restart":
            return [self._restart(line, test)]
        roll = last_roll(self.ctx, test.unit, "MOG.VEH.BREAKDOWN", line["seq"])
        if roll is None:
            return [BREAKDOWN.missing_roll(line["seq"], f"no MOG.VEH.BREAKDOWN d6 about {test.unit} this turn")]
        if test.unit in self.tested:
            return [BREAKDOWN.violation(line["seq"], f"{test.unit} tests for breakdown twice in turn {self.turn} "
                                        "(\"roll for breakdown every turn\": once a turn)")]
        self.tested.add(test.unit)
        face = self.ctx.typed(roll).result
        self.pending.append(Test(line["seq"], test.unit, test.terrain, test.broke_down, face))
        return ()

    def _restart(self, line, test) -> RuleApplication:
        seq = line["seq"]
        unit = self.ctx.board.units.get(test.unit)
        if unit is None or "broken-down" not in standing_status(self.ctx, unit, seq):
            return RESTART.violation(seq, f"{test.unit} is not broken down: there is nothing to restart")
        roll = last_roll(self.ctx, test.unit, "MOG.VEH.BREAKDOWN.RESTART", seq)
        if roll is None:
            return RESTART.missing_roll(seq, f"no MOG.VEH.BREAKDOWN.RESTART d6 about {test.unit} this turn")
        face = self.ctx.typed(roll).result
        expected = face >= RESTARTS_ON
        return RESTART.judge(seq, test.restarted == expected, f"restart d6 {face}: restarted {expected}",
                             f"the restart d6 shows {face} (\"On a 4 to 6\"): restarted is {expected}",
                             verdict=Verdict.MISMATCH, expected=expected, recorded=test.restarted, related=[roll["seq"]])

    def on_UnitMoved(self, line):
        move = self.ctx.typed(line)
        built = vehicle_of(self.ctx, move.unit)
        if built is None or built.get("kind") not in ROLLS_FOR_BREAKDOWN:
            return ()
        unit = self.ctx.board.units[move.unit]
        self.moves.setdefault(move.unit, []).append(move_class_of(self.ctx, line, unit, move.path))
        length = path_length(move.path)
        if length == 0:
            return ()
        status = standing_status(self.ctx, unit, line["seq"])
        if "broken-down" in status or restarted_this_turn(self.ctx, move.unit, line["seq"]):
            why = "is broken down" if "broken-down" in status else \
                "restarted this turn (\"the vehicle will move normally next turn\")"
            return [BREAKDOWN.violation(line["seq"], f"{move.unit} {why}: it does not move", recorded=length)]
        if "immobilized" in status:
            return [RULEBOOK.rule("MOG.FIRE.CRIT").violation(line["seq"], f"{move.unit} is immobilized: it does not move",
                                                             recorded=length)]
        return ()

    def _end_of_turn(self, last_seq: int) -> list[RuleApplication]:
        if self.turn < 1:
            return []
        reading = self.ctx.interpretations.label("mog-terrain-class")
        out = [self._judge(test, reading) for test in self.pending]
        for unit in self._must_test():
            out.append(BREAKDOWN.missing_roll(self.turn_seq, f"{unit} did not roll for breakdown in turn {self.turn} "
                                              "(\"Vehicles must roll for breakdown every turn\")", related=[last_seq]))
        return out

    def _must_test(self) -> list[str]:
        vehicles = self.ctx.board.extra.get("vehicles", {})
        return [u.unit for u in self.ctx.board.units.values()
                if vehicles.get(u.unit, {}).get("kind") in ROLLS_FOR_BREAKDOWN and u.unit not in self.tested
                and u.unit not in self.broken_at_start and not any(s in GONE for s in u.status)
                and not self._crewless(u.unit, vehicles[u.unit]) and destroyed_by(self.ctx, u.unit) is None]

    def _crewless(self, unit: str, built: dict[str, Any]) -> bool:
        """Every crewman killed: "It will always have a crew (else it would be abandoned)", and an abandoned
        vehicle has no one to roll for it (a Clockwork has no crew to lose)."""
        if built.get("kind") != "landship":
            return False
        killed = sum(self.ctx.typed(l).killed for l in self.ctx.of_type("CasualtiesTaken")
                     if self.ctx.typed(l).unit == unit)
        return killed >= built.get("crew", 0) > 0

    def _judge(self, test: Test, reading: str) -> RuleApplication:
        unit = self.ctx.board.units[test.unit]
        terrain = worst(self.moves[test.unit]) if test.unit in self.moves else position_class(unit, self.ctx.board.table)
        expected = test.face >= BREAKS_ON[terrain]
        inputs = {"d6": test.face, "terrain": terrain}
        if terrain != test.terrain:
            return BREAKDOWN.violation(test.seq, f"{test.unit}'s terrain this turn is {terrain}, not {test.terrain}: "
                                       f"it breaks down on {BREAKS_ON[terrain]}+ (the d6 {test.face}: broke down "
                                       f"{expected})", expected=terrain, recorded=test.terrain, inputs=inputs,
                                       interpretation=reading)
        if test.broke_down == expected:   # worded for its verdict alone: every vehicle tests every turn
            return BREAKDOWN.ok(test.seq, f"{terrain}, d6 {test.face}: broke down {expected}", expected=expected,
                                recorded=test.broke_down, inputs=inputs, interpretation=reading)
        return BREAKDOWN.mismatch(test.seq, f"{terrain} breaks down on {BREAKS_ON[terrain]}+: the d6 {test.face} gives "
                                  f"broke down {expected}", expected=expected, recorded=test.broke_down,
                                  inputs=inputs, interpretation=reading)


class Repair(RuleModule):
    """RepairAttempted after its MOG.VEH.REPAIR d6, and the crew's turn spent on it."""

    ruleset = "landships-of-mogdonazia"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.repairing: dict[str, tuple[int, int]] = {}   # unit -> (turn, seq of the repair)

    def on_RepairAttempted(self, line):
        attempt, seq = self.ctx.typed(line), line["seq"]
        built = vehicle_of(self.ctx, attempt.unit) or {}
        if built.get("kind") == "airplane":
            return [AIR_REPAIR.violation(seq, "\"Airplane pilots cannot repair systems, as they are the only persons "
                                         "on board\"")]
        out = []
        roll = last_roll(self.ctx, attempt.unit, "MOG.VEH.REPAIR", seq)
        if roll is None:
            out.append(REPAIR.missing_roll(seq, f"no MOG.VEH.REPAIR d6 about {attempt.unit} this turn"))
        else:
            face = self.ctx.typed(roll).result
            expected = face >= REPAIRED_ON
            out.append(REPAIR.judge(seq, attempt.repaired == expected, f"repair d6 {face}: repaired {expected}",
                                    f"the repair d6 shows {face} (\"On a 5 to 6\"): repaired is {expected}",
                                    verdict=Verdict.MISMATCH, expected=expected, recorded=attempt.repaired,
                                    related=[roll["seq"]]))
        if built.get("kind") != "airship":   # an airship keeps moving as last turn (MOG.AIR.REPAIR)
            self.repairing[attempt.unit] = (line["turn"], seq)
            out.extend(self._busy_before(line, attempt.unit))
        return out

    def _busy_before(self, line, unit: str) -> list[RuleApplication]:
        """What the crew did earlier this turn: "cannot do anything else for the entire turn"."""
        return [self._busy(act, unit, line["seq"]) for act in this_turn(self.ctx, line["seq"], *ACTS)
                if self._acts(act, unit)]

    def _busy(self, act: dict[str, Any], unit: str, repair_seq: int) -> RuleApplication:
        return REPAIR.violation(act["seq"], f"{unit}'s crew repairs this turn (seq {repair_seq}): \"While repairing, "
                                "the whole crew takes part and cannot do anything else for the entire turn\"",
                                recorded=act["type"], related=[repair_seq])

    def _later(self, line) -> list[RuleApplication]:
        for unit, (turn, seq) in self.repairing.items():
            if turn == line["turn"] and self._acts(line, unit):
                return [self._busy(line, unit, seq)]
        return []

    on_UnitMoved = on_ShotFired = _later

    def _acts(self, line: dict[str, Any], unit: str) -> bool:
        """Whether a line is the vehicle's crew doing something: moving it or shooting from it."""
        event = self.ctx.typed(line)
        if line["type"] == "UnitMoved":
            return event.unit == unit and path_length(event.path) > 0
        return event.shooter == unit


TESTS = "tests/unit/test_mog_vehicles.py::"
# rule id -> (status, tests, what is judged and what is not yet): docs/rules/landships-of-mogdonazia.md
COVERAGE = {
    "MOG.VEH.BREAKDOWN": ("implemented", "; ".join(TESTS + t for t in (
        "test_breakdown_off_road", "test_breakdown_on_road_only_on_a_6",
        "test_the_terrain_recorded_is_that_of_the_move",
        "test_every_turn_once", "test_a_broken_down_vehicle_does_not_move_and_restarts_for_next_turn"))
        + "; tests/acceptance/test_mog_example.py::test_the_example_legal_lines_are_judged_ok"
        + "; tests/unit/test_mog_criticals.py::test_a_vehicle_without_crew_rolls_no_breakdown"
        + "; " + TESTS + "test_a_breakdown_test_that_broke_down_is_enough_without_a_status",
        "`Breakdown`: once every turn for landships and Clockworks (not a landship whose crew are all killed: "
        "abandoned), by the class of the turn's move, restart 4-6 (the restart roll: `MOG.VEH.BREAKDOWN.RESTART`) "
        "and no move until next turn; broken down by a BreakdownTested that broke down or the status, until a "
        "restart (or a Clockwork's repair)"),
    "MOG.VEH.REPAIR": ("implemented", f"{TESTS}test_repair_on_a_5_to_6; "
                       f"{TESTS}test_the_crew_repairing_does_nothing_else_that_turn",
                       "`Repair`: 5-6; the crew neither moves nor shoots that turn"),
    "MOG.AIR.REPAIR": ("implemented", TESTS + "test_an_airplane_pilot_cannot_repair",
                       "`Repair`: an airplane pilot cannot repair; the airship's speed and turn while repairing: "
                       "air.py"),
}
