"""The Dash app: Games, Replay, Disputes and Analytics, mounted by the API at "/".

`create_dash(db)` builds one app over one store; the API mounts its Flask server under FastAPI
(WSGIMiddleware), so `umpire serve` answers the API and the dashboard on the same port.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import dash
from dash import dcc, html

from dashboard import ids
from dashboard.data import data_for
from dashboard.pages import analytics, disputes, games, replay
from dashboard.pages.common import DATA_KEY

ASSETS = Path(__file__).parent / "assets"
PAGES = (  # module, path template, name
    (games, "/", "Games"),
    (replay, "/replay/<game>", "Replay"),
    (disputes, "/disputes/<game>", "Disputes"),
    (analytics, "/analytics", "Analytics"),
)


def create_dash(db: Optional[str] = None, requests_pathname_prefix: str = "/") -> dash.Dash:
    """The dashboard over store `db` (a SQLite path or a postgresql:// URL; None: UMPIRE_DB, else the
    default). `requests_pathname_prefix` is where the browser reaches it (the mount point)."""
    data = data_for(db)
    app = dash.Dash(
        __name__, use_pages=True, pages_folder="", assets_folder=str(ASSETS), title="Umpire",
        requests_pathname_prefix=requests_pathname_prefix, routes_pathname_prefix="/",
        suppress_callback_exceptions=True, update_title=None,
    )
    app.server.config[DATA_KEY] = data
    for module, path, name in PAGES:
        dash.register_page(module.__name__, path_template=path if "<" in path else None,
                           path=None if "<" in path else path, name=name, title=f"Umpire · {name}",
                           layout=module.layout)
    app.layout = html.Div(className="shell", children=[
        html.Nav(id=ids.NAV, className="nav", children=[
            html.Span("Umpire", className="brand"),
            dcc.Link("Games", href=app.get_relative_path("/")),
            dcc.Link("Analytics", href=app.get_relative_path("/analytics")),
        ]),
        html.Main(dash.page_container),
    ])
    for module in (replay, disputes, analytics):
        module.register_callbacks(app, data)
    return app
