"""What is typed into a form made from an event's schema (dashboard/forms.py), as the event's
data; a pick on the map, as the text of a location field; and a refusal's field path, as the form
field it names. Pure functions.

A blank optional field is left out (the model's default applies); text that cannot be read as its
field's kind of value is a FormError naming the field; everything else is left to the model the
log is validated with, whose refusal (`data.path[0]`, `data (UnitMoved).unit`) `error_field`
maps back to the form.
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterable, Mapping, Optional

from dashboard.forms import (
    BOOLEAN, CHOICE, ELEMENT, ELEMENTS, GROUP, HEX, HEXES, INTEGER, JSON, KEY, LISTS, NUMBER, NUMBERS, POINT,
    POINTS, ROWS, TEXT, TEXTS, UNIT, UNITS, VALUE, VALUES, Field, FormSpec,
)


class FormError(ValueError):
    """What was typed into one field cannot be read as its kind of value."""

    def __init__(self, name: str, message: str):
        super().__init__(message)
        self.name, self.message = name, message


# -- what was typed -> the event's data ------------------------------------------------------------
def is_blank(value: Any) -> bool:
    return value is None or value == [] or (isinstance(value, str) and not value.strip())


def event_data(spec: FormSpec, values: Mapping[str, Any]) -> dict[str, Any]:
    """The event's data from the form's values (by field name). A blank optional field is left
    out (the model's default applies), but a blank list is written empty where the model requires
    one or defaults to an empty list (TableDefined's `features`: "an empty table has an empty
    list"); anything else blank is left out, for the model to say it is required. A FormError
    names a field whose text cannot be read as its kind."""
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
