"""A tabletop game's board drawn to scale in inches, by pure functions (game-log-tabletop.md, Geometry).

The figure reads the board's `public()` JSON: `table` {width, depth, features}, `units` with a
`position`, `facing`, `footprint` (and optional `figures`, `figure_base`), `markers` and `sides`.
Terrain is drawn first, one trace per kind (`terrain_traces`, fixed for a game), then what moves
(`position_traces`, always the same traces in the same order), so that stepping through a game
replaces only the traces after the terrain, as the hex replay does after `STATIC_TRACES`.
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Optional, Sequence

import plotly.graph_objects as go
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from dashboard.figures import HIGHLIGHT, side_colours
from domain.locations import ROUTE, locations, schema_for
from domain.tabletop.geometry import (
    POLYGON_KINDS, Extent, extent, feature_line, feature_shape, path_length, round_inches, to_table, xy,
)
from domain.tabletop.queries import ShotView

Coords = tuple[float, float]

# game-log-tabletop.md, TableDefined: the kinds drawn as areas, in drawing order (ground first).
AREA_STYLES = {  # kind -> (fill, outline)
    "hill": ("rgba(217,192,140,0.75)", "#b39a62"), "good-going": ("rgba(230,219,160,0.7)", "#c2b46a"),
    "rough": ("rgba(176,150,110,0.55)", "#7d6a4d"), "woodland": ("rgba(111,154,90,0.85)", "#4d7340"),
    "dense-woodland": ("rgba(63,107,53,0.9)", "#2e4f27"), "trench": ("rgba(122,82,48,0.85)", "#5a3a1a"),
    "building": ("rgba(150,92,78,0.95)", "#5e3a30"), "town": ("rgba(190,128,108,0.9)", "#6e4436"),
    "impassable": ("rgba(85,85,85,0.9)", "#333333"),
}
# The polylines a `width` gives a breadth on the table (rivers, streams, roads), drawn as bands.
BAND_STYLES = {"river": ("#6fa8dc", "#3d85c6"), "stream": ("#9fc5e8", "#6fa8dc"), "road": ("#c9c3b6", "#8a8376")}
# The linear obstacles, drawn as lines: (colour, pixels, dash).
LINE_STYLES = {"hedge": ("#3f7f3f", 5, "solid"), "fence": ("#8b5a2b", 2, "dot"), "wall": ("#555555", 4, "solid")}
OTHER_LINE = ("#777777", 2, "dash")
FEATURE_FLAGS = ("width", "height", "cover", "area", "passable", "wheels", "rough", "tall")
OUT_OF_ACTION = {"destroyed", "eliminated"}  # drawn faded: the unit stays on the board as a wreck
TABLE_COLOUR, PAPER_COLOUR = "#f1ecdc", "#faf8f2"
PATTERNS = {"rough": dict(shape=".", fgcolor="#6b5a40", size=6, solidity=0.25)}  # broken ground, stippled
ARC_STEP = 5  # degrees between the points of a drawn arc


# -- lengths, extents and facings (the auditor's own geometry: domain/tabletop/geometry.py) ---------
def inches(length: float) -> str:
    # game-log-tabletop.md, Measuring: a computed distance is rounded half-up to 0.1"
    return f'{round_inches(length):.1f}"'


def unit_outline(unit: dict[str, Any]) -> BaseGeometry:
    """The unit's extent as the rules read it: its figures' round bases when placed, else its footprint."""
    return extent(unit).shape


def facing_tick(unit: dict[str, Any]) -> tuple[Coords, Coords]:
    """From the centre of the base to the middle of its front edge, half the depth ahead."""
    return xy(unit["position"]), to_table(unit["position"], float(unit.get("facing") or 0),
                                          (0.0, float(unit["footprint"]["d"]) / 2))


def _rings(shapes: Iterable[BaseGeometry]) -> tuple[list[Optional[float]], list[Optional[float]]]:
    """Outer rings as one coordinate run, None between them (one plotly trace, many outlines)."""
    xs: list[Optional[float]] = []
    ys: list[Optional[float]] = []
    for shape in shapes:
        for part in getattr(shape, "geoms", [shape]):
            if part.is_empty:
                continue
            ring = part.exterior.coords if isinstance(part, Polygon) else part.coords
            xs += [c[0] for c in ring] + [None]
            ys += [c[1] for c in ring] + [None]
    return xs, ys


def _polylines(runs: Iterable[Sequence[Coords]]) -> tuple[list[Optional[float]], list[Optional[float]]]:
    return _rings(LineString(run) for run in runs if len(run) > 1)


# -- the table ------------------------------------------------------------------------------------
def _feature_words(feature: dict[str, Any]) -> str:
    flags = [f"{k} {feature[k]}" for k in FEATURE_FLAGS if feature.get(k) is not None]
    return f"{feature['id']} {feature['kind']}" + (f" ({', '.join(flags)})" if flags else "")


def _area_trace(kind: str, polygons: list[BaseGeometry]) -> dict[str, Any]:
    fill, outline = AREA_STYLES.get(kind) or BAND_STYLES[kind]
    xs, ys = _rings(polygons)
    trace = dict(type="scatter", x=xs, y=ys, mode="lines", fill="toself", fillcolor=fill, name=kind,
                 line=dict(color=outline, width=1), hoveron="fills", hoverinfo="name", legendgroup="terrain")
    return dict(trace, fillpattern=PATTERNS[kind]) if kind in PATTERNS else trace


def _line_trace(kind: str, runs: list[list[Coords]]) -> dict[str, Any]:
    colour, width, dash = LINE_STYLES.get(kind, OTHER_LINE)
    xs, ys = _polylines(runs)
    return dict(type="scatter", x=xs, y=ys, mode="lines", name=kind, hoverinfo="name", legendgroup="terrain",
                line=dict(color=colour, width=width, dash=dash))


def terrain_traces(table: dict[str, Any]) -> list[dict[str, Any]]:
    """One trace per kind present: areas filled, banded polylines as wide as their `width`, lines.

    game-log-tabletop.md, TableDefined: a polygon is closed implicitly; rivers, streams and roads
    carry a `width` (a band of width/2 either side of the line; without one, drawn as a line).
    """
    areas: dict[str, list[BaseGeometry]] = {}
    lines: dict[str, list[list[Coords]]] = {}
    for feature in table.get("features", []):
        kind = feature["kind"]
        if kind in POLYGON_KINDS or (kind in BAND_STYLES and feature.get("width")):
            areas.setdefault(kind, []).append(feature_shape(feature))  # the shape the rules touch
        else:
            lines.setdefault(kind, []).append([xy(p) for p in feature["points"]])
    traces = [_area_trace(kind, areas[kind]) for kind in (*AREA_STYLES, *BAND_STYLES) if kind in areas]
    traces += [_line_trace(kind, runs) for kind, runs in sorted(lines.items())]
    return traces + [feature_hover_trace(table)]


def feature_hover_trace(table: dict[str, Any]) -> dict[str, Any]:
    """Invisible points inside each feature that name it and its flags on hover."""
    xs, ys, texts = [], [], []
    for feature in table.get("features", []):
        spot = feature_line(feature).representative_point()
        xs.append(spot.x), ys.append(spot.y), texts.append(_feature_words(feature))
    return dict(type="scatter", x=xs, y=ys, mode="markers", hoverinfo="text", hovertext=texts, name="features",
                marker=dict(size=14, opacity=0), showlegend=False)


# -- what changes with the position ---------------------------------------------------------------
def placed_units(board: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The units on the table: one not yet deployed (an ambush, a late arrival) has no position."""
    return {uid: u for uid, u in board.get("units", {}).items() if u.get("position") and u.get("footprint")}


