"""Record (`/record/<game>`): the scribe. The next event of a game is added from the form of its
schema (dashboard/forms.py, form_view.py), a location picked on the map and units chosen from
those on the board; dice and cards are typed as rolled at the table, or rolled and dealt by the
service with its proof. What the auditor says of each stored event shows at once (the replay's
rule views), and a mistake is corrected by a new event: a dispute about it and the referee's
ruling with its corrections, built with the same forms (game-log.md, Rulings).

Writes go through the API's own services with the signed-in token's rights (dashboard/scribe.py).
"""
from __future__ import annotations

from typing import Any, Optional

from dash import ALL, Input, Output, State, ctx, dcc, get_relative_path, html, no_update

from dashboard import ids, record_map
from dashboard.data import DashboardData, GameView
from dashboard.form_data import picked
from dashboard.form_view import (
    builder, clicked, data_of, errors_for, fields_of, items_list, refusal, register_builder, register_fields,
    side_field, spec_of, values_of,
)
from dashboard.forms import LOCATION_KINDS, location_fields
from dashboard.pages.common import current_data, game_page, unavailable, verdict_badge
from dashboard.pages.disputes import DECISIONS, game_of, rights
from dashboard.pages.replay import rules_panel
from dashboard.scribe import SERVICE_ACTIONS, Choices, by_service, correct, next_types, player_choices, record
from dashboard.words import headline
from domain.locations import ROUTE
from domain.rules.engine import FAILING

TITLE = "Record"
EVENT, FIX = ids.EVENT_FORM, ids.FIX_FORM
RECENT = 8
CORRECTABLE = 300  # the last events offered for a correction at the table
CORRECTION = "overturned"  # a mistake corrected: the ruling overturns what was recorded


def layout(game: Optional[str] = None, **_: Any):
    data = current_data()
    gv = game_page(data, game)
    if not isinstance(gv, GameView):
        return gv
    choices = player_choices(data, gv)
    types = next_types(gv.rules)
    return html.Div(className="record", children=[
        dcc.Store(id=ids.RECORD_GAME, data={"game": gv.game}),
        dcc.Store(id=ids.RECORD_CLICK), dcc.Store(id=ids.RECORD_TARGET),
        html.Div(className="replay-head", children=[
            html.H2(f"Record · {gv.game}"),
            html.Span(f"{gv.final.scenario} · {gv.final.date}", className="record-scenario"),
            dcc.Link("replay", href=get_relative_path(f"/replay/{gv.game}"), className="head-link"),
            dcc.Link("disputes", href=get_relative_path(f"/disputes/{gv.game}")),
        ]),
        html.Div(id=ids.RECORD_RIGHTS, children=rights(data, gv.game, "player")),
        html.Div(className="record-body", children=[
            html.Div(className="record-map", children=[
                dcc.Graph(id=ids.RECORD_MAP, figure=record_map.figure(gv),
                          config={"displaylogo": False, "scrollZoom": False, "responsive": True}),
                html.Small("Click the map to fill a location field (the first one of the form, or the one whose "
                           "'pick on the map' you pressed); a route gets each click added.", className="hint"),
                html.Div(id=ids.RECORD_AUDIT, className="record-audit", role="status",
                         children=audit_panel(data, gv, [])),
            ]),
            html.Div(className="record-side", children=[
                html.Form(className="scribe-form form", id="record-event-form", children=[
                    html.H3("Next event"),
                    html.Label("what happened", htmlFor=ids.form_type(EVENT)),
                    dcc.Dropdown(id=ids.form_type(EVENT), options=types, placeholder="choose the event type",
                                 className="choice"),
                    side_field(EVENT, choices, choices.side),
                    html.Div(id=ids.form_fields(EVENT), className="fields", children=fields_of(EVENT, None, choices)),
                    html.Div(className="buttons", children=[
                        html.Button("Record", id=ids.form_submit(EVENT), type="submit", className="primary"),
                        html.Button("", id=ids.RECORD_SERVICE, type="button", className="secondary", hidden=True),
                    ]),
                    html.Div(id=ids.form_result(EVENT), className="result", role="status"),
                ]),
                html.H3("Last events"),
                html.Div(id=ids.RECORD_EVENTS, children=recent_events(data, gv)),
            ]),
        ]),
        _correction(data, gv, choices, types),
    ])


