"""The Unit aggregate: one counter on the board, changed with the game event that moves it."""
from __future__ import annotations

from typing import Optional

from eventsourcing.domain import event

from domain.model.base import LedgerAggregate
from domain.model.ids import unit_uuid


class Unit(LedgerAggregate):
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

    # Explicit event classes for the events an import triggers by the thousand.
    class Moved(LedgerAggregate.Event):
        path: list[str]
        seq: int

        def apply(self, aggregate: "Unit") -> None:
            aggregate.location = self.path[-1]
            aggregate.seqs.append(self.seq)

    class StatusChanged(LedgerAggregate.Event):
        status: str
        seq: int

        def apply(self, aggregate: "Unit") -> None:
            aggregate.statuses.append(self.status)
            aggregate.seqs.append(self.seq)

    def move(self, path: list[str], seq: int) -> None:
        self.trigger_event(self.Moved, path=path, seq=seq)

    def change_status(self, status: str, seq: int) -> None:
        self.trigger_event(self.StatusChanged, status=status, seq=seq)
