"""The dashboard's live feeds: the API's event streams (api.live) for the pages' EventSource
(assets/live.js), read as the dashboard is read. An EventSource sends no Authorization header,
so a feed takes the token the sign-in keeps in its cookie (checked against the store's tokens
when the feed opens), or serves anyone when the store is served with `--public-read`.

They are routes of the ASGI app beside the dashboard (an open stream waits on the event loop,
not in one of the WSGI bridge's few threads), outside /api and its schema.
"""
from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from api.deps import ServicesDep
from api.live import event_stream, game_stream, games_stream
from api.problems import ProblemError
from api.routes.stream import After, FeedDep, LastEventId, position
from dashboard.access import COOKIE, Reader, reader_of

FEED = "/live/games"


def game_feed(game: str, after: int) -> str:
    """The path of a game's feed, from the event after `after`."""
    return f"{FEED}/{quote(game, safe='')}?after={after}"


def games_feed(after: int) -> str:
    """The path of the feed of every game's last seq, from the store's position `after`."""
    return f"{FEED}?after={after}"


def live_router(public: bool) -> APIRouter:
    """The feeds, for a dashboard that lets anyone read (`public`) or only signed-in tokens."""
    router = APIRouter(include_in_schema=False)

    @router.get(FEED)
    def follow_games(request: Request, services: ServicesDep, feed: FeedDep, after: After = None,
                     last_event_id: LastEventId = None) -> StreamingResponse:
        """Every game the reader sees, a line each time one grows."""
        reader = _reader(request, services, public)
        return event_stream(games_stream(feed, reader.sees, position(after, last_event_id), True))

    @router.get(FEED + "/{game}")
    def follow_game(game: str, request: Request, services: ServicesDep, feed: FeedDep, after: After = None,
                    last_event_id: LastEventId = None) -> StreamingResponse:
        """The game's events after a position, then each as it is stored."""
        if not _reader(request, services, public).sees(game):
            raise ProblemError(403, "forbidden", f"game {game!r} is not available to this token")
        services.known_game(game)
        return event_stream(game_stream(feed, game, position(after, last_event_id) or 0, True))

    return router


def _reader(request: Request, services: ServicesDep, public: bool) -> Reader:
    """The feed's reader: the signed-in token's holder, or anyone on a public store; else 401."""
    reader = reader_of(services.tokens, request.cookies.get(COOKIE), public)
    if reader.principal is None and not public:
        raise ProblemError(401, "unauthorized", "sign in: the dashboard needs a token (`umpire token issue`)")
    return reader