def _correction(data: DashboardData, gv: GameView, choices: Choices, types: list[str]) -> html.Details:
    about = _to_correct(data, gv)
    return html.Details(className="record-fix", open=about is not None, id=ids.RECORD_FIX, children=[
        html.Summary("Correct an event"),
        html.P("Nothing is edited: a mistake is corrected by a dispute about the event and the referee's ruling, "
               "whose corrections replace its effect (the board 'as ruled'). A player's token raises the dispute; "
               "a referee's records the ruling with it.", className="hint"),
        html.Form(className="scribe-form form", children=[
            html.Label("event to correct", htmlFor=ids.RECORD_FIX_ABOUT),
            dcc.Dropdown(id=ids.RECORD_FIX_ABOUT, options=_event_options(gv), value=about, className="choice",
                         placeholder="choose the event"),
            html.Label("what was wrong", htmlFor=ids.RECORD_FIX_CLAIM),
            dcc.Textarea(id=ids.RECORD_FIX_CLAIM, value=_claim(data, gv, about), className="claim"),
            html.Span("decision", className="label"),
            dcc.RadioItems(id=ids.RECORD_FIX_DECISION, options=list(DECISIONS), value=CORRECTION, inline=True),
            html.Label("rule id", htmlFor=ids.RECORD_FIX_RULE),
            dcc.Input(id=ids.RECORD_FIX_RULE, value=_rule(data, gv, about), className="text"),
            html.Label("note", htmlFor=ids.RECORD_FIX_NOTE),
            dcc.Input(id=ids.RECORD_FIX_NOTE, className="text"),
        ]),
        builder(FIX, choices, types, "Corrections: what should have been recorded"),
        html.Button("Record the correction", id=ids.RECORD_FIX_SUBMIT, type="button", className="primary"),
        html.Div(id=ids.RECORD_FIX_RESULT, className="result", role="status"),
    ])


# -- what the page shows ---------------------------------------------------------------------------
def _event_options(gv: GameView) -> list[dict[str, Any]]:
    """The events a correction may be about, the latest first (an older one: the Disputes page)."""
    return [{"label": headline(l), "value": l["seq"]} for l in reversed(gv.lines[-CORRECTABLE:])
            if l["type"] != "GameStarted"]


def _disputed(gv: GameView) -> set[int]:
    return {l["data"].get("about") for l in gv.lines if l["type"] == "DisputeRaised"}


def _to_correct(data: DashboardData, gv: GameView) -> Optional[int]:
    """The latest event with a mistake (a violation, a mismatch, a missing roll: what makes `umpire
    audit` fail) that nobody has disputed yet."""
    disputed, oldest = _disputed(gv), gv.last - CORRECTABLE
    mistaken = [seq for seq, apps in data.applications(gv).items()
                if seq > oldest and seq not in disputed and any(a.verdict in FAILING for a in apps)]
    return max(mistaken) if mistaken else None


def _findings_of(data: DashboardData, gv: GameView, seq: Optional[int]) -> list:
    """The event's mistakes, else its other findings (unverifiable, ambiguous)."""
    found = [a for a in data.applications(gv).get(seq, []) if a.verdict.value != "ok"] if seq else []
    mistakes = [a for a in found if a.verdict in FAILING]
    return mistakes or found


def _claim(data: DashboardData, gv: GameView, seq: Optional[int]) -> str:
    return "; ".join(f"{a.rule}: {a.message}" for a in _findings_of(data, gv, seq))


def _rule(data: DashboardData, gv: GameView, seq: Optional[int]) -> str:
    found = _findings_of(data, gv, seq)
    return found[0].rule if found else ""


def _mistakes_said(data: DashboardData, game: str, seqs: list[int]) -> list:
    """The stored events' mistakes in a line under the form (on a phone the audit is out of sight)."""
    gv = data.view(game)
    found = [a for s in seqs for a in (data.applications(gv).get(s, []) if gv else []) if a.verdict in FAILING]
    if not found:
        return []
    return [html.Span(" ⚑ "), *[verdict_badge(a.verdict.value) for a in found[:1]],
            html.Span(" " + "; ".join(f"{a.rule}: {a.message}" for a in found), className="mistake")]


def audit_panel(data: DashboardData, gv: GameView, seqs: list[int]) -> list:
    """The events just stored, in words, with what the auditor says of each (the replay's view)."""
    if not seqs:
        return [html.P("What the auditor says of each event you record appears here as soon as it is stored.",
                       className="hint")]
    out: list = []
    for seq in seqs:
        line = gv.line(seq)
        out.append(html.H4(f"Stored {headline(line)}", className="stored", **{"data-seq": seq}))
        if line["data"].get("source") == "service":
            out.append(html.P(f"By the service: commitment {line['data'].get('commitment', '')[:16]}…, "
                              f"proof {line['data'].get('mac', '')[:16]}… (checked by `umpire verify-dice` after "
                              "the reveal)", className="proof"))
        out += rules_panel(data, gv, seq, False)
    return out


