"""Analytics (`/analytics`): artillery across every game in the store, with filters and PNG export."""
from __future__ import annotations

import os
from typing import Any

import plotly.graph_objects as go
from dash import Input, Output, State, dcc, html

from dashboard import ids
from dashboard.figures import consumption_figure, fot_figure, points_figure, resistance_figure
from dashboard.pages.common import current_data

TITLE = "Analytics"
DEBIAN_CHROMIUM = "/usr/bin/chromium"
CAP = 25  # IM, Ammunition consumption (optional rule): 25 artillery points per element


def figures(rows: dict[str, list[dict[str, Any]]]) -> dict[str, go.Figure]:
    return {ids.AN_POINTS: points_figure(rows["spends"], CAP), ids.AN_CONSUMPTION: consumption_figure(rows["spends"]),
            ids.AN_RESISTANCE: resistance_figure(rows["requests"]), ids.AN_FOT: fot_figure(rows["requests"])}


def layout(**_: Any) -> html.Div:
    data = current_data()
    options = data.filter_options()
    figs = figures(data.analytics([], [], []))

    def chart(chart_id: str) -> html.Div:
        return html.Div(className="chart", children=[
            dcc.Graph(id=chart_id, figure=figs[chart_id], config={"displaylogo": False}),
            html.Button("Download PNG", id=ids.png_button(chart_id), className="png"),
            dcc.Download(id=ids.png_download(chart_id)),
        ])

    return html.Div(className="analytics", children=[
        html.H2("Analytics"),
        html.Div(className="filters", children=[
            dcc.Dropdown(id=ids.AN_SCENARIO, options=options["scenarios"], multi=True, placeholder="scenario"),
            dcc.Dropdown(id=ids.AN_SIDE, options=options["sides"], multi=True, placeholder="side"),
            dcc.Dropdown(id=ids.AN_YEAR, options=options["years"], multi=True, placeholder="year"),
        ]),
        html.Div(className="charts", children=[chart(c) for c in ids.CHARTS]),
    ])


def png_bytes(figure: dict[str, Any]) -> bytes:
    """The chart as PNG through kaleido, pointed at Debian's chromium unless BROWSER_PATH says otherwise."""
    if "BROWSER_PATH" not in os.environ and os.path.exists(DEBIAN_CHROMIUM):
        os.environ["BROWSER_PATH"] = DEBIAN_CHROMIUM
    return go.Figure(figure).to_image(format="png", width=1000, height=500)


def register_callbacks(app) -> None:
    @app.callback(*[Output(c, "figure") for c in ids.CHARTS],
                  Input(ids.AN_SCENARIO, "value"), Input(ids.AN_SIDE, "value"), Input(ids.AN_YEAR, "value"),
                  prevent_initial_call=True)
    def filtered(scenarios, sides, years):
        figs = figures(current_data().analytics(scenarios or [], sides or [], years or []))
        return [figs[c] for c in ids.CHARTS]

    for chart_id in ids.CHARTS:
        _register_png(app, chart_id)


def _register_png(app, chart_id: str) -> None:
    @app.callback(Output(ids.png_download(chart_id), "data"), Input(ids.png_button(chart_id), "n_clicks"),
                  State(chart_id, "figure"), prevent_initial_call=True)
    def download(_, figure):
        return dcc.send_bytes(png_bytes(figure), f"{chart_id.removeprefix('an-')}.png")
