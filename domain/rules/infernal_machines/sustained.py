"""Sustained fire (Infernal Machines, Sustained fire option): once a hex has been observed, the
communication tested, the FOT consulted and a barrage has actually fallen on it, the player may
target the same hex in each consecutive turn with no communication test and no FOT, on a d6 of
1 to 5 each turn; the first observers must keep observing, and any pause or change of target
restarts the procedure.
"""
from __future__ import annotations

import weakref

from typing import Optional

from domain.rules.engine import RuleApplication, Verdict
from domain.rules.infernal_machines.barrage_tracker import SUSTAINED_PAUSE, Barrage, Rolled
from domain.rulebook import beside

RULEBOOK = beside(__file__)
R_SUSTAINED = RULEBOOK.rule("IM.ART.SUSTAINED")
R_ROLL = RULEBOOK.rule("IM.ART.SUSTAINED.ROLL")
R_OBSERVERS = RULEBOOK.rule("IM.ART.SUSTAINED.OBSERVERS")


class SustainedFire:
    def __init__(self, procedure):
        # the procedure holds this tracker: a proxy back to it, not a cycle (freed with the audit)
        self.proc = weakref.proxy(procedure)

    def _previous(self, b: Barrage, turn: int) -> list[Barrage]:
        return [x for x in self.proc.barrages.values() if x is not b and x.side == b.side
                and x.target == b.target and x.turn == turn and x.seq < b.seq]

    def _fell(self, barrages: list[Barrage]) -> Optional[Barrage]:
        fell = [x for x in barrages if x.fired_seq is not None and x.failed_seq is None]
        return fell[-1] if fell else None

    def on_declared(self, line, b: Barrage) -> list[RuleApplication]:
        if not b.sustained:
            return []
        seq = line["seq"]
        base = self._fell(self._previous(b, b.turn - 1))
        if base is not None and not self._full_procedure(base):
            # "once a hexagon has been successfully observed, communication tested, the Fire Order
            # Table consulted, and a barrage has actually fallen": a first-turn barrage skipped those.
            return [R_SUSTAINED.violation(seq, f"sustained fire on {b.target} rests on {base.id}, which fell on turn "
                                          f"{base.turn} without the Fire Order Table (first-turn barrage): the full "
                                          f"procedure must have been followed once", related=[base.seq])]
        if base is not None:
            return [R_SUSTAINED.ok(seq, f"{base.id} fell on {b.target} on turn {base.turn}",
                                   related=[base.fired_seq])] + self._inherit(seq, b, base)
        ended = [x for x in self._previous(b, b.turn - 1) if x.sustained and x.sustained_roll
                 and x.sustained_roll.roll.result == 6]
        earlier = self._fell(self._previous(b, b.turn - 2))
        if ended and earlier is not None:
            reading = self.proc.ctx.interpretations.reading(SUSTAINED_PAUSE.name)
            label = self.proc.ctx.interpretations.label(SUSTAINED_PAUSE.name)
            related = [ended[-1].sustained_roll.seq]
            if reading is None:
                return [R_SUSTAINED.ambiguous(seq, f"the sustained roll on turn {b.turn - 1} was 6: "
                                              f"{SUSTAINED_PAUSE.describe()}", related=related,
                                              interpretation=label)]
            out = [R_SUSTAINED.judge(seq, reading == "continue", "a roll of 6 does not break sustained fire",
                                     f"the sustained roll on turn {b.turn - 1} was 6: the pause restarts the "
                                     f"procedure", related=related, interpretation=label)]
            return out + self._inherit(seq, b, earlier)
        return [R_SUSTAINED.violation(seq, f"sustained fire on {b.target}, but no barrage of {b.side} fell on it on "
                                      f"turn {b.turn - 1}: any pause or change of target restarts the procedure",
                                      recorded=b.target)]

    @staticmethod
    def _full_procedure(base: Barrage) -> bool:
        """The barrage went through the procedure's checks (its FOT was consulted), or continued one."""
        return base.fot is not None or base.sustained or base.smoke

    def _inherit(self, seq: int, b: Barrage, base: Barrage) -> list[RuleApplication]:
        """The sustained barrage rests on the first observation; its observers must still observe."""
        if b.route == "forward-observer" and not b.related:
            b.route = base.route
        b.observer = b.observer or base.observer
        unit = self.proc.unit(base.observer)
        if unit is None:
            return []
        if unit.eliminated or "pinned" in unit.status:
            state = "eliminated" if unit.eliminated else "pinned"
            return [R_OBSERVERS.violation(seq, f"{unit.unit}, who observed {b.target} for {base.id}, is {state} "
                                          f"and no longer observes", recorded=state, related=[unit.last_seq])]
        return [R_OBSERVERS.ok(seq, f"{unit.unit} still observes {b.target}")]

    def on_roll(self, line) -> list[RuleApplication]:
        roll = self.proc.ctx.typed(line)
        if not roll.purpose.startswith("IM.ART.SUSTAINED"):
            return []
        b = self.proc.barrages.get(roll.subject)
        if b is None:
            return []
        b.sustained_roll = Rolled(line["seq"], roll)
        return [R_ROLL.judge(line["seq"], roll.die == "d6", "sustained roll on a d6",
                             f"the sustained roll is a six-sided die, not a {roll.die}",
                             expected="d6", recorded=roll.die)]

    def on_fired(self, line, b: Barrage) -> list[RuleApplication]:
        if not b.sustained:
            return []
        seq, roll = line["seq"], b.sustained_roll
        if roll is None:
            return [R_ROLL.missing_roll(seq, f"sustained barrage {b.id} fires without its d6 (1 to 5 repeats)")]
        result = roll.roll.result
        # A 6 means the barrage does not repeat: firing anyway is an action the rules do not allow,
        # as after a failed communication test or a refused fire order.
        return [R_ROLL.judge(seq, result <= 5, f"sustained roll {result}: the barrage repeats",
                             f"sustained roll {result}: the barrage does not repeat (1 to 5 needed)",
                             expected="1-5", recorded=result, related=[roll.seq])]

    def on_cancelled(self, line, b: Barrage) -> list[RuleApplication]:
        roll = b.sustained_roll
        good = b.sustained and roll is not None and roll.roll.result == 6
        return [R_ROLL.judge(line["seq"], good, "sustained fire ended on a 6",
                             f"{b.id} cancelled as sustained-ended, but "
                             + ("it is not sustained fire" if not b.sustained else "no sustained roll of 6 is recorded"),
                             verdict=Verdict.MISMATCH, recorded=roll.roll.result if roll else None)]


COVERAGE = {
    "IM.ART.SUSTAINED": ("ambiguous", "tests/unit/test_artillery_sustained.py::test_sustained_after_roll_six_is_ambiguous"),
}
