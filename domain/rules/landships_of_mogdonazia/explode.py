"""Landships of Mogdonazia, a vehicle that explodes (landships-of-mogdonazia.txt, Vehicle Critical
Chart 6): "If the vehicle explodes, all the crew within are immediately killed. All figures within 6
must roll a 6 on a D6 to survive, all figures 6-12 away must roll 4 and higher on a D6 to survive."

`ExplosionResolved` follows one `MOG.FIRE.EXPLODE` d6 a figure, in the order of `figures`
(game-log-tabletop.md); each distance is checked against the figure's recorded position when the
unit's `figures` are recorded, else between the nearest and farthest points of its extent. Exactly
6" falls in both bands: `mog-explode-6` (AP-MOG-02) has no reading, so it is `ambiguous`.
"""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.engine import RuleApplication, RuleModule, Verdict
from domain.rules.landships_of_mogdonazia.common import RULEBOOK
from domain.tabletop.geometry import extent, farthest, measure, xy

EXPLODE = RULEBOOK.rule("MOG.FIRE.EXPLODE")
NEAR, FAR = 6.0, 12.0


def needed(distance: float) -> Optional[int]:
    """The d6 a figure must roll to survive: 6 within 6", 4 at 6-12", none beyond 12"."""
    if distance <= NEAR:
        return 6
    return 4 if distance <= FAR else None


class Explosions(RuleModule):
    """ExplosionResolved: each figure's distance, its d6 and whether it survived."""

    ruleset = "landships-of-mogdonazia"

    def on_ExplosionResolved(self, line):
        blast, seq = self.ctx.typed(line), line["seq"]
        earlier = self.ctx.of_type("ExplosionResolved", before=seq)
        rolls = [r for r in self.ctx.rolls("MOG.FIRE.EXPLODE", after=earlier[-1]["seq"] if earlier else 0, before=seq)
                 if self.ctx.typed(r).purpose == "MOG.FIRE.EXPLODE"]
        if len(rolls) < len(blast.figures):
            return [EXPLODE.missing_roll(seq, f"{len(blast.figures)} figures each roll a d6 to survive: "
                                         f"{len(rolls)} MOG.FIRE.EXPLODE rolls before")]
        rolls = rolls[len(rolls) - len(blast.figures):]
        out = []
        for i, (figure, roll) in enumerate(zip(blast.figures, rolls)):
            out.extend(self._figure(seq, blast.unit, i, figure, roll))
        return out

    def _figure(self, seq: int, vehicle: str, i: int, figure, roll: dict[str, Any]) -> list[RuleApplication]:
        where = f"figures[{i}] ({figure.unit} at {figure.distance}\")"
        placed = self._distance(seq, vehicle, where, figure)
        if figure.distance == NEAR:
            return placed + [EXPLODE.ambiguous(seq, f"{where}: exactly 6\" is \"within 6\" and \"6-12 away\" "
                                               "(AP-MOG-02)", interpretation=self.ctx.interpretations.label(
                                                   "mog-explode-6"), related=[roll["seq"]])]
        face, need = self.ctx.typed(roll).result, needed(figure.distance)
        expected = True if need is None else face >= need
        rule_words = "beyond 12\" it is not touched" if need is None else f"it must roll {need}+ and rolled {face}"
        return placed + [EXPLODE.judge(seq, figure.survived == expected, f"{where}: {rule_words}",
                                       f"{where}: {rule_words}, so survived is {expected}", verdict=Verdict.MISMATCH,
                                       expected=expected, recorded=figure.survived, related=[roll["seq"]])]

    def _distance(self, seq: int, vehicle: str, where: str, figure) -> list[RuleApplication]:
        board = self.ctx.board.units
        if vehicle not in board or figure.unit not in board:
            return []
        hull, unit = extent(board[vehicle]), board[figure.unit]
        how = self.ctx.interpretations.reading("measure") or "closest"
        if isinstance(unit.figures, list) and unit.figures:
            measured = sorted(measure(hull, xy(p), how) for p in unit.figures)
            good = any(abs(m - figure.distance) <= 0.1 for m in measured)
            span = f"one of its figures' distances {measured}"
        else:
            near, far = measure(hull, extent(unit), how), farthest(hull, extent(unit))
            good, span = near - 0.1 <= figure.distance <= far + 0.1, f"between {near}\" and {far}\""
        if good:
            return []
        return [EXPLODE.mismatch(seq, f"{where}: the distance is {span} on the table", recorded=figure.distance,
                                 expected=span)]


TESTS = "tests/unit/test_mog_criticals.py::"
# rule id -> (status, tests, what is judged and what is not yet): docs/rules/landships-of-mogdonazia.md
COVERAGE = {
    "MOG.FIRE.EXPLODE": ("ambiguous", "; ".join(TESTS + t for t in (
        "test_figures_near_an_explosion_survive_on_6_or_4_up", "test_exactly_6_inches_is_ambiguous",
        "test_an_explosion_distance_is_measured")),
        "`Explosions`: one d6 a figure, 6 within 6\", 4+ at 6-12\", the distance on the table; exactly 6\" is "
        "`ambiguous` (`mog-explode-6`, AP-MOG-02)"),
}
