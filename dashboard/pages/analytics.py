"""Analytics (`/analytics`): artillery and the machines (breakdowns, fascines, vehicle losses) across every
game in the store, with filters and PNG export;
`/analytics?ruleset=dux-bellorum-avbcw` or `landships-of-mogdonazia`: a tabletop rule system's
charts (dashboard/analytics_figures.py), filtered by game."""
from __future__ import annotations

import os
import time
from typing import Any

import plotly.graph_objects as go
from dash import Input, Output, State, dcc, get_relative_path, html

from dashboard import analytics_figures as tt
from dashboard import ids
from dashboard import machine_figures as mf
from dashboard.figures import consumption_figure, fot_figure, points_figure, resistance_figure
from dashboard.pages.common import current_data
from projections.analytics import MACHINE_QUERIES, answers_over
from projections.analytics_tabletop import RULESETS as ANSWERS_OF

TITLE = "Analytics"
DEBIAN_CHROMIUM = "/usr/bin/chromium"
CAP = 25  # IM, Ammunition consumption (optional rule): 25 artillery points per element
IM = "infernal-machines"
CHOICES = ((IM, "Infernal Machines"), ("dux-bellorum-avbcw", "Dux Bellorum AVBCW"),
           ("landships-of-mogdonazia", "Landships of Mogdonazia"))
TABLETOP_FIGURES = {
    ids.AN_AVBCW_LOW: tt.low_ammo_figure, ids.AN_AVBCW_FIRST: tt.first_low_figure, ids.AN_AVBCW_SUPPLY: tt.supply_figure,
    ids.AN_AVBCW_LP: tt.leadership_figure, ids.AN_AVBCW_SUPP: tt.suppression_figure,
    ids.AN_MOG_BREAKDOWN: tt.breakdown_figure, ids.AN_MOG_LOST: tt.lost_turns_figure, ids.AN_MOG_CRIT: tt.criticals_figure,
}

MACHINE_FIGURES = {ids.AN_VEHICLE_BREAKDOWNS: mf.breakdowns_figure, ids.AN_FASCINES: mf.fascines_figure,
                   ids.AN_LOSSES: mf.losses_figure}


def figures(rows: dict[str, list[dict[str, Any]]]) -> dict[str, go.Figure]:
    return {ids.AN_POINTS: points_figure(rows["spends"], CAP), ids.AN_CONSUMPTION: consumption_figure(rows["spends"]),
            ids.AN_RESISTANCE: resistance_figure(rows["requests"]), ids.AN_FOT: fot_figure(rows["requests"])}


def machine_figures(answers: dict[str, list[dict[str, Any]]]) -> dict[str, go.Figure]:
    """The machines' charts from their answers (projections/analytics_machines.py)."""
    return {chart: MACHINE_FIGURES[chart](answers) for chart in ids.MACHINE_CHARTS}


