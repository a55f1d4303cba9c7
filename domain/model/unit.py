"""The Unit aggregate: one counter on the board, changed with the game event that moves it."""
from __future__ import annotations

from typing import Optional

from eventsourcing.domain import Aggregate, event

from domain.model.ids import unit_uuid


class Unit(Aggregate):
    @staticmethod
    def create_id(game: str, unit: str, side: Optional[str], unit_class: str,
                  location: Optional[str], seq: int):
        return unit_uuid(game, unit)

    @event("Deployed")
    def __init__(self, game: str, unit: str, side: Optional[str], unit_class: str,
                 location: Optional[str], seq: int):
        self.game = game
        self.unit = unit
        self.side = side
        self.unit_class = unit_class
        self.location = location
        self.statuses: list[str] = []
        self.seqs = [seq]

    @event("Moved")
    def move(self, path: list[str], seq: int) -> None:
        self.location = path[-1]
        self.seqs.append(seq)

    @event("StatusChanged")
    def change_status(self, status: str, seq: int) -> None:
        self.statuses.append(status)
        self.seqs.append(seq)
