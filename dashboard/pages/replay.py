"""Replay (`/replay/<game>?seq=N`): the board at any event, the events in words, their rule applications.

The board is drawn by the renderer the game's rule system names (dashboard.renderers): a hex
game on its hex map (dashboard.figures), a tabletop game to scale in inches (dashboard.tabletop). The position lives in one store
(`ids.REPLAY_SEQ`). Buttons, slider, jump list, keyboard and the event list (through
`ids.REPLAY_PICK`) move it in the browser (a clientside callback); the server then sends only
what changed on the board as a `dash.Patch` (the terrain stays put), and the URL is rewritten in
place so that it can be shared. Like an analysis board serving a mistake, two buttons (and `n`/`p`,
Shift+arrows) jump to the next or previous event with a finding, and a roll or a card shows the
applications of the later checks that read it.

The page follows the game as it is recorded: assets/live.js hears each append on the game's feed
(dashboard/live.py) and `grow` extends the page; a viewer at the last event moves on to the new
one, anyone else stays where they are while "of M" grows.
"""
from __future__ import annotations

import hashlib
import json
from html import escape
from typing import Any, Optional

from dash import Input, Output, Patch, State, ctx, dcc, get_relative_path, html, no_update
from dash.exceptions import PreventUpdate

import plotly.graph_objects as go

from dashboard import ids
from dashboard.data import READ_TYPES, DashboardData, GameView
from dashboard.fire_panel import fire_panel
from dashboard.hex_fire import FireView
from dashboard.live import game_feed
from dashboard.renderers import renderer_for
from dashboard.tabletop import inches
from domain.tabletop.geometry import path_length
from dashboard.pages.common import current_data, game_page, unavailable, verdict_badge
from dashboard.words import describe, headline

TITLE = "Replay"
MAX_MARKS = 24
KEYS_HELP = ("Keys: ← → step · Home / End first and last event · n or Shift+→ next finding · "
             "p or Shift+← previous finding")


def layout(game: Optional[str] = None, seq: Optional[str] = None, view: Optional[str] = None, **_: Any):
    data = current_data()
    gv = game_page(data, game)
    if not isinstance(gv, GameView):
        return gv
    position = gv.clamp(seq)
    ruled = view == "ruled" and gv.has_rulings
    return html.Div(className="replay", children=[
        dcc.Store(id=ids.REPLAY_GAME, data=game_store(data, gv)),
        dcc.Store(id=ids.REPLAY_SEQ, data={"seq": position, "ruled": ruled}),
        html.Div(id=ids.REPLAY_URL_SINK, hidden=True),
        dcc.Store(id=ids.REPLAY_LIVE),
        html.Div(id=ids.REPLAY_FEED, hidden=True, **{"data-live-feed": get_relative_path(game_feed(gv.game, gv.last)),
                                                     "data-live-store": ids.REPLAY_LIVE}),
        html.Div(className="replay-head", children=[
            html.H2(gv.game), html.Span(_summary(gv), id=ids.REPLAY_SUMMARY),
            dcc.Link("disputes", href=get_relative_path(f"/disputes/{gv.game}"), className="head-link"),
        ]),
        _controls(gv, position, ruled, len(data.findings(gv))),
        html.Div(className="replay-body", children=[
            html.Div(className=f"replay-map replay-{gv.geometry}", children=[
                dcc.Graph(id=ids.REPLAY_MAP, figure=figure_for(gv, position, ruled),
                          config={"scrollZoom": True, "displaylogo": False}),
            ]),
            html.Div(className="replay-side", children=[
                html.Div(id=ids.REPLAY_EVENT_TEXT, className="event-text",
                         children=_event_text(gv, position, renderer_for(gv).moving(gv, position, ruled)[1], data)),
                dcc.Store(id=ids.REPLAY_PICK),
                _event_rows(data, gv, position),
            ]),
        ]),
        html.Div(className="rules-head", children=[
            html.H3("Rule applications"),
            dcc.Checklist(id=ids.REPLAY_FINDINGS_ONLY, options=[{"label": " findings only", "value": "only"}],
                          value=[]),
        ]),
        html.Div(id=ids.REPLAY_RULES, children=rules_panel(data, gv, position, False)),
    ])


