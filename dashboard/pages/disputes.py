"""Dispute (`/disputes/<game>`): raise a dispute on an event, see the auditor's evidence, rule on it.

Writes go through the API's own service functions (api.recording.raise_dispute / issue_ruling)
with the rights of the token this browser signed in with: a player (or better) raises, a
referee rules. A ruling's corrections are events built with the forms of their schemas, the
scribe's (dashboard/form_view.py), each checked as it is added.
"""
from __future__ import annotations

from typing import Any, Optional

from dash import Input, Output, State, dcc, get_relative_path, html, no_update

from api.problems import ProblemError
from dashboard import ids
from dashboard.access import SIGN_IN
from dashboard.data import DashboardData, GameView
from dashboard.form_view import builder, items_list, register_builder
from dashboard.pages.common import current_data, game_page, unavailable, verdict_badge
from dashboard.scribe import Choices, next_types, player_choices, rule as issue_ruling
from dashboard.words import describe, headline
from domain.rules.interpretations import catalogue

TITLE = "Disputes"
DECISIONS = ("upheld", "overturned", "house-rule")


def layout(game: Optional[str] = None, about: Optional[str] = None, **_: Any):
    data = current_data()
    gv = game_page(data, game)
    if not isinstance(gv, GameView):
        return gv
    chosen = gv.clamp(about) if about else None
    events = [{"label": headline(l), "value": l["seq"]} for l in gv.lines]
    return html.Div(className="disputes", children=[
        dcc.Store(id=ids.DISPUTE_GAME, data={"game": gv.game}),
        dcc.Store(id=ids.DISPUTE_REFRESH, data=0),
        html.Div(className="replay-head", children=[
            html.H2(f"Disputes · {gv.game}"),
            dcc.Link("replay", href=get_relative_path(f"/replay/{gv.game}"), className="head-link")]),
        html.Div(id=ids.DISPUTE_LIST, children=dispute_list(data, gv.game)),
        html.Div(className="forms", children=[
            html.Div(className="form", children=[
                html.H3("Raise a dispute"),
                html.Label("Event disputed"),
                dcc.Dropdown(id=ids.DISPUTE_ABOUT, options=events, value=chosen, placeholder="choose the event"),
                html.Div(id=ids.DISPUTE_EVIDENCE_FOR, className="evidence",
                         children=evidence_for(data, gv, chosen) if chosen else []),
                html.Label("Claim"),
                dcc.Textarea(id=ids.DISPUTE_CLAIM, placeholder="what was wrong, and why", className="claim"),
                rights(data, gv.game, "player"),
                html.Button("Raise dispute", id=ids.DISPUTE_RAISE),
                html.Div(id=ids.DISPUTE_RAISE_RESULT, className="result"),
            ]),
            html.Div(className="form", children=[
                html.H3("Rule (referee)"),
                html.Label("Dispute"),
                dcc.Dropdown(id=ids.RULING_DISPUTE, options=_open_options(data, gv.game), placeholder="open dispute"),
                html.Label("Decision"),
                dcc.RadioItems(id=ids.RULING_DECISION, options=list(DECISIONS), value="upheld", inline=True),
                html.Label("Rule id"), dcc.Input(id=ids.RULING_RULE, placeholder="e.g. IM.ART.FOT", className="wide"),
                html.Label("Note"), dcc.Textarea(id=ids.RULING_NOTE, className="claim"),
                html.Label("House rule: the readings chosen (the audit applies them to the whole game)",
                           htmlFor=ids.RULING_READINGS),
                dcc.Dropdown(id=ids.RULING_READINGS, options=_readings(gv), multi=True,
                             placeholder="none (a house rule may choose where the text leaves the case open)"),
                builder(ids.RULING_FORM, player_choices(data, gv), next_types(gv.rules),
                        "Corrections: the events that replace the disputed effect"),
                rights(data, gv.game, "referee"),
                html.Button("Issue ruling", id=ids.RULING_ISSUE),
                html.Div(id=ids.RULING_RESULT, className="result"),
            ]),
        ]),
    ])