def recent_events(data: DashboardData, gv: GameView) -> html.Ul:
    """The last events, newest first, those with findings flagged with their verdicts."""
    apps = data.applications(gv)
    items = []
    for line in reversed(gv.lines[-RECENT:]):
        found = [a for a in apps.get(line["seq"], []) if a.verdict.value != "ok"]
        badges = [verdict_badge(v) for v in dict.fromkeys(a.verdict.value for a in found)]
        items.append(html.Li(className="flagged" if found else None, **{"data-seq": line["seq"]},
                             children=[("⚑ " if found else "") + headline(line), *badges]))
    return html.Ul(items, className="recent")


# What a write changes on the page: the board, what the auditor says, the last events, the
# correction's choice of event (the latest mistake) and whether its section is open.
PANELS = ((ids.RECORD_MAP, "figure"), (ids.RECORD_AUDIT, "children"), (ids.RECORD_EVENTS, "children"),
          (ids.RECORD_FIX_ABOUT, "options"), (ids.RECORD_FIX_ABOUT, "value"), (ids.RECORD_FIX, "open"))


def panel_outputs() -> list[Output]:
    return [Output(component, prop, allow_duplicate=True) for component, prop in PANELS]


def panels(data: DashboardData, game: str, seqs: list[int]) -> tuple:
    """The PANELS after a write stored `seqs`."""
    gv = data.view(game)
    if gv is None:
        return (no_update, html.P(unavailable(data, game), className="error")) + (no_update,) * (len(PANELS) - 2)
    about = _to_correct(data, gv)
    return (record_map.figure(gv), audit_panel(data, gv, [s for s in seqs if 1 <= s <= gv.last]),
            recent_events(data, gv), _event_options(gv), about, True if about else no_update)


