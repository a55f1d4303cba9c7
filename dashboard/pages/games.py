"""Games (`/`): every game in the store, with its audit summary and open disputes; the list is
redrawn as games are recorded (assets/live.js hears each append on the feed of every game)."""
from __future__ import annotations

from typing import Any

from dash import Input, Output, dcc, get_relative_path, html

from api.live import store_position
from dashboard import ids
from dashboard.live import games_feed
from dashboard.pages.common import current_data, verdict_badge
from domain.rules.engine import VERDICT_ORDER

TITLE = "Games"
NO_GAME = "The store holds no game yet: `umpire import FILE.jsonl`."


def layout(**_: Any) -> html.Div:
    data = current_data()
    position = store_position(data.services.ledger)  # read first: what is stored after it is told
    feed = {"data-live-feed": get_relative_path(games_feed(position)), "data-live-store": ids.GAMES_LIVE}
    return html.Div([html.H2("Games"), html.Div(id=ids.GAMES_BODY, children=games_body(data.game_rows())),
                     dcc.Store(id=ids.GAMES_LIVE), html.Div(id=ids.GAMES_FEED, hidden=True, **feed)])


def games_body(rows: list[dict[str, Any]]) -> html.Table | html.P:
    if not rows:
        return html.P(NO_GAME)
    head = html.Tr([html.Th(h) for h in ("game", "scenario", "date", "sides", "events", "turns", "audit",
                                         "open disputes")])
    return html.Table(id=ids.GAMES_TABLE, className="games", children=[html.Thead(head),
                                                                        html.Tbody([_row(r) for r in rows])])


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


def register_callbacks(app) -> None:
    @app.callback(Output(ids.GAMES_BODY, "children"), Input(ids.GAMES_LIVE, "data"), prevent_initial_call=True)
    def refresh(_):
        """A game grew, or a new one started: the list as the store holds it now."""
        return games_body(current_data().game_rows())
