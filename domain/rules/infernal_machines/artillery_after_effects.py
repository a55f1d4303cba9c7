"""What a barrage leaves behind for the units' next turn (Infernal Machines, Selection and Effects
of Ammunition):

- suppression (and the creeping barrages, which attack as one): "Whatever the final outcome, all
  non-pinned infantry caught in the primary [or secondary] impact zone of the suppression mission
  may only conduct small arms fire at half their firepower (round fractions up) during the next
  complete turn (both the first and second phases). Crews may not fire at all during one complete
  turn (both the first and second phases)." Units are those in a hex the `BarrageResolved` lists,
  when it fell; a unit the same barrage pinned is not "non-pinned". Judged in the game turn after
  the barrage's, on every `SmallArmsFired` whose firers include such a unit;
- interdiction: infantry hit in the primary zone may not move, nor recover from a pin, on their
  next turn (InterdictedUnits below);
- counter-battery: a fire that did not scatter eliminates an enemy element (CounterBatteryOutcome).
"""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.engine import RuleModule, Verdict, closer
from domain.rules.infernal_machines.artillery_effects import INFANTRY_LIKE, half_firepower
from domain.rulebook import beside

RULEBOOK = beside(__file__)
R_SUPP_INF = RULEBOOK.rule("IM.ART.EFF.SUPP.HE.INF")
SUPPRESSING = ("suppression", "simple-creeping", "double-creeping")


class SuppressedFire(RuleModule):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.missions: dict[str, str] = {}
        self.caught: dict[str, dict[str, Any]] = {}     # unit -> {turn, barrage, seq, fire: half | none}

    def on_BarrageDeclared(self, line):
        d = self.ctx.typed(line)
        # smoke from a suppression mission "has no other effects on enemy units"
        if d.mission in SUPPRESSING and (d.ammunition != "smoke" or d.mission != "suppression"):
            self.missions.setdefault(d.barrage, d.mission)
        return []

    def on_BarrageResolved(self, line):
        d = self.ctx.typed(line)
        if self.missions.get(d.barrage) not in SUPPRESSING:
            return []
        for row in d.results:
            for unit in self.ctx.board.units_at(row.location):
                if unit.unit_class == "crew":
                    fire = "none"
                elif unit.unit_class in INFANTRY_LIKE or unit.unit_class == "cavalry-platoon":   # cavalry: "same as for infantry"
                    fire = "half"
                else:
                    continue
                self.caught[unit.unit] = {"turn": line["turn"] + 1, "barrage": d.barrage, "seq": line["seq"],
                                          "fire": fire}
        return []

    def _pinned_by(self, unit: str, barrage: str) -> bool:
        changes = map(self.ctx.typed, self.ctx.of_type("UnitStatusChanged", after=self.caught[unit]["seq"]))
        return any(c.unit == unit and c.status == "pinned" and c.cause == barrage for c in changes)

    def on_SmallArmsFired(self, line):
        d, seq = self.ctx.typed(line), line["seq"]
        hit = {f: self.caught[f] for f in d.firers if f in self.caught and self.caught[f]["turn"] == line["turn"]}
        if not hit:
            return []
        silent = [f for f, p in hit.items() if p["fire"] == "none"]
        related = sorted({p["seq"] for p in hit.values()})
        if silent:
            return [R_SUPP_INF.violation(seq, f"crew {', '.join(silent)} was caught by a suppression barrage last "
                                         f"turn: crews may not fire during one complete turn", related=related)]
        halved = [f for f, p in hit.items() if p["fire"] == "half" and not self._pinned_by(f, p["barrage"])]
        units = self.ctx.board.units
        if not halved or d.firepower is None or any(f not in units for f in d.firers):
            return []
        allowed = sum(half_firepower(units[f].firepower or 0) if f in halved else (units[f].firepower or 0)
                      for f in d.firers)
        return [R_SUPP_INF.judge(seq, d.firepower <= allowed, f"firepower {d.firepower} within the suppressed "
                                 f"{allowed}", f"{', '.join(halved)} fire(s) at half firepower (round up) the turn "
                                 f"after a suppression barrage: at most {allowed}, not {d.firepower}",
                                 verdict=Verdict.MISMATCH, expected=allowed, recorded=d.firepower, related=related)]




R_INT_INF = RULEBOOK.rule("IM.ART.EFF.INT.HE.INF")
INTERDICTED_CLASSES = INFANTRY_LIKE | {"cavalry-platoon"}     # cavalry: "same as for infantry above (case p.1)"


