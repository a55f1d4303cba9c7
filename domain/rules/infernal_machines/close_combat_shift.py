"""Additional Column Shifts in Close Combat (optional), IM.OPTCBT.CCSHIFT, and the CACRT cell.

"Add together the firepower of the attacking units (and only them) ... and average the morale values
of the attacking units (and only them) involved. Round fractions to the nearest whole number (3.5 will
be rounded to 4 ...). Cross-reference the attacker's firepower with the average morale value to obtain
a range of die results that generates a favourable column shift on the CACRT. Then roll a six-sided
die to see whether this takes place."

The grid is on the table sheet: a pack's `CCSHIFT` (`attackers' firepower -> average morale -> [low,
high]`, the die results that shift). Without it the shift is `unverifiable`; the sum, the average
and the roll (`IM.OPTCBT.CCSHIFT`, about the combat) are always judged. The CACRT cell itself
(`LS.CACRT`: `column -> modified roll -> result`) is checked when the pack holds it and the
`CloseCombatFought` records the `result` it read (a field beside the schema's).
"""
from __future__ import annotations

import math
from typing import Optional

from domain.rules.engine import RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.direct_fire import rule
from domain.rules.infernal_machines.morale import agreed


def average_morale(morales: list[int]) -> int:
    """The attackers' average morale, ".5 rounded up" (3.5 -> 4)."""
    return math.floor(sum(morales) / len(morales) + 0.5)


def shift_range(tables, firepower: float, morale: int) -> Optional[tuple[int, int]]:
    """The pack's die range for this firepower and average morale: the firepower row is the largest
    key not above the firepower (rows are the grid's lower bounds)."""
    grid = tables.get("CCSHIFT")
    if not isinstance(grid, dict):
        return None
    rows = sorted((float(k), k) for k in grid if _number(k))
    row = next((key for low, key in reversed(rows) if firepower >= low), None)
    cell = grid.get(row, {}).get(str(morale)) if row is not None else None
    return (int(cell[0]), int(cell[1])) if isinstance(cell, list) and len(cell) == 2 else None


def _number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


class CloseCombatShift(RuleModule):
    """The optional column shift of each close combat, and the CACRT cell where the pack has it."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.fought: dict[str, tuple[int, object]] = {}    # combat -> (seq, typed CloseCombatFought)

    def on_CloseCombatFought(self, line):
        fought = self.ctx.typed(line)
        self.fought[fought.combat] = (line["seq"], fought)
        return []

    def on_CloseCombatResolved(self, line):
        combat = self.ctx.typed(line).combat
        if combat not in self.fought:
            return []
        seq, fought = self.fought.pop(combat)
        out = self._cacrt(line, seq, fought)
        since = self.ctx.phase_began(line["seq"])
        rolls = [r for r in self.ctx.rolls("IM.OPTCBT.CCSHIFT", after=since, before=line["seq"])
                 if r["data"].get("subject") == combat]
        if not agreed(self.ctx.board.options, "IM.OPTCBT.CCSHIFT"):
            return out + [rule("IM.OPTCBT.AGREE").violation(r["seq"], "a close-combat column-shift roll, but the players "
                                                            "did not agree the optional rule") for r in rolls]
        return out + self._shift(line, seq, fought, rolls)

    def _shift(self, line, seq: int, fought, rolls) -> list[RuleApplication]:
        r, board = rule("IM.OPTCBT.CCSHIFT"), self.ctx.board
        units = [board.units.get(u) for u in fought.attackers]
        if not rolls:
            return [r.missing_roll(line["seq"], f"close combat {fought.combat}: the column-shift d6 (optional rule) "
                                   "is not in the log", related=[seq])]
        if any(u is None or u.firepower is None or u.morale is None for u in units):
            return [r.unverifiable(line["seq"], "an attacker's firepower or morale is not in the log", related=[seq])]
        firepower, morale = sum(u.firepower for u in units), average_morale([u.morale for u in units])
        span = shift_range(self.ctx.tables, firepower, morale)
        natural = self.ctx.typed(rolls[0]).result
        inputs = {"firepower": firepower, "average_morale": morale, "roll": natural}
        if span is None:
            return [r.unverifiable(line["seq"], self.ctx.tables.lacks("new CACRT column-shift grid (CCSHIFT)") +
                                   f" (attackers' firepower {firepower:g}, average morale {morale})",
                                   related=[seq, rolls[0]["seq"]], inputs=inputs)]
        shifts = fought.shifts or []
        claimed = any("CCSHIFT" in str(s.get("why", "") if isinstance(s, dict) else s) for s in shifts)
        expected = span[0] <= natural <= span[1]
        return [r.judge(line["seq"], expected == claimed, f"d6 {natural} in {span[0]}-{span[1]}: shift={expected}",
                        f"d6 {natural} against {span[0]}-{span[1]} (firepower {firepower:g}, average morale {morale}) "
                        f"gives a favourable shift: {expected}; the log {'claims' if claimed else 'does not claim'} one",
                        Verdict.MISMATCH, expected=expected, recorded=claimed, related=[seq, rolls[0]["seq"]],
                        inputs=inputs)]

    def _cacrt(self, line, seq: int, fought) -> list[RuleApplication]:
        tables, result = self.ctx.tables, (fought.model_extra or {}).get("result")
        column = fought.column
        rolls = [r for r in self.ctx.rolls("LS.CACRT", after=seq, before=line["seq"])
                 if r["data"].get("subject") == fought.combat]
        if result is None or not rolls or column is None:
            return []
        roll = self.ctx.typed(rolls[0])
        modified = roll.result + sum(m.value for m in roll.modifiers)
        cell = tables.get("CACRT", column, modified)
        if cell is None:
            return [rule("LS.CACRT").unverifiable(line["seq"], tables.lacks("Close Assault Combat Resolution Table (CACRT)"),
                                                  related=[seq, rolls[0]["seq"]])]
        return [rule("LS.CACRT").judge(line["seq"], str(cell) == str(result), f"CACRT {column} on {modified}: {cell}",
                                       f"the CACRT reads {cell} in column {column} on {modified}; the log has {result}",
                                       Verdict.MISMATCH, expected=cell, recorded=result, related=[seq, rolls[0]["seq"]])]


COVERAGE = {
    "IM.OPTCBT.CCSHIFT": ("needs a chart", "tests/unit/test_im_close_combat_shift.py::test_ec24_average_morale_rounds_half_up; "
                          "tests/unit/test_im_close_combat_shift.py::test_the_shift_roll_against_the_grid",
                          "the attackers' firepower and average morale (half up) and the d6 always; the die range is the "
                          "pack's CCSHIFT grid"),
}
