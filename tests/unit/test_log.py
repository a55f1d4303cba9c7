"""The log format (game-log.md): schemas, structure, canonical form and the hash chain."""
from __future__ import annotations

import json

import pytest

from domain.log import LogError, chain, head_hash, read_lines, verify_lines
from tests.builders import LogBuilder
from tests.conftest import example_lines, example_names


def small_game() -> LogBuilder:
    b = LogBuilder()
    b.add("MapDefined", {"maps": ["1"], "hexes": {"1:1210": {"terrain": "town"}}, "hexsides": []})
    b.add("WeatherSet", {"weather": "fair", "terrain_state": "good"})
    b.unit("g-1", "german", "infantry-platoon", "1:1210")
    b.turn_start(1)
    b.phase_start("first-foot-movement", "german")
    b.add("UnitMoved", {"unit": "g-1", "path": ["1:1210", "1:1211"]}, side="german")
    return b


def error_of(texts: list[str], **kw) -> LogError:
    with pytest.raises(LogError) as info:
        read_lines(texts, **kw)
    return info.value


def test_a_valid_log_reads_whole():
    assert [l["seq"] for l in read_lines(small_game().texts())] == list(range(1, 8))


@pytest.mark.parametrize("name", example_names())
def test_spec_examples_round_trip_byte_for_byte(name):
    texts = example_lines(name)
    assert list(chain(read_lines(texts))) == texts
    assert verify_lines(texts) is None


def test_malformed_json_names_the_line():
    texts = small_game().texts()
    texts[3] = texts[3][:-5]
    err = error_of(texts)
    assert (err.line, err.field) == (4, "(json)")


def test_missing_envelope_field_is_named():
    b = small_game()
    del b.lines[2]["turn"]
    err = error_of(b.texts())
    assert (err.line, err.field) == (3, "turn")


def test_mistyped_data_field_is_named():
    b = small_game()
    b.lines[6]["data"]["path"] = "1:1210"
    err = error_of(b.texts())
    assert err.line == 7 and err.field.endswith("path")


@pytest.mark.parametrize("seq,word", [(9, "skips"), (6, "repeats")])
def test_gap_or_repeat_in_seq(seq, word):
    b = small_game()
    b.lines[6]["seq"] = seq
    err = error_of(b.texts())
    assert (err.line, err.field) == (7, "seq") and word in err.message


def test_other_game_id_on_a_line():
    b = small_game()
    b.lines[4]["game"] = "other"
    err = error_of(b.texts())
    assert (err.line, err.field) == (5, "game")


def test_turn_and_phase_must_agree_with_the_boundaries():
    # game-log.md: `turn` and `phase` must agree with the last TurnStarted and PhaseStarted.
    b = small_game()
    b.lines[6]["phase"] = "second-foot-movement"
    assert (error_of(b.texts()).line, error_of(b.texts()).field) == (7, "phase")
    b = small_game()
    b.lines[6]["turn"] = 2
    assert error_of(b.texts()).field == "turn"
    b = small_game()
    b.lines[4]["phase"] = "barrage"  # a TurnStarted line has the phase `start`
    assert error_of(b.texts()).field == "phase"


def test_reference_to_a_unit_that_does_not_exist():
    b = small_game()
    b.lines[6]["data"]["unit"] = "ghost"
    err = error_of(b.texts())
    assert (err.line, err.field) == (7, "data.unit") and "ghost" in err.message


def test_unknown_side_is_refused():
    b = small_game()
    b.lines[6]["side"] = "french"
    assert error_of(b.texts()).field == "side"


def test_unknown_event_type_needs_allow_unknown():
    b = small_game()
    b.add("CoffeeBrewed", {"cups": 2})
    err = error_of(b.texts())
    assert (err.line, err.field) == (8, "type")
    assert read_lines(b.texts(), allow_unknown=True)[-1]["type"] == "CoffeeBrewed"


def test_first_event_must_be_game_started():
    b = small_game()
    texts = b.texts()[1:]
    assert error_of(texts).line == 1


def test_a_given_prev_must_match_the_chain():
    texts = small_game().canonical()
    obj = json.loads(texts[3])
    obj["prev"] = "f" * 64
    texts[3] = json.dumps(obj)
    assert (error_of(texts).line, error_of(texts).field) == (4, "prev")


@pytest.mark.parametrize("name", example_names())
def test_verify_finds_any_single_changed_byte(name):
    # game-log.md, Integrity: changing any byte of an exported log makes verify fail, naming
    # the first line that no longer matches. The last line is covered by the published head.
    texts = example_lines(name)
    head = head_hash(texts)
    for index in range(len(texts)):
        line = texts[index]
        for pos in range(0, len(line), 7):
            if not line[pos].isalnum():
                continue
            changed = line[:pos] + ("1" if line[pos] != "1" else "2") + line[pos + 1:]
            tampered = texts[:index] + [changed] + texts[index + 1:]
            error = verify_lines(tampered)
            if error is None:
                assert index == len(texts) - 1 and head_hash(tampered) != head
            else:
                assert error.line in (index + 1, index + 2) and error.line <= index + 2


def test_a_numeric_bcrt_column_is_read_as_its_text():
    # game-log.md prints columns as text ("20", "31+"); a hand-written 20 means the same column.
    b = small_game()
    b.add("ArtilleryElementAssigned", {"element": "o", "side": "british", "firepower": 20})
    b.lines[-1]["turn"], b.lines[-1]["phase"] = 1, "first-foot-movement"
    b.add("BarrageDeclared", {"barrage": "x", "side": "british", "target": "1:1211", "elements": ["o"],
                              "mission": "destruction", "barrage_type": "drumfire", "ammunition": "he"})
    b.add("BarrageResolved", {"barrage": "x", "firepower": 20, "column": 20, "results": []})
    assert read_lines(b.texts())[-1]["data"]["column"] == 20
