"""check_bounds decides without walking a line when the line is plainly within its bounds; its
verdict is the one the limits give (docs/api.md, Limits: any string, key or value, at most
`max_string` characters; objects and lists nested at most `max_depth` levels inside `data`; an
event at most `max_event_bytes` bytes; and no lone surrogate, which is not Unicode text).
Small limits here, so that both the quick verdict and the walk meet lines on either side of them."""
from __future__ import annotations

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import log
from domain.log import Limits, LogError, check_bounds

SMALL = Limits(max_event_bytes=400, max_string=60, max_depth=4)

text = st.text(st.characters(codec="utf-8") | st.sampled_from(["\ud800", "\udfff", '"', "\\"]), max_size=70)
values = st.recursive(st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | text,
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
                      max_leaves=14)
lines = st.dictionaries(st.sampled_from(["v", "game", "seq", "data", "side"]), values, min_size=1)


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def too_deep(value, depth: int) -> bool:
    if not isinstance(value, (dict, list)):
        return False
    items = value.values() if isinstance(value, dict) else value
    return depth >= SMALL.max_depth or any(too_deep(item, depth + 1) for item in items)


def out_of_bounds(line: dict) -> bool:
    texts = list(strings(line))
    if any(len(t) > SMALL.max_string or any(0xD800 <= ord(c) <= 0xDFFF for c in t) for t in texts):
        return True
    if any(too_deep(value, 0) for value in line.values()):
        return True
    return len(log.canonical(line).encode("utf-8")) > SMALL.max_event_bytes


@settings(max_examples=400, deadline=None)
@given(lines)
def test_the_verdict_is_the_limits_verdict(line):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(log, "LIMITS", SMALL)
        try:
            check_bounds(line, 1)
            refused = False
        except LogError:
            refused = True
    assert refused == out_of_bounds(line)


def test_a_line_refused_names_its_field_whichever_way_it_was_read(monkeypatch):
    monkeypatch.setattr(log, "LIMITS", SMALL)
    short_but_deep = {"data": {"a": [[[[1]]]]}}  # shorter than a string may be, yet too deeply nested
    assert len(orjson.dumps(short_but_deep)) <= SMALL.max_string
    with pytest.raises(LogError) as err:
        check_bounds(short_but_deep, 7)
    assert (err.value.line, err.value.field) == (7, "data.a[0][0][0]")
