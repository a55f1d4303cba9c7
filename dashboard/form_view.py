"""Forms made from the event schemas, drawn as Dash components (dashboard/forms.py makes them).

Every control carries a pattern-matching id {"type": FORM_FIELD, "form", "name"}, so that one
callback reads a whole form whatever its event type, and its refusal is shown in the element
{"type": FORM_ERROR, "form", "name"} beside it. A label names each control (`htmlFor`), the
page's own order is the tab order, and a form is an HTML form: Enter in a field submits it
(assets/record.js keeps the browser from leaving the page).

The forms of corrections (a ruling's events) build a list: each event is checked against its
schema when it is added, and the list is what the ruling carries.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, Optional

from dash import ALL, Input, Output, State, ctx, dcc, html, no_update
from pydantic import ValidationError

from dashboard import ids
from dashboard.form_data import FormError, error_field, event_data, row_count
from dashboard.forms import (
    BOOLEAN, CHOICE, ELEMENT, ELEMENTS, GROUP, HEX, HEXES, INTEGER, JSON, LOCATION_KINDS, NUMBER, NUMBERS,
    POINTS, ROWS, SIDE, TEXTS, UNIT, UNITS, VALUES, Field, FormSpec, context_for, form_spec,
)
from dashboard.scribe import Choices
from dashboard.words import describe
from domain.events import first_error, schema_of, validate_data
from domain.rulesets import find

TEXTAREAS = (POINTS, TEXTS, VALUES, JSON)
SUGGESTED = {"subject": ("units",)}  # a roll's or card's subject is often a unit


def field_id(form: str, name: str) -> dict[str, str]:
    return {"type": ids.FORM_FIELD, "form": form, "name": name}


def error_id(form: str, name: str) -> dict[str, str]:
    return {"type": ids.FORM_ERROR, "form": form, "name": name}


def dom_id(component_id: Mapping[str, Any]) -> str:
    """The DOM id Dash gives a pattern-matching id (keys sorted, compact JSON)."""
    return json.dumps(dict(component_id), sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=256)
def spec_of(ruleset_id: Optional[str], event_type: Optional[str], sides: tuple[str, ...] = ()) -> Optional[FormSpec]:
    """The form of an event type in a rule system (None: no such type)."""
    rules = find(ruleset_id)
    schema = schema_of(event_type, rules) if event_type else None
    if schema is None:
        return None
    return form_spec(event_type, schema, context_for(rules, event_type, sides))


# -- drawing -----------------------------------------------------------------------------------------
def fields_of(form: str, spec: Optional[FormSpec], choices: Choices, values: Mapping[str, Any] = {},
              rows: Mapping[str, int] = {}) -> list:
    """The form's controls: required fields first, each in the model's order; `values` fills them
    (a form drawn again keeps what was typed), `rows` draws more rows of a rows field."""
    if spec is None:
        return [html.P("Choose what happened.", className="hint")]
    ordered = [f for f in spec.fields if f.required] + [f for f in spec.fields if not f.required]
    return [_field(form, f, choices, values, rows) for f in ordered]


def _field(form: str, f: Field, choices: Choices, values: Mapping[str, Any], rows: Mapping[str, int]) -> html.Div:
    if f.kind == GROUP:
        return _fieldset(form, f, [_field(form, g, choices, values, rows) for g in f.items])
    if f.kind == ROWS:
        count = max(row_count(f, values), 1 if f.required else 0) + rows.get(f.name, 0)
        drawn = [html.Div(className="form-row", children=[_field(form, g, choices, values, rows) for g in f.row(i)])
                 for i in range(count)]
        add = html.Button(f"add {'a' if not drawn else 'another'} row", type="button", className="add-row",
                          id={"type": ids.FORM_ADD_ROW, "form": form, "name": f.name})
        return _fieldset(form, f, drawn + [add])
    control = _control(form, f, choices, values.get(f.name))
    pick = (html.Button("pick on the map", type="button", className="pick",
                        id={"type": ids.FORM_PICK, "form": form, "name": f.name}, **{"aria-pressed": "false"})
            if f.kind in LOCATION_KINDS else None)
    return html.Div(className=f"field field-{f.kind}", children=[
        html.Label([f.label, html.Span(" *", className="required", title="required") if f.required else None],
                   htmlFor=dom_id(field_id(form, f.name))),
        control, pick,
        html.Small(f.hint, className="hint") if f.hint else None,
        html.Div(id=error_id(form, f.name), className="field-error", role="alert"),
    ])


def _fieldset(form: str, f: Field, children: list) -> html.Fieldset:
    legend = html.Legend([f.label, html.Span(" *", className="required") if f.required else None])
    hint = [html.Small(f.hint, className="hint")] if f.hint else []
    return html.Fieldset(className=f"field-{f.kind}", children=[
        legend, *hint, *children, html.Div(id=error_id(form, f.name), className="field-error", role="alert")])


def _control(form: str, f: Field, choices: Choices, value: Any):
    cid = field_id(form, f.name)
    if f.kind in (CHOICE, UNIT, UNITS, ELEMENT, ELEMENTS):
        options = (choices.units if f.kind in (UNIT, UNITS) else choices.elements if f.kind in (ELEMENT, ELEMENTS)
                   else [{"label": c, "value": c} for c in f.choices])
        return dcc.Dropdown(id=cid, options=options, value=value, multi=f.kind in (UNITS, ELEMENTS),
                            clearable=not f.required, placeholder=f"choose {f.label}", className="choice")
    if f.kind == BOOLEAN:
        options = [{"label": "yes", "value": "yes"}, {"label": "no", "value": "no"}]
        options += [] if f.required else [{"label": "not said", "value": ""}]
        return dcc.RadioItems(id=cid, options=options, value=value if value is not None else
                              (None if f.required else ""), inline=True, className="yes-no")
    if f.kind in (INTEGER, NUMBER):
        return dcc.Input(id=cid, type="number", value=value, min=f.minimum, max=f.maximum,
                         step=1 if f.kind == INTEGER else "any",
                         inputMode="numeric" if f.kind == INTEGER else "decimal",
                         className="number")
    if f.kind in TEXTAREAS:
        return dcc.Textarea(id=cid, value=value, className="text", rows=3 if f.kind != JSON else 4)
    suggested = _suggestions(f, choices)
    listed = f"{dom_id(cid)}-list" if suggested else None
    control = dcc.Input(id=cid, type="text", value=value, className="text", list=listed, autoComplete="off",
                        inputMode="decimal" if f.kind == NUMBERS else None)
    if not suggested:
        return control
    return html.Span([control, html.Datalist(id=listed, children=[html.Option(value=v) for v in suggested])])


def _suggestions(f: Field, choices: Choices) -> list[str]:
    if f.kind in (HEX, HEXES) or f.kind in LOCATION_KINDS:
        return []
    seen = list(choices.seen.get(f.key, []))
    if "units" in SUGGESTED.get(f.key, ()):
        seen += [u["value"] for u in choices.units if u["value"] not in seen]
    return seen


# -- reading -------------------------------------------------------------------------------------------
def values_of(component_ids: Iterable[Mapping[str, Any]], values: Iterable[Any]) -> dict[str, Any]:
    """A form's values by field name, from the ids and values of its controls (ALL)."""
    return {cid["name"]: value for cid, value in zip(component_ids, values)}


