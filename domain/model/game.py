"""The Game aggregate: the consistency boundary. Its version is the log's `seq`."""
from __future__ import annotations

from typing import Any

from eventsourcing.domain import Aggregate, event

from domain.model.ids import game_uuid


class Game(Aggregate):
    """A recorded game. Version N of the aggregate holds line `seq` N of the log."""

    @staticmethod
    def create_id(game: str, line: dict[str, Any]):
        return game_uuid(game)

    @event("Started")
    def __init__(self, game: str, line: dict[str, Any]):
        self.game = game
        self.ruleset = line["data"].get("ruleset")
        self.scenario = line["data"].get("scenario")
        self.last_turn = line["turn"]

    @event("Recorded")
    def record(self, line: dict[str, Any]) -> None:
        self.last_turn = line["turn"]

    @property
    def last_seq(self) -> int:
        return self.version
