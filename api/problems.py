"""Errors as problem details (RFC 9457): `type`, `title`, `status`, `detail`, and the fields that
say more (`line` and `field` for a bad event, `last_seq` for a conflict).

Every error the API answers goes through here, so that bad input never becomes a 500.
"""
from __future__ import annotations

import logging
from typing import Any, Optional

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException as StarletteHTTPException

from domain.application import ConflictError, UnknownGame
from domain.dice import DiceError
from domain.log import LogError

MEDIA_TYPE = "application/problem+json"
TYPE_BASE = "/api/problems/"
log = logging.getLogger("umpire.api")

TITLES = {
    400: "Bad request", 401: "Unauthorized", 403: "Forbidden", 404: "Not found",
    405: "Method not allowed", 409: "Conflict", 413: "Too large", 415: "Unsupported media type",
    422: "Unprocessable content", 500: "Internal error",
}


class Problem(BaseModel):
    """A problem details object."""

    model_config = ConfigDict(extra="allow")
    type: str
    title: str
    status: int
    detail: str
    line: Optional[int] = None
    field: Optional[str] = None
    last_seq: Optional[int] = None


class ProblemError(Exception):
    """Raised by routes and dependencies; answered as problem details."""

    def __init__(self, status: int, kind: str, detail: str, headers: Optional[dict[str, str]] = None, **extra: Any):
        self.status, self.kind, self.detail, self.extra = status, kind, detail, extra
        self.headers = {"WWW-Authenticate": "Bearer"} if status == 401 else (headers or None)
        super().__init__(detail)


def problem_response(status: int, kind: str, detail: str, headers: Optional[dict] = None,
                     **extra: Any) -> JSONResponse:
    body = {"type": TYPE_BASE + kind, "title": TITLES.get(status, "Error"), "status": status,
            "detail": detail, **{k: v for k, v in extra.items() if v is not None}}
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


def responses(*statuses: int) -> dict[int, dict[str, Any]]:
    """The OpenAPI `responses` entries of the problems a route may answer."""
    return {s: {"model": Problem, "description": TITLES.get(s, "Error"),
                "content": {MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}
            for s in statuses}


def _validation_location(loc: tuple) -> tuple[Optional[int], str]:
    """(line, field) of a request validation error: an event's position in `events` is its line."""
    parts = [p for p in loc if p not in ("body", "query", "path", "header")]
    line = None
    if len(parts) >= 2 and parts[0] == "events" and isinstance(parts[1], int):
        line = parts[1] + 1
        parts = parts[2:]
    return line, ".".join(str(p) for p in parts) or "(body)"


def install(app: FastAPI) -> None:
    """Answer every error of `app` as problem details."""

    @app.exception_handler(ProblemError)
    def _problem(_: Request, exc: ProblemError):
        return problem_response(exc.status, exc.kind, exc.detail, headers=exc.headers, **exc.extra)

    @app.exception_handler(LogError)
    def _log_error(_: Request, exc: LogError):
        return problem_response(422, "invalid-event", exc.message, line=exc.line, field=exc.field)

    @app.exception_handler(ConflictError)
    def _conflict(_: Request, exc: ConflictError):
        return problem_response(409, "seq-conflict", str(exc), last_seq=exc.last_seq)

    @app.exception_handler(UnknownGame)
    def _unknown_game(_: Request, exc: UnknownGame):
        return problem_response(404, "unknown-game", str(exc))

    @app.exception_handler(DiceError)
    def _dice(_: Request, exc: DiceError):
        return problem_response(422, "invalid-die", str(exc), field="die")

    @app.exception_handler(RequestValidationError)
    def _validation(_: Request, exc: RequestValidationError):
        errors = exc.errors()
        first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
        line, field = _validation_location(tuple(first.get("loc", ())))
        if first.get("type") == "json_invalid":
            line, field = None, "(body)"
        return problem_response(422, "invalid-request", str(first.get("msg")), line=line, field=field)

    @app.exception_handler(StarletteHTTPException)
    def _http(_: Request, exc: StarletteHTTPException):
        kind = {400: "invalid-request", 404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "http-error")
        field = "(body)" if exc.status_code == 400 else None  # a body FastAPI could not parse (e.g. nested too deeply)
        return problem_response(exc.status_code, kind, str(exc.detail), headers=getattr(exc, "headers", None),
                                field=field)

    @app.exception_handler(RecursionError)
    def _too_deep(_: Request, exc: RecursionError):
        log.warning("a request nested too deeply: %s", exc)
        return problem_response(422, "invalid-request", "the body is nested too deeply", field="(body)")

    @app.exception_handler(Exception)
    def _unexpected(request: Request, exc: Exception):
        # the handler runs after the exception was caught: pass it, or the log holds no traceback
        log.error("unexpected error answering %s %s", request.method, request.url.path, exc_info=exc)
        return problem_response(500, "internal-error", "an unexpected error; the log has the details")