def errors_for(error_ids: list[Mapping[str, Any]], errors: Mapping[str, str]) -> list:
    """What each error element shows: the refusal that names its field, else nothing."""
    return [errors.get(e["name"]) for e in error_ids]


def data_of(spec: FormSpec, values: Mapping[str, Any]) -> tuple[Optional[dict[str, Any]], dict[str, str]]:
    """The event's data from a form's values, or the field whose text cannot be read."""
    try:
        return event_data(spec, values), {}
    except FormError as err:
        return None, {err.name: err.message}


def refusal(outcome: Mapping[str, Any], error_ids: list[Mapping[str, Any]], values: Mapping[str, Any],
            prefix: str = "") -> tuple[list, Optional[str]]:
    """A refusal shown beside the field it names (its field path, less `prefix`: a correction's
    `corrections[0].`), or over the whole form when it names none of the form's fields."""
    names = [e["name"] for e in error_ids]
    where = outcome.get("field")
    where = where[len(prefix):] if where and prefix and where.startswith(prefix) else where
    named = error_field(where, names, values)
    if named is None and where in ("turn", "phase") and where in names:
        named = where
    if named is None:
        return [None] * len(names), outcome["error"] + (f" ({where})" if where else "")
    return errors_for(error_ids, {named: outcome["error"]}), None


