"""read_line's one dump of a line: the canonical form without `prev` (what is stored) and with
it (what is hashed), and its hash, which the cursor takes for the line's."""
import json

from domain.log import LogCursor, ZERO_HASH, canonical, chain, check_line, line_hash, read_line

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
    assert not read.plain and read.digest is None  # the cut in doubt: the line took the `json` path


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
