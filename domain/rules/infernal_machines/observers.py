"""Observers and guns as units (Infernal Machines, General Rule; Liaison officer (LNO); Forward
observers and liaison officers in combat; Balloons; Restrictions on indirect fire).

One LNO per FO; an FO or LNO alone in a hex that enemy cavalry, platoon-sized infantry or a
vehicle moves into is eliminated; balloons are attacked only by enemy aircraft;
on-map guns fire directly, at firepower 10 each, never in the barrage phase; a hex observed for a
barrage is attacked in the barrage phase only by off-map artillery.
"""
from __future__ import annotations

from typing import Optional

from domain.rules.engine import RuleApplication, RuleModule, Verdict, closer
from domain.rulebook import beside

RULEBOOK = beside(__file__)
R_LNO_AVAIL = RULEBOOK.rule("IM.ART.LNO.AVAIL")
R_COMBAT = RULEBOOK.rule("IM.ART.FO.COMBAT")
R_DEFENCE = RULEBOOK.rule("IM.ART.BALLOON.DEFENCE")
R_FP = RULEBOOK.rule("IM.ART.GEN.FP")
R_OBM_FP = RULEBOOK.rule("IM.ART.GEN.FP", "off-map")
R_ONMAP = RULEBOOK.rule("IM.ART.GEN.ONMAP_SKIP")
R_BARRAGE_ONLY = RULEBOOK.rule("IM.ART.RESTRICT.BARRAGE_ONLY")

INDIVIDUALS = ("forward-observer", "liaison-officer")
OVERRUNNERS = ("cavalry-platoon", "infantry-platoon", "mg-platoon", "tank", "armoured-car", "light-vehicle")


