"""Judging the shell-hole dispute (IM.SHELL.DISPUTE; Terrain with Shell Holes and Vehicles, NOTE): "If
the players cannot agree, roll a six-sided die; the player who rolls the higher result uses his
interpretation." Each side's d6 is a `DieRolled` of purpose `IM.SHELL.DISPUTE` about the same
subject (the disputed move or the dispute); the second roll of the pair is judged: a tie is not
covered by the text (AP-06)."""
from __future__ import annotations

from typing import Any

from domain.rules.engine import Rule, RuleModule
from domain.rules.infernal_machines.movement_costs import RULEBOOK

PURPOSE = "IM.SHELL.DISPUTE"
DISPUTE = Rule(PURPOSE, RULEBOOK.sections(("IM.SHELL.DISPUTE",))[PURPOSE])   # a literal: the rulebook test reads it


class ShellHoleDisputes(RuleModule):
    """The players' roll-off when they disagree whether a vehicle moved through shell holes."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.first: dict[Any, tuple[str, int, int]] = {}   # subject -> (side, result, seq) of the first d6

    def on_DieRolled(self, line):
        roll = self.ctx.typed(line)
        if roll.purpose != PURPOSE:
            return []
        seq, side = line["seq"], line.get("side")
        first = self.first.pop(roll.subject, None)
        if first is None or first[0] == side:
            self.first[roll.subject] = (side, roll.result, seq)
            return []
        other, result, at = first
        if result == roll.result:
            return [DISPUTE.ambiguous(seq, f"the shell-hole roll-off is tied ({result}): the text does not say what "
                                      f"happens on a tie", related=[at])]
        winner = other if result > roll.result else side
        return [DISPUTE.ok(seq, f"{other} {result}, {side} {roll.result}: {winner}'s interpretation applies",
                           related=[at])]


COVERAGE = {
    PURPOSE: ("ambiguous", "tests/unit/test_im_terrain.py::test_shell_hole_disputes_go_to_the_higher_d6_and_a_tie_is_ambiguous",
              "the two sides' d6 (IM.SHELL.DISPUTE) about one subject; a tie is ambiguous (AP-06)"),
}
