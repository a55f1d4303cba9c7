"""Figures, built by pure functions: the hex map (terrain once, then what moves) and the charts.

The map figure keeps its terrain in `layout.shapes` (one SVG path per terrain type, many subpaths
each) so that stepping through a game only replaces the few traces after `STATIC_TRACES`:
counters, markers, resistance counts and the highlight of the chosen event.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional

import plotly.graph_objects as go

from dashboard.geometry import SIZE, HexLayout, cell_center, grid_cells, hex_corners, hexside_segment, layout_maps
from domain.board.state import BoardState
from domain.locations import ROUTE, TERRAIN, locations, schema_for, touches_board

TERRAIN_COLOURS = {
    "wood": "#6f9a5a", "town": "#a8a29a", "marsh": "#8fc1b5", "hill": "#d9c08c", "river": "#6fa8dc",
    "village": "#b9aea0", "orchard": "#9cc27e", "lake": "#5b9bd5", "crops": "#e6dba0", "rough": "#c4b59a",
}
OTHER_TERRAIN = "#cdbfa8"
HEXSIDE_STYLES = {
    "stone-wall": ("#555555", 4), "ridgeline": ("#8b5a2b", 4), "hedge": ("#3f7f3f", 4),
    "river": ("#3d85c6", 5), "stream": ("#6fa8dc", 3), "wall": ("#555555", 4),
}
SIDE_COLOURS = {
    "british": "#b08d57", "french": "#5b7fbf", "american": "#6b8e23", "belgian": "#b8860b",
    "italian": "#2e8b57", "russian": "#8b4513", "german": "#5f6b73", "austro-hungarian": "#7d8f99",
    "ottoman": "#a0522d", "bulgarian": "#6b4226",
}
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"]
STATUS_TAGS = {"pinned": "PIN", "prone": "PRN", "broken-down": "BRK", "dismounted": "DSM", "fatigued": "FAT"}
MARKER_STYLES = {  # marker -> (symbol, colour, size)
    "smoke": ("circle", "rgba(120,120,120,0.45)", 34), "gas": ("diamond", "rgba(154,205,50,0.7)", 26),
    "wire": ("x-thin-open", "#4a3728", 18), "wire-high": ("x-thin-open", "#2b1d12", 22),
    "trench-hasty": ("line-ew-open", "#7a5230", 24), "trench-prepared": ("line-ew-open", "#5a3a1a", 28),
    "trench-communication": ("line-ns-open", "#7a5230", 24), "rubble-1": ("triangle-up", "#8d8d8d", 14),
    "rubble-2": ("triangle-up", "#5d5d5d", 18), "barrage-impact": ("star", "#d62728", 22),
    "roadblock": ("square-x-open", "#333333", 16), "strongpoint": ("hexagon-open", "#333333", 22),
    "minefield": ("asterisk-open", "#8b0000", 18), "resisted": ("circle-open", "#d62728", 20),
}
VERDICT_COLOURS = {
    "ok": "#2e7d32", "violation": "#c62828", "mismatch": "#ef6c00", "missing-roll": "#ad1457",
    "unverifiable": "#6d6d6d", "ambiguous": "#6a1b9a",
}
HIGHLIGHT = "#ff8c00"
STATIC_TRACES = 1  # the hover layer over every hex; later traces change with the position


@dataclass
class MapData:
    """What the map is drawn from: the game's maps, terrain, hexsides and every location it names."""

    maps: list[Any]
    hexes: dict[str, dict[str, Any]]
    hexsides: list[dict[str, Any]]
    locations: set[str] = field(default_factory=set)

    def layout(self) -> HexLayout:
        return layout_maps(self.maps, self.all_locations())

    def all_locations(self) -> set[str]:
        sides = {loc for h in self.hexsides for loc in h.get("between", [])}
        return set(self.hexes) | sides | self.locations


@dataclass
class Touch:
    """What an event touches on the map: hexes to outline and lines (paths, scatter, sight)."""

    hexes: list[str] = field(default_factory=list)
    lines: list[list[str]] = field(default_factory=list)


# -- the static map ------------------------------------------------------------------------------
def _ring(corners: list[tuple[float, float]]) -> str:
    x0, y0 = corners[0]
    return f"M{x0:.3f},{y0:.3f}" + "".join(f"L{x:.3f},{y:.3f}" for x, y in corners[1:]) + "Z"


