"""Following the store as it grows: server-sent events of a game's lines and of every game's
last seq, for the API's `/stream` routes and the dashboard's live pages.

The store itself says when it grew, so that a server learns of appends made by any process on
the same database (several `umpire serve` on one PostgreSQL, or an `umpire import` beside a
server): one poller per app asks the store's last notification id every `poll` seconds while
someone follows, reads the Game events past it, and wakes the followers of the games that grew.
Every read from the store runs in the thread pool; the event loop only waits.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from contextlib import asynccontextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Callable, Optional
from uuid import UUID

import orjson
from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from domain.application import Ledger
from domain.model.ids import game_uuid
from domain.recorders import line_of
from projections.follow import game_topics

log = logging.getLogger(__name__)

MEDIA_TYPE = "text/event-stream"
PAGE = 1000        # lines, or notifications, read from the store at once
RETRY_MS = 1000    # how soon a browser reconnects after losing the stream (the `retry:` field)
# Cache-Control: an event stream is never stored; X-Accel-Buffering: a proxy (nginx) passes it on at once.
HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


@dataclass(frozen=True)
class StreamSettings:
    poll: float = 0.25        # UMPIRE_STREAM_POLL: seconds between two looks at the store
    keepalive: float = 15.0   # UMPIRE_STREAM_KEEPALIVE: seconds of silence before a comment line


def stream_settings() -> StreamSettings:
    """The streams' timing, from the environment when asked (a positive number of seconds each)."""
    def seconds(name: str, default: float) -> float:
        try:
            value = float(os.environ.get(name, ""))
        except ValueError:
            return default
        return value if 0 < value < 3600 else default
    defaults = StreamSettings()
    return StreamSettings(seconds("UMPIRE_STREAM_POLL", defaults.poll),
                          seconds("UMPIRE_STREAM_KEEPALIVE", defaults.keepalive))


# -- what the store says --------------------------------------------------------------------------
@dataclass(frozen=True)
class Growth:
    """The games that grew up to the store's `position` (its last notification id): game id ->
    its last seq (several appends read together give the last of them)."""

    position: int
    games: dict[UUID, int] = field(default_factory=dict)


def store_position(ledger: Ledger) -> int:
    """Where the store stands: its last notification id (0 for an empty store)."""
    return ledger.recorder.max_notification_id() or 0


def growth_since(ledger: Ledger, after: int, upto: Optional[int] = None) -> Growth:
    """The games whose lines were stored after position `after`, up to `upto` (default: now)."""
    upto = store_position(ledger) if upto is None else upto
    games: dict[UUID, int] = {}
    start = after + 1
    while start <= upto:
        notes = ledger.recorder.select_notifications(start, PAGE, stop=upto, topics=game_topics())
        for note in notes:
            games[note.originator_id] = max(games.get(note.originator_id, 0), note.originator_version)
        if len(notes) < PAGE:
            break
        start = notes[-1].id + 1
    return Growth(upto, games)


class GameNames:
    """Game id -> the game's name, learnt from one of its stored lines the first time it is asked."""

    def __init__(self, ledger: Ledger):
        self._ledger, self._names = ledger, {}

    def remember(self, originator_id: UUID, name: str) -> None:
        self._names[originator_id] = name

    def name(self, originator_id: UUID) -> str:
        if originator_id not in self._names:
            stored = self._ledger.recorder.select_events(originator_id, limit=1)
            self._names[originator_id] = orjson.loads(line_of(stored[0].state))["game"]
        return self._names[originator_id]


