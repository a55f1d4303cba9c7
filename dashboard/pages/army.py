"""Army list check (`/army`): an army list pasted or uploaded, validated and costed against the
rulebook before a game, as `umpire army check` and `POST /api/army/check` do (domain.army_lists):
each error names the unit, the rule id, the count against its limit and the rulebook's words."""
from __future__ import annotations

import base64
import json
from typing import Any, Optional

from dash import Input, Output, State, dcc, html

from dashboard import ids
from domain.army_lists import DEFAULT_RULESET, ArmyListError, check_list, field_line
from domain.rules.interpretations import InterpretationError
from domain.rulesets import UnknownRuleSet, registered

TITLE = "Army list"
PLACEHOLDER = ('{"side": "royalist", "units": [{"unit": "r-inf", "type": "inf-regulars", "figures": 10, '
               '"stats": {...}, "special": ["AVBCW.EQ.BAYONETS"], "pts": 6}], "army_rules": [], "total": 6}')


def army_rulesets() -> list[tuple[str, str]]:
    """(id, title) of each installed rule system that has army lists to check."""
    return sorted((rules.id, rules.title or rules.id) for rules in registered().values() if rules.army_check)


def layout(**_: Any) -> html.Div:
    return html.Div(className="army", children=[
        html.H2("Army list check"),
        html.P("An army list as an ArmyListed event's data holds it (game-log-tabletop.md), checked and "
               "costed against the rulebook before a game."),
        html.Label(["Rule system ", dcc.Dropdown(
            id=ids.ARMY_RULESET, clearable=False, value=DEFAULT_RULESET,
            options=[{"label": title, "value": rid} for rid, title in army_rulesets()])]),
        dcc.Upload(id=ids.ARMY_UPLOAD, className="upload", children=html.Button("Load a LIST.json file")),
        dcc.Textarea(id=ids.ARMY_TEXT, placeholder=PLACEHOLDER, className="army-text",
                     style={"width": "100%", "height": "16em"}),
        html.Label(["Readings (NAME=READING, one a line) ",
                    dcc.Textarea(id=ids.ARMY_READINGS, placeholder="avbcw-heavy-mortar-pts=4",
                                 style={"width": "100%", "height": "3em"})]),
        html.Button("Check", id=ids.ARMY_CHECK, className="primary"),
        html.Div(id=ids.ARMY_RESULT, className="army-result", role="status"),
    ])


def uploaded_text(contents: Optional[str]) -> Optional[str]:
    """The text of an uploaded file (a data: URL), or None when it is not UTF-8."""
    if not contents:
        return None
    try:
        return base64.b64decode(contents.partition(",")[2]).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


def checked(text: str, ruleset_id: str, readings: str) -> html.Div:
    """The verdict on a list, as the page shows it: a problem with the text itself (naming its
    line and field), or the list's errors and its points."""
    if not (text or "").strip():
        return html.Div("Paste or load an army list first.", className="problem")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        return html.Div(f"line {err.lineno}: (json): malformed JSON: {err.msg} at column {err.colno}",
                        className="problem")
    pairs = [p.strip() for p in (readings or "").splitlines() if p.strip()]
    try:
        answer = check_list(data, ruleset_id, pairs)
    except UnknownRuleSet as err:
        return html.Div(f"rule system: {err}", className="problem")
    except InterpretationError as err:
        return html.Div(f"readings: {err}", className="problem")
    except ArmyListError as err:
        return html.Div(f"line {field_line(text, err.field) or 1}: {err.field}: {err.message}", className="problem")
    return report_view(answer)


def report_view(answer: dict[str, Any]) -> html.Div:
    """The legal/illegal verdict, one row per error, and the points by the text."""
    verdict = (f"Legal: {len(answer['costs'])} units, {answer['total']} points" if answer["legal"]
               else f"Not legal: {sum(e['verdict'] == 'violation' for e in answer['errors'])} error(s)")
    rows = [html.Tr([html.Td(e["unit"] or "army"), html.Td(e["rule"]), html.Td(e["verdict"]),
                     html.Td(str(e["count"])), html.Td(str(e["limit"])), html.Td(e["message"]),
                     html.Td(html.Q(e["words"]))]) for e in answer["errors"]]
    errors = html.Table(className="army-errors", children=[
        html.Thead(html.Tr([html.Th(h) for h in ("unit", "rule", "verdict", "count", "limit", "what", "the rulebook")])),
        html.Tbody(rows)]) if rows else None
    costs = html.Table(className="army-costs", children=[
        html.Thead(html.Tr([html.Th("unit"), html.Th("points by the text")])),
        html.Tbody([html.Tr([html.Td(unit), html.Td(str(points))]) for unit, points in answer["costs"].items()])])
    return html.Div([html.P(html.Strong(verdict), className="legal" if answer["legal"] else "illegal"), errors, costs])


def register_callbacks(app) -> None:
    @app.callback(Output(ids.ARMY_TEXT, "value"), Input(ids.ARMY_UPLOAD, "contents"), prevent_initial_call=True)
    def load(contents):
        """The uploaded file's text in the box, where it can be read and corrected."""
        return uploaded_text(contents) or ""

    @app.callback(Output(ids.ARMY_RESULT, "children"), Input(ids.ARMY_CHECK, "n_clicks"),
                  State(ids.ARMY_TEXT, "value"), State(ids.ARMY_RULESET, "value"), State(ids.ARMY_READINGS, "value"),
                  prevent_initial_call=True)
    def check(_, text, ruleset_id, readings):
        """The list checked against the rulebook."""
        return checked(text or "", ruleset_id or DEFAULT_RULESET, readings or "")
