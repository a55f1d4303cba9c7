"""What is stored is exactly what was validated: integers are integers, no coercion, no unknown
envelope fields, no lone surrogates, and every event within the documented bounds."""
from __future__ import annotations

import json

import pytest

from domain.log import LIMITS, LogError, read_lines
from tests.builders import LogBuilder
from tests.unit.test_log import error_of, small_game


@pytest.mark.parametrize("value", ["4", 4.0, True, None])
def test_a_turn_that_is_not_an_integer_is_refused(value):
    # game-log.md, The envelope: `turn` is the game turn (an integer); "4" once locked a game.
    b = small_game()
    b.lines[6]["turn"] = value
    err = error_of(b.texts())
    assert (err.line, err.field) == (7, "turn")


@pytest.mark.parametrize("value", ["7", 7.0, 433.0, False])
def test_a_seq_that_is_not_an_integer_is_refused(value):
    b = small_game()
    b.lines[6]["seq"] = value
    err = error_of(b.texts())
    assert (err.line, err.field) == (7, "seq")


def test_the_version_must_be_the_integer_one():
    b = small_game()
    b.lines[0]["v"] = True
    assert error_of(b.texts()).field == "v"


@pytest.mark.parametrize("event, field, value", [
    (4, "turn", "1"),                    # TurnStarted.turn
    (6, "path", "1:1210"),               # UnitMoved.path
])
def test_data_fields_are_not_coerced(event, field, value):
    b = small_game()
    b.lines[event]["data"][field] = value
    err = error_of(b.texts())
    assert err.line == event + 1 and err.field.endswith(field)


def test_a_die_result_of_true_is_not_a_six_or_a_one():
    b = small_game()
    b.add("DieRolled", {"purpose": "LS.MORALE", "die": "d6", "result": True}, side="german")
    err = error_of(b.texts())
    assert err.line == 8 and err.field.endswith("result")


def test_a_morale_check_passed_must_be_a_boolean():
    b = small_game()
    b.add("MoraleChecked", {"units": ["g-1"], "passed": 1}, side="german")
    err = error_of(b.texts())
    assert err.line == 8 and err.field.endswith("passed")


def test_an_unknown_top_level_field_is_refused():
    b = small_game()
    b.lines[5]["colour"] = "red"
    err = error_of(b.texts())
    assert (err.line, err.field) == (6, "colour")


def test_a_lone_surrogate_is_refused_naming_the_field():
    b = small_game()
    texts = b.texts()
    obj = json.loads(texts[6])
    obj["data"]["note"] = "x"
    texts[6] = json.dumps(obj).replace('"x"', '"\\ud800"')
    err = error_of(texts)
    assert (err.line, err.field) == (7, "data.note")
    assert "surrogate" in err.message


def test_a_string_longer_than_the_limit_is_refused():
    b = small_game()
    b.lines[2]["data"]["name"] = "x" * (LIMITS.max_string + 1)
    err = error_of(b.texts())
    assert (err.line, err.field) == (3, "data.name")


def test_a_string_at_the_limit_is_kept():
    b = small_game()
    b.lines[2]["data"]["name"] = "x" * LIMITS.max_string
    assert read_lines(b.texts())[2]["data"]["name"] == "x" * LIMITS.max_string


def test_an_event_larger_than_the_limit_is_refused():
    b = small_game()
    b.lines[2]["data"]["attrs"] = {f"k{i}": "y" * 1000 for i in range(LIMITS.max_event_bytes // 1000 + 1)}
    err = error_of(b.texts())
    assert (err.line, err.field) == (3, "(event)")


def test_nesting_deeper_than_the_limit_is_refused():
    b = small_game()
    deep: list = []
    for _ in range(LIMITS.max_depth + 1):
        deep = [deep]
    b.lines[2]["data"]["attrs"] = {"deep": deep}
    err = error_of(b.texts())
    assert err.line == 3 and err.field.startswith("data.attrs.deep")


def test_json_nested_beyond_the_parser_is_a_log_error_not_a_crash():
    texts = small_game().texts()
    texts.append("[" * 100_000 + "]" * 100_000)
    err = error_of(texts)
    assert err.line == 8


def test_what_is_stored_is_what_was_validated():
    # The checked line is the validated form: a copy, not the caller's object.
    b = small_game()
    texts = b.texts()
    lines = read_lines(texts)
    assert [json.loads(t) for t in texts] == lines


def test_a_builder_log_with_floats_in_float_fields_is_kept():
    b = LogBuilder()
    b.unit("g-1", "german", "infantry-platoon", "1:1210", firepower=4)
    b.unit("g-2", "german", "infantry-platoon", "1:1210", firepower=2.5)
    assert read_lines(b.texts())[2]["data"]["firepower"] == 2.5
