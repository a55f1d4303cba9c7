"""Simple and double creeping barrages: eligibility, commitment, speeds, cancellation (IM.ART section F).

A creeping barrage is chosen before the scenario begins: the log records it either as an
`ArtilleryMissionSet` {mission: simple-creeping | double-creeping} during set-up, or as a
`BarrageDeclared` with that mission in turn 0. Each later turn's wall of fire is a
`BarrageDeclared` with the same mission in the barrage phase, resolved as a suppression HE attack
of firepower 10 (checked in `artillery_resolution.py`). The rows' geometry is the SCB template of
the missing diagram; the row counts and dates the text gives are the pure functions below.
"""
from __future__ import annotations

from typing import Any, Optional

from domain.board.hexes import parse_loc
from domain.rules.engine import RuleModule
from domain.rules.infernal_machines.artillery_legality import (
    CREEPING, is_german, is_wwi, normalise_mission, side_facts)
from domain.rules.interpretations import Interpretation, declare
from domain.rulebook import beside

RULEBOOK = beside(__file__)
R_SCB = RULEBOOK.rule("IM.ART.MISSION.SCB.ELIG")
R_SCB_CANCEL = RULEBOOK.rule("IM.ART.MISSION.SCB.CANCEL")
R_SCB_RUN = RULEBOOK.rule("IM.ART.MISSION.SCB.RUN")
R_DCB = RULEBOOK.rule("IM.ART.MISSION.DCB.ELIG")
R_SCB_PLACE = RULEBOOK.rule("IM.ART.MISSION.SCB.PLACE")

SCB_GERMAN_FROM, SCB_ALLIED_FROM, SCB_FREE_FROM = "1915-07", "1916-06", "1917-01"
DCB_FROM, DCB_LATE_FROM = "1916-01", "1917-07"
SCB_CANCEL_FROM = "1918-07"

SCB_CANCEL_THRESHOLD = declare(Interpretation(
    "im-scb-cancel-threshold", ("IM.ART.MISSION.SCB.CANCEL",),
    "From July 1918 a simple creeping barrage may be cancelled once 'by choosing to do so and "
    "rolling a six-sided die'; the text prints no success threshold.",
    {"1-3": "the cancellation succeeds on 1-3, like the barrage's advance roll",
     "1-2": "the cancellation succeeds on 1-2", "4-6": "the cancellation succeeds on 4-6"},
    default=None))
DCB_NEEDS_SUPPRESSION = declare(Interpretation(
    "im-dcb-needs-suppression", ("IM.ART.MISSION.DCB.ELIG",),
    "Does a double creeping barrage need an AFMT suppression result? It is 'a specialised type of "
    "suppression mission', but the text lists no such condition.",
    {"required": "yes, as for the simple creeping barrage", "not-required": "no: only the listed conditions"},
    default=None))


# -- pure functions: the rows and dates the text gives ------------------------------------------
def scb_rows(date: str) -> int:
    """Rows between the friendly units and the barrage at the start, and rows of each advance:
    5; "January to June 1918" 3; "from July 1918" 2."""
    if date >= "1918-07":
        return 2
    if date >= "1918-01":
        return 3
    return 5


def scb_advance(date: str, natural: int) -> int:
    """Rows the primary zone advances when friendly units reach its rear: on 1-3, else 0."""
    return scb_rows(date) if 1 <= natural <= 3 else 0


def scb_required_elements(maps: int) -> int:
    return 3 * max(1, maps)


def dcb_required_elements(maps: int) -> int:
    return 6 * max(1, maps)


