"""Direct fire by on-map artillery guns (IM.ART section L): never in the barrage phase, a pinned gun
does not fire, guns against light targets combine at firepower 10 each, smoke only if the scenario
provides it. Facing and arcs are Landships! rule 8.12 (not in the text)."""
from __future__ import annotations

from domain.rules.engine import RuleModule, Rule, Verdict, register

SECTION = "Direct Fire by Artillery Guns"
R_REQS = Rule("IM.ART.DIRECT.REQS", SECTION)
R_SAF = Rule("IM.ART.DIRECT.AT_VS_SAF", SECTION)
R_SMOKE = Rule("IM.ART.DIRECT.SMOKE", SECTION)
GUN_FIREPOWER = 10      # "All artillery guns operating in direct fire mode have a small arms firepower value of 10"


def guns_small_arms_firepower(guns: int) -> int:
    return GUN_FIREPOWER * guns


@register
class DirectArtilleryFire(RuleModule):

    def on_SmallArmsFired(self, line):
        d, seq, board = line["data"], line["seq"], self.ctx.board
        guns = [board.units[f] for f in d["firers"] if f in board.units and board.units[f].unit_class == "artillery-gun"]
        if not guns:
            return []
        out = [R_REQS.judge(seq, line["phase"] != "barrage", "direct fire in a fire phase",
                            "on-map guns fire directly in the fire phases, never in the barrage phase",
                            recorded=line["phase"])]
        pinned = [g.unit for g in guns if "pinned" in g.status]
        out.append(R_REQS.judge(seq, not pinned, "the guns' crews are not pinned",
                                f"a gun needs a non-pinned crew to fire: {', '.join(pinned)}", recorded=pinned))
        if len(guns) == len(d["firers"]) and d.get("firepower") is not None:
            total = guns_small_arms_firepower(len(guns))
            out.append(R_SAF.judge(seq, d["firepower"] == total, f"{len(guns)} gun(s) x 10 = {total}",
                                   f"guns combine at firepower 10 each against light targets: {total}, not "
                                   f"{d['firepower']}", verdict=Verdict.MISMATCH, expected=total,
                                   recorded=d["firepower"]))
        return out

    def on_MarkerPlaced(self, line):
        d = line["data"]
        if d["marker"] != "smoke" or line["phase"] == "barrage" or not d.get("source") == "artillery-gun":
            return []
        return [R_SMOKE.judge(line["seq"], "smoke" in self.ctx.board.permissions, "the scenario provides smoke",
                              "on-map guns fire smoke only if the scenario makes it available")]


COVERAGE = {
    "IM.ART.DIRECT.REQS": ("implemented", "tests/unit/test_artillery_resolution_direct.py::test_guns_fire_directly_outside_barrage_phase"),
    "IM.ART.DIRECT.AT_VS_SAF": ("implemented", "tests/unit/test_artillery_resolution_direct.py::test_guns_combine_at_ten"),
    "IM.ART.DIRECT.BOTH_PHASES": ("implemented", "tests/unit/test_artillery_resolution_direct.py::test_gun_fires_in_both_phases"),
    "IM.ART.DIRECT.SMOKE": ("implemented", "tests/unit/test_artillery_resolution_direct.py::test_gun_smoke_needs_scenario"),
}
