"""/api/analytics/ammunition|fire-orders|resistance?game=: the cross-game analytics as JSON.

Any viewer may read them; a token bound to one game sees that game's rows only. The projection
catches up on every request, so an answer covers every stored event.
"""
from __future__ import annotations

from typing import Any, Optional

from fastapi import APIRouter, Query

from api.deps import ServicesDep, Viewer
from api.problems import ProblemError
from projections.analytics import QUERIES

router = APIRouter(prefix="/api/analytics", tags=["analytics"])

GAME = Query(None, description="only this game (default: every game the token reaches)")


def _answer(kind: str, services: ServicesDep, principal: Viewer, game: Optional[str]) -> dict[str, Any]:
    if game is not None and not principal.sees(game):
        raise ProblemError(403, "forbidden", f"this token is for game {principal.game!r}, not {game!r}")
    game = game if game is not None else principal.game
    if game is not None:
        services.known_game(game)
    return QUERIES[kind](services.ledger, services.store, game)


@router.get("/ammunition")
def ammunition(services: ServicesDep, principal: Viewer, game: Optional[str] = GAME) -> dict[str, Any]:
    """One row per ArtilleryPointsSpent: game, element, side, turn, points, cumulative, reason, barrage."""
    return _answer("ammunition", services, principal, game)


@router.get("/fire-orders")
def fire_orders(services: ServicesDep, principal: Viewer, game: Optional[str] = GAME) -> dict[str, Any]:
    """One row per barrage that went to the Fire Order Table, with the column recorded and the
    resistance-turn count computed for its hex at that time (IM.ART.RESIST.*)."""
    return _answer("fire-orders", services, principal, game)


@router.get("/resistance")
def resistance(services: ServicesDep, principal: Viewer, game: Optional[str] = GAME) -> dict[str, Any]:
    """Per hex, each stretch of resisted turns until the guns were granted, the position fell or
    the count reset."""
    return _answer("resistance", services, principal, game)