# -- callbacks -------------------------------------------------------------------------------------
def register_callbacks(app) -> None:
    register_fields(app, EVENT, ids.RECORD_GAME, game_of)
    register_builder(app, FIX, ids.RECORD_GAME, game_of)

    @app.callback(Output(ids.RECORD_SERVICE, "children"), Output(ids.RECORD_SERVICE, "hidden"),
                  Input(ids.form_type(EVENT), "value"), prevent_initial_call=True)
    def service_button(event_type):
        label = SERVICE_ACTIONS.get(event_type)
        return label or "", label is None

    @app.callback(Output({"type": ids.FORM_ERROR, "form": EVENT, "name": ALL}, "children"),
                  Output(ids.form_result(EVENT), "children"),
                  Output(ids.form_fields(EVENT), "children", allow_duplicate=True), *panel_outputs(),
                  Input(ids.form_submit(EVENT), "n_clicks"), Input(ids.RECORD_SERVICE, "n_clicks"),
                  State(ids.form_type(EVENT), "value"),
                  State({"type": ids.FORM_FIELD, "form": EVENT, "name": ALL}, "value"),
                  State({"type": ids.FORM_FIELD, "form": EVENT, "name": ALL}, "id"),
                  State({"type": ids.FORM_ERROR, "form": EVENT, "name": ALL}, "id"),
                  State(ids.RECORD_GAME, "data"), prevent_initial_call=True)
    def store(_record, _service, event_type, values, component_ids, error_ids, game):
        blank, unchanged = [None] * len(error_ids), (no_update,) * (len(PANELS) + 1)
        ruleset, choices = game_of(game)
        spec = spec_of(ruleset, event_type, tuple(choices.sides))
        if spec is None:
            return blank, html.Span("Choose what happened (the event type).", className="error"), *unchanged
        typed = values_of(component_ids, values)
        event, errors = data_of(spec, typed)
        if event is None:
            return errors_for(error_ids, errors), None, *unchanged
        write = by_service if ctx.triggered_id == ids.RECORD_SERVICE else record
        data = current_data()
        outcome = write(data, game["game"], event_type, typed.get("@side"), event)
        if "error" in outcome:
            shown, general = refusal(outcome, error_ids, typed)
            return shown, html.Span(general or "Not stored: see the field marked.", className="error"), *unchanged
        seqs = [line["seq"] for line in outcome["events"]]
        ruleset, choices = game_of(game)  # the board has moved on: the units on it, where they are
        stored = [html.Span(f"Stored event {', '.join(map(str, seqs))}.", className="done"),
                  *_mistakes_said(data, game["game"], seqs)]
        return blank, stored, fields_of(EVENT, spec, choices), *panels(data, game["game"], seqs)

    @app.callback(Output(ids.RECORD_FIX_CLAIM, "value"), Output(ids.RECORD_FIX_RULE, "value"),
                  Input(ids.RECORD_FIX_ABOUT, "value"), State(ids.RECORD_GAME, "data"), prevent_initial_call=True)
    def about(seq, game):
        data = current_data()
        gv = data.view(game["game"])
        if gv is None or not seq:
            return no_update, no_update
        return _claim(data, gv, seq), _rule(data, gv, seq)

    @app.callback(Output(ids.RECORD_FIX_RESULT, "children"), *panel_outputs(),
                  Output(ids.form_items(FIX), "data", allow_duplicate=True),
                  Output(ids.form_list(FIX), "children", allow_duplicate=True),
                  Input(ids.RECORD_FIX_SUBMIT, "n_clicks"),
                  State(ids.RECORD_FIX_ABOUT, "value"), State(ids.RECORD_FIX_CLAIM, "value"),
                  State(ids.RECORD_FIX_DECISION, "value"), State(ids.RECORD_FIX_RULE, "value"),
                  State(ids.RECORD_FIX_NOTE, "value"), State(ids.form_items(FIX), "data"),
                  State(ids.RECORD_GAME, "data"), prevent_initial_call=True)
    def fix(_, about, claim, decision, rule_id, note, corrections, game):
        ruling = {"decision": decision, "rule": rule_id or None, "note": note or None, "corrections": corrections or []}
        outcome = correct(current_data(), game["game"], about, claim or "", ruling)
        if "error" in outcome:
            where = f" ({outcome['field']})" if outcome.get("field") else ""
            return html.Span(outcome["error"] + where, className="error"), *(no_update,) * (len(PANELS) + 2)
        stored = outcome["events"]
        said = (f"Dispute {stored[0]['data']['dispute']} raised at event {stored[0]['seq']}"
                + (f" and ruled ({stored[1]['data']['decision']}) at event {stored[1]['seq']}." if len(stored) > 1
                   else "; a referee rules on it on the Disputes page."))
        return (html.Span(said, className="done"), *panels(current_data(), game["game"], [l["seq"] for l in stored]),
                [], items_list(FIX, []))

    @app.callback(Output(ids.RECORD_TARGET, "data"),
                  Output({"type": ids.FORM_PICK, "form": ALL, "name": ALL}, "className"),
                  Input({"type": ids.FORM_PICK, "form": ALL, "name": ALL}, "n_clicks"),
                  State({"type": ids.FORM_PICK, "form": ALL, "name": ALL}, "id"), prevent_initial_call=True)
    def target(_clicks, pick_ids):
        chosen = ctx.triggered_id
        if not clicked(ids.FORM_PICK):
            return no_update, [no_update] * len(pick_ids)
        return ({"form": chosen["form"], "name": chosen["name"]},
                ["pick chosen" if p == chosen else "pick" for p in pick_ids])

    @app.callback(Output({"type": ids.FORM_FIELD, "form": ALL, "name": ALL}, "value", allow_duplicate=True),
                  Input(ids.RECORD_CLICK, "data"), State(ids.RECORD_TARGET, "data"),
                  State({"type": ids.FORM_FIELD, "form": ALL, "name": ALL}, "value"),
                  State({"type": ids.FORM_FIELD, "form": ALL, "name": ALL}, "id"),
                  State(ids.form_type(EVENT), "value"), State(ids.form_type(FIX), "value"),
                  State(ids.RECORD_GAME, "data"), prevent_initial_call=True)
    def map_clicked(click, chosen, values, component_ids, event_type, fix_type, game):
        unchanged = [no_update] * len(component_ids)
        data = current_data()
        gv = data.view(game["game"]) if click else None
        place = record_map.place_at(gv, click.get("x"), click.get("y")) if gv is not None else None
        if place is None:
            return unchanged
        ruleset, choices = game_of(game)
        types = {EVENT: event_type, FIX: fix_type}
        field = _target(chosen, types, ruleset, choices, component_ids)
        if field is None:
            return unchanged
        form, f = field
        typed = {(c["form"], c["name"]): v for c, v in zip(component_ids, values)}
        unit = typed.get((form, "unit"))
        start = choices.places.get(unit) if f.role == ROUTE and isinstance(unit, str) else None
        new = picked(f, typed.get((form, f.name)), place, start)
        return [new if (c["form"], c["name"]) == (form, f.name) else no_update for c in component_ids]


def _target(chosen: Optional[dict[str, str]], types: dict[str, Optional[str]], ruleset: Optional[str],
            choices: Choices, component_ids: list[dict[str, str]]):
    """The location field a click fills: the one whose 'pick on the map' was pressed last, else the
    first location field of the next event's form (then of the correction's)."""
    shown = {(c["form"], c["name"]) for c in component_ids}
    specs = {form: spec_of(ruleset, t, tuple(choices.sides)) for form, t in types.items()}
    if chosen and (chosen["form"], chosen["name"]) in shown and specs.get(chosen["form"]) is not None:
        f = specs[chosen["form"]].field(chosen["name"])
        if f is not None and f.kind in LOCATION_KINDS:
            return chosen["form"], f
    for form, spec in specs.items():
        for f in location_fields(spec) if spec is not None else []:
            if (form, f.name) in shown:
                return form, f
    return None
