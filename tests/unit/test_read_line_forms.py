"""read_line's dumps of a line: the canonical form without `prev` (what is stored) and with it
(what is hashed), and its hash, which the cursor takes for the line's."""
import json

import pytest

from domain.log import LogCursor, LogError, ZERO_HASH, canonical, chain, check_line, check_valid, line_hash, read_line

GAME_STARTED = {"v": 1, "game": "g", "seq": 1, "turn": 0, "phase": "setup", "side": None, "type": "GameStarted",
                "data": {"ruleset": "infernal-machines", "scenario": "s", "date": "1917-04",
                         "sides": {"british": {"nation": "british", "bloc": "allied"}}}}


def _without_prev(obj):
    return canonical({k: v for k, v in obj.items() if k != "prev"})


def test_a_data_field_named_prev_holding_the_same_hash_stays_in_the_stored_line():
    line = dict(GAME_STARTED, data={**GAME_STARTED["data"], "prev": ZERO_HASH}, prev=ZERO_HASH)
    read = read_line(canonical(line), 1)
    assert read.body == _without_prev(line)
    assert '"prev":"' + ZERO_HASH in read.body  # data.prev kept, the envelope's prev cut
    # the envelope's prev taken out of the object, not cut out of the text: the line stays plain
    assert read.plain and read.digest == line_hash(line)


def test_a_null_prev_is_not_stored():
    line = dict(GAME_STARTED, prev=None)
    assert read_line(canonical(line), 1).body == _without_prev(line)


def test_the_hash_chain_checked_from_the_written_text_matches_the_canonical_hash():
    second = {**GAME_STARTED, "seq": 2, "type": "TurnStarted", "turn": 1, "phase": "start", "data": {"turn": 1}}
    texts = list(chain([GAME_STARTED, second, {**second, "seq": 3, "turn": 2, "data": {"turn": 2}}]))
    cursor = LogCursor()
    for number, text in enumerate(texts, start=1):
        read = read_line(text, number)
        assert read.plain and read.bounded and read.digest == line_hash(json.loads(text))
        out = check_line(read.obj, number, cursor, bounded=read.bounded)
        assert read.body == canonical(out)
        cursor.advance(out, read.plain, read.digest)
    assert cursor.prev == line_hash(json.loads(texts[-1]))


def test_a_prev_that_json_escapes_or_a_nested_lookalike_never_cuts_the_wrong_field():
    # A `prev` holding `","y` would match a nested object's `"prev":"x","y"` written raw; a
    # backslash, a control character or a non-ASCII letter is written escaped or as UTF-8.
    for prev in ('x","y', "a\\b", "a\nb", "\u00e9" * 64, 'x"'):
        data = {**GAME_STARTED["data"], "nested": {"a": 0, "prev": "x", "y": 1}}
        line = dict(GAME_STARTED, data=data, prev=prev)
        read = read_line(canonical(line), 1)
        assert read.body == _without_prev(line)
        assert json.loads(read.body)["data"]["nested"] == {"a": 0, "prev": "x", "y": 1}
        assert read.digest in (None, line_hash(line)) and read.obj["prev"] == prev


def test_a_float_anywhere_takes_the_json_path_and_a_digit_before_a_point_in_a_string_does_not():
    # orjson and `json` write floats differently (1e16 / 1e+16): a line with one is not plain.
    for value in (1.5, 1e16, -2e-3, 5e-324, [0.25], {"k": 10.0}):
        line = dict(GAME_STARTED, data={**GAME_STARTED["data"], "x": value})
        read = read_line(canonical(line), 1)
        assert not read.plain and read.body == _without_prev(line)
    for text in ("v1.2", "1e5", "3E", "see 2.", "1917-04"):
        line = dict(GAME_STARTED, data={**GAME_STARTED["data"], "x": text, "n": 12})
        read = read_line(canonical(line), 1)
        assert read.plain and read.body == _without_prev(line)


def test_a_nested_member_named_prev_keeps_its_value_and_the_envelopes_prev_is_cut():
    for nested in ("x", ZERO_HASH[:-1] + "1", ZERO_HASH + "0"):
        data = {**GAME_STARTED["data"], "notes": {"a": 0, "prev": nested}}
        line = dict(GAME_STARTED, data=data, prev=ZERO_HASH)
        read = read_line(canonical(line), 1)
        assert read.body == _without_prev(line) and json.loads(read.body)["data"]["notes"]["prev"] == nested


def _import_check(texts):
    """The import's way: each line's prev taken out of its object and given to check_valid."""
    cursor = LogCursor()
    for number, text in enumerate(texts, start=1):
        read = read_line(text, number, keep_prev=False)
        assert "prev" not in read.obj
        check_valid(read.obj, number, cursor, bounded=read.bounded, prev=read.prev)
        cursor.advance(read.obj, read.plain, read.digest)
    return cursor


def test_a_null_prev_is_hashed_in_the_chain_as_a_line_without_one():
    second = {**GAME_STARTED, "seq": 2, "type": "TurnStarted", "turn": 1, "phase": "start", "data": {"turn": 1}}
    texts = list(chain([GAME_STARTED, second]))
    first = json.loads(texts[0])
    first["prev"] = None  # the next line's prev is still the hash of the line with the prev before it
    for with_null in (canonical(first), json.dumps(first)):
        cursor = _import_check([with_null, texts[1]])
        assert cursor.prev == line_hash(json.loads(texts[1]))


def test_a_prev_taken_out_is_checked_as_the_envelope_and_the_chain_check_it():
    second = {**GAME_STARTED, "seq": 2, "type": "TurnStarted", "turn": 1, "phase": "start", "data": {"turn": 1}}
    texts = list(chain([GAME_STARTED, second]))
    for prev, message in (("A" * 64, "pattern"), (5, "string"), ("0" * 63, "pattern"), ("1" * 64, "hash chain broken")):
        line = json.loads(texts[1])
        line["prev"] = prev
        with pytest.raises(LogError) as err:
            _import_check([texts[0], canonical(line)])
        assert err.value.line == 2 and err.value.field == "prev" and message in err.value.message
        with pytest.raises(LogError) as whole:  # as check_line says it of the line as written
            cursor = LogCursor()
            cursor.advance(check_line(json.loads(texts[0]), 1, cursor))
            check_line(line, 2, cursor)
        assert whole.value.as_dict() == err.value.as_dict()