def scb_eligible(bloc: Optional[str], nation: Optional[str], date: str, afmt_suppression: bool,
                 elements: int, maps: int, extra_roll: Optional[int] = None) -> tuple[bool, str]:
    """Simple creeping barrage eligibility, with the reason when it fails."""
    if not is_wwi(date):
        return False, f"simple creeping barrages are First World War only ({date})"
    if not afmt_suppression:
        return False, "a simple creeping barrage needs an AFMT suppression result"
    if elements < scb_required_elements(maps):
        return False, f"needs at least 3 off-map elements per map ({scb_required_elements(maps)}), has {elements}"
    german = bloc == "central" or is_german(nation)
    if german:
        return (date >= SCB_GERMAN_FROM, f"the Germans may use it from July 1915 ({date})")
    if date >= SCB_FREE_FROM:
        return True, "from 1917 both sides use it freely"
    if date < SCB_ALLIED_FROM:
        return False, f"the Allies may not use it before June 1916 ({date})"
    if extra_roll is None:
        return False, "the Allies need a 1-3 on a second d6 before 1917"
    return (1 <= extra_roll <= 3, f"the Allies' second d6 must be 1-3 (rolled {extra_roll})")


def dcb_eligible(bloc: Optional[str], nation: Optional[str], date: str, elements: int, maps: int) -> tuple[bool, str]:
    if not (is_german(nation) or (nation is None and bloc == "central")):
        return False, "only the German player may use a double creeping barrage"
    if not is_wwi(date) or date < DCB_FROM:
        return False, f"double creeping barrages: First World War scenarios from January 1916 ({date})"
    if elements < dcb_required_elements(maps):
        return False, f"needs at least 6 off-map elements per map panel ({dcb_required_elements(maps)}), has {elements}"
    return True, "German, WWI, from January 1916, six elements per panel"


def dcb_initial_rows() -> tuple[int, int]:
    """(near, far) rows from the German start: near 2, far exactly 6."""
    return 2, 6


def dcb_step(near: int, far: int, date: str, germans_adjacent: bool = True) -> tuple[int, int]:
    """One friendly barrage phase: near advances 2 rows toward far (from July 1917 only when
    advancing German units are adjacent to its rear); when they overlap, far jumps 6 rows."""
    if date >= DCB_LATE_FROM and not germans_adjacent:
        return near, far
    near = min(near + 2, far)
    if near >= far:
        far += 6
    return near, far


def scb_cancel_allowed(date: str, cancellations_so_far: int) -> bool:
    return date >= SCB_CANCEL_FROM and cancellations_so_far == 0


