"""Games (`/`): every game in the store, with its audit summary and open disputes."""
from __future__ import annotations

from typing import Any

from dash import dcc, get_relative_path, html

from dashboard import ids
from dashboard.pages.common import current_data, verdict_badge
from domain.rules.engine import VERDICT_ORDER

TITLE = "Games"


def layout(**_: Any) -> html.Div:
    rows = current_data().game_rows()
    if not rows:
        return html.Div([html.H2("Games"), html.P("The store holds no game yet: `umpire import FILE.jsonl`.")])
    head = html.Tr([html.Th(h) for h in ("game", "scenario", "date", "sides", "events", "turns", "audit",
                                         "open disputes")])
    body = [_row(r) for r in rows]
    return html.Div([html.H2("Games"), html.Table(id=ids.GAMES_TABLE, className="games",
                                                   children=[html.Thead(head), html.Tbody(body)])])


def _row(r: dict[str, Any]) -> html.Tr:
    summary = r["summary"]
    badges = [verdict_badge(v, summary[v]) for v in VERDICT_ORDER if summary.get(v)]
    disputes = r["open_disputes"]
    return html.Tr(className="game-row", children=[
        html.Td(dcc.Link(r["game"], href=get_relative_path(f"/replay/{r['game']}"))),
        html.Td(r["scenario"]), html.Td(r["date"]), html.Td(" vs ".join(r["sides"])),
        html.Td(r["events"]), html.Td(r["turns"]),
        html.Td(badges or "no rule applied"),
        html.Td(dcc.Link(f"{len(disputes)} open" if disputes else "none",
                         href=get_relative_path(f"/disputes/{r['game']}"))),
    ])
