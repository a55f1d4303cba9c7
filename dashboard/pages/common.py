"""What the pages share: the store of the app serving the request, and small pieces of layout."""
from __future__ import annotations

from typing import Optional

import flask
from dash import dcc, get_relative_path, html

from dashboard.data import DashboardData
from dashboard.figures import VERDICT_COLOURS

DATA_KEY = "UMPIRE_DASHBOARD_DATA"


def current_data() -> DashboardData:
    """The data of the Dash app answering this request (each app keeps its own store)."""
    return flask.current_app.config[DATA_KEY]


def missing_game(game: Optional[str]) -> html.Div:
    message = f"There is no game {game!r} in this store." if game else "No game chosen."
    return html.Div(className="missing",
                    children=[html.P(message), dcc.Link("All games", href=get_relative_path("/"))])


def verdict_badge(verdict: str, count: Optional[int] = None) -> html.Span:
    label = verdict if count is None else f"{verdict} {count}"
    return html.Span(label, className=f"verdict verdict-{verdict}",
                     style={"backgroundColor": VERDICT_COLOURS.get(verdict, "#999999")})
