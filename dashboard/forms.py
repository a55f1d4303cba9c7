"""Forms made from the event schemas: pure functions from a pydantic model to a form, from what
was typed to the event's data, and from a validation error's field to the form field it names.

One definition serves every event type of every rule system: the form of an event type is read
from the very model the log is validated with (its JSON schema: types, constraints, enums,
defaults, descriptions), from the location markers of domain/locations.py (a hex or a point in
inches, a place or a route), and from its RuleSet's references (which fields name units or
off-map elements). Nothing here lists the fields of an event type by hand.

Field names are the data's own keys, joined as the log's error paths join them: `footprint.w`
for a nested model's field, `results[0].unit` for a row of a list of models, and `sides[0]`
(with its key under `sides[0].@key`) for a row of a map such as GameStarted's `sides`. The
envelope's fields, not the data's, start with `@` (`@side`, `@game`).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping, Optional, Sequence

from pydantic import BaseModel

from domain.locations import PLACE, ROUTE, Location, located_fields

# What the form shows, per kind of value (dashboard/form_view.py draws each).
TEXT, INTEGER, NUMBER, BOOLEAN, CHOICE = "text", "integer", "number", "boolean", "choice"
NUMBERS, TEXTS, VALUE, VALUES, JSON = "numbers", "texts", "value", "values", "json"
UNIT, UNITS, ELEMENT, ELEMENTS = "unit", "units", "element", "elements"
HEX, HEXES, POINT, POINTS = "hex", "hexes", "point", "points"
GROUP, ROWS = "group", "rows"
LOCATION_KINDS = (HEX, HEXES, POINT, POINTS)
LISTS = (NUMBERS, TEXTS, VALUES, UNITS, ELEMENTS, HEXES, POINTS)
KEY = "@key"   # a map row's key (GameStarted: the side's name)
SIDE = "@side"  # the envelope's side
SIDE_FIELDS = ("side", "active")  # data fields that name one of the game's sides
# Written by the service, never typed: `source: service` comes only with a service roll or card
# (api/authority.py refuses it from the table).
SERVICE_FIELDS = frozenset({"source"})


class FormError(ValueError):
    """What was typed into one field cannot be read as its kind of value."""

    def __init__(self, name: str, message: str):
        super().__init__(message)
        self.name, self.message = name, message


@dataclass(frozen=True)
class Field:
    """One field of a form: where its value goes in the data, and how it is asked for."""

    name: str
    label: str
    kind: str
    required: bool = False
    choices: tuple[str, ...] = ()
    hint: str = ""
    minimum: Optional[float] = None
    maximum: Optional[float] = None
    integer: bool = False          # numbers: whole numbers only
    role: str = PLACE              # a location: a place (a click replaces it) or a route (a click adds to it)
    facing: bool = False           # points: each may carry a facing `f`
    pairs: bool = False            # points written [x, y] (TableDefined's), not {"x", "y"}
    items: tuple["Field", ...] = ()  # a group's fields, or the fields of one row
    keyed: bool = False            # rows of a map (their key under KEY), not of a list
    listed: bool = False           # a list whose model gives an empty list by default: written [] when blank

    def row(self, index: int) -> tuple["Field", ...]:
        """The fields of row `index` of a rows field, named where their values go."""
        return tuple(f.under(f"{self.name}[{index}]") for f in self.items)

    def under(self, prefix: str) -> "Field":
        """This field (and its own fields) inside `prefix`: a group's field, a row's."""
        return replace(self, name=f"{prefix}.{self.name}", items=tuple(f.under(prefix) for f in self.items)
                       if self.kind == GROUP else self.items)

    @property
    def key(self) -> str:
        """Its key in the data of its model."""
        return self.name.rsplit(".", 1)[-1]


@dataclass(frozen=True)
class FormSpec:
    event_type: str
    fields: tuple[Field, ...]

    def field(self, name: str) -> Optional[Field]:
        """The field of that name: a top-level one, a group's, or one of a row (`results[2].unit`)."""
        for f in self.fields:
            if f.name == name:
                return f
            if f.kind == GROUP:
                found = next((g for g in f.items if g.name == name), None)
            else:
                row = re.match(rf"{re.escape(f.name)}\[(\d+)\]\.", name) if f.kind == ROWS else None
                found = next((g for g in f.row(int(row.group(1))) if g.name == name), None) if row else None
            if found is not None:
                return found
        return None


