"""The event schemas both miniatures rulesets share (game-log-tabletop.md): points in inches,
`TableDefined` and its features, the tabletop forms of the unit events, the cards, and the shot
and close-combat shapes the two rulesets build on.

A point is `{"x": .., "y": ..}` in events and `[x, y]` inside `TableDefined`; angles are whole
degrees 0..359 ("Angles are whole degrees, 0 to 359"). What pydantic cannot see from one line
alone (a point off the table, a card not in its deck, a polygon that crosses itself) is
`geometry_problem`'s, given what the game holds so far.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Annotated, Any, ClassVar, Literal, Optional, Union

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator
from shapely.geometry import LinearRing

from domain.events import STRICT, Data
from domain.locations import HEX_LOCATION, ROUTE, TERRAIN, Location, locations, touches_board

# game-log.md's hex fields, which no tabletop schema types (extra fields are kept): a hex
# location under one of these names is refused: "a hex in a tabletop game, or a point in a hex
# game, is a format error". A typed point refuses a hex by its own type (`Point`).
HEX_FIELDS = frozenset({"location", "new_target", "hexes", "hexsides"})

Angle = Annotated[int, Field(ge=0, le=359)]   # Geometry: "Angles are whole degrees, 0 to 359"
Inches = Annotated[float, Field(ge=0)]        # a length or a distance, in inches
Count = Annotated[int, Field(ge=0)]


def _not_a_hex(value: Any) -> Any:
    """A string where a point belongs: name a hex location as such (the page's format error)."""
    if isinstance(value, str):
        if HEX_LOCATION.match(value):
            raise ValueError(f"{value!r} is a hex location: a hex in a tabletop game is a format error "
                             "(a point is {\"x\": .., \"y\": ..} in inches)")
        raise ValueError(f"{value!r} is not a point {{\"x\": .., \"y\": ..}} in inches")
    return value


class TabletopData(Data):
    """Base of every tabletop event: "Any event's data may carry note (free text for people; no
    rule reads it)"."""

    note: Optional[str] = None


class Point(BaseModel):
    """A point on the table, in inches from the first side's left corner (Geometry): a location
    (domain/locations.py), a place the event acts at unless its field makes it a `Waypoint`."""

    LOCATION: ClassVar[Location] = Location("point")
    model_config = STRICT
    x: float
    y: float

    @model_validator(mode="before")
    @classmethod
    def _hex(cls, value):
        return _not_a_hex(value)


class PathPoint(Point):
    # "a point may carry f, the facing on arrival (omitted: unchanged)"
    f: Optional[Angle] = None


# A point of a route, in order: a marker's drift `from` one point `to` another, a move's path
# (whose points may carry `f`).
Waypoint = Annotated[Point, Location("point", ROUTE)]
PathWaypoint = Annotated[PathPoint, Location("point", ROUTE)]


class Offset(BaseModel):
    """A point in the hull's frame (a turret, a weapon's `at`): not a table point, may be < 0."""

    model_config = STRICT
    x: float
    y: float


class Footprint(BaseModel):
    """`footprint` {w, d}: "a rectangle centred there, w across the front, turned by facing"."""

    model_config = STRICT
    w: Annotated[float, Field(gt=0)]
    d: Annotated[float, Field(gt=0)]


# `[x, y]` in TableDefined: the table's own terrain, checked against its own edges (_table_problem).
TablePoint = Annotated[list[float], Field(min_length=2, max_length=2), Location("point", TERRAIN)]

# TableDefined, the kinds' table: which are polygons and which polylines.
POLYGON_KINDS = ("woodland", "dense-woodland", "building", "town", "trench", "rough", "hill",
                 "good-going", "impassable")
POLYLINE_KINDS = ("hedge", "fence", "wall", "river", "stream", "road")


class Feature(BaseModel):
    model_config = STRICT
    id: str
    kind: Literal[POLYGON_KINDS + POLYLINE_KINDS]  # type: ignore[valid-type]
    points: list[TablePoint]
    width: Optional[Inches] = None   # roads, rivers
    height: Optional[float] = None   # hills
    cover: Optional[Literal["soft", "hard"]] = None
    area: Optional[bool] = None
    passable: Optional[bool] = None
    wheels: Optional[bool] = None
    rough: Optional[bool] = None
    tall: Optional[bool] = None

    @field_validator("points", mode="before")
    @classmethod
    def _hex_points(cls, value):
        if isinstance(value, list):
            for item in value:
                _not_a_hex(item)
        return value


class TableDefined(TabletopData):
    width: Annotated[float, Field(gt=0)]
    depth: Annotated[float, Field(gt=0)]
    features: list[Feature] = Field(default_factory=list)  # listed without `?`; an empty table has an empty list
    wind: Optional[Angle] = None  # "the bearing it blows toward"


class UnitDeployed(TabletopData):
    """Units: UnitDeployed (tabletop form). The Infernal Machines fields `location`, `morale`,
    `firepower`, `range`, `movement` are absent."""

    unit: str
    position: Point
    facing: Angle
    footprint: Footprint
    figures: Optional[list[Point]] = None
    figure_base: Optional[Annotated[float, Field(gt=0)]] = None  # a diameter
    turret: Optional[Offset] = None
    class_: Optional[str] = Field(default=None, alias="class")
    type: Optional[str] = None
    attrs: dict[str, Any] = Field(default_factory=dict)


MOVE_MODES = ("normal", "second", "charge", "pursue", "fall-back", "retreat", "scatter", "random",
              "jump-pack", "ground", "ambush")


class UnitMoved(TabletopData):
    unit: str
    path: list[PathWaypoint] = Field(min_length=1)  # "the first is the present position"
    mode: Optional[Literal[MOVE_MODES]] = None  # type: ignore[valid-type]
    figures: Optional[list[Point]] = None


class UnitEmbarked(TabletopData):
    unit: str
    vehicle: str
    at: Count  # "index in the vehicle's path"
    figures: Optional[list[Point]] = None


class UnitDisembarked(UnitEmbarked):
    pass


# game-log.md, Units: the core statuses of UnitStatusChanged.
CORE_STATUSES = ("pinned", "unpinned", "eliminated", "retreated", "dismounted", "prone", "standing",
                 "fatigued", "broken-down", "repaired")


def status_event(statuses: tuple[str, ...], name: str = "UnitStatusChanged") -> type[TabletopData]:
    """UnitStatusChanged {unit, status, turns?, cause?} with a ruleset's own value set."""

    def _status(cls, value):
        if value not in statuses:
            raise ValueError(f"unknown status {value!r}; one of {', '.join(statuses)}")
        return value

    namespace = {
        "__annotations__": {"unit": str, "status": str, "turns": Optional[Count], "cause": Optional[str]},
        "turns": None, "cause": None,
        "_status": field_validator("status")(classmethod(_status)),
    }
    return type(name, (TabletopData,), namespace)


# Cards: "Standard cards are rank A, 2..10, J, Q, K then suit C, D, H, S"; standard-54 adds the
# jokers JK1, JK2.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
STANDARD_52 = tuple(rank + suit for suit in SUITS for rank in RANKS)
STANDARD_DECKS = {"standard-52": STANDARD_52, "standard-54": STANDARD_52 + ("JK1", "JK2")}


class DeckDefined(TabletopData):
    deck: str
    cards: Union[Literal["standard-52", "standard-54"], Annotated[list[str], Field(min_length=1)]]


class DeckShuffled(TabletopData):
    deck: str
    returned: Union[Literal["all"], list[str]]


class CardDrawn(TabletopData):
    deck: str
    card: str
    for_: str = Field(alias="for")  # the rule id whose procedure turned it (DieRolled's `purpose`)
    subject: str
    meaning: Optional[str] = None   # as read, e.g. "activates:rebels"
    source: Literal["table", "service"] = "table"


def deck_cards(data: Mapping[str, Any]) -> list[str]:
    """The cards of a `DeckDefined`: a standard deck's names, or the custom deck's own."""
    cards = data["cards"]
    if isinstance(cards, str):
        return list(STANDARD_DECKS[cards])
    return list(cards)


class ShotFired(TabletopData):
    """What both rulesets' ShotFired share: {attack, shooter, weapon?, target, dice, range}."""

    attack: str
    shooter: str
    weapon: Optional[str] = None
    target: str
    dice: Count    # "the number of dice rolled, after every modifier"
    range: Inches


class ShotResolved(TabletopData):
    attack: str
    hits: Count


class CombatSide(BaseModel):
    model_config = STRICT
    units: list[str] = Field(min_length=1)
    charged: bool
    flank: bool
    in_terrain: bool


class CloseCombatFought(TabletopData):
    """AVBCW's form, which Mogdonazia takes "as AVBCW, plus ..."."""

    combat: str
    sides: list[CombatSide]


class CombatResult(BaseModel):
    model_config = STRICT
    unit: str
    dice: Count
    modifiers: list[Any]
    hits: Count
    coh_lost: Count


class CloseCombatResolved(TabletopData):
    combat: str
    results: list[CombatResult]
    # The page gives no form for these two: read as the units that fall back and that pursue
    # (MELEE.FALLBACK "Any unit that ... falls back", MELEE.PURSUE "Any unit that won").
    fall_back: list[str]
    pursue: list[str]


SHARED_EVENTS: dict[str, type[Data]] = {
    cls.__name__: cls for cls in (TableDefined, UnitDeployed, UnitMoved, UnitEmbarked, UnitDisembarked,
                                  DeckDefined, DeckShuffled, CardDrawn)
}


# --- What one line cannot show: checked against the game so far --------------------------------

Problem = Optional[tuple[str, str]]


def geometry_problem(event_type: str, data: dict, table: Optional[dict], position: Optional[dict] = None,
                     decks: Optional[Mapping[str, list[str]]] = None,
                     events: Mapping[str, type[Data]] = SHARED_EVENTS) -> Problem:
    """(field path, message) of a format error of game-log-tabletop.md that pydantic alone cannot
    see, or None. `table` is the game's TableDefined data (None before it); `position` the moved
    unit's present position (None: not checked); `decks` the cards of each defined deck, from
    `deck_cards` (None: cards not checked); `events` the ruleset's schemas. A line its schema
    refuses is left to that schema's error (None here)."""
    if event_type == "MapDefined":
        return "type", "a hex map in a tabletop game is a format error: its table is a TableDefined"
    found = _hex_field(data, "data")
    if found is not None:
        return found
    schema = events.get(event_type)
    if schema is None or not _checked(schema):
        return None
    try:
        typed = schema.__pydantic_validator__.validate_python(data)
    except ValidationError:
        return None
    if isinstance(typed, TableDefined):
        return _table_problem(typed)
    return (_off_table(schema, data, table) or _path_start(typed, position) or _card_problem(typed, decks))


@cache
def _checked(schema: type[BaseModel]) -> bool:
    """Whether geometry_problem has anything to check in a line of this schema (a table point,
    a table, a card): the others are not validated a second time."""
    return issubclass(schema, (TableDefined, CardDrawn, DeckShuffled)) or touches_board(schema, "point")


def _hex_field(value: Any, path: str) -> Problem:
    """A hex location under one of game-log.md's hex field names, which the tabletop schemas
    do not type (extra fields are kept): "a hex in a tabletop game ... is a format error"."""
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}"
            if key in HEX_FIELDS and (key in ("hexes", "hexsides") or _names_hex(item)):
                return where, f"{item!r} is a hex location: a hex in a tabletop game is a format error"
            found = _hex_field(item, where)
            if found is not None:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = _hex_field(item, f"{path}[{i}]")
            if found is not None:
                return found
    return None


