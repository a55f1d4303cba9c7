"""The analytics page's charts of Infernal Machines' machines, each a pure function of the answers of
projections/analytics_machines.py (`{"vehicle-breakdowns": [...], "fascines": [...], "losses-by-cause": [...]}`).
Rows of several games may repeat a key: the charts sum them."""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import plotly.graph_objects as go

from dashboard.analytics_figures import _base, _tally
from dashboard.figures import _empty

Answers = dict[str, list[dict[str, Any]]]
CAUSE_COLOURS = {"anti-tank": "#c62828", "artillery": "#6d4c41", "small-arms": "#f9a825", "close-combat": "#6a1b9a",
                 "mines": "#00838f", "breakdown": "#546e7a", "other": "#9e9e9e"}
# an expected count: a hatched bar beside the one seen (a bar, so that it stands by its group)
EXPECTED = dict(color="rgba(0,0,0,0)", line=dict(width=2, color="#c62828"), pattern=dict(shape="/", fgcolor="#c62828"))


def breakdowns_figure(answers: Answers) -> go.Figure:
    """Breakdowns per vehicle type, seen against the count the odds expect, and the second die's even
    results against the text's one in two."""
    fig = _base("Breakdowns per vehicle type, against the odds")
    rows = answers["vehicle-breakdowns"]
    if not any(r["checks"] or r["breakdowns"] for r in rows):
        return _empty(fig, "no breakdown checks in the games shown")
    types = [r["type"] for r in rows]
    fig.add_bar(name="broke down", x=types, y=[r["breakdowns"] for r in rows],
                text=[f"{r['breakdowns']} of {r['checks']} checks" for r in rows], textposition="outside")
    fig.add_bar(name="expected (breakdown table and modifier)", x=types, y=[r["expected"] for r in rows],
                marker=EXPECTED, hovertext=[r["odds_from"] for r in rows])
    fig.add_bar(name="second die even", x=types, y=[r["even"] for r in rows],
                text=[f"{r['even']} of {r['second_dice']}" for r in rows], textposition="outside")
    fig.add_bar(name="expected even (one in two)", x=types, y=[r["expected_even"] for r in rows],
                marker={**EXPECTED, "line": dict(width=2, color="#1565c0"), "pattern": dict(shape="/", fgcolor="#1565c0")})
    if all(r["expected"] is None for r in rows):
        fig.add_annotation(text="no expected breakdowns: the Landships! breakdown table is not in the text, "
                                "and the games' table packs hold none", showarrow=False, x=0.5, y=1.02,
                           xref="paper", yref="paper", font=dict(size=11, color="#666666"))
    fig.update_layout(barmode="group", xaxis_title="vehicle type", yaxis_title="count", xaxis_type="category")
    return fig


def fascines_figure(answers: Answers) -> go.Figure:
    """Fascines per side and tank type: drop rolls, drops (against the text's 3 to 6), unjams and crossings."""
    fig = _base("Fascines used, per side and tank type")
    rows = answers["fascines"]
    if not rows:
        return _empty(fig, "no fascines in the games shown (no extra-wide trenches)")
    sums: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        for field in ("carried", "drop_rolls", "dropped", "expected_dropped", "unjammed", "crossings"):
            sums[f"{r['side'] or '?'} · {r['type']}"][field] += r[field]
    keys = sorted(sums)
    for field, name in (("carried", "carried"), ("drop_rolls", "drop rolls"), ("dropped", "dropped"),
                        ("expected_dropped", "expected drops (3 to 6)"), ("unjammed", "unjammed"),
                        ("crossings", "crossings over them")):
        fig.add_bar(name=name, x=keys, y=[round(sums[k][field], 4) for k in keys],
                    marker=EXPECTED if field.startswith("expected") else None)
    fig.update_layout(barmode="group", xaxis_title="side, tank type", yaxis_title="count", xaxis_type="category")
    return fig


def losses_figure(answers: Answers) -> go.Figure:
    """Vehicle losses per type, stacked by cause (the event that decided each: docs/analytics.md)."""
    fig = _base("Vehicle losses by cause")
    rows = answers["losses-by-cause"]
    if not rows:
        return _empty(fig, "no vehicle lost in the games shown")
    counts = _tally(rows, lambda r: r["cause"], lambda r: r["type"], lambda r: r["losses"])
    types = sorted({r["type"] for r in rows})
    for cause in [c for c in CAUSE_COLOURS if c in counts] + sorted(set(counts) - set(CAUSE_COLOURS)):
        fig.add_bar(name=cause, x=types, y=[counts[cause].get(t, 0) for t in types], marker_color=CAUSE_COLOURS.get(cause))
    fig.update_layout(barmode="stack", xaxis_title="vehicle type", yaxis_title="vehicles lost", xaxis_type="category",
                      yaxis_dtick=1)
    return fig