@dataclass(frozen=True)
class Context:
    """What a form needs to know beside the model: which data fields name units or elements
    (the RuleSet's references, nested ones as `results[].unit`), the values some fields must
    take (`phase`: the rule system's phases), and fields the page fills itself."""

    units: frozenset[str] = frozenset()
    elements: frozenset[str] = frozenset()
    sides: tuple[str, ...] = ()
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    omit: frozenset[str] = SERVICE_FIELDS


def context_for(rules: Any, event_type: str, sides: Sequence[str] = (), **choices: tuple[str, ...]) -> Context:
    """The context of an event type of a rule system (a domain.rulesets.RuleSet, or None)."""
    units = set(rules.unit_refs.get(event_type, ())) if rules is not None else set()
    elements = set(rules.element_refs.get(event_type, ())) if rules is not None else set()
    if rules is not None and event_type == "PhaseStarted":
        choices = {"phase": tuple(p for p in rules.phases if p not in ("setup", "start")), **choices}
    return Context(frozenset(units), frozenset(elements), tuple(sides), choices)


# -- model -> form ---------------------------------------------------------------------------------
def form_spec(event_type: str, schema: type[BaseModel], context: Context = Context()) -> FormSpec:
    """The form of an event type: one field per field of its data model, in the model's order."""
    json_schema = schema.model_json_schema(by_alias=True)
    # a default made by a factory is not in the JSON schema: an empty list's is read off the model
    listed = frozenset(f.alias or name for name, f in schema.model_fields.items() if f.default_factory is list)
    reader = _Reader(json_schema.get("$defs", {}), located_fields(schema), context, listed)
    fields = reader.fields(json_schema, "")
    return FormSpec(event_type, tuple(fields))


def _first_line(text: str) -> str:
    return " ".join(text.split("\n\n")[0].split())


@dataclass
class _Reader:
    defs: Mapping[str, Any]
    locations: Mapping[str, Location]
    context: Context
    listed: frozenset[str] = frozenset()  # the model's fields whose default is an empty list

    def resolve(self, node: Mapping[str, Any]) -> Mapping[str, Any]:
        ref = node.get("$ref")
        if ref:
            return {**self.defs[ref.rsplit("/", 1)[-1]], **{k: v for k, v in node.items() if k != "$ref"}}
        return node

    def fields(self, model: Mapping[str, Any], path: str) -> list[Field]:
        required = set(model.get("required", ()))
        out = []
        for key, node in model.get("properties", {}).items():
            if not path and key in self.context.omit:
                continue
            out.append(self.field(key, node, key in required, path))
        return out

    def field(self, key: str, node: Mapping[str, Any], required: bool, path: str) -> Field:
        """One field; `path` is the schema path of its model (`results[]` for a row's)."""
        where = f"{path}.{key}" if path else key
        options = [self.resolve(n) for n in node.get("anyOf", [node])]
        nullable = any(o.get("type") == "null" for o in options)
        options = [o for o in options if o.get("type") != "null"]
        node = {**node, **options[0]} if len(options) == 1 else node
        label = key.replace("_", " ")
        base = Field(key, label, TEXT, required and not nullable, hint=_hint(node),
                     listed=node.get("default") == [] or key in self.listed and not path)
        location = self.locations.get(where) or self.locations.get(f"{where}[]")
        if len(options) != 1:
            return replace(base, kind=VALUE, hint=_join(base.hint, "a number, text, or JSON"))
        if location is not None:
            return self.location(base, node, location, where)
        return self.typed(base, node, where)

    def location(self, base: Field, node: Mapping[str, Any], location: Location, where: str) -> Field:
        many = node.get("type") == "array"
        hexes = location.geometry == "hex"
        if hexes:
            kind, hint = (HEXES, "hexes like 5:6613, in order") if many else (HEX, "a hex like 5:6613")
        else:
            kind, hint = (POINTS, 'points "x, y" in inches, one a line') if many else (POINT, '"x, y" in inches')
        item = self.resolve(node.get("items", {})) if many else node
        facing = "f" in item.get("properties", {})
        if facing:
            hint += ', or "x, y, facing"'
        role = location.role if location.role != "terrain" else PLACE
        return replace(base, kind=kind, hint=_join(base.hint, hint, "or pick on the map"), role=role, facing=facing,
                       pairs=item.get("type") == "array")

    def typed(self, base: Field, node: Mapping[str, Any], where: str) -> Field:
        kind = node.get("type")
        named = base.key
        if kind == "string" and where in self.context.units:
            return replace(base, kind=UNIT)
        if kind == "string" and where in self.context.elements:
            return replace(base, kind=ELEMENT)
        if kind == "array" and self.resolve(node.get("items", {})).get("type") == "string":
            if where in self.context.units:
                return replace(base, kind=UNITS)
            if where in self.context.elements:
                return replace(base, kind=ELEMENTS)
        if kind == "string" and named in SIDE_FIELDS and self.context.sides and "[]" not in where:
            return replace(base, kind=CHOICE, choices=self.context.sides)
        if kind == "string" and ("enum" in node or "const" in node):
            return replace(base, kind=CHOICE, choices=tuple(node.get("enum", [node.get("const")])))
        if kind == "string" and "[]" not in where and named in self.context.choices:
            return replace(base, kind=CHOICE, choices=self.context.choices[named])
        if kind in ("integer", "number"):
            return replace(base, kind=INTEGER if kind == "integer" else NUMBER, **_bounds(node))
        if kind == "boolean":
            return replace(base, kind=BOOLEAN)
        if kind == "string":
            return base
        if kind == "array":
            return self.array(base, node, where)
        if kind == "object":
            return self.object(base, node, where)
        return replace(base, kind=JSON, hint=_join(base.hint, "JSON"))

    def array(self, base: Field, node: Mapping[str, Any], where: str) -> Field:
        item = self.resolve(node.get("items", {}))
        kind = item.get("type")
        if kind in ("integer", "number"):
            return replace(base, kind=NUMBERS, integer=kind == "integer",
                           hint=_join(base.hint, "numbers, separated by spaces or commas"))
        if kind == "string":
            return replace(base, kind=TEXTS, hint=_join(base.hint, "one a line"))
        if kind == "object" and item.get("properties") and "[]" not in where:
            row = self.fields(item, f"{where}[]")
            return replace(base, kind=ROWS, items=tuple(row))
        if not item and "[]" not in where:
            return replace(base, kind=VALUES, hint=_join(base.hint, "one a line: text, or a JSON object"))
        return replace(base, kind=JSON, hint=_join(base.hint, "a JSON list"))

    def object(self, base: Field, node: Mapping[str, Any], where: str) -> Field:
        if node.get("properties") and "[]" not in where:
            inner = self.fields(node, where)
            return replace(base, kind=GROUP, items=tuple(f.under(base.name) for f in inner))
        item = node.get("additionalProperties")
        item = self.resolve(item) if isinstance(item, dict) else {}
        if item.get("properties") and "[]" not in where:
            located = self.locations.get(f"{where}{{}}")
            key = Field(KEY, base.label.removesuffix("s") or "key", HEX if located else TEXT, True,
                        hint="a hex like 5:6613, or pick on the map" if located else "")
            row = [key, *self.fields(item, f"{where}{{}}")]
            return replace(base, kind=ROWS, items=tuple(row), keyed=True)
        return replace(base, kind=JSON, hint=_join(base.hint, "a JSON object"))


