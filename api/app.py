"""The ASGI app: the JSON API under /api (and the dashboard at /, when present)."""
from __future__ import annotations

import importlib
import importlib.util
from importlib.resources import files
from typing import Optional

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.routing import Match

from api import problems
from api.deps import services_for
from api.limits import BodyLimit
from api.problems import ProblemError
from api.routes import army, dice, disputes, events, games, health, stream, units

OPTIONAL_ROUTES = ("api.routes.analytics",)
ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
DOCS_ASSETS = "/api/docs-assets"

DESCRIPTION = """Record wargames live, roll verifiable dice, raise disputes and rule on them.

Every route but `/api/health` needs `Authorization: Bearer TOKEN` (tokens come from
`umpire token issue`). Errors are problem details (`application/problem+json`). See docs/api.md."""


def create_app(db: Optional[str] = None, public_read: bool = False) -> FastAPI:
    """The API (with its body limit, problem details, offline docs) and the dashboard."""
    services = services_for(db)
    app = FastAPI(title="Umpire", version="1", description=DESCRIPTION,
                  openapi_url="/api/openapi.json", docs_url=None, redoc_url=None)
    app.state.services = services
    app.add_middleware(BodyLimit)
    problems.install(app)
    for module in (health, games, events, disputes, dice, units, army, stream):
        app.include_router(module.router)
    _include_optional_routes(app)
    _serve_docs_offline(app)
    app.add_api_route("/api/{rest:path}", _no_such_route, methods=ALL_METHODS, include_in_schema=False)
    _mount_dashboard(app, services.db, public_read)
    return app


def _no_such_route(request: Request, rest: str) -> None:
    """Anything else under /api is the API's 404 (not a dashboard page), or its 405 when the path
    is a route's and only the method is wrong."""
    allowed = _allowed_methods(request)
    if allowed:
        raise ProblemError(405, "method-not-allowed", f"{request.method} is not allowed on {request.url.path}",
                           headers={"Allow": ", ".join(sorted(allowed))})
    raise ProblemError(404, "not-found", f"no route /api/{rest}")


def _allowed_methods(request: Request) -> set[str]:
    """The methods some route before this catch-all takes at the request's path (asked of the
    routes themselves, so that routers included in any way are covered)."""
    allowed = set()
    for method in ALL_METHODS:
        scope = {**request.scope, "method": method}
        for route in request.app.router.routes:
            if getattr(route, "endpoint", None) is _no_such_route:
                break
            if route.matches(scope)[0] == Match.FULL:
                allowed.add(method)
                break
    return allowed


def _serve_docs_offline(app: FastAPI) -> None:
    """/api/docs with Swagger UI's script and style from an installed package, not a CDN, so
    that the page works on a table with no Internet."""
    app.mount(DOCS_ASSETS, StaticFiles(directory=str(files("fastapi_offline") / "static")), name="docs-assets")

    def docs() -> HTMLResponse:
        """Swagger UI over the OpenAPI schema."""
        return get_swagger_ui_html(openapi_url=app.openapi_url, title="Umpire API",
                                   swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
                                   swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
                                   swagger_favicon_url=f"{DOCS_ASSETS}/favicon.png",
                                   swagger_ui_parameters={"validatorUrl": None})  # no badge from swagger.io

    app.add_api_route("/api/docs", docs, methods=["GET"], include_in_schema=False)


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
    app.include_router(importlib.import_module("dashboard.live").live_router(public_read))  # its pages' live feeds
    app.mount("/", WSGIMiddleware(dash_app.server))
