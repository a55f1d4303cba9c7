"""The ledger (issue: foundation): contiguous seq, conflicts, whole-or-nothing imports, on both stores."""
from __future__ import annotations

import json

import pytest

from domain.application import ConflictError
from domain.log import LogError
from domain.model.ids import element_uuid, unit_uuid
from tests.builders import LogBuilder
from tests.conftest import example_lines


def game(n_moves: int = 3) -> LogBuilder:
    b = LogBuilder(game="ledger-test")
    b.add("MapDefined", {"maps": ["1"], "hexes": {}, "hexsides": []})
    b.unit("g-1", "german", "infantry-platoon", "1:1210")
    b.add("ArtilleryElementAssigned", {"element": "obm-1", "side": "british", "firepower": 20,
                                       "artillery_points": 25}, side="british")
    b.turn_start(1)
    b.phase_start("first-foot-movement", "german")
    for i in range(n_moves):
        here, there = (f"1:12{10 + i % 2}", f"1:12{11 - i % 2}")
        b.add("UnitMoved", {"unit": "g-1", "path": [here, there]}, side="german")
    return b


def test_import_export_round_trip_byte_for_byte(ledger):
    texts = example_lines("first-turn-barrage")
    result = ledger.import_lines(texts)
    assert (result.status, result.appended, result.last_seq) == ("created", 26, 26)
    assert list(ledger.export("first-turn-barrage")) == texts


def test_reimport_is_reported_and_changes_nothing(ledger):
    texts = example_lines("resistance-turns")
    ledger.import_lines(texts)
    before = ledger.recorder.max_notification_id()
    again = ledger.import_lines(texts)
    assert again.status == "unchanged" and again.appended == 0
    assert ledger.recorder.max_notification_id() == before


def test_a_different_log_under_an_existing_id_is_a_conflict(ledger):
    b = game()
    ledger.import_lines(b.texts())
    b.lines[2]["data"]["location"] = "1:1212"
    with pytest.raises(ConflictError) as info:
        ledger.import_lines(b.texts())
    assert info.value.last_seq == len(b.lines)
    assert ledger.lines("ledger-test")[2]["data"]["location"] == "1:1210"


def test_a_longer_log_of_a_stored_game_appends_its_tail(ledger):
    short = game(2)
    ledger.import_lines(short.texts())
    longer = game(4)
    result = ledger.import_lines(longer.texts())
    assert (result.status, result.appended) == ("appended", 2)
    assert [l["seq"] for l in ledger.lines("ledger-test")] == list(range(1, len(longer.lines) + 1))


def test_appending_at_a_stale_seq_is_a_conflict_never_an_overwrite(ledger):
    b = game()
    ledger.import_lines(b.texts())
    stale = dict(b.lines[-1])
    stale["data"] = {"unit": "g-1", "path": ["1:1211", "1:1212"]}
    with pytest.raises(ConflictError) as info:
        ledger.append("ledger-test", [stale])
    assert info.value.last_seq == len(b.lines)
    assert ledger.lines("ledger-test")[-1] == b.lines[-1]


def test_a_bad_line_in_a_file_stores_nothing(ledger):
    b = game()
    b.lines[-2]["data"]["unit"] = "ghost"
    with pytest.raises(LogError) as info:
        ledger.import_lines(b.texts())
    assert info.value.line == len(b.lines) - 1
    assert not ledger.has_game("ledger-test")
    assert ledger.recorder.max_notification_id() in (None, 0)


def test_a_bad_event_in_a_batch_stores_nothing_of_the_batch(ledger):
    b = game(0)
    ledger.import_lines(b.texts())
    good = {"v": 1, "game": "ledger-test", "seq": len(b.lines) + 1, "turn": 1,
            "phase": "first-foot-movement", "side": "german", "type": "UnitMoved",
            "data": {"unit": "g-1", "path": ["1:1210", "1:1211"]}}
    bad = {**good, "seq": good["seq"] + 1, "data": {"unit": "g-1", "path": []}}
    with pytest.raises(LogError) as info:
        ledger.append("ledger-test", [good, bad])
    assert info.value.line == 2
    assert ledger.last_seq("ledger-test") == len(b.lines)


def test_unit_and_element_aggregates_change_with_the_game(ledger):
    b = game(3)
    b.add("ArtilleryPointsSpent", {"element": "obm-1", "points": 4, "reason": "test", "barrage": None},
          side="british")
    ledger.import_lines(b.texts())
    unit = ledger.repository.get(unit_uuid("ledger-test", "g-1"))
    # Deployed at seq 3, then three moves: one stored Unit.Changed for the batch's three changes.
    assert unit.location == "1:1211" and len(unit.seqs) == 4 and unit.version == 2
    element = ledger.repository.get(element_uuid("ledger-test", "obm-1"))
    assert element.points_spent == 4
    game_agg_version = ledger.last_seq("ledger-test")
    assert game_agg_version == len(b.lines)


def test_games_lists_each_game_once(ledger):
    ledger.import_lines(example_lines("first-turn-barrage"))
    ledger.import_lines(example_lines("resistance-turns"))
    rows = {g.game: g for g in ledger.games()}
    assert set(rows) == {"first-turn-barrage", "resistance-turns"}
    assert (rows["resistance-turns"].events, rows["resistance-turns"].last_turn) == (37, 2)
    assert rows["first-turn-barrage"].scenario == "example"


def test_unknown_event_types_are_stored_only_when_allowed(ledger):
    b = game(1)
    b.add("CoffeeBrewed", {"cups": 1})
    with pytest.raises(LogError):
        ledger.import_lines(b.texts())
    assert ledger.import_lines(b.texts(), allow_unknown=True).appended == len(b.lines)
    assert json.loads(list(ledger.export("ledger-test"))[-1])["type"] == "CoffeeBrewed"
