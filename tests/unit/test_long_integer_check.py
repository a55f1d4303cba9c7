"""transcoder.long_integer_in: which JSON text goes to `json`, which keeps an integer of 19 digits
or more exact, instead of orjson, which reads it as a float. It is asked of log lines (text), of
stored states (bytes on SQLite, a memoryview from PostgreSQL's driver) and of stored reports."""
from __future__ import annotations

import json

import orjson
import pytest

from domain.transcoder import long_integer_in

LONG = '{"data":{"n":1234567890123456789012},"seq":1}'
SHORT = '{"data":{"n":123456789012345678,"at":"2026-12-02T14:09:09.647923+00:00"},"seq":1}'


@pytest.mark.parametrize("form", [str, lambda t: t.encode(), lambda t: bytearray(t.encode()),
                                  lambda t: memoryview(t.encode())])
def test_every_form_of_text_is_read_alike(form):
    assert long_integer_in(form(LONG)) is True
    assert long_integer_in(form(SHORT)) is False


def test_the_long_integer_is_one_orjson_would_change():
    # why the check exists: orjson's value differs from json's for the long one, not the short one
    assert orjson.loads(LONG) != json.loads(LONG)
    assert orjson.loads(SHORT) == json.loads(SHORT)
