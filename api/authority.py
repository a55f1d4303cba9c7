"""Who may record what in a batch of events posted to the API (docs/api.md, "Authority").

A token's authority covers only what its holder does: a player records the player's own side,
and a `side: null` event carries no player's authority beyond the neutral turn and phase
events a game needs from the table. `by` and `at` are the service's, never the client's, and a
`DieRolled` with `"source": "service"` is made only by the roll route, and a service `DeckShuffled` or
`CardDrawn` only by the card routes. An admin's import of a
historical log is not a batch of this kind: it keeps the log's own `by` and `at`.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from api.problems import ProblemError
from api.security import Principal
from domain.cards import SERVICE_CARD_EVENTS
from domain.log import LogError
from domain.rulesets import registered

# Event types a player may record with `side: null`: nobody's move, only the clock of the game.
NEUTRAL_TYPES = ("TurnStarted", "PhaseStarted")


def subject_fields() -> tuple[str, ...]:
    """Data fields that make an event about a unit or an element, hence somebody's (never
    neutral), in any installed rule system."""
    fields = {"results", "subject"}
    for rules in registered().values():
        for refs in (rules.unit_refs, rules.element_refs):
            fields.update(f for names in refs.values() for f in names)
    return tuple(sorted(fields))


def now() -> str:
    """The service's clock for `at`: UTC, RFC 3339, whole seconds."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def check_rights(principal: Principal, objs: list[dict[str, Any]], creating: bool) -> None:
    """Admins create games; nobody posts a service roll; players record only their own side."""
    if creating and not principal.at_least("admin"):
        raise ProblemError(403, "forbidden", "only an admin may create a game")
    for line, obj in enumerate(objs, start=1):
        data = obj.get("data") if isinstance(obj.get("data"), dict) else {}
        if obj.get("type") == "DieRolled" and data.get("source") == "service":
            raise ProblemError(403, "forbidden", "a service roll is made by POST /api/games/{game}/rolls, "
                               "not posted as an event", line=line, field="data.source")
        if obj.get("type") in SERVICE_CARD_EVENTS and data.get("source") == "service":
            raise ProblemError(403, "forbidden", "a service card is shuffled and dealt by POST "
                               "/api/games/{game}/decks/{deck}/shuffle and /api/games/{game}/cards, not posted "
                               "as an event", line=line, field="data.source")
        if not principal.at_least("referee"):
            _check_players_event(principal, line, obj, data)


def _check_players_event(principal: Principal, line: int, obj: dict[str, Any], data: dict[str, Any]) -> None:
    kind, side = obj.get("type"), obj.get("side")
    if kind == "RulingIssued":
        raise ProblemError(403, "forbidden", "only a referee issues rulings", line=line, field="type")
    if side is None:
        if kind not in NEUTRAL_TYPES:
            raise ProblemError(403, "forbidden", f"a player's event names the player's side "
                               f"({principal.side!r}); only {', '.join(NEUTRAL_TYPES)} may be neutral",
                               line=line, field="side")
        named = next((f for f in subject_fields() if f in data), None)
        if named is not None:
            raise ProblemError(403, "forbidden", "a neutral event names no unit or element",
                               line=line, field=f"data.{named}")
    elif side != principal.side:
        raise ProblemError(403, "forbidden", f"a player of side {principal.side!r} may not record "
                           f"events of side {side!r}", line=line, field="side")
    if "side" in data and data["side"] != principal.side:
        raise ProblemError(403, "forbidden", f"a player of side {principal.side!r} may not record "
                           f"for side {data['side']!r}", line=line, field="data.side")


def stamp(principal: Principal, objs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The batch with `by` (the token's label) and `at` (now) set on every event.

    A `by` naming anyone else is refused rather than overwritten, so that a client learns its
    claim was not taken; a client's `at` is replaced (its clock is not the record's). Only the
    first event may carry `prev`: the lines after it are stamped here, so the client cannot
    know their hashes (it continues the chain from the answer's `head`)."""
    at, label = now(), principal.label
    out = []
    for line, obj in enumerate(objs, start=1):
        if obj.get("by") is not None and obj.get("by") != label:
            raise LogError(line, "by", f"`by` is stamped by the service ({label!r} for this token): leave it out")
        data = obj.get("data") if isinstance(obj.get("data"), dict) else {}
        if obj.get("type") == "DisputeRaised" and data.get("by") not in (None, label):
            raise LogError(line, "data.by", f"a dispute is raised by its recorder ({label!r} for this token)")
        if line > 1 and obj.get("prev") is not None:
            raise LogError(line, "prev", "only a batch's first event may carry `prev` (the service stamps "
                           "`by` and `at`; continue the chain from the answer's `head`)")
        out.append({**obj, "by": label, "at": at})
    return out


def as_stored(principal: Principal, obj: dict[str, Any]) -> dict[str, Any]:
    """What a stored line of this token's batch equals, its clock aside (for a retried batch)."""
    return {**{k: v for k, v in obj.items() if k not in ("prev", "at")}, "by": principal.label}
