"""Flares (Infernal Machines, Liaison officer (LNO)): in an emergency (a hex occupied by the enemy
attacked three or more times without a "pinned" or "eliminated" result), when the communication
test fails, the liaison officer, or the forward observer only if the LNO is pinned or eliminated,
may send up a flare: on 1-2 (d6) a destruction barrage falls, in the friendly barrage phase, on
any hex at a distance of 4 from him (never on his own hex).

A flare is recorded as a DieRolled with purpose IM.ART.LNO.FLARE whose subject is the barrage it
calls (or the unit that fires it, the barrage then naming that unit as observer or carrying
`"flare": true`).
"""
from __future__ import annotations

import weakref

from typing import Optional

from domain.rules.engine import RuleApplication
from domain.rules.infernal_machines.barrage_tracker import FLARE_DISTANCE, Barrage, Rolled, hex_distance, observer_unit
from domain.rules.infernal_machines.resistance import EMERGENCY_COUNT, EmergencyTracker
from domain.rulebook import beside

RULEBOOK = beside(__file__)
R_FLARE = RULEBOOK.rule("IM.ART.LNO.FLARE")
R_EMERGENCY = RULEBOOK.rule("IM.ART.LNO.EMERGENCY")
R_FLARE_FO = RULEBOOK.rule("IM.ART.LNO.FLARE_FO")


