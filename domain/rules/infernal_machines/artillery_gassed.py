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

from domain.rules.engine import RuleModule, Verdict, register
from domain.rules.infernal_machines.artillery_effects import R_GAS_DOUBLE, R_GAS_EFFECTS
from domain.rules.infernal_machines.artillery_legality import DOUBLE_GAS_FROM, is_german, side_facts


@register
class GassedUnits(RuleModule):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.gas_barrages: dict[str, dict[str, Any]] = {}   # barrage -> {side, seq}
        self.gassed: dict[str, dict[str, Any]] = {}         # unit -> {side, seq, barrage}

        self.mask_rolls: list[dict[str, Any]] = []           # mask rolls of this phase
        self.four_turn_pins: set[str] = set()                # units pinned for 4 turns this phase

    def on_BarrageDeclared(self, line):
        d = line["data"]
        if d.get("ammunition") == "gas":
            bloc, nation = side_facts(self.ctx.board, d["side"])
            double = (is_german(nation) or (nation is None and bloc == "central")) \
                and (self.ctx.board.date or "") >= DOUBLE_GAS_FROM and d.get("double_gas") is not False
            self.gas_barrages.setdefault(d["barrage"], {"side": d["side"], "seq": line["seq"], "turn": line["turn"],
                                                        "double": double})
        return []

    # -- the double gas mask rolls, judged when the phase ends --------------------------------------
    def on_DieRolled(self, line):
        if line["data"]["purpose"].startswith(R_GAS_DOUBLE.id):
            self.mask_rolls.append(line)
        return []

    def _close_phase(self, line):
        out = []
        for roll in self.mask_rolls:
            unit = roll["data"].get("subject")
            double = self.gassed.get(unit or "", {}).get("double") or any(
                b["double"] and b["turn"] == roll["turn"] for b in self.gas_barrages.values())
            if 4 <= roll["data"]["result"] <= 6 and unit in self.ctx.board.units and double:
                out.append(R_GAS_DOUBLE.judge(roll["seq"], unit in self.four_turn_pins,
                                              f"mask roll {roll['data']['result']}: {unit} pinned for 4 turns",
                                              f"mask roll {roll['data']['result']} (4-6): {unit} is pinned for 4 turns, "
                                              f"and the log does not say so", verdict=Verdict.MISMATCH,
                                              expected={"status": "pinned", "turns": 4}))
        self.mask_rolls.clear(); self.four_turn_pins.clear()
        return out

    on_PhaseStarted = _close_phase
    on_TurnStarted = _close_phase

    def finish(self):
        return self._close_phase({})

    def _marker_left(self, unit: str) -> Optional[dict[str, Any]]:
        g = self.gassed.get(unit)
        if g is None:
            return None
        return next((m for m in self.ctx.board.markers if m["marker"] == "gas" and m.get("seq", 0) > g["seq"]
                     and m.get("side") in (g["side"], None)), None)

    def _judge(self, line, unit: str, doing: str):
        marker = self._marker_left(unit)
        if marker is None:
            self.gassed.pop(unit, None)
            return []
        return [R_GAS_EFFECTS.violation(line["seq"], f"{unit} was gassed by {self.gassed[unit]['barrage']}: gassed units "
                                        f"may not {doing} until the gas marker ({marker.get('location')}) is removed",
                                        related=[self.gassed[unit]["pinned"], marker["seq"]])]

    def on_UnitStatusChanged(self, line):
        d = line["data"]
        cause = self.gas_barrages.get(d.get("cause") or "")
        if d["status"] == "pinned" and d.get("turns") == 4:
            self.four_turn_pins.add(d["unit"])
        if d["status"] == "pinned" and cause is not None:
            self.gassed[d["unit"]] = {**cause, "barrage": d["cause"], "pinned": line["seq"]}
            return []
        if d["status"] == "unpinned" and d["unit"] in self.gassed:
            return self._judge(line, d["unit"], "recover from the pin")
        return []

    def on_SmallArmsFired(self, line):
        out = []
        for unit in line["data"]["firers"]:
            if unit in self.gassed:
                out.extend(self._judge(line, unit, "fire"))
        return out
