"""Forms made from the event schemas: a pure function from a pydantic model to a form (what is
typed into it becomes the event's data in dashboard/form_data.py).

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

import re
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Optional, Sequence

from pydantic import BaseModel

from domain.locations import PLACE, Location, located_fields

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


def location_fields(spec: FormSpec) -> list[Field]:
    """The fields a click on the map can fill, in the order the form shows them (required
    first), rows included (their first row's)."""
    out = []
    for f in sorted(spec.fields, key=lambda f: not f.required):
        inner = f.items if f.kind == GROUP else f.row(0) if f.kind == ROWS else (f,)
        out += [g for g in inner if g.kind in LOCATION_KINDS]
    return out
