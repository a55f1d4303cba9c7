"""Liveness."""
from __future__ import annotations

from fastapi import APIRouter

from api.deps import ServicesDep
from api.schemas import Health

router = APIRouter(prefix="/api", tags=["health"])


@router.get("/health", response_model=Health)
def health(services: ServicesDep) -> dict:
    """Liveness, and which store is in use (no token needed)."""
    return {"status": "ok", "store": "postgresql" if services.store.pg else "sqlite"}
