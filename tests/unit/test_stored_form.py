"""What the ledger's bulk paths write is what the library's own would: Game.record_all leaves
the game as recording its lines one by one does and gives the states their events would hold,
and the stored rows are the library Mapper's stored events, byte for byte."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from eventsourcing.persistence import DatetimeAsISO, DecimalAsStr, Mapper, UUIDAsHex

from domain.model import Game, Unit
from domain.transcoder import OrjsonTranscoder, recorded_rows, state_rows, stored_rows

LINES = ['{"data":{"turn":1},"game":"g","phase":"start","seq":2,"side":null,"turn":1,"type":"TurnStarted","v":1}',
         '{"data":{"note":"a \\"quoted\\" \\\\ path \u2028 \U0001f5fa"},"game":"g","phase":"start","seq":3,'
         '"side":null,"turn":1,"type":"Note","v":1}',
         '{"data":{"turn":2},"game":"g","phase":"start","seq":4,"side":null,"turn":2,"type":"TurnStarted","v":1}']
TURNS = [1, 1, 2]


def mapper() -> Mapper:
    transcoder = OrjsonTranscoder()
    for transcoding in (UUIDAsHex(), DecimalAsStr(), DatetimeAsISO()):
        transcoder.register(transcoding)
    return Mapper(transcoder)


def recorded_both_ways():
    """The same lines recorded by a game one by one and by another at once, at one timestamp."""
    one_by_one = Game("g", '{"seq":1}', "infernal-machines", 0)
    at_once = Game("g", '{"seq":1}', "infernal-machines", 0)
    at_once._created_on = one_by_one.created_on
    one_by_one.collect_events()
    now = Game.Event.create_timestamp()
    for line, turn in zip(LINES, TURNS):
        one_by_one.record(line, turn, now)
    return one_by_one, at_once, at_once.record_all(LINES, TURNS, now), now


def test_recording_all_lines_at_once_leaves_the_game_as_recording_them_one_by_one():
    one_by_one, at_once, _, now = recorded_both_ways()
    assert {k: v for k, v in vars(at_once).items() if k != "_pending_events"} == \
        {k: v for k, v in vars(one_by_one).items() if k != "_pending_events"}
    assert (at_once.version, at_once.last_turn, at_once.modified_on) == (4, 2, now)


def test_the_states_recorded_at_once_store_as_the_events_recorded_one_by_one():
    one_by_one, at_once, states, _ = recorded_both_ways()
    library = [mapper().to_stored_event(e) for e in one_by_one.collect_events()]
    rows = state_rows(at_once.id, Game.Recorded, states, mapper())
    assert rows == [(s.originator_id, s.originator_version, s.topic, s.state) for s in library]


def test_the_lines_recorded_at_once_store_as_their_states_would_and_leave_the_game_alike():
    one_by_one, at_once, states, now = recorded_both_ways()
    lines_only = Game("g", '{"seq":1}', "infernal-machines", 0)
    lines_only._created_on = at_once.created_on
    first = lines_only.record_lines(LINES, TURNS, now)
    assert {k: v for k, v in vars(lines_only).items() if k != "_pending_events"} == \
        {k: v for k, v in vars(at_once).items() if k != "_pending_events"}
    assert recorded_rows(at_once.id, Game.Recorded, first, LINES, TURNS, now, mapper()) == \
        state_rows(at_once.id, Game.Recorded, states, mapper())


@pytest.mark.parametrize("turns, timestamp", [
    ([0, 2 ** 63 - 1, -(2 ** 63)], Game.Event.create_timestamp()),
    ([1, 2 ** 63, 2], Game.Event.create_timestamp()),  # beyond 64 bits: encode() writes it
    ([1, 1, 2], datetime(1917, 4, 9, 5, 30, tzinfo=timezone(timedelta(hours=1)))),  # not UTC
])
def test_recorded_rows_are_the_states_rows_for_any_turn_and_timestamp(turns, timestamp):
    states = [(7 + i, {"timestamp": timestamp, "line": line, "turn": turn})
              for i, (line, turn) in enumerate(zip(LINES, turns))]
    game = Game("g", "{}", "x", 0)
    assert recorded_rows(game.id, Game.Recorded, 7, LINES, turns, timestamp, mapper()) == \
        state_rows(game.id, Game.Recorded, states, mapper())


def test_stored_rows_are_the_mappers_stored_events():
    unit = Unit("g", "u-1", "german", "infantry-platoon", "1:1210", 3)
    now = Game.Event.create_timestamp()
    unit.move(["1:1210", "1:1211"], 5, now)
    unit.change_status("pinned", 6)  # its own timestamp
    events = unit.collect_events()
    library = [mapper().to_stored_event(e) for e in events]
    assert stored_rows(events, mapper()) == [(s.originator_id, s.originator_version, s.topic, s.state)
                                             for s in library]


def test_a_units_changes_of_a_batch_store_as_the_mapper_writes_them():
    unit = Unit("g", "u-1", "german", "infantry-platoon", {"x": 1.5, "y": 2.0}, 3)
    unit.change_all([{"seq": 5, "path": [{"x": 1.5, "y": 2.0}, {"x": 1.5, "y": 4.25, "f": 90}], "mode": "charge"},
                     {"seq": 6, "status": "shaken"}], Game.Event.create_timestamp())
    events = unit.collect_events()
    library = [mapper().to_stored_event(e) for e in events]
    assert stored_rows(events, mapper()) == [(s.originator_id, s.originator_version, s.topic, s.state)
                                             for s in library]
    assert [mapper().to_domain_event(s).__dict__ for s in library] == [e.__dict__ for e in events]


@pytest.mark.parametrize("state", [
    {"timestamp": Game.Event.create_timestamp(), "line": '{"a":"\\"quoted\\""}', "turn": 3},
    {"timestamp": datetime(1917, 4, 9, 5, 30, tzinfo=timezone(timedelta(hours=1))), "seq": 1},  # not UTC
    {"timestamp": Game.Event.create_timestamp(), "path": ["1:1210", {"x": 1.5, "y": 2e16}], "seq": 2 ** 70},
    {"timestamp": Game.Event.create_timestamp(), "status": None, "points": -3, "eliminated": True},
])
def test_a_state_without_uuids_is_written_in_one_call_as_encode_writes_it(state):
    transcoder = mapper().transcoder
    assert transcoder.encode_plain(state) == transcoder.encode(state)
    assert transcoder.encode_plain(state) == transcoder.encode_plain(state)  # the tag kept for the next