# -- the rule module ---------------------------------------------------------------------------
class CreepingBarrages(RuleModule):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.afmt: dict[str, list[str]] = {}
        self.selected: dict[str, str] = {}            # side -> creeping mission chosen at set-up
        self.committed: dict[str, set[str]] = {}      # side -> elements held by the creeping barrage
        self.cancel_rolls: dict[str, int] = {}
        self.pending_roll: dict[str, int] = {}        # side -> seq of an Allied SCB awaiting its d6

    def on_ArtilleryMissionSet(self, line):
        chosen = self.ctx.typed(line)
        side, mission = chosen.side, normalise_mission(chosen.mission)
        self.afmt.setdefault(side, []).append(mission)
        if mission not in CREEPING:
            return []
        rule = R_SCB if mission == "simple-creeping" else R_DCB
        if line["turn"] == 0:
            self.selected.setdefault(side, mission)
        return [rule.judge(line["seq"], line["turn"] == 0, "chosen before the scenario begins",
                           "a creeping barrage must be selected before the scenario begins", recorded=line["turn"])]

    def on_BarrageDeclared(self, line):
        d, seq = self.ctx.typed(line), line["seq"]
        side = d.side
        if d.mission not in CREEPING:
            held = self.committed.get(side, set()) & set(d.elements)
            if not held:
                return []
            return [R_SCB.violation(seq, f"{', '.join(sorted(held))} fire the creeping barrage and are not "
                                    "available for other missions during the scenario", recorded=sorted(held))]
        if side in self.committed:
            return []
        rule = R_SCB if d.mission == "simple-creeping" else R_DCB
        out = []
        if line["turn"] == 0:
            self.selected.setdefault(side, d.mission)
        elif side not in self.selected:
            out.append(rule.violation(seq, "a creeping barrage must be selected before the scenario begins "
                                      "(set-up), not during the game", recorded=line["turn"]))
        self.committed[side] = set(d.elements)
        out.extend(self._eligibility(line, rule))
        out.extend(self._placement(line))
        return out

    def _placement(self, line):
        """The barrage line's row against the friendly units' rows at the start: at least 5 rows
        away (3 from January 1918, 2 from July 1918: "may begin three/two hexagon rows from the
        starting positions"). A "hexagon row" runs across the map (game-log.md: columns are the
        vertical lines, so a row is the hexes sharing the two last digits). Only a barrage line
        closer than that is judged: whether "five rows away" counts the rows between is not said."""
        d, board = self.ctx.typed(line), self.ctx.board
        if d.mission != "simple-creeping" or not d.target:
            return []
        try:
            map_id, _col, row = parse_loc(d.target)
        except ValueError:
            return []
        rows = []
        for u in board.units.values():
            if u.side != d.side or u.eliminated or not u.location or u.unit_class in ("aircraft", "balloon"):
                continue
            try:
                u_map, _c, u_row = parse_loc(u.location)
            except ValueError:
                continue
            if u_map == map_id:
                rows.append((abs(u_row - row), u.unit))
        if not rows:
            return []
        nearest, unit = min(rows)
        wanted = scb_rows(board.date or "")
        return [R_SCB_PLACE.judge(line["seq"], nearest >= wanted, f"the barrage row is {nearest} rows from {unit}",
                                  f"the barrage row {d.target} is {nearest} row(s) from the nearest friendly unit "
                                  f"{unit}: it must be {wanted} rows away", expected=wanted, recorded=nearest)]

    def _eligibility(self, line, rule):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        side = d.side
        bloc, nation = side_facts(board, side)
        date, maps = board.date or "", len(board.maps) or 1
        results = self.afmt.get(side, [])
        if d.mission == "double-creeping":
            good, why = dcb_eligible(bloc, nation, date, len(d.elements), maps)
            out = [rule.judge(seq, good, why, why, recorded={"date": date, "elements": len(d.elements)})]
            if "suppression" not in results:
                reading = self.ctx.interpretations.reading(DCB_NEEDS_SUPPRESSION.name)
                label = self.ctx.interpretations.label(DCB_NEEDS_SUPPRESSION.name)
                if reading is None:
                    out.append(rule.ambiguous(seq, f"no AFMT suppression result for {side}. "
                                              f"{DCB_NEEDS_SUPPRESSION.describe()}", interpretation=label))
                else:
                    out.append(rule.judge(seq, reading == "not-required", "no suppression result needed",
                                          "a double creeping barrage needs an AFMT suppression result",
                                          interpretation=label))
            return out
        if not results:
            return [rule.unverifiable(seq, f"no AFMT result recorded for {side}: cannot tell whether it "
                                      "obtained a suppression mission")]
        german = bloc == "central" or is_german(nation)
        needs_roll = not german and SCB_ALLIED_FROM <= date < SCB_FREE_FROM
        roll = self._extra_roll(side) if needs_roll else None
        if needs_roll and roll is None:
            self.pending_roll[side] = seq
            roll_value = 2      # judged when the roll arrives (or is missing at the end)
        else:
            roll_value = self.ctx.typed(roll).result if roll else None
        good, why = scb_eligible(bloc, nation, date, "suppression" in results, len(d.elements), maps, roll_value)
        if side in self.pending_roll and good:
            why = "the other conditions hold; the Allies' second d6 is judged when it is rolled"
        return [rule.judge(seq, good, why, why, recorded={"date": date, "elements": len(d.elements),
                                                           "afmt": results},
                           related=[roll["seq"]] if roll else [])]

    def _extra_roll(self, side) -> Optional[dict[str, Any]]:
        return next((line for line in reversed(self.ctx.rolls(R_SCB.id)) if line.get("side") in (side, None)), None)

    def after_DieRolled(self, line):
        d, side = self.ctx.typed(line), line.get("side")
        if d.purpose.startswith(R_SCB.id) and side in self.pending_roll:
            decl_seq = self.pending_roll.pop(side)
            return [R_SCB.judge(line["seq"], 1 <= d.result <= 3, f"the Allies' second d6 is {d.result} (1-3)",
                                f"the Allies need 1-3 on the second d6 to use a simple creeping barrage, "
                                f"rolled {d.result}", related=[decl_seq], recorded=d.result)]
        if d.purpose.startswith(R_SCB_CANCEL.id):
            return self._cancel(line)
        if d.purpose.startswith(R_SCB_RUN.id):
            advance = scb_advance(self.ctx.board.date or "", d.result)
            return [R_SCB_RUN.ok(line["seq"], f"advance roll {d.result}: the primary zone "
                                 + (f"advances {advance} rows" if advance else "stays"), expected=advance)]
        return []

    def _cancel(self, line):
        side, seq, date = line.get("side"), line["seq"], self.ctx.board.date or ""
        count = self.cancel_rolls.get(side, 0)
        self.cancel_rolls[side] = count + 1
        if not scb_cancel_allowed(date, count):
            why = (f"a simple creeping barrage may be cancelled only from July 1918 ({date})" if date < SCB_CANCEL_FROM
                   else "a simple creeping barrage may be cancelled only once in a scenario")
            return [R_SCB_CANCEL.violation(seq, why, recorded=date)]
        reading = self.ctx.interpretations.reading(SCB_CANCEL_THRESHOLD.name)
        label = self.ctx.interpretations.label(SCB_CANCEL_THRESHOLD.name)
        natural = self.ctx.typed(line).result
        if reading is None:
            self.committed.pop(side, None)   # benefit of the doubt: later suppression missions are not flagged
            return [R_SCB_CANCEL.ambiguous(seq, f"cancellation roll {natural}: {SCB_CANCEL_THRESHOLD.describe()}",
                                           interpretation=label)]
        low, high = (int(x) for x in reading.split("-"))
        if low <= natural <= high:
            self.committed.pop(side, None)
            return [R_SCB_CANCEL.ok(seq, f"roll {natural}: the creeping barrage is cancelled", interpretation=label)]
        return [R_SCB_CANCEL.ok(seq, f"roll {natural}: the creeping barrage continues", interpretation=label)]

    def finish(self):
        return [R_SCB.missing_roll(seq, "an Allied simple creeping barrage before 1917 needs a second d6 of 1-3; "
                                   "no roll is recorded") for seq in self.pending_roll.values()]


