"""The ASGI app: the JSON API under /api (and the dashboard at /, when present)."""
from __future__ import annotations

import importlib
import importlib.util
from typing import Optional

from fastapi import FastAPI

from api import problems
from api.deps import services_for
from api.routes import dice, disputes, events, games, health

DESCRIPTION = """Record wargames live, roll verifiable dice, raise disputes and rule on them.

Every route but `/api/health` needs `Authorization: Bearer TOKEN` (tokens come from
`umpire token issue`). Errors are problem details (`application/problem+json`). See docs/api.md."""


def create_app(db: Optional[str] = None) -> FastAPI:
    services = services_for(db)
    app = FastAPI(title="Umpire", version="1", description=DESCRIPTION,
                  openapi_url="/api/openapi.json", docs_url="/api/docs", redoc_url=None)
    app.state.services = services
    problems.install(app)
    for module in (health, games, events, disputes, dice):
        app.include_router(module.router)
    _mount_dashboard(app, services.db)
    return app


def _mount_dashboard(app: FastAPI, db: str) -> None:
    """Mount the Dash dashboard at / when the dashboard package provides it (after /api, which
    FastAPI matches first)."""
    if importlib.util.find_spec("dashboard") is None or importlib.util.find_spec("dashboard.app") is None:
        return
    module = importlib.import_module("dashboard.app")
    create_dash = getattr(module, "create_dash", None)
    if create_dash is None:
        return
    from a2wsgi import WSGIMiddleware

    dash_app = create_dash(db, requests_pathname_prefix="/")
    app.mount("/", WSGIMiddleware(dash_app.server))