# -- one poller per app, many followers -----------------------------------------------------------
class Follower:
    """One open stream's mailbox: the games that grew since it last looked."""

    def __init__(self) -> None:
        self.grown: dict[UUID, int] = {}
        self.position = 0
        self.closed = False
        self._event = asyncio.Event()

    def tell(self, growth: Growth) -> None:
        for game, seq in growth.games.items():
            self.grown[game] = max(self.grown.get(game, 0), seq)
        self.position = max(self.position, growth.position)
        self._event.set()

    def close(self) -> None:
        self.closed = True
        self._event.set()

    async def news(self, timeout: float) -> Optional[dict[UUID, int]]:
        """What grew since the last call, as soon as something did; {} after `timeout` seconds of
        nothing; None once the server is shutting down (the stream ends)."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except asyncio.TimeoutError:
            return {}
        self._event.clear()
        grown, self.grown = self.grown, {}
        return None if self.closed else grown


class StoreFeed:
    """Polls the store while at least one stream follows it, and tells every follower what grew."""

    def __init__(self, ledger: Ledger, poll: float):
        self.ledger, self.poll = ledger, poll
        self.followers: set[Follower] = set()
        self.names = GameNames(ledger)
        self.closed = False
        self._task: Optional[asyncio.Task] = None
        self._ready: Optional[asyncio.Future] = None

    @asynccontextmanager
    async def follow(self) -> AsyncIterator[Follower]:
        """A follower told of every append stored after this returns; whatever was stored before
        is in the store for the caller to read (the poller's position is taken first)."""
        follower = Follower()
        if self.closed:
            follower.close()
        self.followers.add(follower)
        try:
            if self._task is None or self._task.done() or self._task.get_loop() is not asyncio.get_running_loop():
                self._ready = asyncio.get_running_loop().create_future()
                self._task = asyncio.create_task(self._watch(self._ready))
            await asyncio.shield(self._ready)
            yield follower
        finally:
            self.followers.discard(follower)

    def close(self) -> None:
        """End every open stream (the server is shutting down: it waits for open answers to end)."""
        self.closed = True
        for follower in list(self.followers):
            follower.close()

    async def _watch(self, ready: asyncio.Future) -> None:
        try:
            position = await run_in_threadpool(store_position, self.ledger)
        except Exception as err:  # the store cannot be reached: the streams waiting say so
            ready.set_exception(err)
            return
        ready.set_result(position)
        while self.followers:
            await asyncio.sleep(self.poll)
            try:
                growth = await run_in_threadpool(self._growth, position)
            except Exception:  # a store that stops answering for a while: look again next time
                log.warning("could not read the store's new events; trying again", exc_info=True)
                continue
            position = growth.position
            if growth.games:
                for follower in list(self.followers):
                    follower.tell(growth)

    def _growth(self, position: int) -> Growth:
        now = store_position(self.ledger)
        return growth_since(self.ledger, position, now) if now > position else Growth(position)


def serve(app: FastAPI, **options: Any) -> None:
    """Run `app` under uvicorn (as `uvicorn.run(app, **options)` does), ending the open streams
    first when the server shuts down: uvicorn waits for every open answer to end, and a followed
    stream never ends by itself."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            feed = getattr(app.state, "live_feed", None)
            if feed is not None:
                feed.close()
            await super().shutdown(sockets)

    server = Server(uvicorn.Config(app, **options))
    server.run()
    if not server.started:
        sys.exit(3)  # uvicorn's STARTUP_FAILURE (e.g. the port is taken)


def feed_for(app: FastAPI, ledger: Ledger) -> StoreFeed:
    """The app's one feed (made when first asked)."""
    feed = getattr(app.state, "live_feed", None)
    if feed is None:
        feed = app.state.live_feed = StoreFeed(ledger, stream_settings().poll)
    return feed


# -- the streams ------------------------------------------------------------------------------------
def event_stream(chunks: AsyncIterator[bytes]) -> StreamingResponse:
    """The answer that sends a stream's chunks as they come."""
    return StreamingResponse(chunks, media_type=MEDIA_TYPE, headers=HEADERS)


def frame(data: Any, event_id: Optional[int] = None) -> bytes:
    """One server-sent event: its `id:` (the position a client resumes from) and one `data:` line."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return ((f"id: {event_id}\n" if event_id is not None else "") + f"data: {text}\n\n").encode("utf-8")


KEEPALIVE = b": keep-alive\n\n"


def opening() -> bytes:
    """The first bytes of every stream: how soon to reconnect, sent at once so that the client
    knows the stream is open before any event."""
    return f"retry: {RETRY_MS}\n\n".encode("ascii")


async def game_stream(feed: StoreFeed, game: str, after: int, follow: bool) -> AsyncIterator[bytes]:
    """The game's lines with seq > `after` (each with `id:` its seq), then, when `follow`, each
    line as it is stored, with a keep-alive comment after each silence; without `follow`, the end."""
    ledger, keepalive, me = feed.ledger, stream_settings().keepalive, game_uuid(game)
    yield opening()
    async with (feed.follow() if follow else nullcontext()) as follower:
        sent = after
        while True:
            lines = await run_in_threadpool(ledger.lines, game, after=sent, limit=PAGE)
            for line in lines:
                yield frame(line, line["seq"])
            sent = lines[-1]["seq"] if lines else sent
            if len(lines) == PAGE:
                continue
            if follower is None:
                return
            while True:
                grown = await follower.news(keepalive)
                if grown is None:
                    return
                if me in grown:
                    break
                if not grown:
                    yield KEEPALIVE


async def games_stream(feed: StoreFeed, sees: Callable[[str], bool], after: Optional[int],
                       follow: bool) -> AsyncIterator[bytes]:
    """A line `{"game", "last_seq"}` per game the reader `sees`: without `after`, one for each such
    game now, else one for each that grew after the store's position `after`; then, when
    `follow`, one each time a game grows. Each `id:` is the store's position then."""
    keepalive = stream_settings().keepalive
    yield opening()
    async with (feed.follow() if follow else nullcontext()) as follower:
        for chunk in await run_in_threadpool(_first_lines, feed, sees, after):
            yield chunk
        while follower is not None:
            grown = await follower.news(keepalive)
            if grown is None:
                return
            if not grown:
                yield KEEPALIVE
                continue
            for chunk in await run_in_threadpool(_game_lines, feed, Growth(follower.position, grown), sees):
                yield chunk


def _first_lines(feed: StoreFeed, sees: Callable[[str], bool], after: Optional[int]) -> list[bytes]:
    """Every game's last seq now (`after` None or 0), else those of the games grown since `after`.
    The position is read before the games: a line appended meanwhile may be told twice, and a
    client takes the last seq it is told."""
    if after:
        return _game_lines(feed, growth_since(feed.ledger, after), sees)
    position = store_position(feed.ledger)
    games = feed.ledger.games()
    for summary in games:
        feed.names.remember(game_uuid(summary.game), summary.game)
    return _game_lines(feed, Growth(position, {game_uuid(g.game): g.events for g in games}), sees)


def _game_lines(feed: StoreFeed, growth: Growth, sees: Callable[[str], bool]) -> list[bytes]:
    """The frames of a growth, for the games the reader sees (a name may be read from the store)."""
    out = []
    for originator_id, seq in growth.games.items():
        name = feed.names.name(originator_id)
        if sees(name):
            out.append(frame({"game": name, "last_seq": seq}, growth.position))
    return out
