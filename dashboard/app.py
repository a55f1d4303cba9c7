"""The Dash app: Games, Replay, Record, Disputes, Analytics and the army list check, mounted by the API at "/".

`create_dash(db)` builds one app over one store; the API mounts its Flask server under FastAPI
(WSGIMiddleware), so `umpire serve` answers the API and the dashboard on the same port. Every
request is checked against the store's tokens first (dashboard.access): the dashboard shows a
reader what the API would show the same token, or every game when `public_read` is asked for.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import dash
from dash import dcc, html

from dashboard import ids, signin
from dashboard.access import PUBLIC_BANNER, SIGN_IN, SIGN_OUT, current_reader, install_guard
from dashboard.data import data_for
from dashboard.lag import lag_banner
from dashboard.pages import analytics, army, disputes, games, record, record_start, replay
from dashboard.pages.common import DATA_KEY

ASSETS = Path(__file__).parent / "assets"
PAGES = (  # module, path template, name
    (games, "/", "Games"),
    (replay, "/replay/<game>", "Replay"),
    (record_start, "/record", "Record"),
    (record, "/record/<game>", "Record"),
    (disputes, "/disputes/<game>", "Disputes"),
    (analytics, "/analytics", "Analytics"),
    (army, "/army", "Army list"),
)


def create_dash(db: Optional[str] = None, requests_pathname_prefix: str = "/", public_read: bool = False) -> dash.Dash:
    """The dashboard over store `db` (a SQLite path or a postgresql:// URL; None: UMPIRE_DB, else the
    default). `requests_pathname_prefix` is where the browser reaches it (the mount point);
    `public_read` lets anyone read every game (writes still need a token)."""
    data = data_for(db)
    app = dash.Dash(
        __name__, use_pages=True, pages_folder="", assets_folder=str(ASSETS), title="Umpire",
        requests_pathname_prefix=requests_pathname_prefix, routes_pathname_prefix="/",
        suppress_callback_exceptions=True, update_title=None,
    )
    app.server.config[DATA_KEY] = data
    install_guard(app.server, data.services.tokens, public_read)
    signin.install_routes(app.server, data.services.tokens, public_read)
    for module, path, name in PAGES:
        dash.register_page(module.__name__, path_template=path if "<" in path else None,
                           path=None if "<" in path else path, name=name, title=f"Umpire · {name}",
                           layout=module.layout)
    app.layout = lambda: _shell(app, public_read)
    for module in (replay, record_start, record, disputes, analytics, army, games):
        module.register_callbacks(app)
    return app


def _shell(app: dash.Dash, public_read: bool) -> html.Div:
    """The frame of every page: the navigation, who is signed in, the public-read banner and, while
    a worker is behind the log, how far (dashboard/lag.py)."""
    reader = current_reader()
    account = (html.Form(action=app.get_relative_path(SIGN_OUT), method="POST", className="sign-out",
                         children=html.Button("Sign out", id="sign-out", type="submit"))
               if reader.principal else dcc.Link("Sign in", href=app.get_relative_path(SIGN_IN), refresh=True))
    return html.Div(className="shell", children=[
        html.Nav(id=ids.NAV, className="nav", children=[
            html.Span("Umpire", className="brand"),
            dcc.Link("Games", href=app.get_relative_path("/")),
            dcc.Link("Record", href=app.get_relative_path("/record")),
            dcc.Link("Analytics", href=app.get_relative_path("/analytics")),
            dcc.Link("Army list", href=app.get_relative_path("/army")),
            html.Span(reader.describe(), id=ids.WHO, className="who"),
            account,
        ]),
        html.Div(PUBLIC_BANNER, id=ids.PUBLIC_BANNER, className="public-banner") if public_read else None,
        lag_banner(app.server.config[DATA_KEY].services),
        html.Main(dash.page_container),
    ])