def side_field(form: str, choices: Choices, value: Optional[str]) -> html.Div:
    """The envelope's side: who acts or rolls (none for the game's clock)."""
    cid = field_id(form, SIDE)
    return html.Div(className="field field-side", children=[
        html.Label("side", htmlFor=dom_id(cid)),
        dcc.Dropdown(id=cid, options=[{"label": s, "value": s} for s in choices.sides], value=value,
                     placeholder="none (the game's clock)", className="choice"),
        html.Small("the side that acts or rolls", className="hint"),
        html.Div(id=error_id(form, SIDE), className="field-error", role="alert"),
    ])


# -- callbacks -----------------------------------------------------------------------------------------
GameOf = Callable[[Any], tuple[Optional[str], Choices]]  # a page's game store -> (ruleset, choices)


def register_fields(app, form: str, game_store: str, game_of: GameOf) -> None:
    """Draw a form's fields again when its event type changes, or a row is added (what was typed stays)."""

    @app.callback(Output(ids.form_fields(form), "children"), Output(field_id(form, SIDE), "value"),
                  Input(ids.form_type(form), "value"),
                  Input({"type": ids.FORM_ADD_ROW, "form": form, "name": ALL}, "n_clicks"),
                  State({"type": ids.FORM_FIELD, "form": form, "name": ALL}, "value"),
                  State({"type": ids.FORM_FIELD, "form": form, "name": ALL}, "id"),
                  State(game_store, "data"), prevent_initial_call=True)
    def draw(event_type, _adds, values, component_ids, game):
        trigger = ctx.triggered_id
        if trigger != ids.form_type(form) and not clicked(ids.FORM_ADD_ROW):
            return no_update, no_update  # a button drawn anew is not a click
        ruleset, choices = game_of(game)
        spec = spec_of(ruleset, event_type, tuple(choices.sides))
        if trigger != ids.form_type(form):
            typed = {k: v for k, v in values_of(component_ids, values).items() if k != SIDE}
            return fields_of(form, spec, choices, typed, {trigger["name"]: 1}), no_update
        return fields_of(form, spec, choices), choices.side_for(event_type)


def clicked(kind: str) -> bool:
    """Whether this callback was called by a click on a pattern-matching button of `kind` (Dash
    also calls it when such buttons are drawn anew, with no click)."""
    trigger = ctx.triggered_id
    pressed = bool(ctx.triggered and ctx.triggered[0]["value"])
    return isinstance(trigger, dict) and trigger.get("type") == kind and pressed


def built_event(form: str, ruleset: Optional[str], choices: Choices, event_type: Optional[str],
                values: Mapping[str, Any]) -> tuple[Optional[dict[str, Any]], dict[str, str], Optional[str]]:
    """A correction built by a form, checked against its event type's schema: (the event
    {type, side, data}, errors by field, an error naming no field)."""
    spec = spec_of(ruleset, event_type, tuple(choices.sides))
    if spec is None:
        return None, {}, "Choose the event type of the correction."
    data, errors = data_of(spec, values)
    if data is None:
        return None, errors, None
    try:
        validate_data(event_type, data, find(ruleset))
    except ValidationError as err:
        where, message = first_error(err, "data")
        named = error_field(where, values.keys() | {f.name for f in spec.fields}, values)
        return (None, {named: message}, None) if named else (None, {}, f"{message} ({where})")
    side = values.get(SIDE)
    return {"type": event_type, **({"side": side} if side else {}), "data": data}, {}, None