def _names_hex(value: Any) -> bool:
    if isinstance(value, str):
        return bool(HEX_LOCATION.match(value))
    return isinstance(value, list) and any(isinstance(v, str) and HEX_LOCATION.match(v) for v in value)


def _table_problem(table: TableDefined) -> Problem:
    """TableDefined: "A polygon is closed implicitly and does not cross itself; a polyline has
    two or more points"; its points lie on its own table."""
    bounds = {"width": table.width, "depth": table.depth}
    for i, feature in enumerate(table.features):
        where = f"data.features[{i}].points"
        for j, (x, y) in enumerate(feature.points):
            off = _off(x, y, bounds)
            if off:
                return f"{where}[{j}]", off
        if feature.kind in POLYLINE_KINDS and len(feature.points) < 2:
            return where, f"a {feature.kind} is a polyline: it has two or more points"
        if feature.kind in POLYGON_KINDS:
            crossing = _polygon_problem(feature)
            if crossing:
                return where, crossing
    return None


def _polygon_problem(feature: Feature) -> Optional[str]:
    if len(feature.points) < 3:
        return f"a {feature.kind} is a polygon: it has three or more points"
    if not LinearRing(feature.points).is_simple:
        return f"the {feature.kind} polygon {feature.id!r} crosses itself"
    return None


