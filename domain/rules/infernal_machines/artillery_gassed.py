"""Units pinned by a gas barrage (Infernal Machines, Selection and Effects of Ammunition, Gas):
"The first 'hit' caused by a gas mission automatically pins all infantry located inside the gas
zone ... Thus, gassed units may not fire or move until the gas marker is removed."

A unit is gassed when a `UnitStatusChanged` pins it with the gas barrage as its cause; it stays
gassed while a gas marker placed by that barrage's side since the barrage was declared is still
on the map. Firing or recovering from the pin in that time is a violation (moving while pinned is
the movement checks' IM.CORE.PINNED.MOVE).

Double gas attack: "from January 1916, the Germans used a double salvo of gas types ... When the
outcome of a gas mission is determined, roll a six-sided die for each enemy unit in the impact zone
affected by the gas ... On a result of 4 to 6, the unit fails this test and is pinned for 4 turns".
A recorded mask roll of 4-6 after a German gas barrage (1916 on) needs a 4-turn pin (a pin with
`turns` 4) of that unit in the phase. Whether every German gas barrage from 1916 must be a double
salvo the text does not say outright ("the Germans used a double salvo"), so a German gas barrage
without mask rolls is not a missing roll.
"""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.engine import AuditContext, RuleModule, Verdict, closer
from domain.rules.infernal_machines.artillery_effects import INFANTRY_LIKE, R_GAS_DOUBLE, R_GAS_EFFECTS, board_extras
from domain.rules.infernal_machines.artillery_legality import DOUBLE_GAS_FROM, is_german, side_facts
from domain.rules.infernal_machines.barrage_tracker import renew_barrage


def gassed(ctx: AuditContext, unit: str) -> Optional[int]:
    """The seq of the gas pin that makes `unit` gassed now, if it is: pinned by a gas barrage whose
    side still has a gas marker placed since that barrage on the map."""
    typed = ctx.typed
    gas = {typed(l).barrage: l for l in ctx.of_type("BarrageDeclared") if typed(l).ammunition == "gas"}
    pins = [l for l in ctx.of_type("UnitStatusChanged") if typed(l).unit == unit
            and typed(l).status == "pinned" and typed(l).cause in gas]
    for pin in reversed(pins):
        decl = gas[typed(pin).cause]
        if any(m["marker"] == "gas" and m.get("seq", 0) > decl["seq"] and m.get("side") in (typed(decl).side, None)
               for m in ctx.board.markers):
            return pin["seq"]
    return None


# "automatically pins all infantry ... Cavalry units are likewise automatically pinned ... it affects
# open vehicles and light vehicles (trucks and motorcycles) in the same way as cavalry units"
GASSED_CLASSES = INFANTRY_LIKE | {"cavalry-platoon", "light-vehicle"}


