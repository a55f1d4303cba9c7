"""What the pages share: the store of the app serving the request, as its reader may see it, and
small pieces of layout."""
from __future__ import annotations

from typing import Optional

import flask
from dash import dcc, get_relative_path, html

from dashboard.access import current_reader
from dashboard.data import DashboardData, GameView
from dashboard.figures import VERDICT_COLOURS

DATA_KEY = "UMPIRE_DASHBOARD_DATA"


def current_data() -> DashboardData:
    """The data of the Dash app answering this request (each app keeps its own store), limited to
    the games this request's reader sees."""
    return flask.current_app.config[DATA_KEY].scoped(current_reader())


def game_page(data: DashboardData, game: Optional[str]) -> GameView | html.Div:
    """The game a page shows, or what to show instead: not available to this reader (whether or not
    it exists, as the API answers 403 before looking), or not in the store."""
    if game and not data.reader.sees(game):
        return _missing(f"Game {game!r} is not available to this token.")
    gv = data.view(game) if game else None
    if gv is None:
        return _missing(f"There is no game {game!r} in this store." if game else "No game chosen.")
    return gv


def unavailable(data: DashboardData, game: str) -> str:
    """What a callback says instead of a game's data."""
    return "this game is not available to this token" if not data.reader.sees(game) else \
        "this game is no longer in the store"


def _missing(message: str) -> html.Div:
    return html.Div(className="missing",
                    children=[html.P(message), dcc.Link("All games", href=get_relative_path("/"))])


def verdict_badge(verdict: str, count: Optional[int] = None) -> html.Span:
    label = verdict if count is None else f"{verdict} {count}"
    return html.Span(label, className=f"verdict verdict-{verdict}",
                     style={"backgroundColor": VERDICT_COLOURS.get(verdict, "#999999")})