def _out_of_action(unit: dict[str, Any]) -> bool:
    return bool(OUT_OF_ACTION & set(unit.get("status") or []))


def unit_words(unit_id: str, unit: dict[str, Any]) -> str:
    x, y = xy(unit["position"])
    status = ", ".join(unit.get("status") or [])
    return (f"{unit_id} {unit.get('type') or unit.get('class') or 'unit'} ({unit.get('side')}) at "
            f"({x:.1f}, {y:.1f}) facing {unit.get('facing', 0)}°" + (f": {status}" if status else ""))


def base_traces(board: dict[str, Any], colours: dict[str, str]) -> list[dict[str, Any]]:
    """Two traces per side, in the order of `sides`: its bases in action, then its faded wrecks."""
    traces = []
    for side in board.get("sides", []):
        for faded in (False, True):
            shapes = [unit_outline(unit) for unit in placed_units(board).values()
                      if unit.get("side") == side and _out_of_action(unit) == faded]
            xs, ys = _rings(shapes)
            traces.append(dict(type="scatter", x=xs, y=ys, mode="lines", fill="toself", hoverinfo="skip",
                               fillcolor=colours.get(side, "#999999"), opacity=0.3 if faded else 0.9,
                               line=dict(color="#222222", width=1), name=f"{side} (out of action)" if faded else side,
                               legendgroup=side, showlegend=not faded))
    return traces


