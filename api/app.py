"""The ASGI app: the JSON API under /api (and the dashboard at /, when present)."""
from __future__ import annotations

from typing import Optional

from fastapi import FastAPI

from api.settings import get_settings


def create_app(db: Optional[str] = None) -> FastAPI:
    settings = get_settings(db)
    app = FastAPI(title="Umpire", openapi_url="/api/openapi.json", docs_url="/api/docs")

    @app.get("/api/health")
    def health() -> dict:
        """Liveness, and which store is in use."""
        return {"status": "ok", "store": "postgresql" if settings.is_postgres else "sqlite"}

    return app