def terrain_shapes(layout: HexLayout, cells: Iterable[tuple[int, int]],
                   hexes: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The grid as one path, then one filled path per terrain type (all its hexes as subpaths)."""
    grid = "".join(_ring(hex_corners(*cell_center(c, r))) for c, r in cells)
    shapes = [dict(type="path", path=grid, line=dict(color="#b5a88f", width=0.6), layer="below",
                   fillcolor="#f3eee2")]
    by_terrain: dict[str, list[str]] = {}
    for loc, spec in sorted(hexes.items()):
        terrain = spec.get("terrain", "clear")
        if terrain != "clear":
            by_terrain.setdefault(terrain, []).append(_ring(layout.corners(loc)))
    for terrain, rings in sorted(by_terrain.items()):
        shapes.append(dict(type="path", path="".join(rings), layer="below", name=terrain,
                           fillcolor=TERRAIN_COLOURS.get(terrain, OTHER_TERRAIN),
                           line=dict(color="#8a7f6a", width=0.6)))
    return shapes


def hexside_shapes(layout: HexLayout, hexsides: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One path per hexside feature (walls, ridgelines, ...), each edge a subpath."""
    by_feature: dict[str, list[str]] = {}
    for side in hexsides:
        a, b = side["between"]
        (x1, y1), (x2, y2) = hexside_segment(layout, a, b)
        by_feature.setdefault(side.get("feature", "wall"), []).append(f"M{x1:.3f},{y1:.3f}L{x2:.3f},{y2:.3f}")
    shapes = []
    for feature, segments in sorted(by_feature.items()):
        colour, width = HEXSIDE_STYLES.get(feature, ("#444444", 3))
        shapes.append(dict(type="path", path="".join(segments), name=feature, layer="above",
                           line=dict(color=colour, width=width)))
    return shapes


def hex_hover_trace(layout: HexLayout, hexes: dict[str, dict[str, Any]], locations: Iterable[str]) -> dict[str, Any]:
    """Invisible points at hex centres that name the hex and its terrain on hover."""
    xs, ys, texts = [], [], []
    for loc in sorted(set(locations) | set(hexes)):
        x, y = layout.center(loc)
        spec = hexes.get(loc, {})
        features = ", ".join(spec.get("features", []))
        xs.append(x), ys.append(y)
        texts.append(f"{loc} {spec.get('terrain', 'clear')}"
                     + (f", elevation {spec['elevation']}" if spec.get("elevation") else "")
                     + (f" ({features})" if features else ""))
    return dict(type="scatter", x=xs, y=ys, mode="markers", hoverinfo="text", hovertext=texts,
                marker=dict(size=18, opacity=0), showlegend=False, name="hexes")


def map_figure(data: MapData, dynamic: Optional[list[dict[str, Any]]] = None, *, height: int = 640) -> go.Figure:
    """The whole map: terrain and hexsides as shapes, the hex hover layer, then `dynamic` traces."""
    layout = data.layout()
    locations = data.all_locations()
    cells = grid_cells(layout, locations)
    shapes = terrain_shapes(layout, cells, data.hexes) + hexside_shapes(layout, data.hexsides)
    hover = hex_hover_trace(layout, data.hexes, locations)
    fig = go.Figure(data=[hover] + list(dynamic or []))
    fig.update_layout(
        shapes=shapes, height=height, margin=dict(l=4, r=4, t=4, b=4), showlegend=False,
        plot_bgcolor="#faf8f2", paper_bgcolor="#faf8f2", dragmode="pan", uirevision="map",
        xaxis=dict(visible=False, constrain="domain", **_fitted(hover["x"])),
        yaxis=dict(visible=False, scaleanchor="x", scaleratio=1, **_fitted(hover["y"])),
        hovermode="closest",
    )
    return fig


def _fitted(centres: list[float]) -> dict[str, Any]:
    """An axis range around every hex drawn. Stated, not left to the browser's autorange: an
    autorange computed while the page was still laying the graph out could keep half the map off
    screen after an update."""
    if not centres:
        return {}
    return {"range": [min(centres) - SIZE * 1.1, max(centres) + SIZE * 1.1]}


# -- what changes with the position --------------------------------------------------------------
def side_colours(sides: Iterable[str]) -> dict[str, str]:
    out = {}
    for i, side in enumerate(sides):
        out[side] = SIDE_COLOURS.get(side, PALETTE[i % len(PALETTE)])
    return out


def counter_positions(board: BoardState, layout: HexLayout) -> dict[str, tuple[float, float]]:
    """Where each unit's counter is drawn: its hex's centre, fanned out when several share a hex."""
    out: dict[str, tuple[float, float]] = {}
    stacks: dict[str, int] = {}
    for unit in sorted(board.units.values(), key=lambda u: u.unit):
        if unit.eliminated or not unit.location:
            continue
        x, y = layout.center(unit.location)
        n = stacks.get(unit.location, 0)
        stacks[unit.location] = n + 1
        out[unit.unit] = (x + 0.3 * n, y - 0.25 * n)
    return out


def unit_trace(board: BoardState, layout: HexLayout, colours: dict[str, str],
               details: Optional[dict[str, list[str]]] = None) -> dict[str, Any]:
    """Counters in their side's colour, labelled with their id and status tags; `details`: more
    lines for a unit's hover (a vehicle's facing, crew and damage)."""
    xs, ys, texts, hovers, fills = [], [], [], [], []
    for name, (x, y) in counter_positions(board, layout).items():
        unit = board.units[name]
        tags = [STATUS_TAGS[s] for s in unit.status if s in STATUS_TAGS]
        xs.append(x), ys.append(y)
        texts.append(unit.unit + ("<br>" + " ".join(tags) if tags else ""))
        hovers.append(f"{unit.unit} {unit.unit_class} ({unit.side}) at {unit.location}"
                      + (f": {', '.join(unit.status)}" if unit.status else "")
                      + "".join(f"<br>{note}" for note in (details or {}).get(name, [])))
        fills.append(colours.get(unit.side or "", "#999999"))
    return dict(type="scatter", x=xs, y=ys, mode="markers+text", text=texts, hovertext=hovers,
                hoverinfo="text", textfont=dict(size=9, color="#ffffff"), name="units",
                marker=dict(symbol="square", size=30, color=fills, line=dict(color="#222222", width=1)),
                showlegend=False)


def marker_trace(board: BoardState, layout: HexLayout) -> dict[str, Any]:
    """Markers at the upper left of their hex, side by side when several share one."""
    xs, ys, symbols, colours, sizes, hovers = [], [], [], [], [], []
    placed: dict[str, int] = {}
    for marker in board.markers:
        loc = marker.get("location")
        if not loc:
            continue
        x, y = layout.center(loc)
        n = placed.get(loc, 0)
        placed[loc] = n + 1
        symbol, colour, size = MARKER_STYLES.get(marker["marker"], ("circle-open", "#333333", 14))
        xs.append(x - 0.5 + 0.3 * n), ys.append(y + 0.5)
        symbols.append(symbol), colours.append(colour), sizes.append(size)
        turns = f" ({marker['turns']} turns)" if marker.get("turns") else ""
        hovers.append(f"{marker['marker']} at {loc}{turns}, placed at event {marker.get('seq')}")
    return dict(type="scatter", x=xs, y=ys, mode="markers", hovertext=hovers, hoverinfo="text", name="markers",
                marker=dict(symbol=symbols, color=colours, size=sizes, line=dict(width=2, color=colours)),
                showlegend=False)


def resistance_trace(counts: dict[str, int], layout: HexLayout) -> dict[str, Any]:
    """Resistance counts ("R2") at the lower right of each hex that has resisted."""
    items = sorted((loc, n) for loc, n in counts.items() if n)
    xs = [layout.center(loc)[0] + 0.45 for loc, _ in items]
    ys = [layout.center(loc)[1] - 0.55 for loc, _ in items]
    return dict(type="scatter", x=xs, y=ys, mode="text", text=[f"R{n}" for _, n in items],
                hovertext=[f"{loc}: resisted {n} turn(s)" for loc, n in items], hoverinfo="text",
                textfont=dict(size=11, color="#b71c1c"), name="resistance", showlegend=False)


def highlight_traces(touch: Touch, layout: HexLayout) -> list[dict[str, Any]]:
    """The chosen event: one outline trace around the hexes it touches, one for its lines."""
    ox: list[Optional[float]] = []
    oy: list[Optional[float]] = []
    for loc in dict.fromkeys(touch.hexes):
        corners = hex_corners(*layout.center(loc))
        corners.append(corners[0])
        ox += [c[0] for c in corners] + [None]
        oy += [c[1] for c in corners] + [None]
    lx: list[Optional[float]] = []
    ly: list[Optional[float]] = []
    for path in touch.lines:
        points = [layout.center(loc) for loc in path]
        lx += [p[0] for p in points] + [None]
        ly += [p[1] for p in points] + [None]
    return [
        dict(type="scatter", x=ox, y=oy, mode="lines", line=dict(color=HIGHLIGHT, width=4), hoverinfo="skip",
             name="touched", showlegend=False),
        dict(type="scatter", x=lx, y=ly, mode="lines+markers", hoverinfo="skip", name="lines", showlegend=False,
             line=dict(color=HIGHLIGHT, width=3, dash="dash"),
             marker=dict(symbol="arrow", angleref="previous", size=12, color=HIGHLIGHT)),
    ]


def board_traces(board: BoardState, layout: HexLayout, touch: Touch, colours: dict[str, str],
                 resistance: Optional[dict[str, int]] = None,
                 details: Optional[dict[str, list[str]]] = None) -> list[dict[str, Any]]:
    """The board's traces after STATIC_TRACES, always the same five in the same order (the hex
    renderer adds the chosen shot's and the machines' after them)."""
    return [marker_trace(board, layout), resistance_trace(resistance or {}, layout),
            unit_trace(board, layout, colours, details), *highlight_traces(touch, layout)]


# The units an event's places are seen or fired from (game-log.md: Spotted `spotter`, HexObserved
# `observer`, SmallArmsFired `firers`): a line from where each stands to each place.
SEEN_FROM = {"Spotted": "spotter", "HexObserved": "observer", "SmallArmsFired": "firers"}
UnitHex = Callable[[Optional[str]], Optional[str]]  # a unit id -> the hex it stands in on the board


def touches(line: dict[str, Any], board: BoardState, targets: dict[str, str]) -> Touch:
    """What the event touches, read on the board after it; `targets`: barrage id -> target hex.

    An event with hex locations in its schema (domain/locations.py) touches those: its places
    outlined, its route outlined and drawn as a line. Another touches the units it names."""
    d, kind = line["data"], line["type"]

    def at(unit: Optional[str]) -> Optional[str]:
        u = board.units.get(unit or "")
        return u.location if u else None

    schema = schema_for(kind, board.ruleset)
    if touches_board(schema, "hex"):
        touch = _located_touch(kind, d, schema, at, targets)
    else:
        touch = _named_touch(kind, d, at, targets)
    return Touch([h for h in touch.hexes if h], [p for p in touch.lines if all(p)])


def _located_touch(kind: str, d: dict[str, Any], schema: Any, at: UnitHex, targets: dict[str, str]) -> Touch:
    found = [f for f in locations(schema, d) if f.location.geometry == "hex" and f.location.role != TERRAIN]
    places = [f.value for f in found]
    route = [f.value for f in found if f.location.role == ROUTE]
    touch = Touch(list(places), [route] if route else [])
    if kind == "ScatterTested":  # from the hex the barrage was aimed at (its BarrageDeclared's target)
        origin = targets.get(d["barrage"])
        touch.hexes, touch.lines = [origin, *places], [[origin, place] for place in places]
    seen_from = d.get(SEEN_FROM.get(kind, ""))
    sources = [loc for loc in map(at, seen_from if isinstance(seen_from, list) else [seen_from]) if loc]
    touch.hexes += sources
    touch.lines += [[source, place] for source in sources for place in places]
    return touch


def _named_touch(kind: str, d: dict[str, Any], at: UnitHex, targets: dict[str, str]) -> Touch:
    touch = Touch()
    if kind in ("UnitStatusChanged",):
        touch.hexes = [x for x in (at(d["unit"]),) if x]
    elif kind == "SmallArmsResolved":
        touch.hexes = [x for x in (at(r.get("unit")) for r in d.get("results", [])) if x]
    elif kind == "MoraleChecked":
        touch.hexes = [x for x in (at(u) for u in d.get("units", [])) if x]
    elif d.get("barrage") in targets or d.get("subject") in targets:
        touch.hexes = [targets[d.get("barrage") or d["subject"]]]
    elif kind == "DieRolled" and at(d.get("subject")):
        touch.hexes = [at(d["subject"])]
    return touch


# -- analytics -----------------------------------------------------------------------------------
def _empty(fig: go.Figure, message: str) -> go.Figure:
    fig.add_annotation(text=message, showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper",
                       font=dict(size=14, color="#666666"))
    fig.update_xaxes(visible=False), fig.update_yaxes(visible=False)
    return fig


def _base(title: str) -> go.Figure:
    fig = go.Figure()
    fig.update_layout(title=title, height=380, margin=dict(l=50, r=20, t=50, b=60), template="plotly_white",
                      legend=dict(orientation="h", y=-0.25))
    return fig


def points_figure(spends: list[dict[str, Any]], cap: int = 25) -> go.Figure:
    """Artillery points spent per element, stacked by turn, against the cap.

    `spends`: {"game", "element", "turn", "points"}; the bar of an element is its whole game."""
    fig = _base("Artillery points spent per element and turn")
    if not spends:
        return _empty(fig, "no artillery points spent in the games shown")
    elements = sorted({f"{s['game']}<br>{s['element']}" for s in spends})
    for turn in sorted({s["turn"] for s in spends}):
        totals = {e: 0 for e in elements}
        for s in spends:
            if s["turn"] == turn:
                totals[f"{s['game']}<br>{s['element']}"] += s["points"]
        fig.add_bar(name=f"turn {turn}", x=elements, y=[totals[e] for e in elements])
    fig.add_hline(y=cap, line=dict(color="#c62828", dash="dash"),
                  annotation_text=f"cap {cap} points", annotation_position="top left")
    fig.update_layout(barmode="stack", yaxis_title="points", xaxis_title="game, element")
    return fig


def consumption_figure(spends: list[dict[str, Any]]) -> go.Figure:
    """Cumulative artillery points spent by each game, turn by turn."""
    fig = _base("Cumulative artillery points per game")
    if not spends:
        return _empty(fig, "no artillery points spent in the games shown")
    for game in sorted({s["game"] for s in spends}):
        per_turn: dict[int, int] = {}
        for s in spends:
            if s["game"] == game:
                per_turn[s["turn"]] = per_turn.get(s["turn"], 0) + s["points"]
        turns, running, total = sorted(per_turn), [], 0
        for t in turns:
            total += per_turn[t]
            running.append(total)
        fig.add_scatter(name=game, x=turns, y=running, mode="lines+markers")
    fig.update_layout(xaxis_title="turn", yaxis_title="points spent so far", xaxis_dtick=1)
    return fig


def resistance_figure(requests: list[dict[str, Any]]) -> go.Figure:
    """Resistance turns at each fire request: the column used, and the count the rules give.

    `requests`: {"game", "barrage", "turn", "column", "granted", "computed"?}."""
    fig = _base("Resistance turns at each fire request")
    if not requests:
        return _empty(fig, "no fire requests in the games shown")
    for game in sorted({r["game"] for r in requests}):
        rows = [r for r in requests if r["game"] == game]
        fig.add_scatter(name=f"{game} (column used)", x=[r["turn"] for r in rows], y=[r["column"] for r in rows],
                        mode="markers", marker=dict(size=10), text=[r["barrage"] for r in rows],
                        hovertemplate="barrage %{text}<br>turn %{x}<br>column %{y}<extra></extra>")
        computed = [r for r in rows if r.get("computed") is not None]
        if computed:
            fig.add_scatter(name=f"{game} (by the rules)", x=[r["turn"] for r in computed],
                            y=[r["computed"] for r in computed], mode="markers",
                            marker=dict(size=14, symbol="circle-open"))
    fig.update_layout(xaxis_title="turn", yaxis_title="resistance turns", yaxis_dtick=1, xaxis_dtick=1)
    return fig


def fot_figure(requests: list[dict[str, Any]]) -> go.Figure:
    """Fire Order Table outcomes by column: granted and refused."""
    fig = _base("Fire Order Table grants by column")
    if not requests:
        return _empty(fig, "no fire order checks in the games shown")
    columns = sorted({r["column"] for r in requests})
    for granted, name, colour in ((True, "granted", "#2e7d32"), (False, "refused", "#c62828")):
        fig.add_bar(name=name, x=[str(c) for c in columns], marker_color=colour,
                    y=[sum(1 for r in requests if r["column"] == c and r["granted"] == granted) for c in columns])
    fig.update_layout(barmode="group", xaxis_title="column (resistance turns)", yaxis_title="fire requests")
    return fig
