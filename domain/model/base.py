"""What the ledger's aggregates share: fast event triggering, the order of their changes, and
their history read back from their own stored events."""
from __future__ import annotations

from typing import Any, Iterable, Optional

from eventsourcing.domain import Aggregate


class LedgerInvariantError(ValueError):
    """A change an aggregate refuses. The log's format refuses the same line first (the ledger
    checks every line before it touches an aggregate), so this is raised only by a caller that
    skipped the checks: an aggregate refuses only what the log format itself refuses, never
    illegal play, which the log records and the auditor judges."""


class OutOfOrderError(LedgerInvariantError):
    """A change from a log line that does not come after the aggregate's last change
    (game-log.md, Envelope: `seq` is 1, 2, 3 ... with no gaps, so a later line has a larger seq)."""

    def __init__(self, name: str, seq: int, last_seq: int):
        self.seq, self.last_seq = seq, last_seq
        super().__init__(f"{name}: a change from seq {seq} cannot follow its change from seq {last_seq}")


class LedgerAggregate(Aggregate):
    """An aggregate that triggers events with less overhead and hands its pending events
    over in one step (the library pops them one by one from the front of a list: time in the
    square of a batch's size, and a 10,000-line import gives the Game 10,000 pending events).
    """

    def trigger_event(self, event_class, **kwargs) -> None:
        """The library's, without its check of explicit topics (none here) and its copies."""
        if kwargs.get("timestamp") is None:
            kwargs["timestamp"] = event_class.create_timestamp()
        new_event = event_class(originator_id=self._id, originator_version=self._version + 1, **kwargs)
        new_event.mutate(self)
        self._pending_events.append(new_event)

    def collect_events(self) -> list:
        events, self._pending_events = self._pending_events, []
        return events


def check_order(name: str, seq: int, last_seq: int) -> None:
    """Refuse a change from a log line that is not later than the aggregate's last change."""
    if seq <= last_seq:
        raise OutOfOrderError(name, seq, last_seq)


def history(events: Iterable[Any]) -> tuple[Optional[Aggregate], list[dict[str, Any]]]:
    """An aggregate's present state and one entry per change, from its own stored events.

    The fold is the repository's own (each event mutates the aggregate in version order), done
    once so that the state and the history come from the same read; each entry is the event's
    `change()` (what it changed, read with the aggregate as that event left it) with the seq of
    the log line that made it; an event of several changes gives an entry for each (`entries()`).
    """
    aggregate, entries = None, []
    for event in events:
        aggregate = event.mutate(aggregate)
        several = getattr(event, "entries", None)  # an event of several changes (Unit.Changed)
        if several is not None:
            entries.extend(several(aggregate))
        else:
            entries.append({"seq": event.seq, **event.change(aggregate)})
    return aggregate, entries
