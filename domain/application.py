"""The service layer: the eventsourcing Application that keeps every game's log.

One transaction per appended batch; a batch is checked whole before anything is written; a
stale `seq` surfaces as `ConflictError` (the library's unique (aggregate, version) key), never
as an overwrite.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable, Iterator, Optional, Sequence

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.utils import Environment

from domain.gcpause import collector_paused
from domain.log import (LogCursor, LogError, canonical, chain, check_line, check_valid, parse_json_line,
                        read_line, read_stored_line)
from domain.model import Game, OffMapArtilleryElement, Unit
from domain.model.base import OutOfOrderError
from domain.model.ids import element_uuid, game_uuid, unit_uuid
from domain.recorders import RECORDERS, line_of
from domain.transcoder import OrjsonTranscoder, recorded_rows, stored_rows


class ConflictError(Exception):
    """The batch does not continue the game where it stands (or another log has its id)."""

    def __init__(self, game: str, last_seq: int, message: str):
        self.game, self.last_seq = game, last_seq
        super().__init__(message)


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"no game {self.args[0]!r} in this store"


@dataclass
class AppendResult:
    game: str
    appended: int
    last_seq: int
    status: str = "appended"  # appended | unchanged | created


@dataclass
class GameSummary:
    game: str
    ruleset: str
    scenario: str
    date: str
    sides: list[str]
    events: int
    last_turn: int


@dataclass
class _Batch:
    """Aggregates touched by one batch, stored together in one transaction: the game (version
    `stored` before the batch) with its lines to record (Game.record_lines), and the units
    and elements with their pending events (a unit's changes noted first, then recorded at once)."""

    game: Game
    stored: int
    # The lines the game recorded (Game.record_lines): the first one's version, the lines, their
    # turns and the batch's timestamp (the states of their Recorded events: transcoder.recorded_rows).
    first: int = 0
    texts: Sequence[str] = ()
    turns: Sequence[int] = ()
    now: Optional[datetime] = None
    units: dict[str, Unit] = field(default_factory=dict)
    elements: dict[str, OffMapArtilleryElement] = field(default_factory=dict)
    # Each unit's changes in this batch, in seq order: recorded together (Unit.change_all).
    changes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


# The log's event types that change a unit or an element (Ledger._touch); most lines change neither.
_TOUCHING = frozenset(("UnitDeployed", "UnitMoved", "UnitStatusChanged", "ArtilleryElementAssigned",
                       "ArtilleryPointsSpent", "ArtilleryElementEliminated"))


def _project(aggregate, events):
    """A plain projector: the library's default asserts a runtime Protocol on every event."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


class Ledger(Application):
    """Every recorded game, as Game, Unit and OffMapArtilleryElement aggregates."""

    name = "Umpire"
    snapshotting_intervals = {Game: 250}
    snapshotting_projectors = {Game: _project}

    def __init__(self, env: Optional[dict[str, str]] = None):
        super().__init__(env)
        self._cursors: dict[str, LogCursor] = {}

    def construct_env(self, name: str, env: Optional[dict[str, str]] = None) -> Environment:
        """The library's settings, with the ledger's recorder for its store (unless they name one)."""
        environment = super().construct_env(name, env)
        recorder = RECORDERS.get(environment.get("PERSISTENCE_MODULE", ""))
        if recorder is not None and environment.get("APPLICATION_RECORDER_TOPIC") is None:
            environment["APPLICATION_RECORDER_TOPIC"] = recorder
        return environment

    def construct_transcoder(self) -> OrjsonTranscoder:
        transcoder = OrjsonTranscoder()
        self.register_transcodings(transcoder)
        return transcoder

    # -- reading --------------------------------------------------------------------------
    def _line_text(self, stored) -> str:
        """The log line a stored Game event holds, as text."""
        state = stored.state
        if self.mapper.cipher:
            state = self.mapper.cipher.decrypt(state)
        if self.mapper.compressor:
            state = self.mapper.compressor.decompress(state)
        return line_of(state)

    def _decode(self, stored) -> dict[str, Any]:
        return read_stored_line(self._line_text(stored))

    def lines(self, game: str, after: int = 0, upto: Optional[int] = None,
              limit: Optional[int] = None) -> list[dict[str, Any]]:
        """The game's stored lines (without `prev`) with after < seq <= upto."""
        originator_id, gt = game_uuid(game), after or None
        select_lines = getattr(self.recorder, "select_lines", None)
        if select_lines is not None and not self.mapper.cipher and not self.mapper.compressor:
            texts = select_lines(originator_id, gt=gt, lte=upto, limit=limit)
        else:
            texts = [self._line_text(s) for s in self.recorder.select_events(originator_id, gt=gt, lte=upto,
                                                                             limit=limit)]
        return [read_stored_line(text) for text in texts]

    def iter_lines(self, game: str, page: int = 5000) -> Iterator[dict[str, Any]]:
        after = 0
        while True:
            batch = self.lines(game, after=after, limit=page)
            yield from batch
            if len(batch) < page:
                return
            after = batch[-1]["seq"]

    def last_seq(self, game: str) -> int:
        last = self.recorder.select_events(game_uuid(game), desc=True, limit=1)
        return last[0].originator_version if last else 0

    def has_game(self, game: str) -> bool:
        return self.last_seq(game) > 0

    def cursor(self, game: str) -> LogCursor:
        """The structure checker's view of the game, brought up to date from the store."""
        cursor = self._cursors.get(game) or LogCursor()
        for line in self.lines(game, after=cursor.next_seq - 1):
            cursor.advance(line)
        if cursor.game is not None:
            self._cursors[game] = cursor
        return _copy_cursor(cursor)

    def export(self, game: str) -> Iterator[str]:
        """Canonical lines with the hash chain."""
        if not self.has_game(game):
            raise UnknownGame(game)
        return chain(self.iter_lines(game))

    def games(self) -> list[GameSummary]:
        topic = f"{Game.__module__}:{Game.__qualname__}.Started"
        out, start = [], 1
        while True:
            notes = self.recorder.select_notifications(start, 1000, topics=[topic])
            for note in notes:
                line = self._decode(note)
                game = line["game"]
                last = self.recorder.select_events(game_uuid(game), desc=True, limit=1)[0]
                data = line["data"]
                out.append(GameSummary(
                    game=game, ruleset=data.get("ruleset", ""), scenario=data.get("scenario", ""),
                    date=data.get("date", ""), sides=list(data.get("sides", {})),
                    events=last.originator_version, last_turn=self._decode(last)["turn"]))
            if len(notes) < 1000:
                return sorted(out, key=lambda g: g.game)
            start = notes[-1].id + 1

    # -- writing --------------------------------------------------------------------------
    def check(self, game: str, objs: list[dict[str, Any]], *, allow_unknown: bool = False,
              first_line: int = 1, cursor: Optional[LogCursor] = None) -> list[dict[str, Any]]:
        """Check a batch against the schemas and the stored game; return the lines to store."""
        cursor = cursor if cursor is not None else self.cursor(game)
        checked = []
        for number, obj in enumerate(objs, start=first_line):
            if obj.get("game", game) != game:
                raise LogError(number, "game", f"game {obj.get('game')!r} differs from {game!r}")
            line = check_line(obj, number, cursor, allow_unknown=allow_unknown)
            cursor.advance(line)
            checked.append(line)
        return checked

    @collector_paused()
    def append(self, game: str, objs: list[dict[str, Any]], *, allow_unknown: bool = False,
               first_line: int = 1, checked: bool = False,
               texts: Optional[list[str]] = None) -> AppendResult:
        """Check and store one batch, whole or not at all (`checked`: the caller checked it
        against the stored game already; `texts`: the caller has the lines' canonical forms)."""
        if not objs:
            raise LogError(first_line, "events", "an empty batch")
        stored_last = self.last_seq(game)
        first_seq = objs[0].get("seq")
        if type(first_seq) is int and stored_last and first_seq != stored_last + 1:
            raise ConflictError(game, stored_last,
                                f"the batch starts at seq {first_seq}; the game's next seq is {stored_last + 1}")
        try:
            lines = objs if checked else self.check(game, objs, allow_unknown=allow_unknown, first_line=first_line)
        except LogError:
            last = self.last_seq(game)
            if last != stored_last:  # another writer appended while this batch was checked
                raise ConflictError(game, last, f"another writer appended first; the game's last seq is {last}") from None
            raise
        try:
            batch = self._build(game, lines, stored_last, texts)
        except OutOfOrderError:
            # A unit or element read after another writer appended to the game: its change is later
            # than this batch's (a conflict, as the unique key would have said at the write).
            self._cursors.pop(game, None)
            if self.last_seq(game) != stored_last:
                raise self._overtaken(game) from None
            raise
        try:
            self._store(batch)
        except IntegrityError:
            self._cursors.pop(game, None)
            raise self._overtaken(game) from None
        return AppendResult(game, len(lines), lines[-1]["seq"], "created" if not stored_last else "appended")

    def _overtaken(self, game: str) -> ConflictError:
        """The conflict of a batch another writer's append overtook (the API's 409)."""
        last = self.last_seq(game)
        return ConflictError(game, last, f"another writer appended first; the game's last seq is {last}")

    @collector_paused()
    def import_lines(self, texts: Iterable[str], *, allow_unknown: bool = False) -> AppendResult:
        """Import one file: new games are created, a re-import changes nothing, a longer log of a
        stored game appends its new tail, and any other difference is a conflict."""
        numbers, reads = [], []
        for number, text in enumerate(texts, start=1):
            if text and not text.isspace():  # what text.strip() keeps, without the copy
                reads.append(read_line(text, number, keep_prev=False))
                numbers.append(number)
        objs, bodies = [read.obj for read in reads], [read.body for read in reads]
        if not objs:
            raise LogError(1, "(file)", "the log holds no events")
        game = objs[0].get("game")
        if not isinstance(game, str):
            raise LogError(numbers[0], "game", "missing or not a string")
        stored = self.lines(game)
        if stored:
            return self._reimport(game, objs, numbers, bodies, reads, stored, allow_unknown)
        lines = self._check_numbered(game, numbers, allow_unknown, LogCursor(), reads)
        return self.append(game, lines, checked=True, texts=bodies)

    def _reimport(self, game, objs, numbers, bodies, reads, stored, allow_unknown) -> AppendResult:
        for i, old in enumerate(stored):
            if i >= len(objs):
                raise ConflictError(game, len(stored), f"game {game!r} is stored with {len(stored)} events; "
                                    f"this log has only {len(objs)}")
            if bodies[i] != canonical(old):
                raise ConflictError(game, len(stored), f"line {numbers[i]} differs from the stored game "
                                    f"{game!r} at seq {old['seq']}: a different log under an existing id")
        tail = objs[len(stored):]
        if not tail:
            return AppendResult(game, 0, len(stored), "unchanged")
        lines = self._check_numbered(game, numbers, allow_unknown, LogCursor(), reads)
        return self.append(game, lines[len(stored):], checked=True, texts=bodies[len(stored):])

    def _check_numbered(self, game, numbers, allow_unknown, cursor, reads) -> list[dict[str, Any]]:
        """Check a whole file with its real line numbers (blank lines are not counted as events);
        `reads`: its lines as read_line read them, their `prev` taken out of their objects (each
        line as check_line returns it)."""
        lines = []
        advance = cursor.advance
        for (obj, _, plain, bounded, digest, prev), number in zip(reads, numbers):  # a ReadLine's fields
            if obj.get("game", game) != game:
                raise LogError(number, "game", f"game {obj.get('game')!r} differs from {game!r} on the first line")
            check_valid(obj, number, cursor, allow_unknown=allow_unknown, bounded=bounded, prev=prev)
            advance(obj, plain, digest)
            lines.append(obj)
        return lines

    def _build(self, game: str, lines: list[dict[str, Any]], stored_last: int,
               texts: Optional[list[str]] = None) -> _Batch:
        texts = texts if texts is not None else [canonical(line) for line in lines]
        if stored_last:
            # The game as it stood when the batch was checked: if another writer has appended
            # since, saving version stored_last + 1 collides with theirs (a conflict), instead of
            # recording this batch after theirs under the wrong seq.
            batch = _Batch(self.repository.get(game_uuid(game), version=stored_last), stored_last)
            start = 0
        else:
            first = lines[0]
            batch = _Batch(Game(game, texts[0], first["data"].get("ruleset"), first["turn"]), 0)
            start = 1
        # One timestamp for the batch: its events are stored together, in one transaction.
        now = Game.Event.create_timestamp()
        batch.texts, batch.turns, batch.now = texts[start:], [line["turn"] for line in lines[start:]], now
        batch.first = batch.game.record_lines(batch.texts, batch.turns, now)
        changes = batch.changes
        for line in lines:
            kind = line["type"]
            if kind == "UnitMoved":  # most of them: noted here, without a call each
                data = line["data"]
                unit = data["unit"]
                noted = changes.get(unit)
                if noted is None:  # the unit's first change in the batch
                    self._unit(batch, game, unit)  # a unit never deployed: AggregateNotFoundError
                    noted = changes[unit] = []
                noted.append({"seq": line["seq"], "path": data["path"], "mode": data.get("mode") or "normal"})
            elif kind in _TOUCHING:
                self._touch(batch, game, line, now)
        for unit, noted in changes.items():
            batch.units[unit].change_all(noted, now)
        return batch

    def _store(self, batch: _Batch) -> None:
        """Write the batch's events, and the game's snapshot when it crosses an interval, in one
        transaction (domain/recorders): the game's lines in seq order, then the units' and the
        elements' events. The ledger has no followers (its projections read the notification
        log), so it makes no Recording per event."""
        game = batch.game
        rows = stored_rows(game.collect_events(), self.mapper)
        if batch.texts:
            rows += recorded_rows(game.id, Game.Recorded, batch.first, batch.texts, batch.turns, batch.now,
                                  self.mapper)
        for aggregate in (*batch.units.values(), *batch.elements.values()):
            rows += stored_rows(aggregate.collect_events(), self.mapper)
        interval = self.snapshotting_intervals[Game]
        snapshots = []
        if self.snapshots is not None and game.version // interval > batch.stored // interval:
            snapshots.append(self.mapper.to_stored_event(Game.Snapshot.take(game)))
        insert_batch = getattr(self.recorder, "insert_batch", None)
        if insert_batch is not None:
            insert_batch(rows, snapshots, self.snapshots.recorder if snapshots else None)
            return
        self.recorder.insert_events([StoredEvent(*row) for row in rows])  # another store: two transactions
        if snapshots:
            self.snapshots.recorder.insert_events(snapshots)

    def _touch(self, batch: _Batch, game: str, line: dict[str, Any], now: datetime) -> None:
        """Change the unit and element aggregates that a game event moves, in the same batch."""
        kind, data, seq = line["type"], line["data"], line["seq"]
        if kind == "UnitDeployed":  # (a UnitMoved is noted by _build itself)
            # A hex counter has a class and a location; a tabletop unit a type (or class) and a position.
            unit_class = data.get("class") or data.get("type") or "unit"
            batch.units[data["unit"]] = Unit(game, data["unit"], line.get("side"), unit_class,
                                             data.get("location", data.get("position")), seq)
        elif kind == "UnitStatusChanged":
            if self._deployed_unit(batch, game, data["unit"]) is not None:
                self._note(batch, data["unit"], {"seq": seq, "status": data["status"]})
        elif kind == "ArtilleryElementAssigned":
            batch.elements[data["element"]] = OffMapArtilleryElement(
                game, data["element"], data["side"], data["firepower"], data.get("artillery_points"), seq)
        elif kind == "ArtilleryPointsSpent":
            self._element(batch, game, data["element"]).spend(data["points"], seq, now)
        elif kind == "ArtilleryElementEliminated":
            self._element(batch, game, data["element"]).eliminate(seq, now)

    @staticmethod
    def _note(batch: _Batch, unit: str, change: dict[str, Any]) -> None:
        """A change of the unit, recorded with its others of the batch once they are all known."""
        noted = batch.changes.get(unit)
        if noted is None:
            batch.changes[unit] = [change]
        else:
            noted.append(change)

    def _unit(self, batch: _Batch, game: str, unit: str) -> Unit:
        if unit not in batch.units:
            batch.units[unit] = self.repository.get(unit_uuid(game, unit))
        return batch.units[unit]

    def _deployed_unit(self, batch: _Batch, game: str, unit: str) -> Optional[Unit]:
        """The unit's aggregate, or None for a unit a rule system lists before it deploys (an AVBCW
        army list: "not-arrived" before deployment): its aggregate begins with its UnitDeployed,
        and the log keeps what came before."""
        try:
            return self._unit(batch, game, unit)
        except AggregateNotFoundError:
            return None

    def _element(self, batch: _Batch, game: str, element: str) -> OffMapArtilleryElement:
        if element not in batch.elements:
            batch.elements[element] = self.repository.get(element_uuid(game, element))
        return batch.elements[element]


def _copy_cursor(cursor: LogCursor) -> LogCursor:
    return LogCursor(game=cursor.game, next_seq=cursor.next_seq, turn=cursor.turn, phase=cursor.phase,
                     sides=set(cursor.sides), units=set(cursor.units), elements=set(cursor.elements),
                     ruleset=cursor.ruleset, deployed=set(cursor.deployed), state=copy.deepcopy(cursor.state),
                     _prev=cursor.prev)


def parse_batch(events: list[Any]) -> list[dict[str, Any]]:
    """Events as JSON objects (an API body may hold them as objects or as JSON strings)."""
    out = []
    for number, item in enumerate(events, start=1):
        if isinstance(item, str):
            item = parse_json_line(item, number)
        if not isinstance(item, dict):
            raise LogError(number, "(json)", "an event must be a JSON object")
        out.append(json.loads(json.dumps(item)))
    return out
