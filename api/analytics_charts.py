"""The charts of docs/analytics.md, drawn from the analytics rows with plotly (PNG via kaleido)."""
from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Optional

import plotly.graph_objects as go

Rows = dict[str, list[dict[str, Any]]]
LAYOUT = dict(template="plotly_white", width=900, height=480, margin=dict(l=60, r=30, t=60, b=60))


def ammunition_by_element(rows: Rows, game: str) -> go.Figure:
    """One game: each element's running total of artillery points spent, turn by turn."""
    fig = go.Figure()
    by_element: dict[str, list[dict]] = defaultdict(list)
    for r in rows["ammunition"]:
        if r["game"] == game:
            by_element[r["element"]].append(r)
    for element, spent in sorted(by_element.items()):
        fig.add_trace(go.Scatter(x=[r["turn"] for r in spent], y=[r["cumulative"] for r in spent],
                                 mode="lines+markers", line_shape="hv", name=element))
    fig.add_hline(y=25, line_dash="dot", annotation_text="25 points (ammunition option)")
    fig.update_layout(title=f"Artillery points spent per element, {game}", xaxis_title="turn",
                      yaxis_title="cumulative points", **LAYOUT)
    return fig


def ammunition_per_turn(rows: Rows) -> go.Figure:
    """Every game: points spent per turn, summed."""
    per_turn = Counter()
    for r in rows["ammunition"]:
        per_turn[r["turn"]] += r["points"]
    turns = sorted(per_turn)
    fig = go.Figure(go.Bar(x=turns, y=[per_turn[t] for t in turns]))
    games = len({r["game"] for r in rows["ammunition"]})
    fig.update_layout(title=f"Artillery points spent per turn, {games} games", xaxis_title="turn",
                      yaxis_title="points", **LAYOUT)
    return fig


def fire_order_columns(rows: Rows) -> go.Figure:
    """Every fire order: the column recorded against the resistance count computed."""
    cells = Counter((r["column_computed"], r["column_recorded"]) for r in rows["fire-orders"])
    top = max([max(k) for k in cells] or [0])
    z = [[cells.get((c, rec), 0) for c in range(top + 1)] for rec in range(top + 1)]
    fig = go.Figure(go.Heatmap(z=z, x=list(range(top + 1)), y=list(range(top + 1)), colorscale="Blues",
                               text=z, texttemplate="%{text}"))
    fig.update_layout(title="Fire Order Table column: recorded vs computed (off the diagonal: mismatches)",
                      xaxis_title="column computed (resistance turns)", yaxis_title="column recorded", **LAYOUT)
    return fig


def grant_rate(rows: Rows) -> go.Figure:
    """Share of fire orders granted, by the computed column."""
    asked, granted = Counter(), Counter()
    for r in rows["fire-orders"]:
        asked[r["column_computed"]] += 1
        granted[r["column_computed"]] += int(r["granted"])
    cols = sorted(asked)
    fig = go.Figure(go.Bar(x=cols, y=[granted[c] / asked[c] for c in cols],
                           text=[f"{granted[c]}/{asked[c]}" for c in cols], textposition="outside"))
    fig.update_layout(title="Fire orders granted, by resistance turns", xaxis_title="column computed",
                      yaxis_title="share granted", yaxis_range=[0, 1.1], **LAYOUT)
    return fig


def resistance_stretches(rows: Rows) -> go.Figure:
    """How long hexes resisted, and how each stretch ended."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for r in rows["resistance"]:
        counts[r["ended_by"] or "still running"][len(r["resisted_turns"])] += 1
    fig = go.Figure()
    for ended in ("granted", "reset", "position-fell", "still running"):
        if ended in counts:
            lengths = sorted(counts[ended])
            fig.add_trace(go.Bar(x=lengths, y=[counts[ended][n] for n in lengths], name=ended))
    fig.update_layout(barmode="stack", title="Resistance stretches: resisted turns, and how they ended",
                      xaxis_title="resisted turns in the stretch", yaxis_title="stretches", **LAYOUT)
    return fig


def write_charts(rows: Rows, out: str, game: Optional[str] = None) -> list[str]:
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    game = game or (rows["ammunition"][0]["game"] if rows["ammunition"] else None)
    figures = {"analytics-ammunition-per-turn": ammunition_per_turn(rows),
               "analytics-fot-columns": fire_order_columns(rows),
               "analytics-fot-grant-rate": grant_rate(rows),
               "analytics-resistance-stretches": resistance_stretches(rows)}
    if game:
        figures["analytics-ammunition-game"] = ammunition_by_element(rows, game)
    paths = []
    for name, fig in figures.items():
        path = folder / f"{name}.png"
        fig.write_image(str(path), scale=1)
        paths.append(str(path))
    return paths