class GassedUnits(RuleModule):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.gas_barrages: dict[str, dict[str, Any]] = {}   # barrage -> {side, seq}
        self.gassed: dict[str, dict[str, Any]] = {}         # unit -> {side, seq, barrage}

        self.mask_rolls: list[dict[str, Any]] = []           # mask rolls of this phase
        self.to_pin: dict[str, dict[str, Any]] = {}         # unit in a new gas marker's hex -> due
        self.dismounted: set[str] = set()
        self.four_turn_pins: set[str] = set()                # units pinned for 4 turns this phase
        self.pin_markers: dict[str, int] = {}                # unit -> pinned markers placed this phase
        self.extras = board_extras(ctx)                       # gas lifetimes (domain/board/lifetimes.py)

    def on_BarrageDeclared(self, line):
        d = self.ctx.typed(line)
        if d.ammunition == "gas":
            bloc, nation = side_facts(self.ctx.board, d.side)
            # `double_gas` false: a field beside the schema's that says this salvo is not a double one
            double = (is_german(nation) or (nation is None and bloc == "central")) \
                and (self.ctx.board.date or "") >= DOUBLE_GAS_FROM and getattr(d, "double_gas", None) is not False
            if renew_barrage(d.barrage, line["turn"], self.gas_barrages):
                self.gas_barrages[d.barrage] = {"side": d.side, "seq": line["seq"], "turn": line["turn"],
                                                "double": double}
        return []

    # -- units in the gas marker's hex: pinned (cavalry also dismounted), judged when the phase ends --
    def on_MarkerPlaced(self, line):
        d = self.ctx.typed(line)
        if d.marker == "pinned" and d.unit:
            # "pinned for 4 turns; place two 'pinned' markers to indicate this"
            self.pin_markers[d.unit] = self.pin_markers.get(d.unit, 0) + 1
            if self.pin_markers[d.unit] >= 2 or d.turns == 4:
                self.four_turn_pins.add(d.unit)
            return []
        if d.marker != "gas" or d.unit or line["phase"] != "barrage":
            return []
        side = line.get("side")
        decl = next((b for b in reversed(list(self.gas_barrages.values()))
                     if b["turn"] == line["turn"] and (side is None or b["side"] == side)), None)
        if decl is None:
            return []
        for unit in self.ctx.board.units_at(d.location or ""):
            if unit.side != decl["side"] and not unit.eliminated and unit.unit_class in GASSED_CLASSES:
                self.to_pin.setdefault(unit.unit, {"seq": line["seq"], "cls": unit.unit_class,
                                                   "was_pinned": "pinned" in unit.status})
        return []

    def _pins_recorded(self) -> list:
        out = []
        for unit, due in self.to_pin.items():
            state = self.ctx.board.units.get(unit)
            if state is None or state.eliminated:
                continue
            pinned = due["was_pinned"] or "pinned" in state.status
            dismounted = due["cls"] != "cavalry-platoon" or state.unit_class != "cavalry-platoon" \
                or "dismounted" in state.status or unit in self.dismounted
            out.append(R_GAS_EFFECTS.judge(due["seq"], pinned and dismounted, f"{unit} in the gas hex is gassed",
                                           f"{unit} is in the gas marker's hex: " + (
                                               "gas automatically pins it" if not pinned else
                                               "cavalry are pinned and immediately dismounted for the rest of the game")
                                           + ", and the log does not say so", verdict=Verdict.MISMATCH,
                                           expected="pinned" + ("" if due["cls"] != "cavalry-platoon" else ", dismounted")))
        self.to_pin.clear(); self.dismounted.clear()
        return out

    # -- the double gas mask rolls, judged when the phase ends --------------------------------------
    def on_DieRolled(self, line):
        if self.ctx.typed(line).purpose.startswith(R_GAS_DOUBLE.id):
            self.mask_rolls.append(line)
        return []

    @closer
    def _close_phase(self, line):
        out = self._pins_recorded()
        for roll in self.mask_rolls:
            mask = self.ctx.typed(roll)
            unit = mask.subject
            double = self.gassed.get(unit or "", {}).get("double") or any(
                b["double"] and b["turn"] == roll["turn"] for b in self.gas_barrages.values())
            if 4 <= mask.result <= 6 and unit in self.ctx.board.units and double:
                out.append(R_GAS_DOUBLE.judge(roll["seq"], unit in self.four_turn_pins,
                                              f"mask roll {mask.result}: {unit} pinned for 4 turns",
                                              f"mask roll {mask.result} (4-6): {unit} is pinned for 4 turns, "
                                              f"and the log does not say so", verdict=Verdict.MISMATCH,
                                              expected={"status": "pinned", "turns": 4}))
        self.mask_rolls.clear(); self.four_turn_pins.clear(); self.pin_markers.clear()
        return out

    on_PhaseStarted = _close_phase
    on_TurnStarted = _close_phase

    def finish(self):
        return self._close_phase({})

    def _marker_left(self, unit: str) -> Optional[dict[str, Any]]:
        g = self.gassed.get(unit)
        if g is None:
            return None
        # gas that has lapsed by the text's duration counts as gone even when no removal is recorded
        clock, reading = self.extras.clock, self.extras.gas_reading
        return next((m for m in self.ctx.board.markers if m["marker"] == "gas" and m.get("seq", 0) > g["seq"]
                     and m.get("side") in (g["side"], None) and not clock.expired(m.get("seq", 0), reading)), None)

    def _judge(self, line, unit: str, doing: str):
        marker = self._marker_left(unit)
        if marker is None:
            self.gassed.pop(unit, None)
            return []
        return [R_GAS_EFFECTS.violation(line["seq"], f"{unit} was gassed by {self.gassed[unit]['barrage']}: gassed units "
                                        f"may not {doing} until the gas marker ({marker.get('location')}) is removed",
                                        related=[self.gassed[unit]["pinned"], marker["seq"]])]

    def on_UnitStatusChanged(self, line):
        d = self.ctx.typed(line)
        cause = self.gas_barrages.get(d.cause or "")
        if d.status == "dismounted":
            self.dismounted.add(d.unit)
        if d.status == "pinned" and d.turns == 4:
            self.four_turn_pins.add(d.unit)
        if d.status == "pinned" and cause is not None:
            self.gassed[d.unit] = {**cause, "barrage": d.cause, "pinned": line["seq"]}
            return []
        if d.status == "unpinned" and d.unit in self.gassed:
            return self._judge(line, d.unit, "recover from the pin")
        return []

    def on_SmallArmsFired(self, line):
        out = []
        for unit in self.ctx.typed(line).firers:
            if unit in self.gassed:
                out.extend(self._judge(line, unit, "fire"))
        return out