def _bounds(node: Mapping[str, Any]) -> dict[str, Any]:
    return {"minimum": node.get("minimum", node.get("exclusiveMinimum")),
            "maximum": node.get("maximum", node.get("exclusiveMaximum"))}


def _hint(node: Mapping[str, Any]) -> str:
    """The field's description and the constraints a person should know before typing, in words
    (a model's docstring is for whoever reads the code: only a field's own description is shown)."""
    parts = []
    if node.get("description") and "$ref" not in node and node.get("type") != "object":
        parts.append(_first_line(node["description"]))
    low, high = node.get("minimum"), node.get("maximum")
    if low is not None and high is not None:
        parts.append(f"{low:g} to {high:g}")
    elif low is not None:
        parts.append(f"at least {low:g}")
    elif high is not None:
        parts.append(f"at most {high:g}")
    if node.get("exclusiveMinimum") is not None:
        parts.append(f"more than {node['exclusiveMinimum']:g}")
    if node.get("minItems"):
        parts.append(f"at least {node['minItems']}")
    if node.get("pattern"):
        parts.append(f"pattern {node['pattern']}")
    if "default" in node and node["default"] not in (None, [], {}):
        parts.append(f"default {node['default']}")
    return "; ".join(parts)


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


# -- what was typed -> the event's data ------------------------------------------------------------
def is_blank(value: Any) -> bool:
    return value is None or value == [] or (isinstance(value, str) and not value.strip())


def event_data(spec: FormSpec, values: Mapping[str, Any]) -> dict[str, Any]:
    """The event's data from the form's values (by field name). A blank optional field is left
    out (the model's default applies), but a blank list is written empty where the model is
    required or defaults to an empty list (TableDefined's `features`: "an empty table has an empty
    list"); anything else blank is left out, for the model to say it is required. FormError names a field whose
    text cannot be read as its kind."""
    return _collect(spec.fields, values)


