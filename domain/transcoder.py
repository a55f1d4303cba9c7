"""The ledger's transcoder: the library's JSON encoding of stored events, written with orjson.

Same stored form as the library's JSONTranscoder (registered types as {"_type_", "_data_"}
objects), several times faster. orjson writes UUIDs as plain strings, which would lose their
type on the way back, so containers holding one are tagged before they are written; anything
orjson does not write or read like `json` (integers beyond 64 bits, NaN) takes the library's
path.

stored_rows and state_rows write a batch's events as the library's Mapper stores them (same
topic and state bytes), without a StoredEvent each; an event whose fields hold no UUID is
written in one orjson call.
"""
from __future__ import annotations

import dataclasses
import re
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Optional, Sequence
from uuid import UUID

import orjson
from eventsourcing.persistence import DatetimeAsISO, JSONTranscoder, Mapper
from eventsourcing.utils import get_topic

# datetime, date, time and dataclasses go to `default` (the registered transcodings), as with `json`.
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
_PLAIN = frozenset((str, int, float, bool, type(None)))
_LEAVES = _PLAIN | {datetime}
# orjson reads an integer of 19 digits or more as a float, where `json` keeps it exact
_NINETEEN_DIGITS = b"0" * 19
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")


def long_integer_in(data: bytes | bytearray | memoryview | str) -> bool:
    """Whether JSON text may hold an integer orjson would read as a float: 19 digits in a row
    anywhere (a string's only costs the `json` read), found with every digit made a 0 (several
    times faster than a regex, which cost more than orjson's parse of a long line). Text, or any
    buffer (PostgreSQL's driver gives a stored state as a memoryview)."""
    if isinstance(data, str):
        raw = data.encode("utf-8", "surrogatepass")
    else:
        raw = data if isinstance(data, (bytes, bytearray)) else bytes(data)
    return _NINETEEN_DIGITS in raw.translate(_DIGITS_TO_ZERO)


class OrjsonTranscoder(JSONTranscoder):
    # The last UTC datetime tagged and its tag: a batch's events share one timestamp.
    _last_datetime: tuple[Any, Any] = (None, None)

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
            if kind is datetime:
                new = self._utc_tag(value)
                if new is None:
                    continue
            elif _holds_uuid(value):
                new = self._tag_uuids(value)
            else:
                continue
            if tagged is None:
                tagged = dict(obj)
            tagged[key] = new
        return obj if tagged is None else tagged

    def encode_plain(self, state: dict[str, Any]) -> bytes:
        """What encode() writes of a state known to hold no UUID (which orjson would write as a
        bare string), in one orjson call: orjson asks _tag for the datetimes, and a batch's
        shared timestamp is tagged once."""
        try:
            out = orjson.dumps(state, default=self._tag, option=_OPTIONS)
        except orjson.JSONEncodeError:
            return self.encode(state)
        return out.decode("utf-8").encode("utf-8")  # a copy, as encode() makes

    def _tag(self, value: Any) -> Any:
        tag = self._utc_tag(value) if type(value) is datetime else None
        return tag if tag is not None else self._encode_obj(value)

    def _utc_tag(self, value: datetime) -> Optional[dict[str, str]]:
        """The tag of a UTC datetime when datetimes are written as ISO text (None otherwise); the
        last one's is kept, a batch's events sharing one timestamp."""
        last, tag = self._last_datetime
        if last is value:
            return tag
        if value.tzinfo is not timezone.utc or not self._iso_datetimes:
            return None
        # orjson writes a UTC datetime as isoformat() does, in a quarter of the time.
        tag = {"_type_": "datetime_iso", "_data_": orjson.dumps(value)[1:-1].decode("ascii")}
        self._last_datetime = (value, tag)
        return tag

    def register(self, transcoding) -> None:
        super().register(transcoding)
        self._last_datetime = (None, None)  # tagged by the transcodings as they were

    @property
    def _iso_datetimes(self) -> bool:
        return type(self.types.get(datetime)) is DatetimeAsISO

    def decode(self, data: bytes) -> Any:
        if long_integer_in(data):
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


# A stored event as the ledger writes it: (originator id, originator version, topic, state).
Row = tuple[UUID, int, str, bytes]


def stored_rows(events: Iterable[Any], mapper: Mapper) -> list[Row]:
    """Each event as the stored event the library's Mapper.to_stored_event makes of it (same
    topic, same state), without building one."""
    classes: dict[type, tuple[str, int, Callable[[dict[str, Any]], bytes]]] = {}
    rows = []
    for event in events:
        kind = type(event)
        topic, class_version, encode = classes.get(kind) or classes.setdefault(
            kind, (get_topic(kind), getattr(kind, "class_version", 1), _encoder(mapper, kind)))
        state = dict(vars(event))
        originator_id = state.pop("originator_id")
        originator_version = state.pop("originator_version")
        if class_version > 1:
            state["class_version"] = class_version
        rows.append((originator_id, originator_version, topic, encode(state)))
    return rows


def state_rows(originator_id: UUID, event_class: type, states: Iterable[tuple[int, dict[str, Any]]],
               mapper: Mapper) -> list[Row]:
    """The stored events of events of one class whose states (without their originator's id and
    version) are given by version, as stored_rows writes them."""
    encode, topic = _encoder(mapper, event_class), get_topic(event_class)
    assert getattr(event_class, "class_version", 1) == 1
    return [(originator_id, version, topic, encode(state)) for version, state in states]


def recorded_rows(originator_id: UUID, event_class: type, first_version: int, lines: Sequence[str],
                  turns: Sequence[int], timestamp: datetime, mapper: Mapper) -> list[Row]:
    """state_rows of the states {"timestamp", "line", "turn"} of the Game's lines (Game.record_all),
    without the states: each written as orjson writes that dict, the batch's timestamp tagged
    once, the line and the turn written into it (a third of the time of a dump of each state)."""
    if len(lines) != len(turns):
        raise ValueError(f"{len(lines)} lines and {len(turns)} turns")
    transcoder = mapper.transcoder
    tag = transcoder._utc_tag(timestamp) if isinstance(transcoder, OrjsonTranscoder) and \
        not mapper.compressor and not mapper.cipher and _holds_no_uuid(event_class) else None
    if tag is not None and all(type(turn) is int and -_INT64 <= turn < _INT64 for turn in turns):
        assert getattr(event_class, "class_version", 1) == 1
        topic, head, dumps = get_topic(event_class), b'{"timestamp":' + orjson.dumps(tag) + b',"line":', orjson.dumps
        # Each turn's end of the state written once (a game has a few hundred turns, not one a line).
        ends = {turn: b',"turn":%d}' % turn for turn in set(turns)}
        try:
            return [(originator_id, version, topic, head + dumps(line) + ends[turn])
                    for version, line, turn in zip(range(first_version, first_version + len(lines)), lines, turns)]
        except orjson.JSONEncodeError:  # a line orjson does not write (the checks refuse one): encode() decides
            pass
    return state_rows(originator_id, event_class, recorded_states(first_version, lines, turns, timestamp), mapper)


def recorded_states(first_version: int, lines: Sequence[str], turns: Sequence[int],
                    timestamp: datetime) -> list[tuple[int, dict[str, Any]]]:
    """The states of the Game's Recorded events of these lines, by version."""
    return [(first_version + i, {"timestamp": timestamp, "line": line, "turn": turn})
            for i, (line, turn) in enumerate(zip(lines, turns, strict=True))]


_INT64 = 2 ** 63  # orjson writes integers of 64 bits (unsigned up to 2**64); a turn beyond takes encode()


# What the fields of an event whose state holds no UUID are annotated with: the log's strings,
# numbers and locations (a hex or a point: strings and numbers read from JSON), a unit's changes
# (Unit.Changed: those again), and a timestamp.
_PLAIN_ANNOTATIONS = frozenset(("str", "int", "float", "bool", "None", "Optional", "list", "datetime", "Location",
                                "Change"))


def _holds_no_uuid(event_class: type) -> bool:
    if not dataclasses.is_dataclass(event_class):
        return False
    fields = [f for f in dataclasses.fields(event_class) if f.name not in ("originator_id", "originator_version")]
    return all(set(re.findall(r"\w+", str(f.type))) <= _PLAIN_ANNOTATIONS for f in fields)


def _encoder(mapper: Mapper, event_class: type) -> Callable[[dict[str, Any]], bytes]:
    """An event's state to its stored bytes, as the mapper writes them."""
    encode, compressor, cipher = mapper.transcoder.encode, mapper.compressor, mapper.cipher
    if isinstance(mapper.transcoder, OrjsonTranscoder) and _holds_no_uuid(event_class):
        encode = mapper.transcoder.encode_plain
    if not compressor and not cipher:
        return encode

    def encoded(state: dict[str, Any]) -> bytes:
        stored = encode(state)
        if compressor:
            stored = compressor.compress(stored)
        if cipher:
            stored = cipher.encrypt(stored)
        return stored
    return encoded


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
