"""The game log's core schemas: the envelope and the events every rule system shares (the game,
its turns and phases, dice, disputes and rulings). Each rule system adds its own event schemas
(`RuleSet.events`, domain/rulesets.py); `validate_data` looks in both.

The log format (`game-log.md`) is a contract: every field it names is required or optional
exactly as it says, and extra data fields are kept (code may add optional fields).

Validation is strict: what is stored is exactly what was validated, so a value of the wrong
JSON type (the string "4" or the float 4.0 for an integer, `true` for a number) is refused,
never coerced (a coerced value would be checked as one thing and stored as another).
"""
from __future__ import annotations

import json
import re
from typing import Any, Literal, NamedTuple, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from domain.plain import plain_check
from domain.rulesets import RuleSet, UnknownRuleSet, known

GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
DIE = re.compile(r"^(\d*)d(6|10|20)$")

STRICT = ConfigDict(extra="allow", strict=True)


class Data(BaseModel):
    """Base of every event's data: unknown fields are kept, known ones are typed strictly."""

    model_config = STRICT


class Side(BaseModel):
    model_config = STRICT
    nation: str
    bloc: str


class GameStarted(Data):
    ruleset: str  # an installed rule system (domain/rulesets.py)
    scenario: str
    date: str = Field(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")
    sides: dict[str, Side]
    options: list[Any] = Field(default_factory=list)
    permissions: list[str] = Field(default_factory=list)
    tables: str = "none"

    @field_validator("ruleset")
    @classmethod
    def _ruleset(cls, v):
        if not known(v):
            raise ValueError(str(UnknownRuleSet(v)))
        return v


class TurnStarted(Data):
    turn: int = Field(ge=1)


class PhaseStarted(Data):
    phase: str
    active: Optional[str] = None

    @field_validator("phase")
    @classmethod
    def _phase(cls, v):
        # Which phases there are is the rule system's (checked against the game's ruleset).
        if v in ("setup", "start"):
            raise ValueError(f"{v!r} is not a phase a PhaseStarted begins")
        return v


class Modifier(BaseModel):
    model_config = STRICT
    value: int
    why: Optional[str] = None


class DieRolled(Data):
    purpose: str
    die: str
    result: int
    results: Optional[list[int]] = None
    subject: Optional[str] = None
    modifiers: list[Modifier] = Field(default_factory=list)
    source: Literal["table", "service"] = "table"

    @field_validator("die")
    @classmethod
    def _die(cls, v):
        if not DIE.match(v):
            raise ValueError(f"{v!r} is not a die like d6, d10, d20 or 2d6")
        return v


class DisputeRaised(Data):
    dispute: str
    about: int = Field(ge=1)
    by: Optional[str] = None
    claim: str


class RulingIssued(Data):
    dispute: str
    decision: Literal["upheld", "overturned", "house-rule"]
    rule: Optional[str] = None
    note: Optional[str] = None
    corrections: list[dict[str, Any]] = Field(default_factory=list)
    # A house rule settling a reading the text leaves open: "NAME=READING" pairs of the rule system's
    # interpretations, which the audit of the whole game then applies (docs/game-log-extensions.md)
    interpretations: list[str] = Field(default_factory=list)

    @field_validator("interpretations")
    @classmethod
    def _pairs(cls, pairs):
        for pair in pairs:
            name, sep, reading = pair.partition("=")
            if not sep or not name.strip() or not reading.strip():
                raise ValueError(f"{pair!r}: expected NAME=READING (an interpretation and its reading)")
        return pairs

    @model_validator(mode="after")
    def _house_rule_only(self):
        if self.interpretations and self.decision != "house-rule":
            raise ValueError("interpretations are chosen by a house-rule ruling only")
        return self


CORE_EVENTS: dict[str, type[Data]] = {
    cls.__name__: cls for cls in (GameStarted, TurnStarted, PhaseStarted, DieRolled, DisputeRaised, RulingIssued)
}
PHASE = r"^[a-z][a-z0-9-]*$"

ENVELOPE_FIELDS = ("v", "game", "seq", "turn", "phase", "side", "type", "data", "by", "at", "prev")


class Envelope(BaseModel):
    """One line of the log, before its data is checked against the event type's schema. Its
    fields are game-log.md's, no others: an unknown top-level field is refused."""

    model_config = ConfigDict(extra="forbid", strict=True)
    v: int
    game: str = Field(pattern=GAME_ID.pattern)
    seq: int = Field(ge=1)
    turn: int = Field(ge=0)
    phase: str = Field(pattern=PHASE)
    side: Optional[str] = None
    type: str = Field(pattern=r"^[A-Z][A-Za-z0-9]*$")
    data: dict[str, Any]
    by: Optional[str] = None
    at: Optional[str] = None
    prev: Optional[str] = Field(default=None, pattern=r"^[0-9a-f]{64}$")

    @field_validator("v")
    @classmethod
    def _version(cls, v):
        if v != 1:
            raise ValueError(f"format version {v!r}: this is version 1")
        return v

class PlainEnvelope(NamedTuple):
    """The envelope fields of a line that Envelope would take exactly as they are."""

    v: int
    game: str
    seq: int
    turn: int
    phase: str
    side: Optional[str]
    type: str
    data: dict[str, Any]
    by: Optional[str]
    at: Optional[str]
    prev: Optional[str]


_GAME_ID = re.compile(GAME_ID.pattern.strip("^$"))
_EVENT_TYPE = re.compile(r"[A-Z][A-Za-z0-9]*")
# A hash is 64 of these (Envelope.prev): nothing is left of its ASCII bytes once they are deleted
# (a third of the time of a regex match).
_HEX_DIGITS = b"0123456789abcdef"
_PHASE = re.compile(PHASE)
_OPTIONAL_STR = (str, type(None))
_new_tuple = tuple.__new__
_ENVELOPE_KEYS = frozenset(ENVELOPE_FIELDS)


# The (game, phase, type) names found valid: a log repeats a few hundred of them, each checked once.
_NAMES_SEEN: set[tuple[str, str, str]] = set()
_NAMES_KEPT = 4096


def _names_valid(game: str, phase: str, kind: str) -> bool:
    if not (_GAME_ID.fullmatch(game) and _PHASE.match(phase) and _EVENT_TYPE.fullmatch(kind)):
        return False
    if len(_NAMES_SEEN) >= _NAMES_KEPT:
        _NAMES_SEEN.clear()
    _NAMES_SEEN.add((game, phase, kind))
    return True


def plain_envelope(obj: dict[str, Any]) -> Optional[PlainEnvelope]:
    """A line's envelope checked without building the Envelope model (a third of the cost
    of an import's checks), when every field has exactly the type Envelope wants and a valid
    value; None otherwise, and then Envelope decides and names the field. Keep in step with
    Envelope."""
    get = obj.get
    v, game, seq, turn, phase = get("v"), get("game"), get("seq"), get("turn"), get("phase")
    side, kind, data, by, at, prev = get("side"), get("type"), get("data"), get("by"), get("at"), get("prev")
    if not (type(v) is int and v == 1 and type(seq) is int and seq >= 1 and type(turn) is int and turn >= 0
            and type(game) is str and type(phase) is str and type(kind) is str
            and ((game, phase, kind) in _NAMES_SEEN or _names_valid(game, phase, kind)) and type(data) is dict
            and type(side) in _OPTIONAL_STR and type(by) in _OPTIONAL_STR and type(at) in _OPTIONAL_STR
            and (prev is None or (type(prev) is str and len(prev) == 64 and prev.isascii()
                                  and not prev.encode("ascii").translate(None, _HEX_DIGITS)))):
        return None
    if not _ENVELOPE_KEYS.issuperset(obj):
        return None
    for key in data:
        if type(key) is not str:
            return None
    # PlainEnvelope's fields in order, without the Python __new__ a NamedTuple adds (a line each)
    return _new_tuple(PlainEnvelope, (v, game, seq, turn, phase, side, kind, data, by, at, prev))


def schema_of(event_type: str, ruleset: Optional[RuleSet] = None) -> Optional[type[Data]]:
    """The schema of a core event type or of one of the rule system's; None when unknown."""
    schema = CORE_EVENTS.get(event_type)
    if schema is None and ruleset is not None:
        schema = ruleset.events.get(event_type)
    return schema


def _plain_die_rolled(data: dict[str, Any]) -> bool:
    """A DieRolled's data as the model takes it without a doubt: its fields of exactly their
    types (strict: a bool is not an int), no list of results or modifiers (the model checks those)."""
    get = data.get
    purpose, die, result, subject, source = get("purpose"), get("die"), get("result"), get("subject"), get("source")
    return (type(purpose) is str and type(die) is str and DIE.match(die) is not None and type(result) is int
            and type(subject) in _OPTIONAL_STR and get("results") is None and "modifiers" not in data
            and (source is None and "source" not in data or source in ("table", "service")))


def _plain_turn_started(data: dict[str, Any]) -> bool:
    turn = data.get("turn")
    return type(turn) is int and turn >= 1


def _plain_phase_started(data: dict[str, Any]) -> bool:
    phase, active = data.get("phase"), data.get("active")
    return type(phase) is str and phase not in ("setup", "start") and type(active) in _OPTIONAL_STR


# The core event types most lines are, checked without building their model when every field is
# plainly valid; the model decides (and names the field) whenever a plain check is in doubt.
# Keep each in step with its model above.
_PLAIN_DATA = {"DieRolled": _plain_die_rolled, "TurnStarted": _plain_turn_started,
               "PhaseStarted": _plain_phase_started}


def data_is_valid(event_type: str, data: dict, ruleset: Optional[RuleSet] = None) -> bool:
    """Whether the event type is known, its data checked by its schema (a ValidationError when
    the data is not valid); what check_line asks, without the typed data it does not use. The
    other types' plain checks are derived from their models (domain/plain.py): a rule system's
    moves and statuses are most of a log's other lines."""
    plain = _PLAIN_DATA.get(event_type)
    if plain is not None:
        return plain(data) or validate_data(event_type, data, ruleset) is not None
    schema = schema_of(event_type, ruleset)
    if schema is None:
        return False
    derived = plain_check(schema)
    if derived is not None and derived(data):
        return True
    return schema.__pydantic_validator__.validate_python(data) is not None


def validate_data(event_type: str, data: dict, ruleset: Optional[RuleSet] = None) -> Optional[Data]:
    """The typed data of a known event type, or None for an unknown type."""
    schema = schema_of(event_type, ruleset)
    if schema is None:
        return None
    return schema.__pydantic_validator__.validate_python(data)


def given(event: BaseModel, name: str) -> Any:
    """The value a line gave for a field, one its schema declares or one beside them; None where
    it gave none (a schema's default, such as BarrageDeclared's `sustained` false, is not something
    the players recorded)."""
    return getattr(event, name) if name in event.model_fields_set else None


def first_error(exc: ValidationError, prefix: str = "") -> tuple[str, str]:
    """(field path, message) of a pydantic error, for messages that name the field."""
    err = exc.errors()[0]
    path = ".".join(field_name(p) for p in err.get("loc", ()))
    if prefix:
        path = f"{prefix}.{path}" if path else prefix
    return path, err.get("msg", str(exc))


def field_name(part: Any) -> str:
    """A field's name as an error message shows it: quoted when it would not show (an empty
    or blank name, a name with a dot or spaces around it)."""
    text = str(part)
    if not text or text.strip() != text or "." in text:
        return json.dumps(text, ensure_ascii=False)
    return text
