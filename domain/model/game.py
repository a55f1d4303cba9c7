"""The Game aggregate: the consistency boundary. Its version is the log's `seq`.

Each event holds its log line as canonical JSON text: the line is stored exactly as written,
and a player's data can never collide with the store's own encoding of types.
"""
from __future__ import annotations

from eventsourcing.domain import event

from domain.model.base import LedgerAggregate
from domain.model.ids import game_uuid


class Game(LedgerAggregate):
    """A recorded game. Version N of the aggregate holds line `seq` N of the log."""

    @staticmethod
    def create_id(game: str, line: str, ruleset: str, turn: int):
        return game_uuid(game)

    @event("Started")
    def __init__(self, game: str, line: str, ruleset: str, turn: int):
        self.game = game
        self.ruleset = ruleset
        self.last_turn = turn

    class Recorded(LedgerAggregate.Event):
        """One more line of the log (an explicit event class: triggering it skips the
        decorator's argument matching, which an import pays once per line)."""

        line: str
        turn: int

        def apply(self, aggregate: "Game") -> None:
            aggregate.last_turn = self.turn

    def record(self, line: str, turn: int) -> None:
        self.trigger_event(self.Recorded, line=line, turn=turn)

    @property
    def last_seq(self) -> int:
        return self.version
