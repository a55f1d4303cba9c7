"""The API's bounds on a request (docs/api.md, "Limits"); an event's own bounds (its size,
a string's length, nesting) are the log format's, checked in domain/log.py."""
from __future__ import annotations

from api.problems import problem_response

MAX_BATCH = 10_000  # events in one POST /api/games/{game}/events
MAX_BODY_BYTES = 8 * 1024 * 1024  # bytes of a request body, except an import's
MAX_IMPORT_BYTES = 64 * 1024 * 1024  # bytes of a POST /api/import body (one JSONL log)
MAX_IDEMPOTENCY_KEY = 200  # characters of an Idempotency-Key (visible ASCII)


def body_limit(path: str) -> int:
    """The most bytes a request body to `path` may hold."""
    return MAX_IMPORT_BYTES if path == "/api/import" else MAX_BODY_BYTES


class BodyLimit:
    """ASGI middleware: a body over its path's limit is answered 413 before any route reads it,
    whether its Content-Length says so or it is streamed (chunked) past the limit; the body
    within the limit is handed on unchanged."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not scope["path"].startswith("/api/") or scope["method"] in ("GET", "HEAD"):
            return await self.app(scope, receive, send)
        limit = body_limit(scope["path"])
        length = dict(scope["headers"]).get(b"content-length", b"")
        if length.isdigit() and int(length) > limit:
            return await self._refuse(scope, receive, send, limit)
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: nothing to answer
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > limit:
                return await self._refuse(scope, receive, send, limit)
        await self.app(scope, _replay(b"".join(chunks), receive), send)

    @staticmethod
    async def _refuse(scope, receive, send, limit: int) -> None:
        answer = problem_response(413, "too-large", f"a request body to {scope['path']} holds at most {limit} bytes")
        await answer(scope, receive, send)


def _replay(body: bytes, receive):
    """A `receive` that gives the buffered body once, then whatever the client sends next."""
    sent = False

    async def replay():
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay
