"""Reading, checking and writing the JSONL game log: canonical form, hash chain, structure.

A `LogError` always names the line (1-based, in the file or batch) and the field.
"""
from __future__ import annotations

import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, NamedTuple, Optional

import orjson
from pydantic import ValidationError

from domain.events import (ENVELOPE_FIELDS, Envelope, PlainEnvelope, data_is_valid, field_name, first_error,
                           plain_envelope)
from domain.rulesets import RuleSet, find, named_at, ruleset
from domain.transcoder import long_integer_in

ZERO_HASH = "0" * 64


@dataclass(frozen=True)
class Limits:
    """What one event may hold (docs/api.md). A larger event is refused, never stored: one line
    of a log is read on every replay, audit and board of its game."""

    max_event_bytes: int = 1024 * 1024  # the canonical line, UTF-8
    max_string: int = 10_000            # characters of any string (key or value) in the line
    max_depth: int = 32                 # nesting of objects and lists inside `data`


LIMITS = Limits()


class LogError(ValueError):
    """A line of a log that is not a valid event; nothing of its file or batch is stored."""

    def __init__(self, line: int, field: str, message: str):
        self.line = line
        self.field = field
        self.message = message
        super().__init__(f"line {line}: {field}: {message}")

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "field": self.field, "message": self.message}


def canonical(obj: dict[str, Any]) -> str:
    """The canonical form of a line: keys sorted, no spaces, UTF-8 kept as is."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def line_hash(obj: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(obj).encode("utf-8")).hexdigest()


# The import reads and writes lines with orjson, several times faster than `json`. Its text and
# objects are the same except that orjson refuses NaN, Infinity and lone surrogates, reads an
# integer beyond 64 bits as a float, and writes floats its own way (1e16, not 1e+16). So a line
# is "plain" when orjson read it and its canonical form holds no float: then orjson's form of it
# (with or without `prev`) is the canonical form. Any other line takes the `json` path.
_FLOAT_TOKEN = re.compile(rb"[:,\[]-?[0-9]+[.eE]")
# A digit before a point or an exponent, in a number or in a string (b"0." once digits are 0s and
# exponents points): a line without one holds no float token, found in half the time a regex takes.
_DIGITS_AND_POINTS = bytes.maketrans(b"0123456789eE", b"0000000000..")


_new_tuple = tuple.__new__  # a NamedTuple's fields in order, without the Python __new__ it adds


class ReadLine(NamedTuple):
    """A log line as read_line reads it."""

    obj: dict[str, Any]
    body: str                # the canonical form without `prev` (what the ledger stores)
    plain: bool              # see above
    bounded: bool            # within every bound, measured on orjson's form (check_bounds need not walk it)
    digest: Optional[str]    # the hash of the line as written with its `prev`, when plain and that is a string
    prev: Any                # its `prev` taken out of `obj` (keep_prev=False; None when it has none), or IN_OBJ


# ReadLine.prev of a line whose object keeps its `prev`; check_valid's `prev` when the object holds it.
IN_OBJ: Any = type("InObject", (), {"__repr__": lambda self: "IN_OBJ"})()


def read_line(text: str, line: int, *, keep_prev: bool = True) -> ReadLine:
    """A log line's object, its canonical form without `prev`, and what orjson's dump of the
    line with its `prev` tells: whether it is within bounds and its hash (kept instead of the
    dump: holding thousands of orjson's buffers costs more than the hash). `keep_prev=False`
    (the import's way): the line's `prev` is taken out of its object and given as ReadLine.prev,
    for check_valid's `prev`."""
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError:
        obj = None
    if type(obj) is dict:
        try:
            full = orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:  # orjson reads 1024 levels but writes 254: `json` decides
            full = None
        if full is not None:
            # The form without `prev` dumped again with `prev` taken out of the object for the
            # while (a second dump costs less than cutting the field out of the first).
            prev = obj.pop("prev", _NO_PREV)
            if prev is _NO_PREV:
                body, prev = full, None
            else:
                body = orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
                if keep_prev:
                    obj["prev"] = prev
            if b"0." not in body.translate(_DIGITS_AND_POINTS) or _FLOAT_TOKEN.search(body) is None:
                # (a line that carried a null prev is hashed with the one before it, as one without)
                digest = hashlib.sha256(full).hexdigest() if type(prev) is str else None
                # (the tuple made without ReadLine's own __new__: called for every line of an import)
                return _new_tuple(ReadLine, (obj, body.decode("utf-8"), True, within_bounds(full), digest,
                                             IN_OBJ if keep_prev else prev))
    obj = parse_json_line(text, line)
    check_bounds(obj, line)  # before the canonical form, which a line nested too deeply would overflow
    body = obj.copy()
    prev = body.pop("prev", None)
    if keep_prev:
        return ReadLine(obj, canonical(body), False, True, None, IN_OBJ)
    return ReadLine(body, canonical(body), False, True, None, prev)


_NO_PREV = object()


def read_stored_line(text: str) -> dict[str, Any]:
    """A stored line's object, as `json.loads` reads it: with orjson when that gives the same
    values (no integer of 19 digits or more; orjson refuses NaN and Infinity, which `json` reads)."""
    if not long_integer_in(text):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def text_lines(text: str) -> list[str]:
    """A log's lines as reading its file in text mode gives them: universal newlines, and
    U+2028 and the other characters `str.splitlines` breaks at kept inside their line."""
    return io.StringIO(text, newline=None).readlines()


def plain_line_hash(obj: dict[str, Any]) -> str:
    """line_hash() of a plain line (with its `prev` set)."""
    return hashlib.sha256(orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)).hexdigest()


def chain(objs: Iterable[dict[str, Any]], prev: str = ZERO_HASH) -> Iterator[str]:
    """Canonical lines with `prev` set, each hashing the line before it."""
    for obj in objs:
        line = dict(obj)
        line["prev"] = prev
        text = canonical(line)
        prev = hashlib.sha256(text.encode("utf-8")).hexdigest()
        yield text


_CORE_DECLARES = {"UnitDeployed": ("unit",)}  # where units come into a game of no rule system

# Observers that are not units on the board: "aircraft:<id>" and "balloon:<id>".
OFF_BOARD_OBSERVER = ("aircraft:", "balloon:")


@dataclass
class LogCursor:
    """What the structure checks need to know of a game so far (rebuilt from its stored lines)."""

    game: Optional[str] = None
    next_seq: int = 1
    turn: int = 0
    phase: str = "setup"
    sides: set[str] = field(default_factory=set)
    units: set[str] = field(default_factory=set)
    elements: set[str] = field(default_factory=set)
    ruleset: Optional[str] = None
    # Units deployed (a rule system may list units before they deploy: `units` holds those too).
    deployed: set[str] = field(default_factory=set)
    # What the rule system's own format checks keep of the game (RuleSet.advance_line).
    state: dict[str, Any] = field(default_factory=dict)
    _prev: str = ZERO_HASH
    _last: Optional[dict[str, Any]] = None
    _last_plain: bool = False
    _last_digest: Optional[str] = None  # the last line's hash as written, when it carried its prev
    _rules: Optional[RuleSet] = field(default=None, repr=False, compare=False)
    # The phase check_valid last found to be a phase of that rule system (a line in the phase in
    # force is not looked up in its phases again).
    _phase_rules: Optional[RuleSet] = field(default=None, repr=False, compare=False)
    _known_phase: Optional[str] = field(default=None, repr=False, compare=False)

    @property
    def prev(self) -> str:
        """The hash of the last line taken (computed when asked: most lines carry no `prev`)."""
        if self._last is not None:
            if self._last_digest is not None:
                self._prev = self._last_digest
            else:
                hash_of = plain_line_hash if self._last_plain else line_hash
                self._prev = hash_of({**self._last, "prev": self._prev})
            self._last = None
        return self._prev

    @property
    def rules(self) -> Optional[RuleSet]:
        """The game's rule system (None before its GameStarted); looked up once, not per line."""
        rules = self._rules
        if rules is None or rules.id != self.ruleset:
            rules = self._rules = find(self.ruleset)
        return rules

    def advance(self, obj: dict[str, Any], plain: bool = False, digest: Optional[str] = None) -> None:
        """Take a line already found valid into account (`plain`: see read_line; `digest`: the
        hash of the line as written with the `prev` it carried, which check_line found to be
        the hash of the line before: then it is the line's hash)."""
        self.game = obj["game"]
        self.next_seq = obj["seq"] + 1
        self.turn, self.phase = obj["turn"], obj["phase"]
        data, kind = obj["data"], obj["type"]
        if kind == "GameStarted":
            self.sides = set(data.get("sides", {}))
            self.ruleset = data.get("ruleset")
        elif kind == "ArtilleryElementAssigned":
            self.elements.add(data["element"])
        elif kind == "UnitDeployed":
            self.deployed.add(data["unit"])
        rules = self._rules  # self.rules, without the property's call
        if rules is None or rules.id != self.ruleset:
            rules = self.rules
        declares = rules.declares if rules is not None else _CORE_DECLARES
        paths = declares.get(kind)
        if paths is not None:
            for path in paths:
                if "[]." not in path and type(data.get(path)) is str:
                    self.units.add(data[path])  # an id plainly where the path names it (named_at's first case)
                else:
                    self.units.update(ref for _, ref in named_at(data, path))
        if rules is not None and rules.advance_line is not None:
            rules.advance_line(kind, data, self.state)
        if self._last is not None:
            self._prev = self.prev
        self._last = obj
        self._last_plain = plain
        self._last_digest = digest


def next_line(cursor: LogCursor, game: str, event_type: str, side: Optional[str],
              data: dict[str, Any]) -> dict[str, Any]:
    """The line that records an event next in a game: its seq, and the turn and phase in force,
    or those it opens (a TurnStarted's line has phase `start`; a PhaseStarted's, its phase)."""
    turn, phase = cursor.turn, cursor.phase
    if event_type == "TurnStarted" and type(data.get("turn")) is int:
        turn, phase = data["turn"], "start"
    elif event_type == "PhaseStarted" and isinstance(data.get("phase"), str):
        phase = data["phase"]
    return {"v": 1, "game": game, "seq": cursor.next_seq, "turn": turn, "phase": phase, "side": side,
            "type": event_type, "data": data}


def parse_json_line(text: str, line: int) -> dict[str, Any]:
    obj = _read_json(text, line)
    if not isinstance(obj, dict):
        raise LogError(line, "(json)", "a line must be a JSON object")
    return obj


def _read_json(text: str, line: int) -> Any:
    if not long_integer_in(text):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass  # `json` decides: it reads NaN and 1e400, and words the error
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogError(line, "(json)", f"malformed JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise LogError(line, "(json)", f"nested too deeply (at most {LIMITS.max_depth} levels in data)") from None


def within_bounds(out: bytes) -> bool:
    """Whether a line orjson wrote as `out` is within every bound without walking it: no string
    is longer than the line, orjson wrote each string as UTF-8 (it refuses lone surrogates), and
    it has too few brackets to nest max_depth levels."""
    return len(out) <= min(LIMITS.max_string, LIMITS.max_event_bytes) \
        and out.count(b"{") + out.count(b"[") <= LIMITS.max_depth


def check_bounds(obj: dict[str, Any], line: int) -> None:
    """Refuse a line beyond LIMITS or holding a lone surrogate (a string that is not Unicode
    text: it cannot be written as UTF-8, so it could be neither hashed nor exported)."""
    try:
        out = orjson.dumps(obj)
    except orjson.JSONEncodeError:  # a lone surrogate or an integer beyond 64 bits: the walk decides
        out = None
    if out is not None and within_bounds(out):
        return
    for key, value in obj.items():
        _check_value(value, (None, key, False), line, 0)
    # Measured the slow way when orjson did not write it (an integer beyond 64 bits).
    size = len(out) if out is not None else len(canonical(obj).encode("utf-8"))
    if size > LIMITS.max_event_bytes:
        raise LogError(line, "(event)", f"{size} bytes: an event is at most {LIMITS.max_event_bytes} bytes")


# Where a value sits in its line: (the place of its parent, its key or index, whether an index);
# a top-level field's parent is None. It is named ("data.sides[0].units") only for an error:
# naming every value of every line as it was checked cost a sixth of reading a log.
Place = tuple[Optional["Place"], Any, bool]


def _named(place: Place) -> str:
    parent, part, index = place
    if parent is None:
        return field_name(part)
    return f"{_named(parent)}[{part}]" if index else f"{_named(parent)}.{field_name(part)}"


def _check_value(value: Any, place: Place, line: int, depth: int) -> None:
    kind = type(value)
    if kind is str:
        _check_string(value, place, line)
    elif kind is dict:
        if depth >= LIMITS.max_depth:
            raise LogError(line, _named(place), f"nested too deeply: at most {LIMITS.max_depth} levels")
        for key, item in value.items():
            inner = (place, key, False)
            _check_string(key, inner if key.isascii() else place, line)
            _check_value(item, inner, line, depth + 1)
    elif kind is list:
        if depth >= LIMITS.max_depth:
            raise LogError(line, _named(place), f"nested too deeply: at most {LIMITS.max_depth} levels")
        for i, item in enumerate(value):
            _check_value(item, (place, i, True), line, depth + 1)


def _check_string(text: Any, place: Place, line: int) -> None:
    if type(text) is not str:
        return
    if len(text) > LIMITS.max_string:
        raise LogError(line, _named(place), f"{len(text)} characters: a string is at most {LIMITS.max_string}")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise LogError(line, _named(place), "a lone surrogate (\\ud800-\\udfff) is not Unicode text") from None


def check_line(obj: dict[str, Any], line: int, cursor: LogCursor, *,
               allow_unknown: bool = False, bounded: bool = False) -> dict[str, Any]:
    """Check one line against the schemas and the game so far; return the line without `prev`.

    `bounded`: read_line found the line within bounds already. Raises LogError naming the line
    and the field. Does not advance the cursor.
    """
    check_valid(obj, line, cursor, allow_unknown=allow_unknown, bounded=bounded)
    out = dict(obj)
    out.pop("prev", None)
    return out


def check_valid(obj: dict[str, Any], line: int, cursor: LogCursor, *,
                allow_unknown: bool = False, bounded: bool = False, prev: Any = IN_OBJ) -> None:
    """What check_line checks, without the copy of the line it returns (the import reads its
    lines itself, and takes their `prev` out of them: `prev` is the line's prev, None when it has
    none, when `obj` is the line without it; see read_line)."""
    if prev is not IN_OBJ and prev is not None:
        if not bounded:
            check_bounds({**obj, "prev": prev}, line)  # measured as written
            bounded = True
        if type(prev) is not str or prev != cursor.prev:
            # Not the hash of the line before: the line is checked as it was written, whole (the
            # envelope names a prev that is no hash, the chain check one that is not that one).
            obj["prev"] = prev
    # Otherwise a prev taken out is the hash of the line before, or none: the envelope's `prev`
    # holds no doubt (None or 64 hex digits), and the envelope is checked without it.
    if not bounded:
        check_bounds(obj, line)
    env = plain_envelope(obj)
    if env is None:
        try:
            model = Envelope.model_validate(obj)
        except ValidationError as exc:
            raise LogError(line, *first_error(exc)) from None
        env = PlainEnvelope(*(getattr(model, name) for name in ENVELOPE_FIELDS))
    # The fields as locals (each named field of the tuple is a descriptor's call).
    _, game, seq, turn, phase, side, kind, data, _, _, prev = env
    if cursor.game is None:
        _check_sequence(env, line, cursor)  # a first line that is not a GameStarted has no rule system
    rules = cursor._rules  # cursor.rules, without the property's call (asked of every line)
    if rules is None or rules.id != cursor.ruleset:
        rules = cursor.rules
    try:
        typed = data_is_valid(kind, data, rules)
    except ValidationError as exc:
        raise LogError(line, *first_error(exc, f"data ({kind})")) from None
    if not typed and not allow_unknown:
        raise LogError(line, "type", f"unknown event type {kind!r} (import with --allow-unknown to keep it)")
    if kind == "GameStarted":
        rules = ruleset(data["ruleset"])
    # Each check called when it has something to look at (most lines need none of their calls):
    # _check_sequence raises exactly when the line is not the game's next one; _check_turn_and_phase
    # when the line starts a turn or a phase, is not in the turn and phase in force, or its phase
    # is not the rule system's (the phase in force found known by this cursor is not looked for
    # again); _check_side when a side it names is not the game's; _check_references when the line
    # names a unit or an element (or makes one) that is not plainly a known unit.
    if cursor.game is None or game != cursor.game or kind == "GameStarted" or seq != cursor.next_seq:
        _check_sequence(env, line, cursor)
    if kind in _STARTS or turn != cursor.turn or phase != cursor.phase \
            or (rules is not None and (rules is not cursor._phase_rules or phase != cursor._known_phase)):
        _check_turn_and_phase(env, line, cursor, rules)
        if rules is not None:  # the line's phase is the rule system's (_check_turn_and_phase asked)
            cursor._phase_rules, cursor._known_phase = rules, phase
    if kind == "GameStarted" or (side is not None and side not in cursor.sides) \
            or "side" in data or "active" in data:
        _check_side(env, line, cursor)
    if rules is None or kind in _MAKES_OR_REFERS or kind in rules.element_refs:
        _check_references(env, line, cursor, rules)
    else:
        names = rules.unit_refs.get(kind)
        if names is not None and not _plainly_known(names, data, cursor.units):
            _check_references(env, line, cursor, rules)
    if rules is not None and rules.check_line is not None and typed:
        problem = rules.check_line(kind, data, cursor.state)
        if problem is not None:
            raise LogError(line, problem[0], problem[1])
    if prev is not None and prev != cursor.prev:
        raise LogError(line, "prev", f"hash chain broken: expected {cursor.prev}, found {prev}")


_STARTS = frozenset(("TurnStarted", "PhaseStarted"))


def _plainly_known(names: tuple[str, ...], data: dict[str, Any], units: set[str]) -> bool:
    """Whether each of a line's unit references is plainly a known unit's id where its path names
    it (the first case of _check_references' loop, which then finds nothing to say)."""
    for name in names:
        ref = data.get(name)
        if type(ref) is not str or ref not in units or "[]." in name:
            return False
    return True


# The types _check_references looks at whatever the rule system's references.
_MAKES_OR_REFERS = frozenset(("UnitDeployed", "ArtilleryElementAssigned", "SmallArmsResolved", "DisputeRaised"))


def _check_sequence(env: Envelope, line: int, cursor: LogCursor) -> None:
    if cursor.game is None:
        if env.seq != 1 or env.type != "GameStarted":
            raise LogError(line, "type" if env.seq == 1 else "seq",
                           "a game's first event must be its GameStarted at seq 1")
    elif env.game != cursor.game:
        raise LogError(line, "game", f"game {env.game!r} differs from {cursor.game!r} of the lines before")
    elif env.type == "GameStarted":
        raise LogError(line, "type", "a second GameStarted in the same game")
    if env.seq != cursor.next_seq:
        what = "repeats" if env.seq < cursor.next_seq else "skips"
        raise LogError(line, "seq", f"seq {env.seq} {what}: expected {cursor.next_seq}")


def _check_turn_and_phase(env: Envelope, line: int, cursor: LogCursor, rules: Optional[RuleSet]) -> None:
    if rules is not None and not rules.phase_known(env.phase):
        raise LogError(line, "phase", f"unknown phase {env.phase!r} (the phases of {rules.id}: "
                       f"{', '.join(rules.phases)})")
    if env.type == "TurnStarted":
        turn = env.data.get("turn")
        if env.turn != turn:
            raise LogError(line, "turn", f"turn {env.turn} differs from data.turn {turn}")
        if turn <= cursor.turn:
            raise LogError(line, "data.turn", f"turn {turn} does not follow turn {cursor.turn}")
        if env.phase != "start":
            raise LogError(line, "phase", f"a TurnStarted line has phase 'start', not {env.phase!r}")
        return
    if env.type == "PhaseStarted":
        expected_phase = env.data.get("phase")
        if rules is not None and not rules.phase_known(expected_phase):
            raise LogError(line, "data.phase", f"unknown phase {expected_phase!r} (the phases of {rules.id}: "
                           f"{', '.join(rules.phases)})")
        if cursor.turn == 0:
            raise LogError(line, "type", "a PhaseStarted before the first TurnStarted")
    else:
        expected_phase = cursor.phase
    if env.turn != cursor.turn:
        raise LogError(line, "turn", f"turn {env.turn} disagrees with the last TurnStarted (turn {cursor.turn})")
    if env.phase != expected_phase:
        raise LogError(line, "phase", f"phase {env.phase!r} disagrees with the phase in force ({expected_phase!r})")


def _check_side(env: Envelope, line: int, cursor: LogCursor) -> None:
    starts = env.type == "GameStarted"
    sides = set(env.data.get("sides", {})) if starts else cursor.sides
    if env.side is not None and env.side not in sides:
        raise LogError(line, "side", f"side {env.side!r} is not one of the game's sides ({', '.join(sorted(sides))})")
    if starts:
        return
    data = env.data
    if "side" in data or "active" in data:  # most lines name neither
        for name in ("side", "active"):
            value = data.get(name)
            if isinstance(value, str) and value not in sides:
                raise LogError(line, f"data.{name}", f"side {value!r} is not one of the game's sides")


def _check_references(env: Envelope, line: int, cursor: LogCursor, rules: Optional[RuleSet]) -> None:
    unit_refs = rules.unit_refs if rules is not None else {}
    element_refs = rules.element_refs if rules is not None else {}
    if env.type == "UnitDeployed" and env.data["unit"] in cursor.deployed:
        raise LogError(line, "data.unit", f"unit {env.data['unit']!r} is already deployed")
    if env.type == "ArtilleryElementAssigned" and env.data["element"] in cursor.elements:
        raise LogError(line, "data.element", f"element {env.data['element']!r} is already assigned")
    for name in unit_refs.get(env.type, ()):
        if "[]." not in name and type(env.data.get(name)) is str and env.data[name] in cursor.units:
            continue  # a known unit's id, plainly where the path names it (named_at's first case)
        for where, ref in named_at(env.data, name):
            if ref.startswith(OFF_BOARD_OBSERVER) and name == "observer":
                continue
            if ref not in cursor.units:
                raise LogError(line, where, f"unit {ref!r} does not exist in this game")
    if env.type == "SmallArmsResolved":
        for i, result in enumerate(env.data.get("results", [])):
            if result["unit"] not in cursor.units:
                raise LogError(line, f"data.results[{i}].unit", f"unit {result['unit']!r} does not exist in this game")
    for name in element_refs.get(env.type, ()):
        for where, ref in named_at(env.data, name):
            if ref not in cursor.elements:
                raise LogError(line, where, f"off-map element {ref!r} does not exist in this game")
    if env.type == "DisputeRaised" and env.data["about"] >= env.seq:
        raise LogError(line, "data.about", f"seq {env.data['about']} is not an earlier event")


def read_lines(lines: Iterable[str], *, allow_unknown: bool = False,
               cursor: Optional[LogCursor] = None, first_line: int = 1) -> list[dict[str, Any]]:
    """Parse and check the lines of one game; return them without `prev`.

    Raises LogError at the first bad line; blank lines are skipped.
    """
    cursor = cursor or LogCursor()
    out = []
    for number, text in enumerate(lines, start=first_line):
        if not text.strip():
            continue
        obj = parse_json_line(text, number)
        out.append(check_line(obj, number, cursor, allow_unknown=allow_unknown))
        cursor.advance(out[-1])
    if not out:
        raise LogError(first_line, "(file)", "the log holds no events")
    return out


def split_games(lines: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    games: dict[str, list[dict[str, Any]]] = {}
    for obj in lines:
        games.setdefault(obj["game"], []).append(obj)
    return games


def verify_lines(lines: Iterable[str]) -> Optional[LogError]:
    """Schema and chain check of an exported log: the first line that does not match, or None.

    A changed line k breaks the `prev` of line k+1 only; a changed `prev` on line k breaks
    lines k and k+1. That tells which line to name.
    """
    texts = [(n, t.rstrip("\n")) for n, t in enumerate(lines, start=1) if t.strip()]
    if not texts:
        return LogError(1, "(file)", "the log holds no events")
    objs = []
    for number, text in texts:
        try:
            obj = parse_json_line(text, number)
        except LogError as err:
            return err
        if "prev" not in obj:
            return LogError(number, "prev", "missing: an exported log carries the hash chain")
        if canonical(obj) != text:
            return LogError(number, "(line)", "not in canonical form (keys sorted, no spaces)")
        objs.append(obj)
    hashes = [line_hash(obj) for obj in objs]
    for k, obj in enumerate(objs):
        expected = ZERO_HASH if k == 0 else hashes[k - 1]
        if obj["prev"] == expected:
            continue
        number = texts[k][0]
        next_broken = k + 1 < len(objs) and objs[k + 1]["prev"] != hashes[k]
        if k == 0 or next_broken:
            return LogError(number, "prev", "the recorded hash of the line before was changed")
        if k == len(objs) - 1:
            return LogError(number, "prev", f"does not match the hash of line {texts[k - 1][0]}: "
                            "the last line's prev or the line before it was changed")
        return LogError(texts[k - 1][0], "(line)",
                        f"its content was changed: line {number}'s prev no longer matches its hash")
    cursor = LogCursor()
    for (number, _), obj in zip(texts, objs):
        try:
            kept = check_line(obj, number, cursor, allow_unknown=True)
        except LogError as err:
            return err
        cursor.advance(kept)
    return None


def head_hash(lines: Iterable[str]) -> str:
    """The hash of the last line: publish it to make the last line tamper-evident too."""
    last = ZERO_HASH
    for text in lines:
        if text.strip():
            last = hashlib.sha256(text.rstrip("\n").encode("utf-8")).hexdigest()
    return last
