"""The off-map artillery element (OBM): its firepower and its artillery points."""
from __future__ import annotations

from typing import Optional

from eventsourcing.domain import Aggregate, event

from domain.model.ids import element_uuid


class OffMapArtilleryElement(Aggregate):
    @staticmethod
    def create_id(game: str, element: str, side: str, firepower: int,
                  artillery_points: Optional[int], seq: int):
        return element_uuid(game, element)

    @event("Assigned")
    def __init__(self, game: str, element: str, side: str, firepower: int,
                 artillery_points: Optional[int], seq: int):
        self.game = game
        self.element = element
        self.side = side
        self.firepower = firepower
        self.artillery_points = artillery_points
        self.points_spent = 0
        self.eliminated = False

    @event("PointsSpent")
    def spend(self, points: int, seq: int) -> None:
        self.points_spent += points

    @event("Eliminated")
    def eliminate(self, seq: int) -> None:
        self.eliminated = True