class InterdictedUnits(RuleModule):
    """Interdiction HE, primary zone, an "H" of any kind: "no infantry in the primary impact zone
    hexagon(s) may move on their next turn ... If a unit already pinned suffers an 'H' result, it
    remains 'pinned' and may not recover its normal status the following turn." The next turn is
    the unit's side's next player turn (the phases whose `active` is its side) after the barrage."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.interdiction: set[str] = set()
        self.held: dict[str, dict[str, Any]] = {}      # unit -> {side, seq, was_pinned, state}

    def on_BarrageDeclared(self, line):
        d = self.ctx.typed(line)
        if d.mission == "interdiction" and d.ammunition == "he":
            self.interdiction.add(d.barrage)
        return []

    def on_BarrageResolved(self, line):
        d = self.ctx.typed(line)
        if d.barrage not in self.interdiction:
            return []
        for row in d.results:
            if row.zone != "primary" or not row.result.upper().startswith("H"):
                continue
            for unit in self.ctx.board.units_at(row.location):
                if unit.unit_class in INTERDICTED_CLASSES and not unit.eliminated:
                    self.held[unit.unit] = {"side": unit.side, "seq": line["seq"], "state": "waiting",
                                            "was_pinned": "pinned" in unit.status}
        return []

    def after_PhaseStarted(self, line):
        active = self.ctx.board.active   # the board holding the phase: its active side
        for unit, h in list(self.held.items()):
            if h["state"] == "waiting" and active == h["side"]:
                h["state"] = "next-turn"
            elif h["state"] == "next-turn" and active != h["side"]:
                del self.held[unit]
        return []

    def _in_next_turn(self, unit: str) -> Optional[dict[str, Any]]:
        h = self.held.get(unit)
        return h if h is not None and h["state"] == "next-turn" else None

    def on_UnitMoved(self, line):
        move = self.ctx.typed(line)
        h = self._in_next_turn(move.unit)
        if h is None or move.mode == "retreat":
            return []
        return [R_INT_INF.violation(line["seq"], f"{move.unit} was in the primary zone of an interdiction "
                                    f"'H' (seq {h['seq']}): it may not move on its next turn", related=[h["seq"]])]

    def on_UnitStatusChanged(self, line):
        d = self.ctx.typed(line)
        h = self._in_next_turn(d.unit)
        if h is None or d.status != "unpinned" or not h["was_pinned"]:
            return []
        return [R_INT_INF.violation(line["seq"], f"{d.unit} was already pinned when an interdiction 'H' hit it "
                                    f"(seq {h['seq']}): it may not recover its normal status the following turn",
                                    related=[h["seq"]])]


R_CB_RESOLVE = RULEBOOK.rule("IM.ART.MISSION.CB.RESOLVE", "no-scatter-eliminates")


class CounterBatteryOutcome(RuleModule):
    """"If the fire does not scatter, one enemy off-map artillery element is eliminated by the
    counter-battery mission": a counter-battery barrage whose scatter test did not scatter needs an
    `ArtilleryElementEliminated` by it before the phase ends (a mismatch at the test otherwise).
    An elimination after a scatter is IM.ART.EFF.CB's (artillery_effects_judge.py)."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.cb: set[str] = set()
        self.due: dict[str, int] = {}      # barrage -> seq of its scatter test that did not scatter

    def on_BarrageDeclared(self, line):
        d = self.ctx.typed(line)
        if d.mission == "counter-battery":
            self.cb.add(d.barrage)
        return []

    def on_ScatterTested(self, line):
        d = self.ctx.typed(line)
        if d.barrage in self.cb and not d.scattered:
            self.due.setdefault(d.barrage, line["seq"])
        return []

    def on_ArtilleryElementEliminated(self, line):
        self.due.pop(self.ctx.typed(line).by or "", None)
        return []

    def on_BarrageCancelled(self, line):
        self.due.pop(self.ctx.typed(line).barrage, None)
        return []

    @closer
    def _close(self, _line=None):
        out = [R_CB_RESOLVE.mismatch(seq, f"counter-battery {barrage} did not scatter: one enemy off-map element is "
                                     f"eliminated, and the log does not record it", expected="an element eliminated")
               for barrage, seq in self.due.items()]
        self.due.clear()
        return out

    on_PhaseStarted = _close
    on_TurnStarted = _close

    def finish(self):
        return self._close()
