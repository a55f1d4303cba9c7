"""Units pinned by a gas barrage (Infernal Machines, Selection and Effects of Ammunition, Gas):
"The first 'hit' caused by a gas mission automatically pins all infantry located inside the gas
zone ... Thus, gassed units may not fire or move until the gas marker is removed."

A unit is gassed when a `UnitStatusChanged` pins it with the gas barrage as its cause; it stays
gassed while a gas marker placed by that barrage's side since the barrage was declared is still
on the map. Firing or recovering from the pin in that time is a violation (moving while pinned is
the movement checks' IM.CORE.PINNED.MOVE).
"""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.engine import RuleModule, register
from domain.rules.infernal_machines.artillery_effects import R_GAS_EFFECTS


@register
class GassedUnits(RuleModule):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.gas_barrages: dict[str, dict[str, Any]] = {}   # barrage -> {side, seq}
        self.gassed: dict[str, dict[str, Any]] = {}         # unit -> {side, seq, barrage}

    def on_BarrageDeclared(self, line):
        d = line["data"]
        if d.get("ammunition") == "gas":
            self.gas_barrages.setdefault(d["barrage"], {"side": d["side"], "seq": line["seq"]})
        return []

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
