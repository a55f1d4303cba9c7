"""The ledger's transcoder: the library's JSON encoding of stored events, written with orjson.

Same stored form as the library's JSONTranscoder (registered types as {"_type_", "_data_"}
objects), several times faster. orjson writes UUIDs as plain strings, which would lose their
type on the way back, so containers holding one are tagged before they are written; anything
orjson does not write or read like `json` (integers beyond 64 bits, NaN) takes the library's
path.
"""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import DatetimeAsISO, JSONTranscoder

# datetime, date, time and dataclasses go to `default` (the registered transcodings), as with `json`.
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
_PLAIN = frozenset((str, int, float, bool, type(None)))
_LEAVES = _PLAIN | {datetime}
_LONG_INTEGER = re.compile(rb"[:,\[][\s-]*\d{19}")  # orjson reads these as floats


class OrjsonTranscoder(JSONTranscoder):
    def encode(self, obj: Any) -> bytes:
        if type(obj) is dict:
            obj = self._tag_values(obj)
        elif type(obj) not in _LEAVES and _holds_uuid(obj):
            obj = self._tag_uuids(obj)
        try:
            out = orjson.dumps(obj, default=self._encode_obj, option=_OPTIONS)
        except orjson.JSONEncodeError as exc:
            if exc.__cause__ is not None:  # raised by a transcoding, or none registered
                raise exc.__cause__ from None
            return super().encode(obj)
        # A copy: keeping orjson's own buffers alive by the thousand (a batch of stored events)
        # costs more in memory allocation than the copy does.
        return out.decode("utf-8").encode("utf-8")

    def _tag_values(self, obj: dict[str, Any]) -> dict[str, Any]:
        """The stored events' state: a flat dict with a UTC timestamp, mostly (tagged here:
        cheaper than orjson calling back for it)."""
        tagged = None
        for key, value in obj.items():
            kind = type(value)
            if kind in _PLAIN:
                continue
            if kind is datetime and value.tzinfo is timezone.utc and self._iso_datetimes:
                # orjson writes a UTC datetime as isoformat() does, in a quarter of the time.
                new = {"_type_": "datetime_iso", "_data_": orjson.dumps(value)[1:-1].decode("ascii")}
            elif _holds_uuid(value):
                new = self._tag_uuids(value)
            else:
                continue
            if tagged is None:
                tagged = dict(obj)
            tagged[key] = new
        return obj if tagged is None else tagged

    @property
    def _iso_datetimes(self) -> bool:
        return type(self.types.get(datetime)) is DatetimeAsISO

    def decode(self, data: bytes) -> Any:
        if _LONG_INTEGER.search(data) is not None:
            return super().decode(data)
        try:
            obj = orjson.loads(data)
        except orjson.JSONDecodeError:
            return super().decode(data)
        if b'"_type_"' in data:
            return self._untag(obj)
        return obj

    def _tag_uuids(self, obj: Any) -> Any:
        if isinstance(obj, UUID):
            return self._encode_obj(obj)
        if isinstance(obj, dict):
            return {k: self._tag_uuids(v) for k, v in obj.items()}
        if isinstance(obj, (list, tuple)):
            return [self._tag_uuids(v) for v in obj]
        return obj

    def _untag(self, obj: Any) -> Any:
        """What the library's object_hook does, from the innermost object out."""
        if isinstance(obj, dict):
            return self._decode_obj({k: self._untag(v) for k, v in obj.items()})
        if isinstance(obj, list):
            return [self._untag(v) for v in obj]
        return obj


def _holds_uuid(obj: Any) -> bool:
    if isinstance(obj, dict):
        values = obj.values()
    elif isinstance(obj, (list, tuple)):
        values = obj
    else:
        return isinstance(obj, UUID)
    for value in values:
        if type(value) not in _LEAVES and _holds_uuid(value):
            return True
    return False