def game_of(game: Any) -> tuple[Optional[str], Choices]:
    """A page's game store ({"game"}) as its forms need it: the rule system, and what they choose
    from (form_view.GameOf)."""
    data = current_data()
    gv = data.view(game["game"]) if game else None
    return (gv.rules.id if gv is not None and gv.rules is not None else None), player_choices(data, gv)


def rights(data: DashboardData, game: Optional[str], role: str) -> html.P:
    """Whether the signed-in token may write here: the form says so before anyone tries."""
    try:
        data.reader.may(role, game)
        return html.P(f"You are {data.reader.describe()}.", className="rights")
    except ProblemError as refused:
        return html.P(["Needs a ", html.B(role), " token: ", refused.detail, ". ",
                       html.A("Sign in", href=get_relative_path(SIGN_IN))], className="rights error")


def _open_options(data: DashboardData, game: str) -> list[dict[str, Any]]:
    return [{"label": f"{d['dispute']} (event {d['about']}): {d['claim']}", "value": d["dispute"]}
            for d in data.disputes(game) if d["status"] == "open"]


def _apps_table(applications: list[dict[str, Any]]) -> html.Table | html.P:
    if not applications:
        return html.P("No rule application bears on this event.")
    head = html.Tr([html.Th(h) for h in ("event", "verdict", "rule", "what", "citation", "expected", "recorded")])
    rows = [html.Tr([html.Td(a["seq"]), html.Td(verdict_badge(a["verdict"])), html.Td(a["rule"]),
                     html.Td(a["message"]), html.Td(a["citation"], className="citation"),
                     html.Td(str(a.get("expected"))), html.Td(str(a.get("recorded")))]) for a in applications]
    return html.Table(className="rules", children=[html.Thead(head), html.Tbody(rows)])


def _dice_list(dice: list[dict[str, Any]]) -> html.Ul:
    return html.Ul([html.Li(headline(d)) for d in dice] or [html.Li("no dice bear on it")])


def _units_table(board: dict[str, Any]) -> html.Ul:
    items = [html.Li(f"{k} ({u.get('side')}) at {u.get('location')}" + (f": {', '.join(u['status'])}"
                                                                        if u.get("status") else ""))
             for k, u in sorted(board.get("units", {}).items())]
    return html.Ul(items or [html.Li("no unit")])


def evidence_for(data: DashboardData, gv: GameView, about: int) -> list:
    """What the auditor holds about an event before anyone disputes it."""
    apps = [a.to_json() for judged in data.applications(gv).values() for a in judged
            if a.seq == about or about in a.related]
    dice = gv.dice([s for a in apps for s in [a["seq"], *a["related"]]])
    return [html.H4(f"Evidence on event {about}: {describe(gv.line(about))}"), _apps_table(apps),
            html.H4("Dice"), _dice_list(dice)]


def dispute_list(data: DashboardData, game: str) -> list:
    disputes = data.disputes(game)
    if not disputes:
        return [html.P("No dispute has been raised in this game.")]
    cards = []
    for d in disputes:
        rulings = [html.Li(f"{r['data']['decision']} (event {r['seq']})"
                           + (f", rule {r['data']['rule']}" if r["data"].get("rule") else "")
                           + (f": {r['data']['note']}" if r["data"].get("note") else "")) for r in d["rulings"]]
        event = d["event"]
        cards.append(html.Details(className=f"dispute dispute-{d['status']}", open=d["status"] == "open", children=[
            html.Summary([html.B(d["dispute"]), f" · {d['status']} · about event {d['about']}: {d['claim']}",
                          f" (by {d['by']})" if d.get("by") else ""]),
            html.P(["Disputed event: ", dcc.Link(headline(event) if event else f"event {d['about']}",
                                                 href=get_relative_path(f"/replay/{game}?seq={d['about']}"))]),
            html.H4("Rule applications the auditor gathered"), _apps_table(d["applications"]),
            html.H4("Dice"), _dice_list(d["dice"]),
            html.Div(className="boards", children=[
                html.Div([html.H4("Before"), _units_table(d["board"]["before"])]),
                html.Div([html.H4("After"), _units_table(d["board"]["after"])]),
            ]),
            html.H4("Rulings"), html.Ul(rulings or [html.Li("none yet")]),
        ]))
    return cards


