"""What the Landships of Mogdonazia rule modules share: the rulebook, finer ids below a catalogue
id, the rolls an outcome reads, and the lines of the current turn (looked back through the audit's
index; each line read as its typed event, `AuditContext.typed`)."""
from __future__ import annotations

from typing import Any, Optional

from domain.events import DieRolled
from domain.rulebook import beside
from domain.rules.engine import AuditContext, Rule

RULEBOOK = beside(__file__)


def finer(rule: Rule, suffix: str) -> Rule:
    """An id below a catalogue id (`MOG.FIRE.CARD.DECK`), citing the same passage."""
    return Rule(f"{rule.id}.{suffix}", rule.section, rule.book)


def turn_began(ctx: AuditContext, before: int) -> int:
    """The seq of the TurnStarted of the turn that seq `before` is in (0 before the first turn)."""
    return ctx.turn_began(before)   # found in the index, without a copy of the game's turns


def this_turn(ctx: AuditContext, before: int, *kinds: str) -> list[dict[str, Any]]:
    """The lines of these types in the current turn before seq `before`, latest first."""
    after = turn_began(ctx, before)
    found = [line for kind in kinds for line in ctx.of_type(kind, after=after, before=before)]
    return sorted(found, key=lambda line: line["seq"], reverse=True)


def last_roll(ctx: AuditContext, subject: str, purpose: str, before: int,
              after: int = 0, turn_only: bool = True) -> Optional[dict[str, Any]]:
    """The latest DieRolled of exactly this purpose about `subject` before seq `before` (and after
    seq `after`): the roll an outcome reads ("A rolled allowance follows its DieRolled")."""
    if turn_only:
        after = max(after, turn_began(ctx, before))
    for line in reversed(ctx.rolls_for(subject, purpose, after=after, before=before)):
        if ctx.typed(line).purpose == purpose:
            return line
    return None


def faces(roll: DieRolled) -> list[int]:
    return list(roll.results or [roll.result])


def vehicle_of(ctx: AuditContext, unit: str) -> Optional[dict[str, Any]]:
    """What the unit's VehicleBuilt declared (kind, speed_dice, ...), or None for figures."""
    return ctx.board.extra.get("vehicles", {}).get(unit)


def restarted_this_turn(ctx: AuditContext, unit: str, before: int) -> bool:
    """A restart this turn: "the vehicle will move normally next turn", not in this one."""
    return any(test.unit == unit and test.restarted
               for test in map(ctx.typed, this_turn(ctx, before, "BreakdownTested")))


def carded(ctx: AuditContext, unit: Any, outcome: str, before: Optional[int] = None) -> bool:
    """A lasting status from a hit card, recorded or not: the unit carries `outcome` (`wounded`,
    `shut-down`) as a status, or a HitCardResolved against it reads it ("a face card counts as a wound",
    "an ace will shut it down permanently")."""
    status = {"wound": "wounded"}.get(outcome, outcome)
    if status in unit.status:
        return True
    return any(ctx.typed(line).target == unit.unit and ctx.typed(line).outcome == outcome
               for line in ctx.of_type("HitCardResolved", before=before))