def unit_label_traces(board: dict[str, Any]) -> list[dict[str, Any]]:
    """The facing ticks, the ids just above each extent, and the hover points at the centres."""
    units = sorted(placed_units(board).items())
    tx, ty = _polylines([facing_tick(unit) for _, unit in units])
    tops = [unit_outline(unit).bounds for _, unit in units]  # (minx, miny, maxx, maxy)
    centres = [xy(unit["position"]) for _, unit in units]
    return [
        dict(type="scatter", x=tx, y=ty, mode="lines", hoverinfo="skip", name="facing", showlegend=False,
             line=dict(color="#111111", width=2)),
        dict(type="scatter", x=[c[0] for c in centres], y=[b[3] for b in tops], mode="text", name="ids",
             text=[uid for uid, _ in units], textposition="top center", hoverinfo="skip", showlegend=False,
             textfont=dict(size=10, color="#111111")),
        dict(type="scatter", x=[c[0] for c in centres], y=[c[1] for c in centres], mode="markers", name="units",
             hovertext=[unit_words(uid, u) for uid, u in units], hoverinfo="text", showlegend=False,
             marker=dict(size=7, color="#111111")),
    ]


def _marker_words(marker: dict[str, Any]) -> str:
    x, y = xy(marker["position"])
    radius = f', radius {marker["radius"]}"' if marker.get("radius") else ""
    return " ".join(str(w) for w in (marker.get("marker"), marker.get("id")) if w) + f" at ({x:.1f}, {y:.1f}){radius}"


def marker_traces(board: dict[str, Any]) -> list[dict[str, Any]]:
    """Markers with a `radius` (AVBCW smoke) as circles to scale, then every marker's name and hover."""
    placed = [m for m in board.get("markers", []) if isinstance(m, dict) and m.get("position")]
    circles = [Point(xy(m["position"])).buffer(float(m["radius"])) for m in placed if m.get("radius")]
    cx, cy = _rings(circles)
    return [
        dict(type="scatter", x=cx, y=cy, mode="lines", fill="toself", fillcolor="rgba(120,120,120,0.35)",
             line=dict(color="rgba(90,90,90,0.6)", width=1), hoverinfo="skip", name="marker areas", showlegend=False),
        dict(type="scatter", x=[xy(m["position"])[0] for m in placed], y=[xy(m["position"])[1] for m in placed],
             mode="markers", marker=dict(symbol="x-thin-open", size=10, color="#333333", line=dict(width=2)),
             hovertext=[_marker_words(m) for m in placed], hoverinfo="text", name="markers", showlegend=False),
    ]


def position_traces(board: dict[str, Any], highlight: Optional[dict[str, Any]] = None,
                    colours: Optional[dict[str, str]] = None) -> list[dict[str, Any]]:
    """Every trace after the terrain, always the same ones in the same order for a game."""
    colours = colours or side_colours(board.get("sides", []))
    return [*marker_traces(board), *base_traces(board, colours), *unit_label_traces(board),
            *highlight_traces(board, highlight or {})]


