"""The game log's schemas: the envelope and one pydantic model per event type.

The log format (`game-log.md`) is a contract: every field it names is required or optional
exactly as it says, and extra data fields are kept (code may add optional fields).

Validation is strict: what is stored is exactly what was validated, so a value of the wrong
JSON type (the string "4" or the float 4.0 for an integer, `true` for a number) is refused,
never coerced (a coerced value would be checked as one thing and stored as another).
"""
from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal, NamedTuple, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
LOCATION = re.compile(r"^[A-Za-z0-9_-]+:\d{4}$")
DIE = re.compile(r"^(\d*)d(6|10|20)$")

PHASES = (
    "setup", "start", "pin-removal", "barrage", "air-combat", "vehicle-movement",
    "first-foot-movement", "second-foot-movement", "defensive-anti-tank-fire",
    "defensive-small-arms-fire", "offensive-anti-tank-fire", "offensive-small-arms-fire",
    "close-combat", "end",
)
RULESETS = ("infernal-machines", "dux-bellorum-avbcw", "landships-of-mogdonazia")
UNIT_CLASSES = (
    "infantry-platoon", "infantry-squad", "mg-platoon", "cavalry-platoon", "crew",
    "forward-observer", "liaison-officer", "infantry-leader", "support-weapon",
    "artillery-gun", "mortar", "tank", "armoured-car", "light-vehicle", "armoured-train",
    "boat", "aircraft", "balloon",
)
MISSIONS = (
    "destruction", "counter-battery", "neutralisation", "suppression", "interdiction",
    "simple-creeping", "double-creeping", "gas",
)
UNIT_STATUSES = (
    "pinned", "unpinned", "eliminated", "retreated", "dismounted", "prone", "standing",
    "fatigued", "broken-down", "repaired", "mounted",
)


STRICT = ConfigDict(extra="allow", strict=True)


class Data(BaseModel):
    """Base of every event's data: unknown fields are kept, known ones are typed strictly."""

    model_config = STRICT


def _location(value: Optional[str]) -> Optional[str]:
    if value is not None and not LOCATION.match(value):
        raise ValueError(f"{value!r} is not a hex location like '5:6613'")
    return value


Loc = str


class Side(BaseModel):
    model_config = STRICT
    nation: str
    bloc: str