def _readings(gv: GameView) -> list[dict[str, str]]:
    """Every reading of the game's rule system's interpretations, as a house rule may choose it."""
    offered = catalogue(gv.rules.id) if gv.rules is not None else {}
    return [{"label": f"{name} = {reading}: {words}", "value": f"{name}={reading}"}
            for name, item in sorted(offered.items()) for reading, words in item.readings.items()]


def _message(result: dict[str, Any], done: str) -> html.Span:
    if "error" in result:
        return html.Span(result["error"], className="error")
    return html.Span(done.format(**result["event"]["data"], seq=result["event"]["seq"]), className="done")


def _bumped(result: dict[str, Any], refresh: Optional[int]):
    """The lists reload after a write that was stored, and only then."""
    return (refresh or 0) + 1 if "event" in result else no_update


def register_callbacks(app) -> None:
    register_builder(app, ids.RULING_FORM, ids.DISPUTE_GAME, game_of)

    @app.callback(Output(ids.DISPUTE_EVIDENCE_FOR, "children"), Input(ids.DISPUTE_ABOUT, "value"),
                  State(ids.DISPUTE_GAME, "data"), prevent_initial_call=True)
    def evidence(about, game):
        data = current_data()
        gv = data.view(game["game"])
        if gv is None:
            return html.P(unavailable(data, game["game"]), className="error")
        return evidence_for(data, gv, gv.clamp(about)) if about else []

    @app.callback(Output(ids.DISPUTE_RAISE_RESULT, "children"), Output(ids.DISPUTE_REFRESH, "data"),
                  Input(ids.DISPUTE_RAISE, "n_clicks"),
                  State(ids.DISPUTE_ABOUT, "value"), State(ids.DISPUTE_CLAIM, "value"),
                  State(ids.DISPUTE_GAME, "data"),
                  State(ids.DISPUTE_REFRESH, "data"), prevent_initial_call=True)
    def raise_(_, about, claim, game, refresh):
        if not about:
            return html.Span("Choose the event disputed.", className="error"), no_update
        result = current_data().raise_dispute(game["game"], about, claim or "")
        return _message(result, "Dispute {dispute} raised at event {seq}."), _bumped(result, refresh)

    @app.callback(Output(ids.RULING_RESULT, "children"), Output(ids.DISPUTE_REFRESH, "data", allow_duplicate=True),
                  Output(ids.form_items(ids.RULING_FORM), "data", allow_duplicate=True),
                  Output(ids.form_list(ids.RULING_FORM), "children", allow_duplicate=True),
                  Input(ids.RULING_ISSUE, "n_clicks"),
                  State(ids.RULING_DISPUTE, "value"), State(ids.RULING_DECISION, "value"),
                  State(ids.RULING_RULE, "value"), State(ids.RULING_NOTE, "value"),
                  State(ids.RULING_READINGS, "value"),
                  State(ids.form_items(ids.RULING_FORM), "data"),
                  State(ids.DISPUTE_GAME, "data"), State(ids.DISPUTE_REFRESH, "data"), prevent_initial_call=True)
    def rule(_, dispute, decision, rule_id, note, readings, corrections, game, refresh):
        if not dispute:
            return html.Span("Choose the dispute to rule on.", className="error"), no_update, no_update, no_update
        body = {"dispute": dispute, "decision": decision, "rule": rule_id or None, "note": note or None,
                "corrections": corrections or [], "interpretations": readings or None}
        outcome = issue_ruling(current_data(), game["game"], body)
        if "error" in outcome:
            where = f" ({outcome['field']})" if outcome.get("field") else ""
            return html.Span(outcome["error"] + where, className="error"), no_update, no_update, no_update
        result = {"event": outcome["events"][0]}
        return (_message(result, "Ruling on {dispute}: {decision} (event {seq})."), _bumped(result, refresh), [],
                items_list(ids.RULING_FORM, []))

    @app.callback(Output(ids.DISPUTE_LIST, "children"), Output(ids.RULING_DISPUTE, "options"),
                  Input(ids.DISPUTE_REFRESH, "data"), State(ids.DISPUTE_GAME, "data"), prevent_initial_call=True)
    def refresh(_, game):
        data = current_data()
        return dispute_list(data, game["game"]), _open_options(data, game["game"])
