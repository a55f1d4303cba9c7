"""The off-map artillery element (OBM): its firepower and its artillery points."""
from __future__ import annotations

from typing import Optional

from eventsourcing.domain import event

from domain.model.base import LedgerAggregate
from domain.model.ids import element_uuid


class OffMapArtilleryElement(LedgerAggregate):
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

    class PointsSpent(LedgerAggregate.Event):
        points: int
        seq: int

        def apply(self, aggregate: "OffMapArtilleryElement") -> None:
            aggregate.points_spent += self.points

    class Eliminated(LedgerAggregate.Event):
        seq: int

        def apply(self, aggregate: "OffMapArtilleryElement") -> None:
            aggregate.eliminated = True

    def spend(self, points: int, seq: int) -> None:
        self.trigger_event(self.PointsSpent, points=points, seq=seq)

    def eliminate(self, seq: int) -> None:
        self.trigger_event(self.Eliminated, seq=seq)
