"""The analytics page's charts of the tabletop rule systems (AVBCW and Mogdonazia), each a pure
function of the answers of projections/analytics_tabletop.py (`{"avbcw-low-ammo": [...], ...}`).
Rows of several games may repeat a key (one answer per game): the charts sum them."""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import plotly.graph_objects as go

from dashboard.figures import _base as _im_base
from dashboard.figures import _empty

Answers = dict[str, list[dict[str, Any]]]
OUTCOME_COLOURS = {"none": "#9e9e9e", "critical": "#ef6c00", "destroyed": "#c62828", "wound": "#6a1b9a",
                   "killed": "#283593", "shut-down": "#00838f", "critical-each-turn": "#f9a825"}


def _base(title: str) -> go.Figure:
    """Infernal Machines' chart frame, its legend shown even for one trace (a unit type, a side)."""
    fig = _im_base(title)
    fig.update_layout(showlegend=True)
    return fig


def _weapon_label(row: dict[str, Any]) -> str:
    return f"{row['type'] or '?'} · {row['weapon']}" if row.get("weapon") else (row["type"] or "?")


def low_ammo_figure(answers: Answers) -> go.Figure:
    """How often: the share of attacks the text makes low on ammo, by unit type (and weapon) and turn."""
    fig = _base("Attacks going low on ammo (more 1s than hits), by unit type and turn")
    rows = answers["avbcw-low-ammo"]
    if not rows:
        return _empty(fig, "no shooting attacks in the games shown")
    attacks, lows = Counter(), Counter()
    for r in rows:
        attacks[(_weapon_label(r), r["turn"])] += r["attacks"]
        lows[(_weapon_label(r), r["turn"])] += r["low_by_text"]
    for label in sorted({k[0] for k in attacks}):
        turns = sorted(t for (lab, t) in attacks if lab == label)
        fig.add_bar(name=label, x=turns, y=[lows[(label, t)] / attacks[(label, t)] for t in turns],
                    text=[f"{lows[(label, t)]}/{attacks[(label, t)]}" for t in turns], textposition="outside")
    fig.update_layout(barmode="group", xaxis_title="turn", yaxis_title="share of attacks low",
                      yaxis_range=[0, 1.15], xaxis_dtick=1)
    return fig