def _off(x: float, y: float, table: Mapping[str, Any]) -> Optional[str]:
    # Geometry: "x runs along it (0 to width), y away from it (0 to depth) ... a point off the
    # table is a format error".
    if 0 <= x <= table["width"] and 0 <= y <= table["depth"]:
        return None
    return f"({x}, {y}) is off the table (x 0 to {table['width']}, y 0 to {table['depth']}): a format error"


def _off_table(schema: type[BaseModel], data: dict, table: Optional[dict]) -> Problem:
    """The first point of a line, in its schema's order, that is off the game's table (its
    locations: domain/locations.py; offsets in a hull's frame are not table points)."""
    if table is None:
        return None
    for found in locations(schema, data):
        if found.location.geometry == "point" and found.location.role != TERRAIN:
            off = _off(found.value["x"], found.value["y"], table)
            if off:
                return f"data.{found.where}", off
    return None


def _path_start(typed: BaseModel, position: Optional[dict]) -> Problem:
    # UnitMoved: "path: [points] (the first is the present position, else format error)"
    if not isinstance(typed, UnitMoved) or position is None:
        return None
    first = typed.path[0]
    if (first.x, first.y) != (position["x"], position["y"]):
        return ("data.path[0]", f"({first.x}, {first.y}) is not {typed.unit}'s present position "
                f"({position['x']}, {position['y']}): a path starts where the unit is")
    return None


