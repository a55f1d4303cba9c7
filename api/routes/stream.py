"""Following games live: server-sent events of a game's lines, and of every game's last seq."""
from __future__ import annotations

from typing import Annotated, Optional

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import StreamingResponse

from api.deps import ServicesDep, Viewer
from api.live import MEDIA_TYPE, StoreFeed, event_stream, feed_for, game_stream, games_stream
from api.problems import responses
from domain.events import Envelope

router = APIRouter(prefix="/api", tags=["live"])

GAME_EVENTS = ("one event per stored line: `id:` its seq, `data:` the line as JSON as "
               "`GET /api/games/{game}/events` gives it; `: keep-alive` comments between")
GAME_GROWTH = ("one event per game that grew: `id:` the store's position, `data:` "
               '`{"game", "last_seq"}`; `: keep-alive` comments between')


GROWTH = {"type": "object", "additionalProperties": False, "required": ["game", "last_seq"],
          "properties": {"game": {"type": "string"}, "last_seq": {"type": "integer", "minimum": 1}}}


def _answer(description: str, data: dict) -> dict:
    """The OpenAPI entry of a stream's 200 answer (its schema describes each event, as OpenAPI 3.2's
    `itemSchema` does: the `data` is JSON of the given schema), and its refusals."""
    event = {"type": "object", "required": ["data", "id"], "properties": {
        "event": {"const": "message"}, "id": {"type": "string", "pattern": "^[0-9]+$"},
        "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": data}}}
    return {200: {"description": description, "content": {MEDIA_TYPE: {"schema": event}}},
            **responses(401, 403, 404, 422)}


def get_feed(request: Request, services: ServicesDep) -> StoreFeed:
    return feed_for(request.app, services.ledger)


FeedDep = Annotated[StoreFeed, Depends(get_feed)]
Follow = Annotated[bool, Query(description="keep the stream open for new events (false: end after those stored)")]
After = Annotated[Optional[int], Query(ge=0, le=2**53, description="resume after this position")]
LastEventId = Annotated[Optional[str], Header(
    alias="Last-Event-ID", pattern=r"^[0-9]{1,15}$",
    description="the `id:` of the last event received (a reconnecting browser sends it); wins over `after`")]


def position(after: Optional[int], last_event_id: Optional[str]) -> Optional[int]:
    """Where a client resumes: the last event it received, else `after`."""
    return int(last_event_id) if last_event_id is not None else after


@router.get("/games/{game}/stream", response_class=StreamingResponse, responses=_answer(GAME_EVENTS, Envelope.model_json_schema()))
def stream_game(game: str, services: ServicesDep, feed: FeedDep, _: Viewer, after: After = None,
                follow: Follow = True, last_event_id: LastEventId = None) -> StreamingResponse:
    """The game's events after a position (`Last-Event-ID` or `after`), then each as it is stored."""
    services.known_game(game)
    start = position(after, last_event_id) or 0
    return event_stream(game_stream(feed, game, start, follow))


@router.get("/stream", response_class=StreamingResponse, responses=_answer(GAME_GROWTH, GROWTH))
def stream_games(feed: FeedDep, principal: Viewer, after: After = None, follow: Follow = True,
                 last_event_id: LastEventId = None) -> StreamingResponse:
    """Every game the token reads with its last seq, then a line each time one grows."""
    return event_stream(games_stream(feed, principal.sees, position(after, last_event_id), follow))