def _tally(rows: list[dict[str, Any]], series, x, weight=lambda r: 1) -> dict[str, Counter]:
    """{series: {x: summed weight}} of the rows (series and x: functions of a row)."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        counts[series(r)][x(r)] += weight(r)
    return counts


def _xs(counts: dict[str, Counter], last: str = "") -> list[str]:
    """The x values of every series (turns, as text) in order, then `last` (never, open) if any has it."""
    seen = {x for counted in counts.values() for x in counted}
    return sorted((x for x in seen if x != last), key=int) + ([last] if last in seen else [])


def _bars(fig: go.Figure, counts: dict[str, Counter], xs: list, colours: dict[str, str] = {}) -> None:
    for name, counted in sorted(counts.items()):
        fig.add_bar(name=name, x=xs, y=[counted.get(x, 0) for x in xs], marker_color=colours.get(name))


def first_low_figure(answers: Answers) -> go.Figure:
    """How soon: the turn each unit first went low, by unit type (units that never did apart)."""
    fig = _base("Turn a unit first went low on ammo, by unit type")
    rows = answers["avbcw-first-low"]
    if not rows:
        return _empty(fig, "no shooting units in the games shown")
    counts = _tally(rows, _weapon_label, lambda r: "never" if r["first_low_turn"] is None else str(r["first_low_turn"]))
    _bars(fig, counts, _xs(counts, "never"))
    fig.update_layout(barmode="stack", xaxis_title="turn first low", yaxis_title="units", xaxis_type="category")
    return fig


def supply_figure(answers: Answers) -> go.Figure:
    """Supply used: units resupplied to normal ammunition each turn, by Supply unit."""
    fig = _base("Supply used: resupplies per turn, by Supply unit")
    rows = answers["avbcw-supply"]
    if not rows:
        return _empty(fig, "no unit was resupplied in the games shown")
    counts = _tally(rows, lambda r: f"{r['game']} · {r['by'] or '?'}", lambda r: r["turn"])
    _bars(fig, counts, sorted({t for counted in counts.values() for t in counted}))
    fig.update_layout(barmode="stack", xaxis_title="turn", yaxis_title="units resupplied", xaxis_dtick=1)
    return fig


def leadership_figure(answers: Answers) -> go.Figure:
    """Leadership points by use: placed, each use recorded, and returned unused, per side."""
    fig = _base("Leadership points by use")
    rows = answers["avbcw-leadership"]
    if not rows:
        return _empty(fig, "no leadership points in the games shown")
    counts = _tally(rows, lambda r: r["side"] or "?",
                    lambda r: r["event"] if r["event"] != "used" else f"used: {r['use'] or '?'}", lambda r: r["points"])
    _bars(fig, counts, sorted({u for counted in counts.values() for u in counted}))
    fig.update_layout(barmode="group", xaxis_title="use", yaxis_title="points")
    return fig


def suppression_figure(answers: Answers) -> go.Figure:
    """How long units stayed suppressed, in turns, and how it ended."""
    fig = _base("Suppression: turns until unsuppressed")
    rows = answers["avbcw-suppression"]
    if not rows:
        return _empty(fig, "no unit was suppressed in the games shown")
    counts = _tally(rows, lambda r: r["ended_by"] or "still suppressed",
                    lambda r: "open" if r["turns"] is None else str(r["turns"]))
    _bars(fig, counts, _xs(counts, "open"))
    fig.update_layout(barmode="stack", xaxis_title="turns suppressed", yaxis_title="stretches",
                      xaxis_type="category")
    return fig


def breakdown_figure(answers: Answers) -> go.Figure:
    """Breakdowns per vehicle and terrain: the share seen against the odds the text gives."""
    fig = _base("Breakdowns per vehicle and terrain, against the text's odds")
    rows = [r for r in answers["mog-breakdowns"] if r["test"] == "breakdown"]
    if not rows:
        return _empty(fig, "no breakdown rolls in the games shown")
    rolls, broke, odds = Counter(), Counter(), {}
    for r in rows:
        key = f"{r['game']} · {r['unit']}<br>{r['terrain']}"
        rolls[key] += r["rolls"]
        broke[key] += r["successes"]
        odds[key] = r["odds"]
    keys = sorted(rolls)
    fig.add_bar(name="broke down (share)", x=keys, y=[broke[k] / rolls[k] for k in keys],
                text=[f"{broke[k]}/{rolls[k]}" for k in keys], textposition="outside")
    fig.add_scatter(name="the text's odds", x=keys, y=[odds[k] for k in keys], mode="markers",
                    marker=dict(size=14, symbol="line-ew-open", line=dict(width=3, color="#c62828")))
    fig.update_layout(xaxis_title="vehicle, terrain", yaxis_title="share of rolls", yaxis_range=[0, 1.15])
    return fig


def lost_turns_figure(answers: Answers) -> go.Figure:
    """Turns each vehicle lost to breakdown and to repair."""
    fig = _base("Turns lost to breakdown and repair")
    rows = answers["mog-lost-turns"]
    if not rows:
        return _empty(fig, "no turn lost to breakdown or repair in the games shown")
    keys = [f"{r['game']} · {r['unit']}" for r in rows]
    fig.add_bar(name="broken down", x=keys, y=[r["lost_to_breakdown"] for r in rows])
    fig.add_bar(name="repairing", x=keys, y=[r["lost_to_repair"] for r in rows])
    fig.update_layout(barmode="stack", xaxis_title="vehicle", yaxis_title="turns", yaxis_dtick=1)
    return fig


def criticals_figure(answers: Answers) -> go.Figure:
    """Hit cards by card and their outcome (criticals, destroyed, none ...)."""
    fig = _base("Hit cards on vehicles: outcome by card")
    rows = answers["mog-criticals"]
    if not any(r["card"] for r in rows):
        return _empty(fig, "no hit cards in the games shown")
    counts = _tally([r for r in rows if r["card"]], lambda r: r["outcome"], lambda r: r["card"], lambda r: r["draws"])
    _bars(fig, counts, sorted({c for counted in counts.values() for c in counted}), OUTCOME_COLOURS)
    fig.update_layout(barmode="stack", xaxis_title="card", yaxis_title="draws", xaxis_type="category")
    return fig
