"""The Unit aggregate: one counter or base on the board, changed with the game event that moves it.

It refuses only what the log format refuses (a change out of seq order, a move with no
location); illegal play (a move of an eliminated unit, a path that does not start where the
unit stands) is recorded as the players made it, and the auditor judges it.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, Optional, Union

from eventsourcing.domain import event

from domain.model.base import LedgerAggregate, LedgerInvariantError, check_order
from domain.model.ids import unit_uuid

# A hex location ("1:1210", game-log.md) or a tabletop point in inches
# ({"x", "y", "f"?}, game-log-tabletop.md, Geometry).
Location = Union[str, dict[str, Any]]
# One change of a unit as Unit.Changed keeps it: a move {"seq", "path", "mode"} (as Moved) or a
# status {"seq", "status"} (as StatusChanged); strings, numbers and locations read from the log.
Change = dict[str, Any]


class EmptyPathError(LedgerInvariantError):
    """A move with no location (game-log.md, Units: `path`: [loc, ...], first = start;
    game-log-tabletop.md: "the first is the present position"), so it cannot say where the
    unit ends."""

    def __init__(self, unit: str, seq: int):
        super().__init__(f"unit {unit!r}: the move of seq {seq} has an empty path")


class Unit(LedgerAggregate):
    """A unit's side, class, where it stands and every status the log gave it, in order.

    `statuses` keeps the statuses as recorded (a `pinned` then an `unpinned` are both there):
    which status lifts which is the rule system's, and the board (`umpire state`) says which
    are in force.
    """

    @staticmethod
    def create_id(game: str, unit: str, side: Optional[str], unit_class: str,
                  location: Optional[Location], seq: int):
        return unit_uuid(game, unit)

    class Deployed(LedgerAggregate.Created):
        """The class the `@event("Deployed")` decorator made before, with the same topic and
        fields, so that stored units load as they are."""

        game: str
        unit: str
        side: Optional[str]
        unit_class: str
        location: Optional[Location]
        seq: int

        def change(self, aggregate: "Unit") -> dict[str, Any]:
            return {"change": "deployed", "at": self.location}

    @event(Deployed)
    def __init__(self, game: str, unit: str, side: Optional[str], unit_class: str,
                 location: Optional[Location], seq: int):
        self.game = game
        self.unit = unit
        self.side = side
        self.unit_class = unit_class
        self.location = location
        self.statuses: list[str] = []
        self.seqs = [seq]

    # Explicit event classes for the events an import triggers by the thousand.
    class Moved(LedgerAggregate.Event):
        """A move along `path`, in the log's `mode` (docs/schema-evolution.md).

        Version 2 keeps the mode: the ground-war rules judge a move by it (IM.OPTMOVE.RUN.ELIG:
        a unit that ran may not move in the other foot phase; IM.INF.SKI, IM.CAV.TROT;
        AVBCW.MELEE.FALLBACK, AVBCW.MELEE.PURSUE), so a unit's history must say how it moved. A UnitMoved
        without a mode is a normal move (game-log.md, Units: `mode`?: normal|run|...), and so
        is recorded. Version 1 kept only the path: its stored events read with mode None, "not
        recorded" (the game's log still has it, at `seq`)."""

        path: list[Location]
        seq: int
        mode: Optional[str]

        class_version = 2

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["mode"] = None

        def apply(self, aggregate: "Unit") -> None:
            aggregate.location = self.path[-1]
            aggregate.seqs.append(self.seq)

        def change(self, aggregate: "Unit") -> dict[str, Any]:
            return {"change": "moved", "path": self.path, "at": self.path[-1], "mode": self.mode}

    class StatusChanged(LedgerAggregate.Event):
        status: str
        seq: int

        def apply(self, aggregate: "Unit") -> None:
            aggregate.statuses.append(self.status)
            aggregate.seqs.append(self.seq)

        def change(self, aggregate: "Unit") -> dict[str, Any]:
            return {"change": "status-changed", "status": self.status}

    class Changed(LedgerAggregate.Event):
        """Several changes of the unit made by one batch, in seq order: each a move
        {"seq", "path", "mode"} or a status {"seq", "status"}, as a Moved or a StatusChanged
        event would keep it. An import changes a unit by the hundred (every move of a game):
        one stored event for them all instead of one each, a third of an import's rows. A batch
        that changes the unit once stores a Moved or a StatusChanged, as before."""

        changes: list[Change]

        def apply(self, aggregate: "Unit") -> None:
            for change in self.changes:
                if "path" in change:
                    aggregate.location = change["path"][-1]
                else:
                    aggregate.statuses.append(change["status"])
                aggregate.seqs.append(change["seq"])

        def entries(self, aggregate: "Unit") -> list[dict[str, Any]]:
            """One history entry per change, as a Moved's or a StatusChanged's."""
            return [{"seq": c["seq"], "change": "moved", "path": c["path"], "at": c["path"][-1], "mode": c["mode"]}
                    if "path" in c else {"seq": c["seq"], "change": "status-changed", "status": c["status"]}
                    for c in self.changes]

    @property
    def deployed_seq(self) -> int:
        return self.seqs[0]

    @property
    def last_seq(self) -> int:
        return self.seqs[-1]

    def move(self, path: list[Location], seq: int, timestamp: Optional[datetime] = None,
             mode: str = "normal") -> None:
        self.change_all([{"seq": seq, "path": path, "mode": mode}], timestamp)

    def change_status(self, status: str, seq: int, timestamp: Optional[datetime] = None) -> None:
        self.change_all([{"seq": seq, "status": status}], timestamp)

    def change_all(self, changes: list[Change], timestamp: Optional[datetime] = None) -> None:
        """Record one batch's changes of the unit (moves {"seq", "path", "mode"} and statuses
        {"seq", "status"}, in seq order): one Changed event, or the Moved or StatusChanged
        of a single change. Refuses a change out of order and a move without a path."""
        last = self.last_seq
        for change in changes:
            seq = change["seq"]
            if seq <= last:
                check_order(f"unit {self.unit!r}", seq, last)  # raises
            last = seq
            if "path" in change and not change["path"]:
                raise EmptyPathError(self.unit, seq)
        if len(changes) > 1:
            self.trigger_event(self.Changed, changes=changes, timestamp=timestamp)
        elif changes:
            change = changes[0]
            if "path" in change:
                self.trigger_event(self.Moved, path=change["path"], seq=change["seq"], mode=change["mode"],
                                   timestamp=timestamp)
            else:
                self.trigger_event(self.StatusChanged, status=change["status"], seq=change["seq"],
                                   timestamp=timestamp)
