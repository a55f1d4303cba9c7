"""Judging Dux Bellorum AVBCW units passing through each other (dux-bellorum-avbcw.txt, Movement,
Vehicles: Melee, Running people over; game-log-tabletop.md, Dux Bellorum, UnitMoved, UnitRunOver):
no unit ends a move intermixed with another ("Figures from different units must not 'intermix'
at the end of any move"), vehicles may drive through any unit, and an enemy unit a vehicle drives
through is run over: a UnitRunOver, its bravery test (BRV less the vehicle's PRO: bravery.py), and
on a failure 2 COH lost "as if from melee" (or cancelled with LPs). How skirmishers pass through
other units is Dux Bellorum core (DB.*), not in the text: `unverifiable`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedModule, is_vehicle
from domain.rules.dux_bellorum_avbcw.placing import around, intermixed
from domain.rules.engine import RuleApplication, Verdict, bookkeeping, closer
from domain.tabletop import geometry as geo

SKIRMISH = RULEBOOK.rule("AVBCW.MOVE.SKIRMISH")
RUNOVER = RULEBOOK.rule("AVBCW.VEH.RUNOVER")

RUN_OVER_COH = 2   # "If the BRV test is failed, the unit loses 2 COH (which can be cancelled with LPs)"


@dataclass
class RunOver:
    vehicle: str
    unit: str
    seq: int                      # the move that drove through
    recorded: int = 0             # seq of its UnitRunOver
    failed: int = 0               # seq of a failed run-over test
    answered: bool = False
    related: list[int] = field(default_factory=list)


class AVBCWSkirmish(ListedModule):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.runs: dict[str, RunOver] = {}     # unit run over -> what it calls for

    # ------------------------------------------------------------ UnitMoved

    def on_UnitMoved(self, line) -> Iterable[RuleApplication]:
        data, seq = self.ctx.typed(line), line["seq"]
        unit = self.ctx.board.units.get(data.unit)
        if unit is None or unit.position is None or len(data.path) < 2 and data.figures is None:
            return ()
        vehicle = is_vehicle(unit, self.lists.get(data.unit))
        out: list[RuleApplication] = []
        near = around(self.ctx, unit, data.path, data.figures)
        # `intermixed` passes over a unit whose box is apart from the shape's: only the others are given
        mixed = intermixed(near.end, near.near_end(0.0))
        out.append(SKIRMISH.judge(seq, not mixed, f"{data.unit} ends its move clear of every other unit",
                                  f"{data.unit} ends its move intermixed with {', '.join(mixed)}: \"Figures from "
                                  "different units must not 'intermix' at the end of any move\"",
                                  inputs={"intermixed": mixed}))
        # a move whose swept box reaches no other unit passes through none: it is not swept
        passed = near.near_path(mixed) if len(data.path) > 1 else {}
        through = intermixed(geo.swept(unit, data.path), passed) if passed else []
        if through and vehicle:
            out.append(SKIRMISH.ok(seq, f"vehicle {data.unit} passes through {', '.join(through)}: \"Vehicles can "
                                   "interpenetrate any friendly and enemy unit\""))
            for uid in through:
                if near.others[uid].side != unit.side:
                    self.runs[uid] = RunOver(data.unit, uid, seq)
        elif through:
            out.append(SKIRMISH.unverifiable(seq, f"{data.unit} passes through {', '.join(through)}: how skirmishers "
                                             "(\"All units count as skirmishers\") pass other units is Dux Bellorum "
                                             "core, not in the text"))
        return out

    # ------------------------------------------------------------ running people over

    def on_UnitRunOver(self, line) -> Iterable[RuleApplication]:
        """"If a vehicle drives through (interpenetrates) an enemy unit during its move, that unit
        must test BRV"."""
        data = self.ctx.typed(line)
        run = self.runs.get(data.unit)
        if run is None or run.vehicle != data.vehicle:
            return [RUNOVER.violation(line["seq"], f"{data.unit} is run over by {data.vehicle}, whose last move did not "
                                      "drive through it")]
        run.recorded = line["seq"]
        return [RUNOVER.ok(line["seq"], f"{data.vehicle} drove through {data.unit} at seq {run.seq}", related=[run.seq])]

    # notes a run over's answer: a run over pending (a move's, since the last close) already wakes
    # the closers
    @bookkeeping
    def on_BraveryTested(self, line):
        if not self.runs:
            return   # no run over pending: nearly every test
        data = self.ctx.typed(line)
        run = self.runs.get(data.unit)
        if data.why == "run-over" and run is not None:
            run.related.append(line["seq"])
            if data.passed:
                run.answered = True
            else:
                run.failed = line["seq"]

    @bookkeeping   # as on_BraveryTested
    def on_LeadershipPointsUsed(self, line):
        if not self.runs:
            return
        data = self.ctx.typed(line)
        run = self.runs.get(data.unit)
        if run is not None and run.failed:
            run.answered = True   # "which can be cancelled with LPs"

    def on_CohesionLost(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        if data.cause != "run-over":
            return ()
        run = self.runs.get(data.unit)
        if run is None or not run.failed:
            return [RUNOVER.violation(line["seq"], f"{data.unit} loses COH to a run over with no failed run-over "
                                      "bravery test: \"If the BRV test is failed, the unit loses 2 COH\"")]
        run.answered = True
        return [RUNOVER.judge(line["seq"], data.points <= RUN_OVER_COH, f"{data.unit} loses {data.points} of the 2 COH",
                              f"{data.unit} loses {data.points} COH: a failed test \"loses 2 COH\"",
                              verdict=Verdict.MISMATCH, expected=RUN_OVER_COH, recorded=data.points,
                              related=[run.failed])]

    def _unanswered(self) -> list[RuleApplication]:
        out = []
        for run in self.runs.values():
            if not run.recorded:
                out.append(RUNOVER.violation(run.seq, f"{run.vehicle} drives through enemy {run.unit}, and no UnitRunOver "
                                             "and bravery test follow: \"that unit must test BRV\""))
            elif not run.answered and not run.failed and not run.related:
                out.append(RUNOVER.violation(run.recorded, f"{run.unit} is run over and takes no bravery test: "
                                             "\"that unit must test BRV\""))
            elif run.failed and not run.answered:
                out.append(RUNOVER.violation(run.failed, f"{run.unit} failed its run-over test and neither loses 2 COH "
                                             "nor cancels them with LPs"))
        self.runs.clear()
        return out

    @closer   # it flushes only what this module's own steps left pending
    def on_PhaseStarted(self, line):
        return self._unanswered()

    def on_TurnStarted(self, line):
        return self._unanswered()

    def finish(self):
        return self._unanswered()


TESTS = "tests/unit/test_avbcw_skirmish.py::"
# rule id -> (status, tests, what is judged): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.MOVE.SKIRMISH": ("needs a chart", f"{TESTS}test_no_unit_ends_intermixed; {TESTS}test_vehicles_pass_through",
                            "no unit ends a move with its extent overlapping another unit's (contact is not intermixing); "
                            "vehicles pass through any unit; another unit passing through one: DB core skirmishers, "
                            "`unverifiable`"),
    "AVBCW.VEH.RUNOVER": ("implemented", TESTS + "test_an_enemy_driven_through_is_run_over",
                          "an enemy unit a vehicle's swept extent passes through: a UnitRunOver by the phase's end "
                          "(none without it), its run-over bravery test, and after a failure 2 COH lost (cause "
                          "run-over, no more) or LPs used; the vehicle never ends intermingled (MOVE.SKIRMISH); the 3” "
                          "melee that must follow: vehicle_moves.py"),
}
