"""Locations as a typed value: which fields of an event name a place on the board, and how.

An event schema types each of its location fields with a `Location` marker: a hex
`"<map>:<xxyy>"` (game-log.md, Locations) is a `HexLocation`, `HexPath` or `MapHex` below
(`Annotated[str, Location("hex"), ...]`), and a point in inches (game-log-tabletop.md,
Geometry: `{"x": .., "y": ..}`) is a model class that carries the marker as its `LOCATION`
(domain/tabletop/events.py `Point`). The marker also says what the location is to the event:
a `place` it acts at (a unit's deployment, a barrage's target), a point of its `route` in order
(a move's path, a smoke drift's `from` and `to`), or the `terrain` it lays out (MapDefined's
hexes and hexsides, TableDefined's outlines).

`locations(schema, data)` reads an event's data through its schema and yields every location
it holds with its field path, nested lists and maps too (`results[].location`, `path[]`,
`hexsides[].between[]`, `hexes{}`): the dashboard's highlights and the format checks read what
an event touches from its types, so a new event type with a location field is highlighted and
checked without a list of field names being edited.
"""
from __future__ import annotations

import re
import types
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Iterable, Iterator, Mapping, NamedTuple, Optional, Union, get_args, get_origin

from pydantic import AfterValidator, BaseModel, Field

from domain.events import schema_of
from domain.rulesets import find

# game-log.md, Locations: "A hex is "<map>:<hex>" ... The four digits are column ... then row".
HEX_LOCATION = re.compile(r"^[A-Za-z0-9_-]+:\d{4}$")

GEOMETRIES = ("hex", "point")
PLACE, ROUTE, TERRAIN = "place", "route", "terrain"


@dataclass(frozen=True)
class Location:
    """The marker of a location type: its geometry (`hex`: a "<map>:<xxyy>" string; `point`:
    `{"x", "y"}` in inches, `[x, y]` inside TableDefined) and its role (place, route, terrain)."""

    geometry: str
    role: str = PLACE

    def __post_init__(self) -> None:
        if self.geometry not in GEOMETRIES:
            raise ValueError(f"a location is a {' or a '.join(GEOMETRIES)}, not {self.geometry!r}")
        if self.role not in (PLACE, ROUTE, TERRAIN):
            raise ValueError(f"a location's role is {PLACE}, {ROUTE} or {TERRAIN}, not {self.role!r}")


class Located(NamedTuple):
    """One location an event holds."""

    field: str          # the schema's path: "results[].location", "path[]", "hexes{}"
    where: str          # this event's, under `data`: "results[0].location", "path[2]", "hexes.5:6613"
    location: Location  # its marker
    value: Any          # as the data holds it: "5:6613", {"x": 12.0, "y": 8.0}


def check_hex(value: str) -> str:
    if not HEX_LOCATION.match(value):
        raise ValueError(f"{value!r} is not a hex location like '5:6613'")
    return value


# The hexes found valid: a game names a few hundred, each on many lines (a move's path is checked
# on every import), and a set finds one in a third of the time the pattern takes.
_HEXES_SEEN: set[str] = set()
_HEXES_KEPT = 65536


def check_hexes(values: Iterable[str]) -> Any:
    """Each hex of a list, or each key of a map: checked as a whole, the error names its field."""
    match, seen = HEX_LOCATION.match, _HEXES_SEEN  # no call per hex
    for value in values:
        if value in seen:
            continue
        if not match(value):
            check_hex(value)  # raises, with its message
        if len(seen) >= _HEXES_KEPT:
            seen.clear()
        seen.add(value)
    return values


# The hex location types of a hex game's schemas (the tabletop point is domain/tabletop/events.py's
# `Point`): one hex the event acts at, a path ("[loc, ...] (first = start)"), and the map's own hexes.
HexLocation = Annotated[str, Location("hex"), AfterValidator(check_hex)]
HexPath = Annotated[list[Annotated[str, Location("hex", ROUTE)]], Field(min_length=1), AfterValidator(check_hexes)]
MapHex = Annotated[str, Location("hex", TERRAIN)]


# -- how to reach the locations of a value of one annotation (built once per schema) ------------
def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


class _At(NamedTuple):
    location: Location

    def walk(self, value: Any, where: str, field: str) -> Iterator[Located]:
        hex_form = self.location.geometry == "hex"
        if isinstance(value, str) if hex_form else isinstance(value, (dict, list)):
            yield Located(field, where, self.location, value)


class _Items(NamedTuple):
    item: Any

    def walk(self, value: Any, where: str, field: str) -> Iterator[Located]:
        if isinstance(value, list):
            for i, item in enumerate(value):
                yield from self.item.walk(item, f"{where}[{i}]", f"{field}[]")


