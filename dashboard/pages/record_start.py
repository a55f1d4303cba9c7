"""Record (`/record`): start a game, or go on recording one.

The start is a `GameStarted` made with the form of its schema (the rule system's own when it
asks more than the core one: RuleSet.start_schema), stored as the API stores a new game's first
event (an admin's token creates a game); the page then goes to the new game's scribe.
"""
from __future__ import annotations

from typing import Any, Optional

from dash import ALL, Input, Output, State, ctx, dcc, get_relative_path, html, no_update

from dashboard import ids
from dashboard.form_view import clicked, data_of, dom_id, error_id, errors_for, field_id, fields_of, refusal, values_of
from dashboard.forms import Context, FormSpec, form_spec
from dashboard.pages.common import current_data
from dashboard.pages.disputes import rights
from dashboard.scribe import Choices, start_game
from domain.events import GameStarted
from domain.rules.tables import pack_names
from domain.rulesets import find, registered

FORM = ids.START_FORM
GAME = "@game"
FIRST_ROWS = {"sides": 1}  # a game has two sides at least: the form starts with two rows


def start_spec(ruleset: Optional[str]) -> Optional[FormSpec]:
    """The form of a rule system's GameStarted (its `ruleset` is the page's own choice)."""
    rules = find(ruleset)
    if rules is None:
        return None
    return form_spec("GameStarted", rules.start_schema or GameStarted, Context(omit=frozenset({"ruleset", "source"})))


def choices(ruleset: Optional[str]) -> Choices:
    """What the start form suggests: the rule system's table packs."""
    return Choices(seen={"tables": pack_names(ruleset)})


def _readings(ruleset: Optional[str]) -> html.Small:
    rules = find(ruleset)
    named = [f"{i.name}={'|'.join(i.readings)}" for i in (rules.interpretations() if rules else ())]
    return html.Small(("Options may choose its named interpretations, one a line as NAME=READING: "
                       + "; ".join(named)) if named else "", className="hint", id="record-readings")


def layout(**_: Any) -> html.Div:
    data = current_data()
    rulesets = sorted(registered())
    chosen = rulesets[0] if rulesets else None
    games = [html.Li(dcc.Link(f"{g.game} ({g.ruleset}, {g.scenario})", href=get_relative_path(f"/record/{g.game}")))
             for g in data.summaries()]
    game_id = field_id(FORM, GAME)
    return html.Div(className="record record-start", children=[
        dcc.Location(id=ids.RECORD_START_GO, refresh="callback-nav"),
        html.H2("Record a game"),
        html.P("Start a game here, then record it event by event on its page, as it is played."),
        rights(data, None, "admin"),
        html.Form(className="scribe-form form", children=[
            html.Div(className="field", children=[
                html.Label("game id", htmlFor=dom_id(game_id)),
                dcc.Input(id=game_id, type="text", className="text", autoComplete="off"),
                html.Small("lower-case letters, digits and -, e.g. arras-1917-a", className="hint"),
                html.Div(id=error_id(FORM, GAME), className="field-error", role="alert"),
            ]),
            html.Div(className="field", children=[
                html.Label("rule system", htmlFor=ids.RECORD_RULESET),
                dcc.Dropdown(id=ids.RECORD_RULESET, value=chosen, clearable=False, className="choice",
                             options=[{"label": find(r).title or r, "value": r} for r in rulesets]),
            ]),
            html.Div(id=ids.form_fields(FORM), className="fields",
                     children=fields_of(FORM, start_spec(chosen), choices(chosen), rows=FIRST_ROWS)),
            html.Div(id="record-readings-box", children=_readings(chosen)),
            html.Button("Start the game", id=ids.form_submit(FORM), type="submit", className="primary"),
            html.Div(id=ids.form_result(FORM), className="result", role="alert"),
        ]),
        html.H3("Go on recording"),
        html.Ul(games or [html.Li("No game yet.")], className="record-games"),
    ])


def register_callbacks(app) -> None:
    @app.callback(Output(ids.form_fields(FORM), "children"), Output("record-readings-box", "children"),
                  Input(ids.RECORD_RULESET, "value"),
                  Input({"type": ids.FORM_ADD_ROW, "form": FORM, "name": ALL}, "n_clicks"),
                  State({"type": ids.FORM_FIELD, "form": FORM, "name": ALL}, "value"),
                  State({"type": ids.FORM_FIELD, "form": FORM, "name": ALL}, "id"), prevent_initial_call=True)
    def draw(ruleset, _adds, values, component_ids):
        typed = {k: v for k, v in values_of(component_ids, values).items() if k != GAME}
        trigger = ctx.triggered_id
        more = dict(FIRST_ROWS) if not typed else {}
        if trigger != ids.RECORD_RULESET:
            if not clicked(ids.FORM_ADD_ROW):
                return no_update, no_update  # a button drawn anew is not a click
            more = {trigger["name"]: 1}
        return fields_of(FORM, start_spec(ruleset), choices(ruleset), typed, more), _readings(ruleset)

    @app.callback(Output({"type": ids.FORM_ERROR, "form": FORM, "name": ALL}, "children"),
                  Output(ids.form_result(FORM), "children"), Output(ids.RECORD_START_GO, "href"),
                  Input(ids.form_submit(FORM), "n_clicks"),
                  State(ids.RECORD_RULESET, "value"),
                  State({"type": ids.FORM_FIELD, "form": FORM, "name": ALL}, "value"),
                  State({"type": ids.FORM_FIELD, "form": FORM, "name": ALL}, "id"),
                  State({"type": ids.FORM_ERROR, "form": FORM, "name": ALL}, "id"), prevent_initial_call=True)
    def start(_, ruleset, values, component_ids, error_ids):
        typed = values_of(component_ids, values)
        spec = start_spec(ruleset)
        if spec is None:
            return [None] * len(error_ids), html.Span("Choose the rule system.", className="error"), no_update
        started, errors = data_of(spec, typed)
        if started is None:
            return errors_for(error_ids, errors), None, no_update
        game = (typed.get(GAME) or "").strip()
        outcome = start_game(current_data(), game, {"ruleset": ruleset, **started})
        if "error" in outcome:
            shown, general = refusal(outcome, error_ids, typed)
            return shown, html.Span(general, className="error") if general else None, no_update
        return [None] * len(error_ids), html.Span(f"Game {game} started.", className="done"), \
            get_relative_path(f"/record/{game}")
