"""How the ledger stores and reads a game, on both stores: the lines read back are the lines
checked (every value as `json` reads it), a batch is written whole in one transaction with the
snapshot it calls for, and the stored events are the library's own (a store written through the
library's recorders reads the same, and the other way round)."""
from __future__ import annotations

import dataclasses
import json
import math

import pytest

from api.settings import ledger_env
from domain.application import ConflictError, Ledger
from domain.log import canonical, chain
from domain.model import Game
from domain.model.ids import game_uuid
from tests.builders import LogBuilder

# Values that `json` and orjson read differently, or that a store's own JSON functions must
# take out of the stored state unchanged: quotes and backslashes (the state holds the line as a
# JSON string), line separators, characters beyond the BMP, an integer beyond 64 bits, floats,
# NaN and infinity (which `json` reads and orjson refuses).
AWKWARD = {"quote": 'say "when"', "backslash": "C:\\maps\\1.json \\u0041", "separator": "a\u2028b\u2029c",
           "beyond_bmp": "\U0001f5fa map", "accents": "Montdidier-sur-Aisne, Kämpfe", "long": 2 ** 70,
           "negative_long": -(2 ** 64) - 1, "float": 0.1, "tiny": 5e-324, "big": 1e16, "nan": math.nan,
           "infinity": -math.inf, "nested": {"list": [1, [2, ["three"]]], "empty": {}}}


def awkward_game(moves: int = 3) -> LogBuilder:
    b = LogBuilder(game="awkward")
    b.add("MapDefined", {"maps": ["1"], "hexes": {}, "hexsides": [], "note": AWKWARD})
    b.unit("g-1", "german", "infantry-platoon", "1:1210")
    b.turn_start(1)
    b.phase_start("first-foot-movement", "german")
    for i in range(moves):
        b.add("UnitMoved", {"unit": "g-1", "path": [f"1:12{10 + i % 2}", f"1:12{11 - i % 2}"], "why": AWKWARD},
              side="german")
    return b


def test_every_value_reads_back_as_json_reads_the_stored_line(ledger):
    # game-log.md, Integrity: the canonical form is the line's JSON object with keys sorted, UTF-8,
    # ensure_ascii off; what is stored is that form, and reading it gives the values `json` gives.
    b = awkward_game()
    ledger.import_lines(b.texts())
    read = ledger.lines("awkward")
    assert [canonical(line) for line in read] == [canonical(json.loads(t)) for t in b.texts()]
    note = read[1]["data"]["note"]
    assert type(note["long"]) is int and note["long"] == 2 ** 70 and math.isnan(note["nan"])
    assert list(ledger.export("awkward")) == list(chain(json.loads(t) for t in b.texts()))


def test_a_window_of_the_game_reads_as_the_librarys_stored_events_give_it(ledger):
    b = awkward_game(moves=40)
    ledger.import_lines(b.texts())
    for after, upto, limit in [(0, None, None), (0, 1, None), (3, 10, None), (5, None, 7), (44, None, None),
                               (45, None, None), (2, 2, None)]:
        stored = ledger.recorder.select_events(game_uuid("awkward"), gt=after or None, lte=upto, limit=limit)
        assert ledger.lines("awkward", after, upto, limit) == [ledger._decode(s) for s in stored]
    assert [line["seq"] for line in ledger.iter_lines("awkward", page=7)] == list(range(1, 46))


def test_a_batch_crossing_a_snapshot_interval_stores_its_snapshot_with_it(ledger):
    b = awkward_game(moves=300)
    ledger.import_lines(b.texts())
    snapshots = ledger.snapshots.recorder.select_events(game_uuid("awkward"))
    assert [s.originator_version for s in snapshots] == [len(b.lines)]
    game = ledger.repository.get(game_uuid("awkward"))
    assert (game.version, game.last_turn) == (len(b.lines), 1)


def test_a_batch_whose_snapshot_cannot_be_written_stores_none_of_its_events(ledger):
    # DESIGN.md: a file imports whole or not at all. The snapshot is written last, in the same
    # transaction as the batch's events: when it fails (its version taken here beforehand, as a
    # writer that got there first would have), the events written before it go too.
    short, long = awkward_game(moves=2), awkward_game(moves=300)
    ledger.import_lines(short.texts())
    game = ledger.repository.get(game_uuid("awkward"))
    taken = dataclasses.replace(ledger.mapper.to_stored_event(Game.Snapshot.take(game)),
                                originator_version=len(long.lines))
    ledger.snapshots.recorder.insert_events([taken])
    notifications = ledger.recorder.max_notification_id()
    with pytest.raises(ConflictError):
        ledger.import_lines(long.texts())
    assert ledger.last_seq("awkward") == len(short.lines)
    assert ledger.recorder.max_notification_id() == notifications
    assert [canonical(line) for line in ledger.lines("awkward")] == [canonical(json.loads(t)) for t in short.texts()]


def test_the_stored_events_are_the_ones_the_librarys_mapper_writes(ledger):
    b = awkward_game(moves=4)
    ledger.import_lines(b.texts())
    events = list(ledger.events.get(game_uuid("awkward")))
    assert [type(e) for e in events] == [Game.Started] + [Game.Recorded] * (len(b.lines) - 1)
    stored = ledger.recorder.select_events(game_uuid("awkward"))
    assert [ledger.mapper.to_stored_event(e) for e in events] == list(stored)
    assert [e.line for e in events] == [canonical(json.loads(t)) for t in b.texts()]
    assert len({e.timestamp for e in events[1:]}) == 1  # one batch, one timestamp


def test_a_store_written_through_the_librarys_recorder_reads_the_same(db_url):
    recorder = ("eventsourcing.postgres:PostgresApplicationRecorder" if db_url.startswith("postgresql")
                else "eventsourcing.sqlite:SQLiteApplicationRecorder")
    first, second = awkward_game(moves=3), awkward_game(moves=260)
    library = Ledger({**ledger_env(db_url), "APPLICATION_RECORDER_TOPIC": recorder})
    ours = Ledger(ledger_env(db_url))
    try:
        assert not hasattr(library.recorder, "select_lines")
        library.import_lines(first.texts())
        ours.import_lines(second.texts())  # the tail, appended through the ledger's recorder
        assert library.lines("awkward") == ours.lines("awkward")
        assert list(library.export("awkward")) == list(ours.export("awkward"))
        assert library.repository.get(game_uuid("awkward")).version == len(second.lines)
    finally:
        library.close()
        ours.close()


def test_a_turn_beyond_64_bits_and_beyond_a_double_reads_back(ledger):
    # game-log.md: `turn` is a whole number; a stored state holding one that orjson cannot write
    # (beyond 64 bits) or read (beyond a double) is written and read by `json`.
    b = awkward_game(moves=1)
    for turn in (2 ** 70, 10 ** 400):
        b.turn_start(turn)
    ledger.import_lines(b.texts())
    assert [line["turn"] for line in ledger.lines("awkward")[-2:]] == [2 ** 70, 10 ** 400]
    assert ledger.repository.get(game_uuid("awkward")).last_turn == 10 ** 400
    assert list(ledger.export("awkward")) == list(chain(json.loads(t) for t in b.texts()))