class _Map(NamedTuple):
    key: Optional[Location]
    item: Any  # None: its values hold no location

    def walk(self, value: Any, where: str, field: str) -> Iterator[Located]:
        if not isinstance(value, dict):
            return
        for key, item in value.items():
            if self.key is not None and isinstance(key, str):
                yield Located(f"{field}{{}}", _join(where, key), self.key, key)
            if self.item is not None:
                yield from self.item.walk(item, _join(where, key), f"{field}{{}}")


class _Fields(NamedTuple):
    fields: tuple[tuple[str, Any], ...]  # (data key, plan), in the schema's order

    def walk(self, value: Any, where: str, field: str) -> Iterator[Located]:
        if isinstance(value, dict):
            for key, plan in self.fields:
                if key in value:
                    yield from plan.walk(value[key], _join(where, key), _join(field, key))


class _Either(NamedTuple):
    plans: tuple[Any, ...]  # a union's alternatives: the first that finds a location in the value

    def walk(self, value: Any, where: str, field: str) -> Iterator[Located]:
        for plan in self.plans:
            found = list(plan.walk(value, where, field))
            if found:
                yield from found
                return


def _marker(metadata: Any) -> Optional[Location]:
    return next((m for m in metadata if isinstance(m, Location)), None)


def _plan(annotation: Any) -> Any:
    """How a value of this annotation holds locations; None when it holds none."""
    origin = get_origin(annotation)
    if origin is Annotated:
        inner, *metadata = get_args(annotation)
        marker = _marker(metadata)
        return _At(marker) if marker is not None else _plan(inner)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _model_plan(annotation)
    args = get_args(annotation)
    if origin is list:
        item = _plan(args[0]) if args else None
        return _Items(item) if item is not None else None
    if origin is dict and args:
        key, item = _plan(args[0]), _plan(args[1])
        key_marker = key.location if isinstance(key, _At) else None
        return _Map(key_marker, item) if key_marker is not None or item is not None else None
    if origin is Union or origin is types.UnionType:
        plans = tuple(p for p in (_plan(a) for a in args) if p is not None)
        return plans[0] if len(plans) == 1 else _Either(plans) if plans else None
    return None


@cache
def _model_plan(schema: type[BaseModel]) -> Any:
    marker = getattr(schema, "LOCATION", None)
    if isinstance(marker, Location):
        return _At(marker)
    fields = []
    for name, info in schema.model_fields.items():
        # pydantic keeps a field's own `Annotated[...]` metadata beside its annotation
        marker = _marker(info.metadata)
        plan = _At(marker) if marker is not None else _plan(info.annotation)
        if plan is not None:
            fields.append((info.alias or name, plan))
    return _Fields(tuple(fields)) if fields else None


# -- what an event touches -------------------------------------------------------------------------
def locations(schema: Optional[type[BaseModel]], data: Mapping[str, Any]) -> Iterator[Located]:
    """Every location an event's data holds, in the schema's field order, read through its
    schema (None, an unknown type: none). A value the schema would refuse is passed over."""
    plan = _model_plan(schema) if schema is not None else None
    if plan is not None:
        yield from plan.walk(data, "", "")


@cache
def located_fields(schema: Optional[type[BaseModel]]) -> dict[str, Location]:
    """The schema's location fields by path ("path[]", "results[].location"), with their markers."""
    return {} if schema is None else _fields_of(_model_plan(schema), "")


def _fields_of(plan: Any, field: str) -> dict[str, Location]:
    if isinstance(plan, _At):
        return {field: plan.location}
    if isinstance(plan, _Items):
        return _fields_of(plan.item, f"{field}[]")
    if isinstance(plan, _Map):
        keys = {f"{field}{{}}": plan.key} if plan.key is not None else {}
        return {**keys, **_fields_of(plan.item, f"{field}{{}}")}
    found: dict[str, Location] = {}
    if isinstance(plan, _Fields):
        for key, inner in plan.fields:
            found.update(_fields_of(inner, _join(field, key)))
    elif isinstance(plan, _Either):
        for inner in plan.plans:
            found.update(_fields_of(inner, field))
    return found


def touches_board(schema: Optional[type[BaseModel]], geometry: str) -> bool:
    """Whether the schema has a location of that geometry that is not terrain (a place or a route)."""
    return any(loc.geometry == geometry and loc.role != TERRAIN for loc in located_fields(schema).values())


def schema_for(event_type: str, ruleset_id: Optional[str]) -> Optional[type[BaseModel]]:
    """The schema of a core event type or of the game's rule system's (None when unknown)."""
    return schema_of(event_type, find(ruleset_id))
