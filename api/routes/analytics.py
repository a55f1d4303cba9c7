"""/api/analytics/ammunition|fire-orders|resistance?game= and /api/analytics/vehicle-breakdowns|
fascines|vehicle-losses|losses-by-cause?game= (Infernal Machines), /api/analytics/avbcw-...|mog-...?game=
(the tabletop rule systems): the cross-game analytics as JSON, or CSV with `format=csv`.

Any viewer may read them; a token bound to one game sees that game's rows only. When no worker
keeps the analytics, a request catches them up first; when one does, it answers at once with
`lag`, the game events the worker has yet to take (the CSV answer says it in `Umpire-Lag`).
"""
from __future__ import annotations

from typing import Any, Literal, Optional, Union

from fastapi import APIRouter, Query
from fastapi.responses import Response

from api.deps import ServicesDep, Viewer
from api.problems import ProblemError, responses
from projections.analytics import MACHINE_QUERIES, QUERIES, TABLETOP_QUERIES, to_csv

router = APIRouter(prefix="/api/analytics", tags=["analytics"])

GAME = Query(None, description="only this game (default: every game the token reaches)")
FORMAT = Query("json", description="json (the rows) or csv (a header, then a line a row)")
Format = Literal["json", "csv"]
# A tabletop answer is JSON, or CSV with format=csv: both documented, with the read errors.
TABLETOP_ANSWERS = {**responses(401, 403, 404, 422), 200: {
    "description": "the answer's rows as JSON, or as CSV (a header, then a line a row) with format=csv",
    "content": {"application/json": {"schema": {"type": "object"}},
                "text/csv": {"schema": {"type": "string"}}}}}


def _answer(kind: str, services: ServicesDep, principal: Viewer, game: Optional[str],
            format: Format = "json") -> Union[dict[str, Any], Response]:
    if game is not None and not principal.sees(game):
        raise ProblemError(403, "forbidden", f"this token is for game {principal.game!r}, not {game!r}")
    game = game if game is not None else principal.game
    if game is not None:
        services.known_game(game)
    result = {**QUERIES, **TABLETOP_QUERIES, **MACHINE_QUERIES}[kind](services.ledger, services.store, game)
    if format == "csv":
        return Response(to_csv(kind, result["rows"]), media_type="text/csv; charset=utf-8",
                        headers={"Umpire-Lag": str(result["lag"])})
    return result


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


def _tabletop_route(kind: str) -> None:
    def route(services: ServicesDep, principal: Viewer, game: Optional[str] = GAME,
              format: Format = FORMAT) -> Any:
        return _answer(kind, services, principal, game, format)
    router.add_api_route(f"/{kind}", route, methods=["GET"], name=kind, summary=kind,
                         description=KEPT_QUERIES[kind].__doc__, responses=TABLETOP_ANSWERS)


KEPT_QUERIES = {**MACHINE_QUERIES, **TABLETOP_QUERIES}
for _kind in KEPT_QUERIES:   # docs/analytics.md, "The machines" and "Tabletop games"
    _tabletop_route(_kind)