def _card_problem(typed: BaseModel, decks: Optional[Mapping[str, list[str]]]) -> Problem:
    # Cards: "A card not in its deck is a format error."
    if decks is None or not isinstance(typed, (CardDrawn, DeckShuffled)):
        return None
    cards = decks.get(typed.deck)
    if cards is None:
        return "data.deck", f"deck {typed.deck!r} is not defined in this game (no DeckDefined before)"
    if isinstance(typed, CardDrawn):
        named = [("data.card", typed.card)]
    else:
        named = [] if typed.returned == "all" else [(f"data.returned[{i}]", c) for i, c in enumerate(typed.returned)]
    for where, card in named:
        if card not in cards:
            return where, f"card {card!r} is not in deck {typed.deck!r}"
    return None


# --- The ruleset's hooks (domain/rulesets.py `check_line`, `advance_line`) ---------------------

LineProblem = Callable[[str, dict], Problem]


def active_problem(event_type: str, data: dict) -> Problem:
    # Both rulesets: "PhaseStarted.active is null" (activation is by cards or in sequence).
    if event_type == "PhaseStarted" and data.get("active") is not None:
        return "data.active", f"{data['active']!r}: a tabletop phase's `active` is null"
    return None


def line_checks(events: Mapping[str, type[Data]], own: Optional[LineProblem] = None):
    """`check_line` and `advance_line` for a tabletop ruleset: the state they keep is the
    table, each unit's present position and each deck's cards. `own` adds the ruleset's
    checks of a line by itself."""

    def check_line(event_type: str, data: dict, state: dict) -> Problem:
        problem = active_problem(event_type, data) or (own(event_type, data) if own else None)
        if problem is not None:
            return problem
        unit = data.get("unit") if event_type == "UnitMoved" else None
        position = state.get("positions", {}).get(unit) if isinstance(unit, str) else None
        return geometry_problem(event_type, data, state.get("table"), position, state.get("decks", {}), events)

    def advance_line(event_type: str, data: dict, state: dict) -> None:
        if event_type == "TableDefined":
            state["table"] = data
        elif event_type == "DeckDefined":
            state.setdefault("decks", {})[data["deck"]] = deck_cards(data)
        elif event_type == "UnitDeployed":
            state.setdefault("positions", {})[data["unit"]] = data["position"]
        elif event_type == "UnitMoved":
            last = data["path"][-1]
            state.setdefault("positions", {})[data["unit"]] = {"x": last["x"], "y": last["y"]}

    return check_line, advance_line


def references_in(data: Mapping[str, Any], path: str) -> Iterator[tuple[str, str]]:
    """The unit ids under a nested field path like "sides[].units" or "results[].unit", with
    where each is (for "unit X does not exist in this game" on fields UNIT_REFS cannot name)."""
    head, _, rest = path.partition("[].")
    items = data.get(head)
    if not isinstance(items, list):
        return
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        value = item.get(rest)
        values = value if isinstance(value, list) else [value]
        for j, ref in enumerate(values):
            if isinstance(ref, str):
                suffix = f"[{j}]" if isinstance(value, list) else ""
                yield f"data.{head}[{i}].{rest}{suffix}", ref
