"""The Game aggregate: the consistency boundary. Its version is the log's `seq`.

Each event holds its log line as canonical JSON text: the line is stored exactly as written,
and a player's data can never collide with the store's own encoding of types.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, Optional, Sequence

from eventsourcing.domain import event

from domain.model.base import LedgerAggregate
from domain.model.ids import game_uuid
from domain.transcoder import recorded_states


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

    def record(self, line: str, turn: int, timestamp: Optional[datetime] = None) -> None:
        self.trigger_event(self.Recorded, line=line, turn=turn, timestamp=timestamp)

    def record_all(self, lines: Sequence[str], turns: Sequence[int],
                   timestamp: datetime) -> list[tuple[int, dict[str, Any]]]:
        """Record many lines in one step: for each, its version and the state its Recorded event
        would hold, and the aggregate left as those events leave it. What `record` does line
        by line, without an event object per line (an import records thousands at once); the
        ledger stores the states as the events' own (domain/transcoder.py, state_rows)."""
        return recorded_states(self.record_lines(lines, turns, timestamp), lines, turns, timestamp)

    def record_lines(self, lines: Sequence[str], turns: Sequence[int], timestamp: datetime) -> int:
        """What record_all does to the aggregate, without the states (domain/transcoder.py,
        recorded_rows, writes them): the version of the first line."""
        if len(lines) != len(turns):
            raise ValueError(f"{len(lines)} lines and {len(turns)} turns")
        first = self.version + 1
        if lines:
            self.last_turn = turns[-1]
            self.version = first + len(lines) - 1
            self.modified_on = timestamp
        return first

    @property
    def last_seq(self) -> int:
        return self.version
