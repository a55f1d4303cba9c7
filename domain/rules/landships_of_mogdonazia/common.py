"""What the Landships of Mogdonazia rule modules share: the rulebook, typed events, finer ids
below a catalogue id, the rolls and cards an outcome reads, and the lines of the current turn."""
from __future__ import annotations

from typing import Any, Iterator, Optional

from domain.events import CORE_EVENTS, Data
from domain.rulebook import beside
from domain.rules.engine import AuditContext, Rule
from domain.rules.landships_of_mogdonazia.events import EVENTS

RULEBOOK = beside(__file__)


def typed(line: dict[str, Any]) -> Data:
    """The event's data as the pydantic model the log was validated with."""
    schema = EVENTS.get(line["type"]) or CORE_EVENTS[line["type"]]
    return schema.__pydantic_validator__.validate_python(line["data"])


def finer(rule: Rule, suffix: str) -> Rule:
    """An id below a catalogue id (`MOG.FIRE.CARD.DECK`), citing the same passage."""
    return Rule(f"{rule.id}.{suffix}", rule.section, rule.book)


def this_turn(ctx: AuditContext, before: Optional[int] = None) -> Iterator[dict[str, Any]]:
    """The lines of the current turn before `before` (default: all so far), latest first."""
    end = (before or len(ctx.lines) + 1) - 1
    for line in reversed(ctx.lines[:end]):
        if line["type"] == "TurnStarted":
            return
        yield line


def last_roll(ctx: AuditContext, subject: str, purpose: str, before: int,
              after: int = 0, turn_only: bool = True) -> Optional[dict[str, Any]]:
    """The latest DieRolled of exactly this purpose about `subject` before seq `before` (and after
    seq `after`): the roll an outcome reads ("A rolled allowance follows its DieRolled")."""
    lines = this_turn(ctx, before) if turn_only else reversed(ctx.lines[:before - 1])
    for line in lines:
        if line["seq"] <= after:
            return None
        d = line["data"]
        if line["type"] == "DieRolled" and d.get("purpose") == purpose and d.get("subject") == subject:
            return line
    return None


def faces(roll: dict[str, Any]) -> list[int]:
    data = roll["data"]
    return list(data.get("results") or [data["result"]])


def vehicle_of(ctx: AuditContext, unit: str) -> Optional[dict[str, Any]]:
    """What the unit's VehicleBuilt declared (kind, speed_dice, ...), or None for figures."""
    return ctx.board.extra.get("vehicles", {}).get(unit)


def restarted_this_turn(ctx: AuditContext, unit: str, before: int) -> bool:
    """A restart this turn: "the vehicle will move normally next turn", not in this one."""
    return any(l["type"] == "BreakdownTested" and l["data"]["unit"] == unit and l["data"].get("restarted")
               for l in this_turn(ctx, before))