COVERAGE = {
    "IM.ART.MISSION.SCB.ELIG": ("implemented", "tests/unit/test_artillery_legality_creeping.py::test_scb_eligibility_table"),
    "IM.ART.MISSION.SCB.PLACE": ("needs a chart", "tests/unit/test_artillery_legality_creeping.py::test_scb_barrage_row_not_too_close"),
    "IM.ART.MISSION.SCB.RUN": ("implemented", "tests/unit/test_artillery_legality_creeping.py::test_scb_advance_roll"),
    "IM.ART.MISSION.SCB.CANCEL": ("ambiguous", "tests/unit/test_artillery_legality_creeping.py::test_scb_cancel_threshold_is_ambiguous"),
    "IM.ART.MISSION.SCB.LOS": ("needs a chart", "tests/unit/test_artillery_legality_creeping.py::test_scb_rows_by_period"),
    "IM.ART.MISSION.DCB.ELIG": ("implemented", "tests/unit/test_artillery_legality_creeping.py::test_dcb_eligibility"),
    "IM.ART.MISSION.DCB.GEOMETRY": ("needs a chart", "tests/unit/test_artillery_legality_creeping.py::test_dcb_rows"),
    "IM.ART.MISSION.DCB.RUN": ("implemented", "tests/unit/test_artillery_legality_creeping.py::test_dcb_rows"),
}
