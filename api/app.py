"""The ASGI app: the JSON API under /api (and the dashboard at /, when present)."""
from __future__ import annotations

import importlib
import importlib.util
from typing import Optional

from fastapi import FastAPI

from api import problems
from api.deps import services_for
from api.problems import ProblemError
from api.routes import dice, disputes, events, games, health

OPTIONAL_ROUTES = ("api.routes.analytics",)

DESCRIPTION = """Record wargames live, roll verifiable dice, raise disputes and rule on them.

Every route but `/api/health` needs `Authorization: Bearer TOKEN` (tokens come from
`umpire token issue`). Errors are problem details (`application/problem+json`). See docs/api.md."""


def create_app(db: Optional[str] = None, public_read: bool = False) -> FastAPI:
    services = services_for(db)
    app = FastAPI(title="Umpire", version="1", description=DESCRIPTION,
                  openapi_url="/api/openapi.json", docs_url="/api/docs", redoc_url=None)
    app.state.services = services
    problems.install(app)
    for module in (health, games, events, disputes, dice):
        app.include_router(module.router)
    _include_optional_routes(app)
    app.add_api_route("/api/{rest:path}", _no_such_route, methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
                      include_in_schema=False)
    _mount_dashboard(app, services.db, public_read)
    return app


def _no_such_route(rest: str) -> None:
    """Anything else under /api is the API's 404, not a dashboard page."""
    raise ProblemError(404, "not-found", f"no route /api/{rest}")


def _include_optional_routes(app: FastAPI) -> None:
    """Routes other parts of Umpire add under /api (e.g. analytics), when present."""
    for name in OPTIONAL_ROUTES:
        if importlib.util.find_spec(name) is not None:
            app.include_router(importlib.import_module(name).router, responses=problems.responses(401, 403, 404, 422))


def _mount_dashboard(app: FastAPI, db: str, public_read: bool = False) -> None:
    """Mount the Dash dashboard at / when the dashboard package provides it (after /api, which
    FastAPI matches first); `public_read` lets anyone read its games, as `serve --public-read` asks."""
    if importlib.util.find_spec("dashboard") is None or importlib.util.find_spec("dashboard.app") is None:
        return
    module = importlib.import_module("dashboard.app")
    create_dash = getattr(module, "create_dash", None)
    if create_dash is None:
        return
    from a2wsgi import WSGIMiddleware

    dash_app = create_dash(db, requests_pathname_prefix="/", public_read=public_read)
    app.mount("/", WSGIMiddleware(dash_app.server))