# -- the chosen event -----------------------------------------------------------------------------
def arc_wedge(arc: dict[str, Any], table: dict[str, Any]) -> Polygon:
    """A wedge of `half_width` degrees either side of `facing` from `origin`, cut at the table's edges.

    Without a `radius` the wedge reaches every corner of the table (an arc has no length of its own).
    """
    origin, facing, half = arc["origin"], float(arc["facing"]), float(arc["half_width"])
    radius = float(arc.get("radius") or math.hypot(table["width"], table["depth"]))
    steps = max(1, math.ceil(2 * half / ARC_STEP))
    rim = [to_table(origin, facing - half + 2 * half * i / steps, (0.0, radius)) for i in range(steps + 1)]
    wedge = Polygon([xy(origin), *rim])
    return wedge.intersection(box(0, 0, table["width"], table["depth"]))


def _measure_labels(highlight: dict[str, Any]) -> tuple[list[float], list[float], list[str]]:
    """The length of the path and of the measured line, in inches, beside their middles."""
    xs, ys, texts = [], [], []
    for key in ("path", "line"):
        points = [xy(p) for p in highlight.get(key) or []]
        if len(points) > 1:
            middle = LineString(points).interpolate(0.5, normalized=True)
            xs.append(middle.x), ys.append(middle.y), texts.append(inches(path_length(points)))
    return xs, ys, texts


def highlight_traces(board: dict[str, Any], highlight: dict[str, Any]) -> list[dict[str, Any]]:
    """Five traces, empty when the event has none of it: path, line, arc, outlined units, lengths."""
    units = placed_units(board)
    px, py = _polylines([[xy(p) for p in highlight.get("path") or []]])
    lx, ly = _polylines([[xy(p) for p in highlight.get("line") or []]])
    ax, ay = _rings([arc_wedge(highlight["arc"], board["table"])] if highlight.get("arc") else [])
    ox, oy = _rings([unit_outline(units[uid]) for uid in highlight.get("units") or [] if uid in units])
    mx, my, texts = _measure_labels(highlight)
    return [
        dict(type="scatter", x=px, y=py, mode="lines+markers", hoverinfo="skip", name="path", showlegend=False,
             line=dict(color=HIGHLIGHT, width=3), marker=dict(symbol="arrow", angleref="previous", size=12,
                                                              color=HIGHLIGHT)),
        dict(type="scatter", x=lx, y=ly, mode="lines", hoverinfo="skip", name="line", showlegend=False,
             line=dict(color=HIGHLIGHT, width=2, dash="dash")),
        dict(type="scatter", x=ax, y=ay, mode="lines", fill="toself", fillcolor="rgba(255,140,0,0.12)",
             line=dict(color=HIGHLIGHT, width=1), hoverinfo="skip", name="arc", showlegend=False),
        dict(type="scatter", x=ox, y=oy, mode="lines", hoverinfo="skip", name="touched", showlegend=False,
             line=dict(color=HIGHLIGHT, width=4)),
        dict(type="scatter", x=mx, y=my, mode="text", text=texts, textposition="top right", name="lengths",
             hoverinfo="skip", showlegend=False, textfont=dict(size=13, color="#b35900")),
    ]


# -- what an event touches --------------------------------------------------------------------------
def closest_line(a: Extent, b: Extent) -> list[Coords]:
    """From the closest point of `a` to the closest point of `b` (game-log-tabletop.md, Measuring:
    "closest point to closest point"), exact for round bases: the cores' nearest points, each moved
    its base's radius toward the other. Extents in contact give a line of length 0."""
    p, q = nearest_points(a.core, b.core)
    gap = p.distance(q)
    if gap <= a.radius + b.radius:
        middle = ((p.x + q.x) / 2, (p.y + q.y) / 2)
        return [middle, middle]
    ux, uy = (q.x - p.x) / gap, (q.y - p.y) / gap
    return [(p.x + ux * a.radius, p.y + uy * a.radius), (q.x - ux * b.radius, q.y - uy * b.radius)]


def measured_line(a: dict[str, Any], b: dict[str, Any], how: str) -> Optional[list[Coords]]:
    """The line a `measure` reading measures between two units: `closest` (the default) or
    `centre` (position to position); a reading the page does not name gives none."""
    if how == "closest":
        return closest_line(extent(a), extent(b))
    if how == "centre":
        return [xy(a["position"]), xy(b["position"])]
    return None


