"""Small arms fire after a suppression mission (Infernal Machines, Effects of a suppression mission
with high-explosive ammunition against infantry, and the creeping barrages, which attack as one):

"Whatever the final outcome, all non-pinned infantry caught in the primary [or secondary] impact
zone of the suppression mission may only conduct small arms fire at half their firepower (round
fractions up) during the next complete turn (both the first and second phases). Crews may not fire
at all during one complete turn (both the first and second phases)."

Units are those in a hex the `BarrageResolved` lists, when it fell; a unit the same barrage pinned
is not "non-pinned". The penalty is judged in the game turn after the barrage's, on every
`SmallArmsFired` whose firers include such a unit.
"""
from __future__ import annotations

from typing import Any

from domain.rules.engine import Rule, RuleModule, Verdict, register
from domain.rules.infernal_machines.artillery_effects import INFANTRY_LIKE, half_firepower

SECTION = "Effects of a suppression mission with high-explosive ammunition against infantry"
R_SUPP_INF = Rule("IM.ART.EFF.SUPP.HE.INF", f"{SECTION}: half firepower, crews may not fire, the next complete turn")
SUPPRESSING = ("suppression", "simple-creeping", "double-creeping")


@register
class SuppressedFire(RuleModule):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.missions: dict[str, str] = {}
        self.caught: dict[str, dict[str, Any]] = {}     # unit -> {turn, barrage, seq, fire: half | none}

    def on_BarrageDeclared(self, line):
        d = line["data"]
        # smoke from a suppression mission "has no other effects on enemy units"
        if d["mission"] in SUPPRESSING and (d.get("ammunition") != "smoke" or d["mission"] != "suppression"):
            self.missions.setdefault(d["barrage"], d["mission"])
        return []

    def on_BarrageResolved(self, line):
        d = line["data"]
        if self.missions.get(d["barrage"]) not in SUPPRESSING:
            return []
        for row in d.get("results", []):
            for unit in self.ctx.board.units_at(row["location"]):
                if unit.unit_class == "crew":
                    fire = "none"
                elif unit.unit_class in INFANTRY_LIKE or unit.unit_class == "cavalry-platoon":   # cavalry: "same as for infantry"
                    fire = "half"
                else:
                    continue
                self.caught[unit.unit] = {"turn": line["turn"] + 1, "barrage": d["barrage"], "seq": line["seq"],
                                          "fire": fire}
        return []

    def _pinned_by(self, unit: str, barrage: str) -> bool:
        return any(l["type"] == "UnitStatusChanged" and l["data"]["unit"] == unit and l["data"]["status"] == "pinned"
                   and l["data"].get("cause") == barrage for l in self.ctx.lines)

    def on_SmallArmsFired(self, line):
        d, seq = line["data"], line["seq"]
        hit = {f: self.caught[f] for f in d["firers"] if f in self.caught and self.caught[f]["turn"] == line["turn"]}
        if not hit:
            return []
        silent = [f for f, p in hit.items() if p["fire"] == "none"]
        related = sorted({p["seq"] for p in hit.values()})
        if silent:
            return [R_SUPP_INF.violation(seq, f"crew {', '.join(silent)} was caught by a suppression barrage last "
                                         f"turn: crews may not fire during one complete turn", related=related)]
        halved = [f for f, p in hit.items() if p["fire"] == "half" and not self._pinned_by(f, p["barrage"])]
        units = self.ctx.board.units
        if not halved or d.get("firepower") is None or any(f not in units for f in d["firers"]):
            return []
        allowed = sum(half_firepower(units[f].firepower or 0) if f in halved else (units[f].firepower or 0)
                      for f in d["firers"])
        return [R_SUPP_INF.judge(seq, d["firepower"] <= allowed, f"firepower {d['firepower']} within the suppressed "
                                 f"{allowed}", f"{', '.join(halved)} fire(s) at half firepower (round up) the turn "
                                 f"after a suppression barrage: at most {allowed}, not {d['firepower']}",
                                 verdict=Verdict.MISMATCH, expected=allowed, recorded=d["firepower"], related=related)]