class Flares:
    def __init__(self, procedure):
        # the procedure holds this tracker: a proxy back to it, not a cycle (freed with the audit)
        self.proc = weakref.proxy(procedure)
        self.emergency = EmergencyTracker()
        self.pending: dict[tuple[Optional[str], int], Rolled] = {}

    @property
    def ctx(self):
        return self.proc.ctx

    def feed(self, line) -> None:
        if line["type"] == "GameStarted":
            self.emergency.by_turns = self.ctx.interpretations.reading(EMERGENCY_COUNT.name) == "turns"
        units = self.ctx.board.units
        self.emergency.feed(line, {u: s.location for u, s in units.items()}
                            if line["type"] == "UnitStatusChanged" else {}, self.ctx.typed)

    def on_roll(self, line) -> list[RuleApplication]:
        roll = self.ctx.typed(line)
        if not roll.purpose.startswith("IM.ART.LNO.FLARE"):
            return []
        rolled = Rolled(line["seq"], roll)
        b = self.proc.barrages.get(roll.subject)
        if b is not None:
            b.flare_roll = rolled
            return self._trigger(line, b.side, self._firer(rolled, b)) + self._barrage_checks(line["seq"], b)
        self.pending[(line.get("side"), line["turn"])] = rolled
        return self._trigger(line, line.get("side"), self.ctx.board.units.get(roll.subject or ""))

    def attach_pending(self, line, b: Barrage) -> None:
        rolled = self.pending.get((b.side, b.turn))
        names = rolled is not None and observer_unit(b.observer) == rolled.roll.subject
        if rolled is not None and (getattr(b.declared, "flare", None) or names):
            b.flare_roll = self.pending.pop((b.side, b.turn))

    def on_declared(self, line, b: Barrage) -> list[RuleApplication]:
        return self._barrage_checks(line["seq"], b) if b.flare_roll is not None else []

    def on_fired(self, line, b: Barrage) -> list[RuleApplication]:
        if not b.flare:
            return []
        seq, roll = line["seq"], b.flare_roll
        if roll is None:
            return [R_FLARE.missing_roll(seq, f"flare barrage {b.id} fires without the flare's d6 (1-2)")]
        result = roll.roll.result
        # "A result of 1 or 2 ... indicates that the off-map artillery sees the flare and a barrage
        # ... is then directed": on any other roll no barrage may fire, so firing is the illegal act
        # (the failed communication test it answers is not reported a second time).
        return [R_FLARE.judge(seq, 1 <= result <= 2, f"flare roll {result}: the artillery sees the flare",
                              f"flare roll {result}: the artillery does not see the flare (1 or 2 needed), "
                              f"so no barrage may fire", expected="1-2", recorded=result, related=[roll.seq])]

    # -- the emergency and who fires --------------------------------------------------------
    def _firer(self, rolled: Rolled, b: Barrage):
        units = self.ctx.board.units
        return units.get(rolled.roll.subject or "") or units.get(observer_unit(b.observer) or "")

    def _trigger(self, line, side: Optional[str], firer) -> list[RuleApplication]:
        seq, out = line["seq"], []
        failed = [(key, value) for key, value in self.proc.comm_tests.items()
                  if key[0] == line["turn"] and key[1] == side and not value[1]]
        if not failed:
            return [R_FLARE.violation(seq, "a flare answers a failed communication test; none failed this turn")]
        (_t, _s, _o, hex_, _l), (test_seq, _ok) = failed[-1]
        count = self.emergency.count(side, hex_) if hex_ else 0
        enemy = [u for u in self.ctx.board.units_at(hex_ or "") if u.side != side]
        what = "turns" if self.emergency.by_turns else "attacks"
        out.append(R_EMERGENCY.judge(
            seq, count >= 3 and bool(enemy),
            f"{hex_} held by the enemy and attacked {count} {what} without a pinned or eliminated result",
            f"no emergency: {hex_} " + (f"was attacked {count} {what} without a pinned or eliminated result "
                                        f"(3 or more needed)" if enemy else "holds no enemy unit"),
            expected=">= 3", recorded=count, related=[test_seq] + self.emergency.related(side, hex_ or ""),
            interpretation=self.ctx.interpretations.label(EMERGENCY_COUNT.name)))
        out += self._who_fires(seq, side, firer)
        return out

    def _who_fires(self, seq: int, side: Optional[str], firer) -> list[RuleApplication]:
        if firer is None:
            return [R_FLARE.unverifiable(seq, "the log does not say who fired the flare")]
        if firer.unit_class == "liaison-officer":
            return [R_FLARE.ok(seq, f"{firer.unit} (liaison officer) fires the flare")]
        if firer.unit_class != "forward-observer":
            return [R_FLARE.violation(seq, f"{firer.unit} is a {firer.unit_class}: only the liaison officer (or "
                                      f"the FO when the LNO is out) fires flares", recorded=firer.unit_class)]
        lnos = [u for u in self.ctx.board.units.values() if u.unit_class == "liaison-officer" and u.side == side]
        paired = [u for u in lnos if u.attrs.get("fo") == firer.unit or firer.attrs.get("lno") == u.unit]
        out_of_action = [u.unit for u in (paired or lnos) if u.eliminated or "pinned" in u.status]
        return [R_FLARE_FO.judge(seq, bool(out_of_action), f"{', '.join(out_of_action)} pinned or eliminated: "
                                 f"the forward observer may fire the flare",
                                 f"{firer.unit} fires a flare while the liaison officer is neither pinned nor "
                                 f"eliminated" if lnos else f"{firer.unit} fires a flare, but {side} has no liaison "
                                 f"officer to be pinned or eliminated")]

    # -- the barrage a flare calls ----------------------------------------------------------
    def _barrage_checks(self, seq: int, b: Barrage) -> list[RuleApplication]:
        if b.flare_checked:
            return []
        b.flare_checked = True
        out = [R_FLARE.judge(seq, b.mission == "destruction", "a flare calls a destruction mission",
                             f"a flare calls a destruction mission, not {b.mission}",
                             expected="destruction", recorded=b.mission)]
        firer = self._firer(b.flare_roll, b)
        dist = hex_distance(self.ctx.board, firer.location if firer else None, b.target)
        if dist is None:
            return out
        if dist == 4:
            return out + [R_FLARE.ok(seq, f"{b.target} is 4 hexes from {firer.unit}")]
        if dist == 0 or dist > 4:
            why = "his own hex may never be in the impact zone" if dist == 0 else "more than 4 hexes away"
            return out + [R_FLARE.violation(seq, f"{b.target} is {dist} hexes from {firer.unit}: {why}",
                                            expected=4, recorded=dist)]
        reading = self.ctx.interpretations.reading(FLARE_DISTANCE.name)
        label = self.ctx.interpretations.label(FLARE_DISTANCE.name)
        if reading is None:
            return out + [R_FLARE.ambiguous(seq, f"{b.target} is {dist} hexes from {firer.unit}: "
                                            f"{FLARE_DISTANCE.describe()}", recorded=dist, interpretation=label)]
        return out + [R_FLARE.judge(seq, reading == "up-to-4", f"{b.target} is within 4 hexes",
                                    f"{b.target} is {dist} hexes away, not exactly 4", expected=4, recorded=dist,
                                    interpretation=label)]


COVERAGE = {
    "IM.ART.LNO.FLARE": ("ambiguous", "tests/unit/test_artillery_flares.py::test_flare_at_distance_three_is_ambiguous"),
    "IM.ART.LNO.FLARE_FO": ("implemented", "tests/unit/test_artillery_flares.py::test_fo_flare_needs_lno_out"),
}
