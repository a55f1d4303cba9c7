"""Recording games: batches of events from the table, and whole logs."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from api import recording
from api.deps import Admin, IdempotencyKey, Player, ServicesDep
from api.limits import MAX_IMPORT_BYTES
from api.problems import ProblemError, responses
from api.schemas import AppendAnswer, EventBatch, ImportAnswer

router = APIRouter(prefix="/api", tags=["recording"])


@router.post("/games/{game}/events", status_code=201, response_model=AppendAnswer,
             responses=responses(400, 401, 403, 404, 409, 413, 422))
def append_events(game: str, batch: EventBatch, services: ServicesDep, principal: Player,
                  idempotency_key: IdempotencyKey = None) -> JSONResponse:
    """Append a batch of events at the game's next seq, whole or not at all."""
    status, body = recording.idempotent(
        services, principal, idempotency_key, ("POST", f"/api/games/{game}/events", batch.events),
        lambda: recording.append_batch(services, principal, game, batch.events),
        lambda: recording.stored_already(services, principal, game, batch.events))
    return JSONResponse(body, status_code=status)


@router.post("/import", status_code=201, response_model=ImportAnswer,
             responses={200: {"model": ImportAnswer, "description": "already imported: nothing changed"},
                        **responses(401, 403, 409, 413, 422)},
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/x-ndjson": {"schema": {"type": "string"}},
                 "text/plain": {"schema": {"type": "string"}}}}})
async def import_log(request: Request, services: ServicesDep, _: Admin) -> JSONResponse:
    """Import one JSONL game log (the request body), as `umpire import` does."""
    raw = await request.body()
    if len(raw) > MAX_IMPORT_BYTES:
        raise ProblemError(413, "too-large", f"at most {MAX_IMPORT_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ProblemError(422, "invalid-event", f"not UTF-8: {err.reason}", line=raw[:err.start].count(b"\n") + 1,
                           field="(file)") from None
    status, body = await run_in_threadpool(recording.import_log, services, text)
    return JSONResponse(body, status_code=status)