def game_store(data: DashboardData, gv: GameView) -> dict[str, Any]:
    """What the browser keeps of the game: its last event, the events with findings, and what its
    board's unchanging traces are drawn from."""
    return {"game": gv.game, "last": gv.last, "findings": data.findings(gv), "board": board_key(gv)}


def _summary(gv: GameView) -> str:
    return f"{gv.final.scenario} · {gv.final.date} · {gv.last} events"


def _marks(gv: GameView) -> dict[int, str]:
    """The slider's marks: the turns' first events, at most MAX_MARKS of them."""
    starts = [s for s in gv.segments if s["phase"] is None]
    step = max(1, len(starts) // MAX_MARKS + (1 if len(starts) % MAX_MARKS else 0))
    return {s["seq"]: f"T{s['turn']}" for s in starts[::step]}


def _jump_options(gv: GameView) -> list[dict[str, Any]]:
    return [{"label": (f"Turn {s['turn']}" if s["phase"] is None else
                       f"↳ turn {s['turn']} · {s['phase']}" + (f" ({s['active']})" if s["active"] else "")),
             "value": s["seq"]} for s in gv.segments]


def _view_style(gv: GameView) -> dict[str, str]:
    """The as played / as ruled choice is shown once the game has a ruling."""
    return {} if gv.has_rulings else {"display": "none"}


def _controls(gv: GameView, position: int, ruled: bool, findings: int) -> html.Div:
    marks, jump = _marks(gv), _jump_options(gv)
    views = [{"label": " as played", "value": "played"}, {"label": " as ruled", "value": "ruled"}]
    return html.Div(className="replay-controls", children=[
        html.Button("|◀", id=ids.REPLAY_FIRST, title="first event (Home)"),
        html.Button("◀", id=ids.REPLAY_PREV, title="previous event (←)"),
        html.Button("▶", id=ids.REPLAY_NEXT, title="next event (→)"),
        html.Button("▶|", id=ids.REPLAY_LAST, title="last event (End)"),
        html.Button("⚑◀", id=ids.REPLAY_PREV_FINDING, className="finding-nav",
                    title="previous event with a finding (p or Shift+←)"),
        html.Button("▶⚑", id=ids.REPLAY_NEXT_FINDING, className="finding-nav",
                    title="next event with a finding (n or Shift+→)"),
        html.Span(_finding_count(findings), id=ids.REPLAY_FINDING_COUNT, className="finding-count"),
        html.Span(id=ids.REPLAY_POSITION, className="position", children=_position(gv, position)),
        dcc.Dropdown(id=ids.REPLAY_JUMP, options=jump, placeholder="jump to a turn or phase",
                     className="jump", clearable=True, searchable=True),
        dcc.RadioItems(id=ids.REPLAY_VIEW, options=views, value="ruled" if ruled else "played", inline=True,
                       className="view-choice", style=_view_style(gv)),
        html.Div(className="slider", children=dcc.Slider(
            id=ids.REPLAY_SLIDER, min=1, max=gv.last, step=1, value=position, marks=marks,
            tooltip={"placement": "bottom", "always_visible": False}, updatemode="mouseup")),
        html.Div(KEYS_HELP, id=ids.REPLAY_KEYS_HELP, className="keys-help"),
    ])


def _finding_count(findings: int) -> str:
    return {0: "no event with findings", 1: "1 event with findings"}.get(findings, f"{findings} events with findings")


def _event_rows(data: DashboardData, gv: GameView, current: int) -> dcc.Markdown:
    """The events in words, as one block of HTML rendered once: hundreds of Dash components would
    each be told of every state change while stepping. Choosing a row is caught in the browser
    (assets/events.js) and the current row is marked there too (SHARE_URL)."""
    return dcc.Markdown(_event_rows_html(data, gv, current), dangerously_allow_html=True, id=ids.REPLAY_EVENTS,
                        className="event-list")


def _event_rows_html(data: DashboardData, gv: GameView, current: int) -> str:
    flagged = {seq for seq, apps in data.applications(gv).items() if any(a.verdict.value != "ok" for a in apps)}
    rows = []
    for line in gv.lines:
        seq = line["seq"]
        css, flag = ("event-row flagged", "⚑ ") if seq in flagged else ("event-row", "")
        css += " current" if seq == current else ""
        rows.append(f'<div class="{css}" data-seq="{seq}">{flag}{escape(headline(line))}</div>')
    return "\n".join(rows)


def _position(gv: GameView, seq: int) -> str:
    line = gv.line(seq)
    return f"event {seq} of {gv.last} · turn {line['turn']} · {line['phase']}"


def _event_text(gv: GameView, seq: int, highlight: Optional[dict[str, Any]] = None,
                data: Optional[DashboardData] = None) -> list:
    line = gv.line(seq)
    side = f" ({line['side']})" if line.get("side") else ""
    out = [html.B(f"{seq}. {line['type']}{side}"), html.Div(describe(line))]
    measured = _measured_words(gv, seq, highlight or {})
    fire = (highlight or {}).get("fire")
    told = [_fire_told(data, gv, fire)] if fire is not None and data is not None else []
    return out + ([html.Div(measured, className="measured")] if measured else []) + told


def _fire_told(data: DashboardData, gv: GameView, fire: FireView) -> html.Div:
    """A hex game's shot or spot in words: its events' rule applications, the dice they read, and
    the disputes about them."""
    apps = [a for s in fire.seqs for a in data.applications(gv).get(s, [])]
    dice = {d["seq"]: d for a in apps for d in gv.dice_for(a.seq, a.related)}
    return fire_panel(fire, apps, [dice[s] for s in sorted(dice)], _disputes_about(gv, set(fire.seqs)))


def _measured_words(gv: GameView, seq: int, highlight: dict[str, Any]) -> Optional[str]:
    """What the drawn line of a shot measures, and by which reading: the page names the readings
    (game-log-tabletop.md, Interpretations, `measure`), so the figure never picks one silently."""
    if not highlight.get("line"):
        return None
    recorded = gv.line(seq)["data"].get("range")
    reading = highlight.get("reading") or f"measure={gv.measure}"
    arc = highlight.get("arc")
    return (f"Line drawn: {inches(path_length(highlight['line']))} ({reading})"
            + (f"; recorded range {inches(recorded)}" if recorded is not None else "")
            + (f"; arc: {arc['label']}, {2 * arc['half_width']:g}° about {arc['facing'] % 360:g}°" if arc else ""))


def board_key(gv: GameView) -> str:
    """A digest of what the board's unchanging traces are drawn from (the renderer, the table, the
    maps, the terrain, the hexes the game names): when an appended event changes it, the page
    redraws the whole board, as a step sends only the traces after those."""
    basis = [renderer_for(gv).name, static_traces(gv), gv.final.table]
    if gv.geometry == "hex":   # a tabletop's terrain is its table; only a hex game has maps
        board = gv.map
        basis += [board.maps, board.hexes, board.hexsides, sorted(board.all_locations())]
    return hashlib.sha256(json.dumps(basis, sort_keys=True, default=str).encode("utf-8")).hexdigest()[:16]


def figure_for(gv: GameView, seq: int, ruled: bool) -> go.Figure:
    """The board at `seq`, drawn by the game's renderer: to scale in inches, or the hex map."""
    return renderer_for(gv).figure(gv, seq, ruled)


def static_traces(gv: GameView) -> int:
    """How many traces come before those that change with the position (the terrain)."""
    return renderer_for(gv).static_traces(gv)


def _dice_text(line: dict[str, Any]) -> str:
    d = line["data"]
    if line["type"] == "CardDrawn":
        return f"card {d['card']} ({d.get('for')}, event {line['seq']})"
    return f"{d['die']} → {d['result']} ({d['purpose']}, event {line['seq']})"


def rules_panel(data: DashboardData, gv: GameView, seq: int, findings_only: bool) -> list:
    """The event's own rule applications; for a roll or a card, also those of the later checks that
    read it (a roll's own row would else say that no rule judges it, though the next check used it)."""
    apps = data.applications(gv).get(seq, [])
    readers = data.readers(gv).get(seq, []) if gv.line(seq)["type"] in READ_TYPES else []
    out: list = []
    if apps or not readers:
        out += _applications(gv, apps, findings_only, "No rule judges this event.")
    if readers:
        out += [html.H4("Checks that read this roll" if gv.line(seq)["type"] == "DieRolled" else
                        "Checks that read this card", className="read-by")]
        out += _applications(gv, readers, findings_only, "", "None of them found anything.")
    return out + _rulings_on(gv, seq)


def _applications(gv: GameView, apps: list, findings_only: bool, none_judges: str,
                  no_findings: str = "No findings on this event.") -> list:
    """The applications as a table (findings first), or a line saying why there is none."""
    apps = sorted(apps, key=lambda a: (a.verdict.value == "ok", a.seq, a.rule))
    shown = [a for a in apps if a.verdict.value != "ok"] if findings_only else apps
    if not shown:
        return [html.P(no_findings if apps else none_judges, className="no-rules")]
    head = html.Tr([html.Th(h) for h in ("event", "verdict", "rule", "what", "citation", "expected", "recorded",
                                         "dice")])
    rows = []
    for a in shown:
        dice = gv.dice_for(a.seq, a.related)
        rows.append(html.Tr(className=f"app app-{a.verdict.value}", **{"data-seq": a.seq}, children=[
            html.Td(str(a.seq), className="app-seq"),
            html.Td(verdict_badge(a.verdict.value)), html.Td(a.rule, className="rule-id"),
            html.Td(a.message), html.Td(a.citation, className="citation"),
            html.Td(_value(a.expected)), html.Td(_value(a.recorded)),
            html.Td([html.Div(_dice_text(d)) for d in dice] or "—"),
        ]))
    return [html.Table(className="rules", children=[html.Thead(head), html.Tbody(rows)])]


def _rulings_on(gv: GameView, seq: int) -> list:
    """Disputes about this event and their rulings: where "as played" and "as ruled" differ."""
    items = [html.Li(said) for said in _disputes_about(gv, {seq})]
    return [html.H4("Disputes about this event"), html.Ul(items)] if items else []


def _disputes_about(gv: GameView, seqs: set[int]) -> list[str]:
    """Each dispute about one of `seqs` in words: its name, claim and rulings (or "open")."""
    disputes = {l["data"]["dispute"]: l for l in gv.lines if l["type"] == "DisputeRaised" and l["data"]["about"] in seqs}
    out = []
    for name, raised in disputes.items():
        rulings = [l for l in gv.lines if l["type"] == "RulingIssued" and l["data"]["dispute"] == name]
        verdicts = "; ".join(f"{r['data']['decision']} at event {r['seq']}"
                             + (f" ({len(r['data'].get('corrections', []))} correction(s))"
                                if r["data"].get("corrections") else "") for r in rulings) or "open"
        out.append(f"{name}: {raised['data']['claim']} — {verdicts}")
    return out


def _value(value: Any) -> str:
    return "—" if value is None else str(value)


NAVIGATE = """
function(first, prev, next, last, prevFinding, nextFinding, slider, jump, picked, view, state, game) {
    const id = dash_clientside.callback_context.triggered_id;
    let seq = state.seq;
    let ruled = state.ruled;
    // the findings are sorted (data.finding_seqs); none past the last or before the first: stay
    const findings = game.findings || [];
    if (id === "%(next_finding)s") { seq = findings.find(function(s) { return s > state.seq; }) || seq; }
    else if (id === "%(prev_finding)s") {
        const before = findings.filter(function(s) { return s < state.seq; });
        seq = before.length ? before[before.length - 1] : seq;
    }
    else if (id === "%(first)s") { seq = 1; }
    else if (id === "%(prev)s") { seq = seq - 1; }
    else if (id === "%(next)s") { seq = seq + 1; }
    else if (id === "%(last)s") { seq = game.last; }
    else if (id === "%(slider)s" && slider != null) { seq = slider; }
    else if (id === "%(jump)s" && jump != null) { seq = jump; }
    else if (id === "%(pick)s" && picked != null) { seq = picked.seq; }
    else if (id === "%(view)s") { ruled = view === "ruled"; }
    seq = Math.max(1, Math.min(game.last, parseInt(seq, 10) || 1));
    const nu = dash_clientside.no_update;
    const clear = id === "%(jump)s" && jump != null ? null : nu;
    if (seq === state.seq && ruled === state.ruled) {
        return [nu, seq === slider ? nu : seq, clear];
    }
    return [{seq: seq, ruled: ruled}, seq, clear];
}
""" % {"first": ids.REPLAY_FIRST, "prev": ids.REPLAY_PREV, "next": ids.REPLAY_NEXT, "last": ids.REPLAY_LAST,
       "next_finding": ids.REPLAY_NEXT_FINDING, "prev_finding": ids.REPLAY_PREV_FINDING, "slider": ids.REPLAY_SLIDER, "jump": ids.REPLAY_JUMP, "pick": ids.REPLAY_PICK, "view": ids.REPLAY_VIEW}

SHARE_URL = """
function(state) {
    const params = new URLSearchParams(window.location.search);
    params.set("seq", state.seq);
    if (state.ruled) { params.set("view", "ruled"); } else { params.delete("view"); }
    window.history.replaceState(window.history.state, "", window.location.pathname + "?" + params.toString());
    // the list is a lazily loaded Markdown block: on a fresh page its rows may not be there yet
    function mark(tries) {
        const list = document.getElementById("%(events)s");
        const row = list && list.querySelector('.event-row[data-seq="' + state.seq + '"]');
        if (!row) {
            if (tries > 0) { window.setTimeout(function() { mark(tries - 1); }, 50); }
            return;
        }
        list.querySelectorAll(".event-row.current").forEach(function(old) { old.classList.remove("current"); });
        row.classList.add("current");
        const r = row.getBoundingClientRect(), l = list.getBoundingClientRect();
        if (r.top < l.top || r.bottom > l.bottom) {
            list.scrollTop += r.top - l.top - l.height / 3;
        }
    }
    mark(40);
    return String(state.seq);
}
""" % {"events": ids.REPLAY_EVENTS}


def register_callbacks(app) -> None:
    app.clientside_callback(
        NAVIGATE,
        Output(ids.REPLAY_SEQ, "data"), Output(ids.REPLAY_SLIDER, "value"), Output(ids.REPLAY_JUMP, "value"),
        Input(ids.REPLAY_FIRST, "n_clicks"), Input(ids.REPLAY_PREV, "n_clicks"), Input(ids.REPLAY_NEXT, "n_clicks"),
        Input(ids.REPLAY_LAST, "n_clicks"), Input(ids.REPLAY_PREV_FINDING, "n_clicks"),
        Input(ids.REPLAY_NEXT_FINDING, "n_clicks"), Input(ids.REPLAY_SLIDER, "value"), Input(ids.REPLAY_JUMP, "value"),
        Input(ids.REPLAY_PICK, "data"), Input(ids.REPLAY_VIEW, "value"),
        State(ids.REPLAY_SEQ, "data"), State(ids.REPLAY_GAME, "data"),
        prevent_initial_call=True,
    )
    app.clientside_callback(SHARE_URL, Output(ids.REPLAY_URL_SINK, "children"), Input(ids.REPLAY_SEQ, "data"))

    @app.callback(
        Output(ids.REPLAY_MAP, "figure"), Output(ids.REPLAY_POSITION, "children"),
        Output(ids.REPLAY_EVENT_TEXT, "children"), Output(ids.REPLAY_RULES, "children"),
        Input(ids.REPLAY_SEQ, "data"), Input(ids.REPLAY_FINDINGS_ONLY, "value"),
        State(ids.REPLAY_GAME, "data"),
        prevent_initial_call=True,
    )
    def step(state, findings_only, game):
        data = current_data()
        gv = data.view(game["game"])
        if gv is None:
            return no_update, unavailable(data, game["game"]), no_update, no_update
        seq, ruled, only = gv.clamp(state["seq"]), bool(state.get("ruled")), "only" in (findings_only or [])
        if ctx.triggered_id == ids.REPLAY_FINDINGS_ONLY:
            return no_update, no_update, no_update, rules_panel(data, gv, seq, only)
        return step_outputs(data, gv, seq, ruled, only)

    @app.callback(
        Output(ids.REPLAY_GAME, "data"), Output(ids.REPLAY_SEQ, "data", allow_duplicate=True),
        Output(ids.REPLAY_SLIDER, "max"), Output(ids.REPLAY_SLIDER, "marks"),
        Output(ids.REPLAY_SLIDER, "value", allow_duplicate=True), Output(ids.REPLAY_JUMP, "options"),
        Output(ids.REPLAY_EVENTS, "children"), Output(ids.REPLAY_POSITION, "children", allow_duplicate=True),
        Output(ids.REPLAY_FINDING_COUNT, "children"), Output(ids.REPLAY_SUMMARY, "children"),
        Output(ids.REPLAY_VIEW, "style"), Output(ids.REPLAY_MAP, "figure", allow_duplicate=True),
        Input(ids.REPLAY_LIVE, "data"), State(ids.REPLAY_GAME, "data"), State(ids.REPLAY_SEQ, "data"),
        prevent_initial_call=True,
    )
    def grow(_, game, state):
        """The game grew (assets/live.js heard it from the game's feed)."""
        data = current_data()
        gv = data.view(game["game"])
        if gv is None or gv.last <= game["last"]:
            raise PreventUpdate
        return grown_outputs(data, gv, game, state)


def grown_outputs(data: DashboardData, gv: GameView, game: dict[str, Any], state: dict[str, Any]) -> tuple:
    """What the page changes when its game grew (from `game`, the browser's game store, to `gv`):
    a viewer at the last event follows to the new last one; elsewhere the position stays and
    "of M" grows. The board is redrawn whole only when its unchanging traces changed."""
    following = state["seq"] >= game["last"]
    seq, ruled = (gv.last if following else gv.clamp(state["seq"])), bool(state.get("ruled"))
    store = game_store(data, gv)
    figure = figure_for(gv, seq, ruled) if store["board"] != game.get("board") else no_update
    return (store, {"seq": seq, "ruled": ruled} if following else no_update, gv.last, _marks(gv),
            seq if following else no_update, _jump_options(gv), _event_rows_html(data, gv, seq),
            no_update if following else _position(gv, seq), _finding_count(len(store["findings"])), _summary(gv),
            _view_style(gv), figure)


def step_outputs(data: DashboardData, gv: GameView, seq: int, ruled: bool, findings_only: bool) -> tuple:
    """What a step sends: the board's Patch, the position, the event in words, its rule applications."""
    traces, highlight = _moving(gv, seq, ruled)
    return (_patch(traces, static_traces(gv)), _position(gv, seq), _event_text(gv, seq, highlight, data),
            rules_panel(data, gv, seq, findings_only))


def step_patch(gv: GameView, seq: int, ruled: bool) -> Patch:
    """The board at `seq` as a Patch of the traces after the static ones: the terrain is not resent."""
    return _patch(_moving(gv, seq, ruled)[0], static_traces(gv))


def _moving(gv: GameView, seq: int, ruled: bool) -> tuple[list[dict[str, Any]], Optional[dict[str, Any]]]:
    """The traces after the terrain at `seq`, and the event's highlight (None on hexes)."""
    return renderer_for(gv).moving(gv, seq, ruled)


def _patch(traces: list[dict[str, Any]], offset: int) -> Patch:
    patch = Patch()
    for i, trace in enumerate(traces):
        patch["data"][offset + i] = trace
    return patch