def _named_units(value: Any, units: dict[str, Any]) -> list[str]:
    """Every unit id found among an event's values, nested ones too, in the order they appear."""
    if isinstance(value, str):
        return [value] if value in units else []
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [uid for item in items for uid in _named_units(item, units)]


def event_highlight(line: dict[str, Any], board: dict[str, Any], attacks: dict[str, dict[str, Any]],
                    how: str = "closest", shot: Optional[ShotView] = None) -> dict[str, Any]:
    """What `highlight_traces` draws for the chosen event, read on the board after it: its route
    (the points its schema types as one, domain/locations.py: a move's path, a marker's drift), a
    shot's range and arc as the game's readings measure them (`shot`, domain.tabletop.queries.
    shot_view; without it the `measure` line, `how`), and the units it names, directly or
    through its attack (a ShotResolved, a roll or a card about "a-1" names a-1's shooter and target)."""
    d, units = line["data"], placed_units(board)
    attack = attacks.get(d.get("attack") or d.get("subject") or "")
    named = _named_units(d, units) + (_named_units([attack["shooter"], attack["target"]], units) if attack else [])
    out: dict[str, Any] = {"units": list(dict.fromkeys(named))}
    schema = schema_for(line["type"], board.get("ruleset"))
    route = [f.value for f in locations(schema, d) if f.location.geometry == "point" and f.location.role == ROUTE]
    if route:
        out["path"] = route
    elif line["type"] == "ShotFired" and shot is not None:
        out["line"], out["reading"] = [xy(p) for p in shot.range_line], shot.reading
        if shot.arc is not None:
            out["arc"] = shot.arc
    elif line["type"] == "ShotFired" and d.get("shooter") in units and d.get("target") in units:
        out["line"], out["reading"] = measured_line(units[d["shooter"]], units[d["target"]], how), f"measure={how}"
    return out


# -- the figure -----------------------------------------------------------------------------------
def tabletop_layout_ranges(board: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The axes span the table in inches: x 0..width, y 0..depth, the first side's edge at y 0."""
    table = board["table"]
    return {"xaxis": {"range": [0.0, float(table["width"])]}, "yaxis": {"range": [0.0, float(table["depth"])]}}


def _edge_annotation(board: dict[str, Any]) -> list[dict[str, Any]]:
    # game-log-tabletop.md, Table and points: the origin is on the edge of the side listed first;
    # where the other sides stand the page does not say, so only that edge is named.
    sides = board.get("sides") or []
    if not sides:
        return []
    return [dict(x=float(board["table"]["width"]) / 2, y=0, yref="y", xref="x", yanchor="top", yshift=-18,
                 text=f"{sides[0]} table edge", showarrow=False, font=dict(size=11, color="#555555"))]


def tabletop_figure(board: dict[str, Any], highlight: Optional[dict[str, Any]] = None, *,
                    height: int = 640) -> go.Figure:
    """The table to scale: its terrain (one trace per kind), then `position_traces` for the position."""
    table = board["table"]
    ranges = tabletop_layout_ranges(board)
    fig = go.Figure(data=terrain_traces(table) + position_traces(board, highlight))
    axis = dict(showgrid=True, gridcolor="rgba(0,0,0,0.08)", zeroline=False, dtick=6, ticksuffix='"',
                constrain="domain", fixedrange=False)
    fig.update_layout(
        height=height, margin=dict(l=40, r=4, t=8, b=40), plot_bgcolor=PAPER_COLOUR, paper_bgcolor=PAPER_COLOUR,
        dragmode="pan", uirevision="table", hovermode="closest", annotations=_edge_annotation(board),
        legend=dict(x=1.01, y=1, font=dict(size=10), tracegroupgap=2),
        shapes=[dict(type="rect", x0=0, y0=0, x1=table["width"], y1=table["depth"], layer="below",
                     fillcolor=TABLE_COLOUR, line=dict(color="#8a7f6a", width=1))],
        xaxis=dict(axis, **ranges["xaxis"]), yaxis=dict(axis, scaleanchor="x", scaleratio=1, **ranges["yaxis"]),
    )
    return fig
