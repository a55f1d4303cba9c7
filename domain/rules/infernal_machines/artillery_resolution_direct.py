"""Direct fire by on-map artillery guns (IM.ART section L): never in the barrage phase, a pinned gun
does not fire, guns against light targets combine at firepower 10 each, smoke only if the scenario
provides it. Facing and arcs are Landships! rule 8.12 (not in the text)."""
from __future__ import annotations

from domain.rules.engine import RuleModule, Verdict
from domain.rulebook import beside

RULEBOOK = beside(__file__)
R_REQS = RULEBOOK.rule("IM.ART.DIRECT.REQS")
R_SAF = RULEBOOK.rule("IM.ART.DIRECT.AT_VS_SAF")
R_SMOKE = RULEBOOK.rule("IM.ART.DIRECT.SMOKE")
GUN_FIREPOWER = 10      # "All artillery guns operating in direct fire mode have a small arms firepower value of 10"


def guns_small_arms_firepower(guns: int) -> int:
    return GUN_FIREPOWER * guns


class DirectArtilleryFire(RuleModule):

    def on_SmallArmsFired(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        guns = [board.units[f] for f in d.firers if f in board.units and board.units[f].unit_class == "artillery-gun"]
        if not guns:
            return []
        out = [R_REQS.judge(seq, line["phase"] != "barrage", "direct fire in a fire phase",
                            "on-map guns fire directly in the fire phases, never in the barrage phase",
                            recorded=line["phase"])]
        pinned = [g.unit for g in guns if "pinned" in g.status or self._crew_out(g)]
        out.append(R_REQS.judge(seq, not pinned, "the guns' crews are not pinned",
                                f"a gun needs a non-pinned crew to fire: {', '.join(pinned)} (gun or crew pinned or eliminated)", recorded=pinned))
        if len(guns) == len(d.firers) and d.firepower is not None:
            total = guns_small_arms_firepower(len(guns))
            out.append(R_SAF.judge(seq, d.firepower == total, f"{len(guns)} gun(s) x 10 = {total}",
                                   f"guns combine at firepower 10 each against light targets: {total}, not "
                                   f"{d.firepower}", verdict=Verdict.MISMATCH, expected=total,
                                   recorded=d.firepower))
        return out

    def _crew_out(self, gun) -> bool:
        """"If an on-map artillery gun has a non-pinned crew counter": the crew counters stacked with
        the gun (its side, its hex) are all pinned or eliminated. A gun without crew counters in the
        log is not judged on this."""
        crews = [u for u in self.ctx.board.units.values() if u.unit_class == "crew" and u.side == gun.side
                 and u.location is not None and u.location == gun.location]
        crews += [u for u in self.ctx.board.units.values() if u.unit_class == "crew" and u.eliminated
                  and gun.unit in (u.attrs.get("gun"), u.attrs.get("weapon"))]
        return bool(crews) and all(u.eliminated or "pinned" in u.status for u in crews)

    def _fired_by_gun(self, line) -> bool:
        """Whether a smoke marker placed outside the barrage phase came from an on-map gun: the log
        says so (`source`), or the side has guns and no mortar, the other on-map smoke weapon."""
        source = getattr(self.ctx.typed(line), "source", None)   # a field beside the schema's
        if source is not None:
            return source == "artillery-gun"
        side = line.get("side")
        own = {u.unit_class for u in self.ctx.board.units.values() if u.side == side and not u.eliminated}
        return "artillery-gun" in own and "mortar" not in own

    def on_MarkerPlaced(self, line):
        marker = self.ctx.typed(line).marker
        if marker != "smoke" or line["phase"] in ("barrage", "setup") or not self._fired_by_gun(line):
            return []
        return [R_SMOKE.judge(line["seq"], "smoke" in self.ctx.board.permissions, "the scenario provides smoke",
                              "on-map guns fire smoke only if the scenario makes it available")]


COVERAGE = {
    "IM.ART.DIRECT.REQS": ("implemented", "tests/unit/test_artillery_resolution_direct.py::test_guns_fire_directly_outside_barrage_phase"),
    "IM.ART.DIRECT.AT_VS_SAF": ("implemented", "tests/unit/test_artillery_resolution_direct.py::test_guns_combine_at_ten"),
    "IM.ART.DIRECT.BOTH_PHASES": ("implemented", "tests/unit/test_artillery_resolution_direct.py::test_gun_fires_in_both_phases"),
    "IM.ART.DIRECT.SMOKE": ("implemented", "tests/unit/test_artillery_resolution_direct.py::test_gun_smoke_needs_scenario"),
}
