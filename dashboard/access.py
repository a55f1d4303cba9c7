"""Who may read the dashboard: the holder of the signed-in token, checked on every request against
the store's tokens as the API's `require("viewer")` checks a Bearer token, or anyone when the
store is served with `--public-read` (reads only: writes always need a token's rights).

The token lives in an HttpOnly, SameSite=Strict cookie set by the sign-in form (dashboard.signin):
scripts of the page cannot read it and other sites' pages cannot send it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional
from urllib.parse import urlencode

import flask

from api.deps import authorise
from api.problems import ProblemError
from api.security import Principal, TokenStore

COOKIE = "umpire_token"
SIGN_IN, SIGN_OUT = "/sign-in", "/sign-out"
# What a browser needs before signing in (styles, the scripts of Dash's components): no game data.
OPEN_PATHS = (SIGN_IN, SIGN_OUT, "/assets/", "/_dash-component-suites/", "/_favicon.ico")
READER_KEY = "umpire_reader"
PUBLIC_BANNER = "Public read: anyone who can reach this server can read every game."


@dataclass(frozen=True)
class Reader:
    """Who is asking: the signed-in token's holder (if any), and whether the store is public."""

    principal: Optional[Principal] = None
    public: bool = False

    def sees(self, game: str) -> bool:
        return self.public or (self.principal is not None and self.principal.sees(game))

    def may(self, role: str, game: str) -> Principal:
        """The signed-in principal, when it holds `role` for `game` (the API's rule), else a refusal."""
        if self.principal is None:
            raise ProblemError(401, "unauthorized", f"sign in with a {role} token to do this")
        return authorise(self.principal, role, game)

    def describe(self) -> str:
        p = self.principal
        if p is None:
            return "not signed in"
        bound = f" of game {p.game}" if p.game else ""
        side = f" ({p.side})" if p.side else ""
        return f"signed in as {p.name or p.id}: {p.role}{side}{bound}"


# A reader that sees every game and may write nothing: the in-process default (benchmarks, tests).
EVERYONE = Reader(public=True)


def reader_of(tokens: TokenStore, token: Optional[str], public: bool) -> Reader:
    """The reader of a request carrying `token` (unknown or revoked: nobody)."""
    token = (token or "").strip()
    return Reader(tokens.lookup(token) if token else None, public)


def current_reader() -> Reader:
    """The reader of this request; nobody when the guard has not run (fail closed)."""
    return flask.g.get(READER_KEY) or Reader()


def safe_next(target: Optional[str]) -> str:
    """Where to go after signing in: a path of this server only (never another site)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


def install_guard(server: flask.Flask, tokens: TokenStore, public: bool) -> None:
    """Check the reader before anything of Dash runs: a page asked without a live token goes to
    the sign-in, a Dash request (layout, callbacks, downloads) gets 401 and no data."""

    def guard() -> Optional[flask.Response]:
        reader = reader_of(tokens, flask.request.cookies.get(COOKIE), public)
        setattr(flask.g, READER_KEY, reader)
        path = flask.request.path
        if reader.principal is not None or public or path.startswith(OPEN_PATHS):
            return None
        if path.startswith("/_dash-"):
            return flask.jsonify(error="sign in: the dashboard needs a token (`umpire token issue`)"), 401
        wanted = flask.request.full_path.rstrip("?")
        return flask.redirect(SIGN_IN + ("" if wanted == "/" else "?" + urlencode({"next": wanted})))

    # first of all hooks: Dash's own (the router, its setup) must not run for nobody
    hooks: list[Callable] = server.before_request_funcs.setdefault(None, [])
    hooks.insert(0, guard)