def items_list(form: str, items: list[dict[str, Any]]) -> list:
    """The corrections built so far, in words, each with a button that takes it off."""
    if not items:
        return [html.P("No correction yet: the ruling changes nothing on the board.", className="hint")]
    return [html.Ol(className="built", children=[
        html.Li([f"{item['type']}" + (f" ({item['side']})" if item.get("side") else "") + ": "
                 + describe({"type": item["type"], "data": item["data"]}),
                 html.Button("remove", type="button", className="remove",
                             id={"type": ids.FORM_REMOVE, "form": form, "index": i})])
        for i, item in enumerate(items)])]


def register_builder(app, form: str, game_store: str, game_of: GameOf) -> None:
    """A list of events built with a form (a ruling's corrections): add checks one, remove takes one off."""
    register_fields(app, form, game_store, game_of)

    @app.callback(Output(ids.form_items(form), "data"), Output(ids.form_list(form), "children"),
                  Output({"type": ids.FORM_ERROR, "form": form, "name": ALL}, "children"),
                  Output(ids.form_result(form), "children"),
                  Output(ids.form_fields(form), "children", allow_duplicate=True),
                  Input(ids.form_add(form), "n_clicks"),
                  Input({"type": ids.FORM_REMOVE, "form": form, "index": ALL}, "n_clicks"),
                  State(ids.form_type(form), "value"),
                  State({"type": ids.FORM_FIELD, "form": form, "name": ALL}, "value"),
                  State({"type": ids.FORM_FIELD, "form": form, "name": ALL}, "id"),
                  State({"type": ids.FORM_ERROR, "form": form, "name": ALL}, "id"),
                  State(ids.form_items(form), "data"), State(game_store, "data"), prevent_initial_call=True)
    def build(add, _removes, event_type, values, component_ids, error_ids, items, game):
        items = list(items or [])
        trigger = ctx.triggered_id
        blank = [None] * len(error_ids)
        if clicked(ids.FORM_REMOVE):
            items.pop(trigger["index"])
            return items, items_list(form, items), blank, None, no_update
        if trigger != ids.form_add(form) or not add:
            return no_update, no_update, [no_update] * len(error_ids), no_update, no_update
        ruleset, choices = game_of(game)
        event, errors, general = built_event(form, ruleset, choices, event_type, values_of(component_ids, values))
        if event is None:
            return no_update, no_update, errors_for(error_ids, errors), general, no_update
        items.append(event)
        spec = spec_of(ruleset, event_type, tuple(choices.sides))
        return items, items_list(form, items), blank, None, fields_of(form, spec, choices)


def builder(form: str, choices: Choices, types: list[str], heading: str) -> html.Form:
    """The form that builds a list of events (a ruling's corrections) and the list itself."""
    return html.Form(className="scribe-form form builder", children=[
        html.H4(heading, className="builder-head"),
        dcc.Store(id=ids.form_items(form), data=[]),
        html.Div(id=ids.form_list(form), children=items_list(form, [])),
        html.Label("event type", htmlFor=ids.form_type(form)),
        dcc.Dropdown(id=ids.form_type(form), options=types, placeholder="what the correction records",
                     className="choice"),
        side_field(form, choices, None),
        html.Div(id=ids.form_fields(form), className="fields", children=fields_of(form, None, choices)),
        # its own form's submit: Enter in a correction's field adds it
        html.Button("Add to the corrections", id=ids.form_add(form), type="submit", className="secondary"),
        html.Div(id=ids.form_result(form), className="result error", role="alert"),
    ])