class GameStarted(Data):
    ruleset: Literal["infernal-machines", "dux-bellorum-avbcw", "landships-of-mogdonazia"]
    scenario: str
    date: str = Field(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")
    sides: dict[str, Side]
    options: list[Any] = []
    permissions: list[str] = []
    tables: str = "none"


class HexSpec(BaseModel):
    model_config = STRICT
    terrain: str = "clear"
    features: list[str] = []
    elevation: int = 0


class Hexside(BaseModel):
    model_config = STRICT
    between: list[Loc] = Field(min_length=2, max_length=2)
    feature: str

    @field_validator("between")
    @classmethod
    def _locs(cls, v):
        for loc in v:
            _location(loc)
        return v


class MapDefined(Data):
    maps: list[Any]
    hexes: dict[Loc, HexSpec] = {}
    hexsides: list[Hexside] = []

    @field_validator("hexes")
    @classmethod
    def _locs(cls, v):
        for loc in v:
            _location(loc)
        return v


class WeatherSet(Data):
    weather: Literal["fair", "bad"]
    terrain_state: Literal["good", "difficult", "mud", "snow", "deep-snow"]


class ArtilleryMissionSet(Data):
    side: str
    mission: str


class BarrageTypesSet(Data):
    side: str
    allowed: list[str]


class UnitDeployed(Data):
    unit: str
    class_: str = Field(alias="class")
    name: Optional[str] = None
    location: Optional[Loc] = None
    facing: Optional[int] = None
    morale: Optional[int] = None
    firepower: Optional[float] = None
    range: Optional[int] = None
    movement: Optional[float] = None
    attrs: dict[str, Any] = {}

    @field_validator("class_")
    @classmethod
    def _class(cls, v):
        if v not in UNIT_CLASSES:
            raise ValueError(f"unknown unit class {v!r}; one of {', '.join(UNIT_CLASSES)}")
        return v

    _loc = field_validator("location")(classmethod(lambda cls, v: _location(v)))


class ArtilleryElementAssigned(Data):
    element: str
    side: str
    firepower: int = Field(ge=0)  # 5..40 is a rule (IM.ART.GEN.FP), judged by the auditor
    artillery_points: Optional[int] = None


class MarkerPlaced(Data):
    marker: str
    location: Optional[Loc] = None
    unit: Optional[str] = None
    turns: Optional[int] = None

    _loc = field_validator("location")(classmethod(lambda cls, v: _location(v)))


class MarkerRemoved(MarkerPlaced):
    pass


class TurnStarted(Data):
    turn: int = Field(ge=1)


class PhaseStarted(Data):
    phase: str
    active: Optional[str] = None

    @field_validator("phase")
    @classmethod
    def _phase(cls, v):
        if v not in PHASES or v in ("setup", "start"):
            raise ValueError(f"unknown phase {v!r}")
        return v


class UnitMoved(Data):
    unit: str
    path: list[Loc] = Field(min_length=1)
    mode: Optional[Literal["normal", "run", "trot", "gallop", "ski", "crawl"]] = None

    @field_validator("path")
    @classmethod
    def _locs(cls, v):
        for loc in v:
            _location(loc)
        return v


class UnitStatusChanged(Data):
    unit: str
    status: str
    turns: Optional[int] = None
    cause: Optional[str] = None

    @field_validator("status")
    @classmethod
    def _status(cls, v):
        if v not in UNIT_STATUSES:
            raise ValueError(f"unknown status {v!r}; one of {', '.join(UNIT_STATUSES)}")
        return v


class MoraleChecked(Data):
    units: list[str]
    morale: Optional[int] = None
    passed: bool


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
    modifiers: list[Modifier] = []
    source: Literal["table", "service"] = "table"

    @field_validator("die")
    @classmethod
    def _die(cls, v):
        if not DIE.match(v):
            raise ValueError(f"{v!r} is not a die like d6, d10, d20 or 2d6")
        return v


class Spotted(Data):
    spotter: str
    target: Loc
    spotted: bool

    _loc = field_validator("target")(classmethod(lambda cls, v: _location(v)))


class SmallArmsFired(Data):
    attack: str
    firers: list[str] = Field(min_length=1)
    target: Loc
    firepower: Optional[float] = None
    range: Optional[int] = None

    _loc = field_validator("target")(classmethod(lambda cls, v: _location(v)))


class AttackResult(BaseModel):
    model_config = STRICT
    unit: str
    result: Literal["no-effect", "hit", "pinned", "eliminated", "retreated"]


class SmallArmsResolved(Data):
    attack: str
    results: list[AttackResult] = []


class HexObserved(Data):
    observer: Optional[str] = None
    target: Loc
    via: Literal["forward-observer", "liaison-officer", "aircraft", "balloon", "automatic"]

    _loc = field_validator("target")(classmethod(lambda cls, v: _location(v)))


class BarrageDeclared(Data):
    barrage: str
    side: str
    target: Optional[Loc] = None
    elements: list[str] = Field(min_length=1)
    mission: str
    barrage_type: Literal["drumfire", "hurricane"]
    ammunition: Literal["he", "shrapnel", "smoke", "gas"]
    observer: Optional[str] = None
    sustained: bool = False
    objective: Optional[Literal["strongpoint", "wire", "gun"]] = None
    target_element: Optional[str] = None

    _loc = field_validator("target")(classmethod(lambda cls, v: _location(v)))

    @field_validator("mission")
    @classmethod
    def _mission(cls, v):
        if v not in MISSIONS:
            raise ValueError(f"unknown mission {v!r}; one of {', '.join(MISSIONS)}")
        return v


class ArtilleryPointsSpent(Data):
    element: str
    points: int = Field(ge=0)
    reason: Optional[str] = None
    barrage: Optional[str] = None


class CommunicationTested(Data):
    barrage: str
    link: Literal["fo-artillery", "lno-fo"]
    in_communication: bool


class FireOrderChecked(Data):
    barrage: str
    # The resistance column as a number, or as the text of one ("1", as BCRT columns are
    # written): both are the same JSON value to the auditor, which reads either.
    column: Union[Annotated[int, Field(ge=0)], Annotated[str, Field(pattern=r"^[0-9]{1,4}$")]]
    modifiers: list[Any] = []
    granted: bool
    result: Optional[str] = None


class ScatterTested(Data):
    barrage: str
    element: Optional[str] = None
    scattered: bool
    new_target: Optional[Loc] = None

    _loc = field_validator("new_target")(classmethod(lambda cls, v: _location(v)))


class ZoneResult(BaseModel):
    model_config = STRICT
    location: Loc
    zone: Literal["primary", "secondary"]
    result: str

    _loc = field_validator("location")(classmethod(lambda cls, v: _location(v)))


class BarrageResolved(Data):
    barrage: str
    element: Optional[str] = None
    firepower: int
    column: str

    @field_validator("column", mode="before")
    @classmethod
    def _column(cls, v):
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v
    results: list[ZoneResult] = []


class BarrageCancelled(Data):
    barrage: str
    reason: Literal["no-communication", "fire-order-refused", "sustained-ended", "other"]


class ArtilleryElementEliminated(Data):
    element: str
    by: Optional[str] = None


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
    corrections: list[dict[str, Any]] = []


EVENT_TYPES: dict[str, type[Data]] = {
    cls.__name__: cls
    for cls in (
        GameStarted, MapDefined, WeatherSet, ArtilleryMissionSet, BarrageTypesSet, UnitDeployed,
        ArtilleryElementAssigned, MarkerPlaced, MarkerRemoved, TurnStarted, PhaseStarted,
        UnitMoved, UnitStatusChanged, MoraleChecked, DieRolled, Spotted, SmallArmsFired,
        SmallArmsResolved, HexObserved, BarrageDeclared, ArtilleryPointsSpent,
        CommunicationTested, FireOrderChecked, ScatterTested, BarrageResolved,
        BarrageCancelled, ArtilleryElementEliminated, DisputeRaised, RulingIssued,
    )
}


ENVELOPE_FIELDS = ("v", "game", "seq", "turn", "phase", "side", "type", "data", "by", "at", "prev")


class Envelope(BaseModel):
    """One line of the log, before its data is checked against the event type's schema. Its
    fields are game-log.md's, no others: an unknown top-level field is refused."""

    model_config = ConfigDict(extra="forbid", strict=True)
    v: int
    game: str = Field(pattern=GAME_ID.pattern)
    seq: int = Field(ge=1)
    turn: int = Field(ge=0)
    phase: str
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

    @field_validator("phase")
    @classmethod
    def _phase(cls, v):
        if v not in PHASES:
            raise ValueError(f"unknown phase {v!r}")
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
_HASH = re.compile(r"[0-9a-f]{64}")
_PHASES = frozenset(PHASES)
_OPTIONAL_STR = (str, type(None))
_ENVELOPE_KEYS = frozenset(ENVELOPE_FIELDS)


def plain_envelope(obj: dict[str, Any]) -> Optional[PlainEnvelope]:
    """A line's envelope checked without building the Envelope model (a third of the cost
    of an import's checks), when every field has exactly the type Envelope wants and a valid
    value; None otherwise, and then Envelope decides and names the field. Keep in step with
    Envelope."""
    get = obj.get
    v, game, seq, turn, phase = get("v"), get("game"), get("seq"), get("turn"), get("phase")
    side, kind, data, by, at, prev = get("side"), get("type"), get("data"), get("by"), get("at"), get("prev")
    if not (type(v) is int and v == 1 and type(seq) is int and seq >= 1 and type(turn) is int and turn >= 0
            and type(game) is str and _GAME_ID.fullmatch(game) and type(phase) is str and phase in _PHASES
            and type(kind) is str and _EVENT_TYPE.fullmatch(kind) and type(data) is dict
            and type(side) in _OPTIONAL_STR and type(by) in _OPTIONAL_STR and type(at) in _OPTIONAL_STR
            and (prev is None or (type(prev) is str and _HASH.fullmatch(prev)))):
        return None
    if len(obj) > len(ENVELOPE_FIELDS) or not _ENVELOPE_KEYS.issuperset(obj):
        return None
    for key in data:
        if type(key) is not str:
            return None
    return PlainEnvelope(v, game, seq, turn, phase, side, kind, data, by, at, prev)


def validate_data(event_type: str, data: dict) -> Optional[Data]:
    """The typed data of a known event type, or None for an unknown type."""
    schema = EVENT_TYPES.get(event_type)
    if schema is None:
        return None
    return schema.__pydantic_validator__.validate_python(data)


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
