"""Reading games: the list, events page by page, the export, the board at any point, the audit."""
from __future__ import annotations

from typing import Annotated, Optional

from fastapi import APIRouter, Query
from fastapi.responses import Response

from api.deps import ServicesDep, Viewer
from api.problems import ProblemError, responses
from api.schemas import EventsPage
from domain.application import GameSummary
from projections.board_state import seq_of

router = APIRouter(prefix="/api", tags=["games"])
READ_ERRORS = responses(401, 403, 404, 422)
NDJSON = "application/x-ndjson"


@router.get("/games", response_model=list[GameSummary], responses=responses(401, 403))
def list_games(services: ServicesDep, principal: Viewer) -> list[GameSummary]:
    """The stored games the token reaches."""
    return [row for row in services.ledger.games() if principal.sees(row.game)]


@router.get("/games/{game}/events", response_model=EventsPage, responses=READ_ERRORS)
def list_events(game: str, services: ServicesDep, _: Viewer,
                from_: Annotated[int, Query(alias="from", ge=1, le=2**53, description="first seq")] = 1,
                limit: Annotated[int, Query(ge=1, le=5000)] = 1000) -> dict:
    """A page of the game's events (without `prev`) from seq `from`."""
    services.known_game(game)
    events = services.ledger.lines(game, after=from_ - 1, limit=limit)
    more = bool(events) and len(events) == limit and services.ledger.last_seq(game) > events[-1]["seq"]
    return {"events": events, "next": events[-1]["seq"] + 1 if more else None}


@router.get("/games/{game}/export", response_class=Response, responses={
    200: {"content": {NDJSON: {"schema": {"type": "string"}}}, "description": "canonical JSONL with the hash chain"},
    **READ_ERRORS})
def export_game(game: str, services: ServicesDep, _: Viewer) -> Response:
    """The game as canonical JSONL with the hash chain: the bytes of `umpire export`."""
    services.known_game(game)
    text = "".join(line + "\n" for line in services.ledger.export(game))
    return Response(text.encode("utf-8"), media_type=NDJSON)


@router.get("/games/{game}/state", response_model=dict, responses=READ_ERRORS)
def game_state(game: str, services: ServicesDep, _: Viewer,
               at: Annotated[Optional[int], Query(ge=0, le=2**53, description="after event SEQ (0: empty board)")] = None,
               turn: Annotated[Optional[int], Query(ge=0, le=2**53, description="at the end of turn N")] = None,
               phase: Annotated[Optional[str], Query(max_length=64, description="with turn: at the end of phase P")] = None) -> dict:
    """The board at any point: the JSON of `umpire state`, with its lag."""
    services.known_game(game)
    last = services.ledger.last_seq(game)
    if at is not None and turn is not None:
        raise ProblemError(422, "invalid-request", "give `at` or `turn`, not both", field="at")
    if phase is not None and turn is None:
        raise ProblemError(422, "invalid-request", "`phase` needs `turn`", field="phase")
    if at is not None and at > last:
        raise ProblemError(422, "invalid-request", f"at={at}: the game has events 1..{last}", field="at")
    if turn is not None:
        at = seq_of(services.ledger.lines(game), turn, phase)
        if at is None:
            raise ProblemError(404, "no-such-point", f"no events in turn {turn}" + (f", phase {phase}" if phase else ""))
    board, lag = services.boards.read(game, at)
    return {**board.public(), "lag": lag}


@router.get("/games/{game}/audit", response_model=dict, responses=READ_ERRORS)
def game_audit(game: str, services: ServicesDep, _: Viewer,
               all_: Annotated[bool, Query(alias="all", description="every rule application, ok ones too")] = False) -> dict:
    """The audit report: the JSON of `umpire audit --format json`, with its lag."""
    services.known_game(game)
    report, lag = services.audits.answer(game)
    return {**report.to_json(all_applications=all_), "lag": lag}