def _collect(fields: Iterable[Field], values: Mapping[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for f in fields:
        key = f.key
        if f.kind == GROUP:
            inner = _collect(f.items, values)
            if inner:
                data[key] = inner
        elif f.kind == ROWS:
            rows = rows_of(f, values)
            if rows or f.required or f.listed:
                data[key] = rows
        elif not is_blank(values.get(f.name)):
            data[key] = read_value(f, values[f.name])
        elif (f.required and f.kind in LISTS) or (f.listed and f.kind in LISTS + (JSON,)):
            data[key] = []
    return data


def row_count(f: Field, values: Mapping[str, Any]) -> int:
    """How many rows of a rows field the values hold (the form draws that many)."""
    found = [int(m.group(1)) for name in values
             for m in [re.match(rf"{re.escape(f.name)}\[(\d+)\]\.", name)] if m]
    return max(found) + 1 if found else 0


def rows_of(f: Field, values: Mapping[str, Any]) -> Any:
    """The rows a rows field's values hold (blank rows left out): a list, or a map by key."""
    rows: list[Any] = []
    for i in range(row_count(f, values)):
        row = _collect(f.row(i), values)
        if not row:
            continue
        if f.keyed:
            key = row.pop(KEY, None)
            if key is None:
                raise FormError(f"{f.name}[{i}].{KEY}", f"name this {f.items[0].label}")
            row = (key, row)
        rows.append(row)
    return dict(rows) if f.keyed else rows


def read_value(f: Field, raw: Any) -> Any:
    """One field's value as the data holds it."""
    try:
        return _READERS[f.kind](f, raw)
    except FormError:
        raise
    except (ValueError, TypeError) as err:
        raise FormError(f.name, str(err)) from None


def _text(f: Field, raw: Any) -> Any:
    return raw.strip() if isinstance(raw, str) else raw


def _number(text: Any, integer: bool) -> Any:
    """A number typed or given by a number box; a whole number stays an integer (the log is
    strict: 4.0 is not the integer 4)."""
    if isinstance(text, bool):
        raise ValueError(f"{text!r} is not a number")
    if isinstance(text, (int, float)):
        value = text
    else:
        try:
            value = float(text) if re.search(r"[.eE]", text) else int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a {'whole ' if integer else ''}number") from None
    if isinstance(value, float) and value.is_integer() and integer:
        value = int(value)
    if integer and not isinstance(value, int):
        raise ValueError(f"{text!r} is not a whole number")
    return value


def _numbers(f: Field, raw: Any) -> list[Any]:
    items = raw if isinstance(raw, list) else re.split(r"[\s,;]+", str(raw).strip())
    return [_number(item, f.integer) for item in items if str(item).strip()]


def _boolean(f: Field, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("yes", "true"):
        return True
    if text in ("no", "false"):
        return False
    raise ValueError(f"{raw!r}: yes or no")


def _lines(raw: Any) -> list[str]:
    if isinstance(raw, list):
        return [str(item).strip() for item in raw if str(item).strip()]
    return [line.strip() for line in str(raw).splitlines() if line.strip()]


def _value(text: str) -> Any:
    """Text as JSON when it reads as JSON (a number, true, a list, an object), else as text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _item(text: str) -> Any:
    """A line of a list of anything: a JSON object or list when it is written as one, else text
    (a map's id "5" or an option "measure=centre" stays text)."""
    return _value(text) if text[:1] in "{[\"" else text


def _json(f: Field, raw: Any) -> Any:
    try:
        return json.loads(raw) if isinstance(raw, str) else raw
    except json.JSONDecodeError as err:
        raise ValueError(f"not JSON: {err.msg} at column {err.colno}") from None


def _hexes(f: Field, raw: Any) -> list[str]:
    items = raw if isinstance(raw, list) else re.split(r"[\s,;>→]+", str(raw).strip())
    return [str(item).strip() for item in items if str(item).strip()]


POINT_TEXT = re.compile(r"^\(?\s*(-?[0-9.]+)\s*[,\s]\s*(-?[0-9.]+)(?:\s*[,\s@]\s*(-?[0-9]+))?\s*\)?$")


def read_point(f: Field, text: Any) -> Any:
    """"x, y" (or "x, y, facing" where the point may carry one) as {"x", "y"(, "f")}, or as
    [x, y] where the model writes its points so."""
    if isinstance(text, (dict, list)):
        return text
    found = POINT_TEXT.match(str(text).strip())
    if found is None:
        raise ValueError(f'{str(text).strip()!r} is not a point "x, y" in inches')
    point: dict[str, Any] = {"x": _number(found.group(1), False), "y": _number(found.group(2), False)}
    if f.pairs:
        if found.group(3) is not None:
            raise ValueError(f"{str(text).strip()!r}: a point here is x, y")
        return [point["x"], point["y"]]
    if found.group(3) is not None:
        if not f.facing:
            raise ValueError(f"{str(text).strip()!r}: this point carries no facing")
        point["f"] = int(found.group(3))
    return point


def _points(f: Field, raw: Any) -> list[dict[str, Any]]:
    items = raw if isinstance(raw, list) else re.split(r"[;\n]+", str(raw))
    return [read_point(f, item) for item in items if str(item).strip()]


_READERS = {
    TEXT: _text, CHOICE: _text, UNIT: _text, ELEMENT: _text, HEX: _text,
    INTEGER: lambda f, raw: _number(raw, True), NUMBER: lambda f, raw: _number(raw, False),
    NUMBERS: _numbers, BOOLEAN: _boolean, TEXTS: lambda f, raw: _lines(raw),
    VALUE: lambda f, raw: _value(str(raw).strip()) if isinstance(raw, str) else raw,
    VALUES: lambda f, raw: [_item(line) for line in _lines(raw)], JSON: _json,
    UNITS: lambda f, raw: _lines(raw), ELEMENTS: lambda f, raw: _lines(raw),
    HEXES: _hexes, POINT: read_point, POINTS: _points,
}


# -- the data -> what a field shows (a point clicked on the map, a path started at the unit) -------
def show_point(point: Mapping[str, Any]) -> str:
    text = f"{_coordinate(point['x'])}, {_coordinate(point['y'])}"
    return text + (f", {point['f']}" if point.get("f") is not None else "")


def _coordinate(value: float) -> str:
    return f"{round(float(value), 1):g}"


def picked(f: Field, current: Any, place: Any, start: Any = None) -> Any:
    """A location field's text after a pick on the map: a place is replaced; a route gets the
    place added (started at `start`, its unit's present position, when it is empty: a path's
    first point is where the unit is)."""
    shown = show_point(place) if isinstance(place, dict) else str(place)
    if f.kind in (HEX, POINT):
        return shown
    separator = "\n" if f.kind == POINTS else " "
    items = [] if is_blank(current) else [str(current).strip()]
    if not items and start is not None:
        items.append(show_point(start) if isinstance(start, dict) else str(start))
    return separator.join(items + [shown])


def location_fields(spec: FormSpec) -> list[Field]:
    """The fields a click on the map can fill, in the order the form shows them (required
    first), rows included (their first row's)."""
    out = []
    for f in sorted(spec.fields, key=lambda f: not f.required):
        inner = f.items if f.kind == GROUP else f.row(0) if f.kind == ROWS else (f,)
        out += [g for g in inner if g.kind in LOCATION_KINDS]
    return out


# -- a refusal's field -> the form field ----------------------------------------------------------
ENVELOPE_PREFIX = re.compile(r"^data(?: \([A-Za-z0-9]+\))?(?:\.|$)")


def error_field(where: Optional[str], names: Iterable[str], values: Mapping[str, Any] = {}) -> Optional[str]:
    """The form field a refusal names: the log's error path (`data.path[0]`, `data (UnitMoved).unit`,
    `data.sides.royalist.role`, `side`) mapped to the closest field of `names` (the form's
    fields, `@side` for the envelope's side), or None when it names none of them."""
    if not where:
        return None
    names = set(names)
    if not ENVELOPE_PREFIX.match(where):
        envelope = f"@{where.split('.')[0]}"
        return envelope if envelope in names else None
    path = ENVELOPE_PREFIX.sub("", where)
    path = _keyed_rows(path, names, values)
    while path:
        if path in names:
            return path
        trimmed = re.sub(r"(\[\d+\]|\.[^.\[\]]+)$", "", path)
        if trimmed == path:
            break
        path = trimmed
    return None


def _keyed_rows(path: str, names: set[str], values: Mapping[str, Any]) -> str:
    """`sides.royalist.role` -> `sides[0].role`: a map's row named by its key, as the form has it."""
    head, _, rest = path.partition(".")
    if not rest:
        return path
    key, _, tail = rest.partition(".")
    for name, value in values.items():
        found = re.fullmatch(rf"{re.escape(head)}\[(\d+)\]\.{re.escape(KEY)}", name)
        if found and isinstance(value, str) and value.strip() == key:
            row = f"{head}[{found.group(1)}]"
            return f"{row}.{tail}" if tail else row
    return path
