"""Disputes and rulings: a player points at an event and states a claim; a referee rules."""
from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api import recording
from api.deps import IdempotencyKey, Player, Referee, ServicesDep, Viewer
from api.problems import responses
from api.schemas import DisputeList, DisputeRequest, EventAnswer, RulingRequest
from projections.disputes import dispute_views

router = APIRouter(prefix="/api", tags=["disputes"])


@router.post("/games/{game}/disputes", status_code=201, response_model=EventAnswer,
             responses=responses(400, 401, 403, 404, 409, 413, 422))
def raise_dispute(game: str, body: DisputeRequest, services: ServicesDep, principal: Player,
                  idempotency_key: IdempotencyKey = None) -> JSONResponse:
    """Raise a dispute about an earlier event (appends a `DisputeRaised`)."""
    status, answer = recording.idempotent(
        services, principal, idempotency_key, ("POST", f"/api/games/{game}/disputes", body.model_dump()),
        lambda: (201, {"event": recording.raise_dispute(services, principal, game, body.about, body.claim,
                                                        body.dispute)}))
    return JSONResponse(answer, status_code=status)


@router.post("/games/{game}/rulings", status_code=201, response_model=EventAnswer,
             responses=responses(400, 401, 403, 404, 409, 413, 422))
def issue_ruling(game: str, body: RulingRequest, services: ServicesDep, principal: Referee,
                 idempotency_key: IdempotencyKey = None) -> JSONResponse:
    """Rule on a dispute (referee only; appends a `RulingIssued` with its corrections)."""
    status, answer = recording.idempotent(
        services, principal, idempotency_key, ("POST", f"/api/games/{game}/rulings", body.model_dump()),
        lambda: (201, {"event": recording.issue_ruling(services, principal, game, body.model_dump())}))
    return JSONResponse(answer, status_code=status)


@router.get("/games/{game}/disputes", response_model=DisputeList, responses=responses(401, 403, 404, 422))
def list_disputes(game: str, services: ServicesDep, _: Viewer) -> dict:
    """Every dispute with its rulings, rule applications, dice and the board before and after."""
    services.known_game(game)
    lines = list(services.ledger.iter_lines(game))
    report = services.audits.report(game, lines)
    views = dispute_views(lines, report, lambda seq: services.board_at(game, seq))
    return {"disputes": list(views)}
