"""Reading a unit and an off-map element: the aggregate's present state and its history.

Both come from the aggregate's own stored events (a handful of rows), never from the game's
log: the fold in `domain.model.base.history` is the repository's, done once for both.
"""
from __future__ import annotations

from typing import Any
from uuid import UUID

from fastapi import APIRouter

from api.deps import ServicesDep, Viewer
from api.problems import ProblemError, responses
from api.schemas import ElementView, UnitView
from domain.application import Ledger
from domain.model import OffMapArtilleryElement, Unit
from domain.model.base import history
from domain.model.ids import element_uuid, unit_uuid

router = APIRouter(prefix="/api", tags=["games"])
READ_ERRORS = responses(401, 403, 404, 422)


def _aggregate(ledger: Ledger, aggregate_id: UUID, kind: type, noun: str,
               name: str) -> tuple[Any, list[dict[str, Any]]]:
    """The aggregate and its history; 404 `unknown-<noun>` when none is stored."""
    aggregate, entries = history(ledger.events.get(aggregate_id))
    if not isinstance(aggregate, kind):
        raise ProblemError(404, f"unknown-{noun}", f"no {noun} {name!r} in this game")
    return aggregate, entries


@router.get("/games/{game}/units/{unit}", response_model=UnitView, responses=READ_ERRORS)
def read_unit(game: str, unit: str, services: ServicesDep, _: Viewer) -> dict:
    """A unit: its side, class, where it stands, its statuses, and one entry per change with the
    seq of the log line that made it."""
    services.known_game(game)
    aggregate, entries = _aggregate(services.ledger, unit_uuid(game, unit), Unit, "unit", unit)
    place = aggregate.location
    return {"game": game, "unit": unit, "side": aggregate.side, "class": aggregate.unit_class,
            "location": place if isinstance(place, str) else None,
            "position": place if isinstance(place, dict) else None,
            "statuses": aggregate.statuses, "deployed_seq": aggregate.deployed_seq,
            "last_seq": aggregate.last_seq, "history": entries}


@router.get("/games/{game}/elements/{element}", response_model=ElementView, responses=READ_ERRORS)
def read_element(game: str, element: str, services: ServicesDep, _: Viewer) -> dict:
    """An off-map element: its firepower, its artillery points (spent, left, overspent), whether it
    was eliminated, and one entry per change with the seq of the log line that made it."""
    services.known_game(game)
    aggregate, entries = _aggregate(services.ledger, element_uuid(game, element), OffMapArtilleryElement,
                                    "element", element)
    return {"game": game, "element": element, "side": aggregate.side, "firepower": aggregate.firepower,
            "artillery_points": aggregate.artillery_points, "points_spent": aggregate.points_spent,
            "points_left": aggregate.points_left, "overspent": aggregate.overspent,
            "eliminated": aggregate.eliminated, "eliminated_seq": aggregate.eliminated_seq,
            "last_seq": aggregate.last_seq, "history": entries}