def machine_answers(scenarios: list[str], sides: list[str], years: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The machines' answers over the Infernal Machines games (and sides) that pass the filters (empty: all)."""
    data = current_data()
    games = {g.game for g in data.summaries() if g.ruleset not in ids.TABLETOP_CHARTS
             and (not scenarios or g.scenario in scenarios) and (not years or (g.date or "")[:4] in years)
             and (not sides or set(g.sides) & set(sides))}
    return answers_over(data.services.ledger, data.services.store, MACHINE_QUERIES, games, set(sides) or None)


def tabletop_figures(ruleset: str, answers: dict[str, list[dict[str, Any]]]) -> dict[str, go.Figure]:
    """A tabletop rule system's charts from its answers (projections/analytics_tabletop.py)."""
    return {chart: TABLETOP_FIGURES[chart](answers) for chart in ids.TABLETOP_CHARTS[ruleset]}


def tabletop_answers(ruleset: str, games: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The rule system's answers over the chosen games (none chosen: every game of it the reader sees)."""
    data = current_data()
    visible = {g.game for g in data.summaries() if g.ruleset == ruleset}
    chosen = visible & set(games) if games else visible
    return answers_over(data.services.ledger, data.services.store, ANSWERS_OF[ruleset], chosen)


def chooser(ruleset: str) -> html.Div:
    """The rule system the page shows: a link each (the page's `?ruleset=`)."""
    children: list[Any] = ["Rule system: "]
    for choice, label in CHOICES:
        children += [" · "] if len(children) > 1 else []
        children.append(html.Strong(label) if choice == ruleset else dcc.Link(
            label, href=get_relative_path("/analytics" if choice == IM else f"/analytics?ruleset={choice}")))
    return html.P(id=ids.AN_RULESET, className="rulesets", children=children)


def _chart(chart_id: str, figure: go.Figure) -> html.Div:
    return html.Div(className="chart", children=[
        dcc.Graph(id=chart_id, figure=figure, config={"displaylogo": False}),
        html.Button("Download PNG", id=ids.png_button(chart_id), className="png"),
        dcc.Download(id=ids.png_download(chart_id)),
    ])


def layout(ruleset: str = IM, **_: Any) -> html.Div:
    if ruleset in ids.TABLETOP_CHARTS:
        return _tabletop_layout(ruleset)
    data = current_data()
    options = data.filter_options()
    figs = {**figures(data.analytics([], [], [])), **machine_figures(machine_answers([], [], []))}

    def chart(chart_id: str) -> html.Div:
        return _chart(chart_id, figs[chart_id])

    return html.Div(className="analytics", children=[
        html.H2("Analytics"),
        chooser(IM),
        html.Div(className="filters", children=[
            dcc.Dropdown(id=ids.AN_SCENARIO, options=options["scenarios"], multi=True, placeholder="scenario"),
            dcc.Dropdown(id=ids.AN_SIDE, options=options["sides"], multi=True, placeholder="side"),
            dcc.Dropdown(id=ids.AN_YEAR, options=options["years"], multi=True, placeholder="year"),
        ]),
        html.Div(className="charts", children=[chart(c) for c in ids.CHARTS]),
        html.H3("The machines"),
        html.Div(className="charts", children=[chart(c) for c in ids.MACHINE_CHARTS]),
    ])


def _tabletop_layout(ruleset: str) -> html.Div:
    games = sorted(g.game for g in current_data().summaries() if g.ruleset == ruleset)
    figs = tabletop_figures(ruleset, tabletop_answers(ruleset, []))
    return html.Div(className="analytics", children=[
        html.H2("Analytics"),
        chooser(ruleset),
        html.Div(className="filters", children=[
            dcc.Dropdown(id=ids.games_filter(ruleset), options=games, multi=True, placeholder="game"),
        ]),
        html.Div(className="charts", children=[_chart(c, figs[c]) for c in ids.TABLETOP_CHARTS[ruleset]]),
    ])


def png_bytes(figure: dict[str, Any]) -> bytes:
    """The chart as PNG through kaleido, pointed at Debian's chromium unless BROWSER_PATH says otherwise."""
    if "BROWSER_PATH" not in os.environ and os.path.exists(DEBIAN_CHROMIUM):
        os.environ["BROWSER_PATH"] = DEBIAN_CHROMIUM
    for attempt in range(2):
        try:
            return go.Figure(figure).to_image(format="png", width=1000, height=500)
        except Exception:  # noqa: BLE001 - kaleido's browser tab can lose its scripts' load on a busy machine
            time.sleep(0.5 * (attempt + 1))
    return go.Figure(figure).to_image(format="png", width=1000, height=500)   # a third failure is the user's 500


def register_callbacks(app) -> None:
    @app.callback(*[Output(c, "figure") for c in ids.CHARTS + ids.MACHINE_CHARTS],
                  Input(ids.AN_SCENARIO, "value"), Input(ids.AN_SIDE, "value"), Input(ids.AN_YEAR, "value"),
                  prevent_initial_call=True)
    def filtered(scenarios, sides, years):
        chosen = (scenarios or [], sides or [], years or [])
        figs = {**figures(current_data().analytics(*chosen)), **machine_figures(machine_answers(*chosen))}
        return [figs[c] for c in ids.CHARTS + ids.MACHINE_CHARTS]

    for chart_id in ids.CHARTS + ids.MACHINE_CHARTS:
        _register_png(app, chart_id)
    for ruleset, charts in ids.TABLETOP_CHARTS.items():
        _register_tabletop(app, ruleset, charts)


def _register_tabletop(app, ruleset: str, charts: tuple[str, ...]) -> None:
    @app.callback(*[Output(c, "figure") for c in charts], Input(ids.games_filter(ruleset), "value"),
                  prevent_initial_call=True)
    def filtered(games):
        figs = tabletop_figures(ruleset, tabletop_answers(ruleset, games or []))
        return [figs[c] for c in charts]

    for chart_id in charts:
        _register_png(app, chart_id)


def _register_png(app, chart_id: str) -> None:
    @app.callback(Output(ids.png_download(chart_id), "data"), Input(ids.png_button(chart_id), "n_clicks"),
                  State(chart_id, "figure"), prevent_initial_call=True)
    def download(_, figure):
        return dcc.send_bytes(png_bytes(figure), f"{chart_id.removeprefix('an-')}.png")