class ObserverUnits(RuleModule):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.lno_checked = False
        self.overrun: dict[str, int] = {}        # individual -> seq of the move that should eliminate it
        self.observed: dict[tuple[int, str], int] = {}   # (turn, hex) -> seq of a HexObserved

    def cls(self, unit: str) -> Optional[str]:
        state = self.ctx.board.units.get(unit)
        return state.unit_class if state else None

    # -- one LNO per FO -----------------------------------------------------------------------
    def on_TurnStarted(self, line):
        out = self._overruns(line)
        if self.lno_checked:
            return out
        self.lno_checked = True
        units = [u for u in self.ctx.board.units.values() if u.unit_class in INDIVIDUALS]
        for side in sorted({u.side for u in units if u.side}):
            fos = [u for u in units if u.side == side and u.unit_class == "forward-observer"]
            lnos = [u for u in units if u.side == side and u.unit_class == "liaison-officer"]
            if lnos:
                last = max(u.deployed_seq for u in lnos)
                out.append(R_LNO_AVAIL.judge(last, len(lnos) <= len(fos),
                                             f"{side}: {len(lnos)} LNO(s) for {len(fos)} FO(s)",
                                             f"{side} has {len(lnos)} liaison officers for {len(fos)} forward "
                                             f"observers: one LNO per FO", expected=len(fos), recorded=len(lnos)))
        return out

    # -- off-map firepower --------------------------------------------------------------------
    def on_ArtilleryElementAssigned(self, line):
        firepower = self.ctx.typed(line).firepower
        return [R_OBM_FP.judge(line["seq"], 5 <= firepower <= 40, f"off-map element firepower {firepower}",
                               f"off-map element firepower {firepower} is outside 5-40", expected="5-40",
                               recorded=firepower)]

    # -- FO and LNO overrun -------------------------------------------------------------------
    def after_UnitMoved(self, line):
        mover = self.ctx.board.units.get(self.ctx.typed(line).unit)
        if mover is None or mover.unit_class not in OVERRUNNERS:
            return []
        here = self.ctx.board.units_at(mover.location or "")
        friends = [u for u in here if u.side != mover.side and u.unit_class not in INDIVIDUALS]
        for u in here:
            if u.side != mover.side and u.unit_class in INDIVIDUALS and not friends:
                self.overrun.setdefault(u.unit, line["seq"])
        return []

    @closer
    def _overruns(self, line) -> list[RuleApplication]:
        out = []
        for name, seq in sorted(self.overrun.items(), key=lambda kv: kv[1]):
            unit = self.ctx.board.units.get(name)
            if unit is not None:
                out.append(R_COMBAT.judge(line["seq"], unit.eliminated, f"{name} was eliminated when overrun",
                                          f"{name} was alone when an enemy unit moved into its hex (seq {seq}): "
                                          f"it is eliminated, and the log does not say so",
                                          verdict=Verdict.MISMATCH, expected="eliminated", related=[seq]))
        self.overrun.clear()
        return out

    on_PhaseStarted = _overruns

    def finish(self):
        return self._overruns({"seq": self.ctx.lines[-1]["seq"]}) if self.ctx.lines else []

    # -- balloons (their movement is the movement checks') ---------------------------------------
    def _only_balloons(self, loc: Optional[str], side: Optional[str]) -> bool:
        enemies = [u for u in self.ctx.board.units_at(loc or "") if u.side != side]
        return bool(enemies) and all(u.unit_class == "balloon" for u in enemies)

    def on_BarrageDeclared(self, line):
        d = self.ctx.typed(line)
        if not self._only_balloons(d.target, d.side):
            return []
        return [R_DEFENCE.violation(line["seq"], f"{d.target} holds only a balloon: balloons may not be the target "
                                    f"of barrage fire by off-map artillery", recorded=d.target)]

    # -- small arms fire ----------------------------------------------------------------------
    def on_HexObserved(self, line):
        observed = self.ctx.typed(line)
        if observed.via != "automatic":
            self.observed.setdefault((line["turn"], observed.target), line["seq"])
        return []

    def on_SmallArmsFired(self, line):
        d, seq = self.ctx.typed(line), line["seq"]
        classes = [self.cls(f) for f in d.firers]
        out = []
        if self._only_balloons(d.target, line.get("side")) and any(c != "aircraft" for c in classes):
            out.append(R_DEFENCE.violation(seq, f"{d.target} holds only a balloon: only enemy aircraft attack it"))
        guns = all(c == "artillery-gun" for c in classes)
        if guns and d.firepower is not None:
            expected = 10 * len(classes)
            out.append(R_FP.judge(seq, d.firepower == expected, f"{len(classes)} gun(s) at 10 each",
                                  f"{len(classes)} on-map gun(s) fire small arms at {expected}, not {d.firepower}",
                                  verdict=Verdict.MISMATCH, expected=expected, recorded=d.firepower))
        if line["phase"] == "barrage":
            if guns:
                out.append(R_ONMAP.violation(seq, "on-map guns fire directly in a fire phase, never in the barrage phase"))
            observed = self.observed.get((line["turn"], d.target))
            if observed is not None:
                out.append(R_BARRAGE_ONLY.violation(seq, f"{d.target} is observed for a barrage (seq {observed}): "
                                                    f"in the barrage phase only off-map artillery attacks it",
                                                    related=[observed]))
        return out


COVERAGE = {
    "IM.ART.LNO.AVAIL": ("implemented", "tests/unit/test_artillery_procedure_units.py::test_one_lno_per_fo"),
    "IM.ART.FO.COMBAT": ("implemented", "tests/unit/test_artillery_procedure_units.py::test_overrun_fo_is_eliminated"),
    "IM.ART.BALLOON.DEFENCE": ("implemented", "tests/unit/test_artillery_procedure_units.py::test_balloon_attacked_only_by_aircraft"),
    "IM.ART.GEN.FP": ("implemented", "tests/unit/test_artillery_procedure_units.py::test_onmap_guns_fire_at_ten_each; "
                                     "tests/unit/test_artillery_procedure_units.py::test_offmap_firepower_is_5_to_40"),
    "IM.ART.GEN.ONMAP_SKIP": ("implemented", "tests/unit/test_artillery_procedure_units.py::test_guns_and_observed_hex_in_barrage_phase"),
    "IM.ART.RESTRICT.BARRAGE_ONLY": ("implemented", "tests/unit/test_artillery_procedure_units.py::test_guns_and_observed_hex_in_barrage_phase"),
}
