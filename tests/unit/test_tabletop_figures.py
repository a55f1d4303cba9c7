"""A tabletop game's board drawn to scale in inches (dashboard/tabletop.py).

The boards are written by hand from the two examples of game-log-tabletop.md (the positions,
footprints, facings and features their lines give); every expected number is derived here from
the page's Geometry section, not read back from the code under test.
"""
from __future__ import annotations

import json
import math
import os
import shutil
from pathlib import Path

import pytest
from shapely.geometry import Point, Polygon

from dashboard.tabletop import (
    facing_tick, inches, position_traces, tabletop_figure, tabletop_layout_ranges, terrain_traces,
)
from tests.conftest import SPEC  # the shared spec, else fixtures/spec's copy

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def unit(side, type_, x, y, facing, w, d, status=(), **extra):
    return {"side": side, "class": None, "type": type_, "position": {"x": x, "y": y}, "facing": facing,
            "footprint": {"w": w, "d": d}, "figures": None, "figure_base": None, "turret": None,
            "status": list(status), **extra}


def avbcw_board():
    """avbcw-example after line 20: the car has moved to (34.3, 21.0) facing 240; the militia is suppressed."""
    return {"game": "avbcw-example", "seq": 20, "turn": 1, "phase": "move", "ruleset": "dux-bellorum-avbcw",
            "geometry": "tabletop", "sides": ["royalist", "socialist"],
            "table": {"width": 48.0, "depth": 48.0, "features": [  # line 2, TableDefined
                {"id": "w-1", "kind": "woodland", "points": [[2.0, 30.0], [12.0, 30.0], [12.0, 40.0], [2.0, 40.0]]},
                {"id": "h-1", "kind": "hedge", "points": [[44.0, 30.0], [44.0, 46.0]]},
                {"id": "gg-1", "kind": "good-going", "points": [[30.0, 15.0], [42.0, 15.0], [42.0, 35.0], [30.0, 35.0]]}]},
            "units": {"r-inf": unit("royalist", "inf-regulars", 24.0, 8.0, 0, 5.0, 2.0),  # line 5
                      "s-mil": unit("socialist", "inf-militia", 24.0, 22.0, 180, 5.0, 2.0, ["suppressed"]),  # 6, 16
                      "s-car": unit("socialist", "vehicle:car", 34.3, 21.0, 240, 2.0, 4.0)},  # lines 7, 20
            "markers": [], "problems": []}


# avbcw-example line 20: the car's path
CAR_PATH = [{"x": 36.0, "y": 30.0, "f": 180}, {"x": 36.0, "y": 22.0}, {"x": 34.3, "y": 21.0, "f": 240}]


def mog_board():
    """mog-example after line 14: the landship has moved from (10, 24) to (24, 24), still facing 90."""
    return {"game": "mog-example", "seq": 14, "turn": 1, "phase": "movement", "ruleset": "landships-of-mogdonazia",
            "geometry": "tabletop", "sides": ["mogdonazia", "rebels"],
            "table": {"width": 72.0, "depth": 48.0, "features": [  # line 2, TableDefined
                {"id": "rd-1", "kind": "road", "width": 3.0, "points": [[0.0, 36.0], [72.0, 36.0]]},
                {"id": "ro-1", "kind": "rough", "points": [[30.0, 2.0], [40.0, 2.0], [40.0, 12.0], [30.0, 12.0]]}]},
            "units": {"l-1": unit("mogdonazia", None, 24.0, 24.0, 90, 4.0, 6.0, **{"class": "vehicle"}),  # 4, 14
                      "r-1": unit("rebels", "egyptian-infantry", 40.0, 24.0, 270, 10.0, 2.0)},  # line 8
            "markers": [], "problems": []}


def trace(fig, name):
    found = [t for t in fig.data if t.name == name]
    assert len(found) == 1, f"one trace named {name}"
    return found[0]


def rings(t):
    """The outlines of a trace, split at its None separators."""
    out, current = [], []
    for x, y in zip(t.x, t.y):
        if x is None:
            out.append(current)
            current = []
        else:
            current.append((x, y))
    return out + ([current] if current else [])


def spans(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return max(xs) - min(xs), max(ys) - min(ys)


def base_of(fig, side, centre):
    """The outline in the side's base trace that holds `centre`."""
    found = [Polygon(r) for r in rings(trace(fig, side)) if Polygon(r).contains(Point(centre))]
    assert len(found) == 1
    return found[0]


# -- the table ------------------------------------------------------------------------------------
@pytest.mark.parametrize("board, width, depth", [(avbcw_board(), 48.0, 48.0), (mog_board(), 72.0, 48.0)])
def test_the_axes_are_the_table_in_inches_at_one_scale(board, width, depth):
    # game-log-tabletop.md, Table and points: x runs 0 to `width`, y 0 to `depth`, origin on the first side's edge
    fig = tabletop_figure(board)
    assert list(fig.layout.xaxis.range) == [0.0, width]
    assert list(fig.layout.yaxis.range) == [0.0, depth]
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.yaxis.scaleratio == 1
    assert tabletop_layout_ranges(board) == {"xaxis": {"range": [0.0, width]}, "yaxis": {"range": [0.0, depth]}}
    assert fig.layout.annotations[0].text == f"{board['sides'][0]} table edge"
    assert fig.layout.annotations[0].y == 0, "the first side's edge is the bottom of the figure"


EVERY_KIND = [  # game-log-tabletop.md, TableDefined: each kind with the shape the table gives it
    ("woodland", "polygon"), ("dense-woodland", "polygon"), ("building", "polygon"), ("town", "polygon"),
    ("trench", "polygon"), ("rough", "polygon"), ("hill", "polygon"), ("good-going", "polygon"),
    ("impassable", "polygon"), ("hedge", "polyline"), ("fence", "polyline"), ("wall", "polyline"),
    ("river", "band"), ("stream", "band"), ("road", "band"),
]


def every_kind_table():
    features = []
    for i, (kind, shape) in enumerate(EVERY_KIND):
        y = 2.0 + 3.0 * i
        points = [[2.0, y], [6.0, y], [6.0, y + 2.0]] if shape == "polygon" else [[10.0, y], [30.0, y]]
        features.append({"id": f"f-{i}", "kind": kind, "points": points,
                         **({"width": 2.0} if shape == "band" else {}), **({"height": 1} if kind == "hill" else {})})
    return {"width": 48.0, "depth": 48.0, "features": features}


def test_every_kind_gets_its_own_trace_with_a_legend_entry():
    traces = {t["name"]: t for t in terrain_traces(every_kind_table())}
    assert set(traces) - {"features"} == {kind for kind, _ in EVERY_KIND}
    for kind, shape in EVERY_KIND:
        assert traces[kind].get("showlegend", True), kind
        # areas and the bands of rivers, streams and roads are filled; hedges, fences and walls are lines
        assert (traces[kind].get("fill") == "toself") == (shape != "polyline"), kind


def test_a_road_is_the_band_within_half_its_width_of_its_line():
    # game-log-tabletop.md, UnitMoved: on road is "within width/2 of a road's line": rd-1 (3.0" wide, along
    # y 36 from x 0 to 72) covers y 34.5 to 37.5, and 1.5" beyond each end of its line
    (band,) = rings(trace(tabletop_figure(mog_board()), "road"))
    assert spans(band) == pytest.approx((72.0 + 3.0, 3.0))
    assert min(y for _, y in band) == pytest.approx(34.5)


def test_features_of_one_kind_share_one_trace():
    table = avbcw_board()["table"]
    table["features"].append({"id": "w-2", "kind": "woodland", "points": [[20.0, 40.0], [26.0, 40.0], [23.0, 46.0]]})
    woods = [t for t in terrain_traces(table) if t["name"] == "woodland"]
    assert len(woods) == 1 and woods[0]["x"].count(None) == 2


def test_features_name_themselves_on_hover():
    hover = next(t for t in terrain_traces(every_kind_table()) if t["name"] == "features")["hovertext"]
    assert len(hover) == len(EVERY_KIND)
    assert "f-6 hill (height 1)" in hover and "f-14 road (width 2.0)" in hover


# -- the units ------------------------------------------------------------------------------------
def test_an_unturned_base_has_its_width_across_x():
    # Geometry: facing 0 faces +y, and `w` is across the front: r-inf (w 5, d 2) spans 5 along x, 2 along y
    base = base_of(tabletop_figure(avbcw_board()), "royalist", (24.0, 8.0))
    assert spans(base.exterior.coords) == pytest.approx((5.0, 2.0))


def test_a_base_facing_90_has_its_depth_along_x():
    # Facing 90 faces +x, so the depth lies along x and the width along y: w 2, d 4 spans 4 along x, 2 along y
    board = mog_board()
    board["units"]["l-1"]["footprint"] = {"w": 2.0, "d": 4.0}
    base = base_of(tabletop_figure(board), "mogdonazia", (24.0, 24.0))
    assert spans(base.exterior.coords) == pytest.approx((4.0, 2.0))
    assert base.area == pytest.approx(8.0)


def test_a_turned_base_keeps_its_size_and_centre():
    # s-car, w 2 by d 4, facing 240: its corners are 2 and 4 apart whatever the facing, around its position
    base = base_of(tabletop_figure(avbcw_board()), "socialist", (34.3, 21.0))
    corners = list(base.exterior.coords)[:4]
    sides = sorted(round(math.dist(corners[i], corners[(i + 1) % 4]), 9) for i in range(4))
    assert sides == pytest.approx([2.0, 2.0, 4.0, 4.0])
    assert (base.centroid.x, base.centroid.y) == pytest.approx((34.3, 21.0))


def test_a_turned_base_points_its_depth_along_its_facing():
    # Facing runs clockwise from +y: 240 points at (sin 240°, cos 240°); the front edge's middle is d/2 = 2"
    # that way, while 2" along 120° (the same turn counter-clockwise) is off the base
    base = base_of(tabletop_figure(avbcw_board()), "socialist", (34.3, 21.0))

    def ahead(bearing, distance):
        return Point(34.3 + distance * math.sin(math.radians(bearing)), 21.0 + distance * math.cos(math.radians(bearing)))

    assert base.exterior.distance(ahead(240, 2.0)) == pytest.approx(0.0, abs=1e-9)
    assert not base.buffer(1e-9).contains(ahead(120, 2.0))


@pytest.mark.parametrize("facing, direction", [(0, (0, 1)), (90, (1, 0)), (180, (0, -1)), (270, (-1, 0))])
def test_the_facing_tick_runs_from_the_centre_to_the_front_edge(facing, direction):
    # Geometry: facing is degrees clockwise from +y; the front edge is d/2 ahead of the centre
    start, end = facing_tick(unit("a", None, 10.0, 20.0, facing, 2.0, 4.0))
    assert start == (10.0, 20.0)
    assert end == pytest.approx((10.0 + 2.0 * direction[0], 20.0 + 2.0 * direction[1]))


def test_the_figure_draws_the_landships_tick_toward_plus_x():
    # mog-example line 4: l-1 faces 90 with d 6, so its tick ends 3" along +x, at (27, 24)
    ticks = rings(trace(tabletop_figure(mog_board()), "facing"))
    assert [(24.0, 24.0), pytest.approx((27.0, 24.0))] in ticks


def test_the_drawn_bases_lie_the_recorded_range_apart():
    # mog-example line 16 records range 12.0 from r-1 to l-1; Measuring: Mogdonazia measures closest
    # point to closest point (`measure`), so the two drawn bases must be 12.0" apart
    fig = tabletop_figure(mog_board())
    rebels, landship = base_of(fig, "rebels", (40.0, 24.0)), base_of(fig, "mogdonazia", (24.0, 24.0))
    assert rebels.distance(landship) == pytest.approx(12.0)


def test_figures_are_drawn_as_their_bases():
    # Position and footprint: with `figures` and `figure_base` the unit's extent is their bases
    board = mog_board()
    board["units"]["r-1"].update(figures=[[40.0, 20.0], [40.0, 24.0], [40.0, 28.0]], figure_base=1.0)
    circles = rings(trace(tabletop_figure(board), "rebels"))
    assert len(circles) == 3
    for circle in circles:
        assert spans(circle) == pytest.approx((1.0, 1.0), abs=0.02)


def test_a_count_of_figures_is_drawn_as_the_footprint():
    # mog-example line 8: r-1 has "figures": 20, a count, not placed figures, so its extent is the footprint
    # (w 10 across a front facing 270, i.e. along y; d 2 along x)
    board = mog_board()
    board["units"]["r-1"]["figures"] = 20
    base = base_of(tabletop_figure(board), "rebels", (40.0, 24.0))
    assert spans(base.exterior.coords) == pytest.approx((2.0, 10.0))


def test_destroyed_units_are_faded_and_the_rest_are_not():
    board = avbcw_board()
    board["units"]["s-mil"]["status"] = ["destroyed"]
    fig = tabletop_figure(board)
    live, wrecks = trace(fig, "socialist"), trace(fig, "socialist (out of action)")
    assert len(rings(live)) == 1 and len(rings(wrecks)) == 1
    assert Polygon(rings(wrecks)[0]).contains(Point(24.0, 22.0))
    assert wrecks.opacity < live.opacity


def test_units_are_in_their_sides_colours_with_their_ids_and_hover():
    fig = tabletop_figure(avbcw_board())
    assert trace(fig, "royalist").fillcolor != trace(fig, "socialist").fillcolor
    assert sorted(trace(fig, "ids").text) == ["r-inf", "s-car", "s-mil"]
    hover = dict(zip(trace(fig, "ids").text, trace(fig, "units").hovertext))
    assert hover["s-mil"] == "s-mil inf-militia (socialist) at (24.0, 22.0) facing 180°: suppressed"
    assert hover["s-car"] == "s-car vehicle:car (socialist) at (34.3, 21.0) facing 240°"


# -- the chosen event -----------------------------------------------------------------------------
def test_a_path_is_labelled_with_its_length_in_inches():
    # avbcw-example, below the log: "the car moves 8.0 + 2.0 = 10.0"": (36,30)->(36,22) is 8.0, then
    # (36,22)->(34.3,21) is hypot(1.7, 1.0); UnitMoved: the length is the polyline's, rounded to 0.1"
    expected = math.floor((8.0 + math.hypot(1.7, 1.0)) * 10 + 0.5) / 10
    assert expected == 10.0
    fig = tabletop_figure(avbcw_board(), {"path": CAR_PATH})
    assert list(trace(fig, "lengths").text) == ['10.0"']
    path = trace(fig, "path")
    assert list(zip(path.x, path.y)) == [(36.0, 30.0), (36.0, 22.0), (34.3, 21.0), (None, None)]
    assert path.marker.symbol == "arrow"


def test_a_measured_line_is_labelled_with_its_length():
    # the closest points of r-1 and l-1 in mog-example: 12.0" (line 16's range)
    fig = tabletop_figure(mog_board(), {"line": [{"x": 39.0, "y": 24.0}, {"x": 27.0, "y": 24.0}]})
    assert list(trace(fig, "lengths").text) == ['12.0"']
    assert [p for p in zip(trace(fig, "line").x, trace(fig, "line").y) if p[0] is not None] == [(39, 24), (27, 24)]


@pytest.mark.parametrize("length, label", [(2.25, '2.3"'), (2.24, '2.2"'), (0.05, '0.1"'), (6.0, '6.0"')])
def test_lengths_round_half_up_to_a_tenth(length, label):
    # Measuring: "A computed distance is rounded half-up to 0.1""
    assert inches(length) == label


def test_an_arc_is_a_wedge_about_the_facing_cut_at_the_table_edge():
    # Arcs: `avbcw-arc=quadrant` reads "45° to its front" as 45° either side of the facing
    fig = tabletop_figure(avbcw_board(), {"arc": {"origin": {"x": 24.0, "y": 9.0}, "facing": 0, "half_width": 45}})
    (ring,) = rings(trace(fig, "arc"))
    wedge = Polygon(ring)

    def at(bearing, distance=10.0):  # a point `distance` from the origin on a bearing clockwise from +y
        return Point(24.0 + distance * math.sin(math.radians(bearing)), 9.0 + distance * math.cos(math.radians(bearing)))

    assert wedge.contains(at(0)) and wedge.contains(at(40)) and wedge.contains(at(-40))
    assert not wedge.contains(at(50)) and not wedge.contains(at(-50)) and not wedge.contains(at(180))
    minx, miny, maxx, maxy = wedge.bounds
    assert minx >= 0 and miny >= 0 and maxx <= 48 and maxy <= 48


def test_outlined_units_are_their_extents():
    fig = tabletop_figure(avbcw_board(), {"units": ["s-car", "not-on-the-board"]})
    (outline,) = rings(trace(fig, "touched"))
    # the car's base, w 2 by d 4 (line 7) at (34.3, 21.0): the one drawn in its side's trace
    assert Polygon(outline).equals(base_of(fig, "socialist", (34.3, 21.0)))
    assert Polygon(outline).area == pytest.approx(2.0 * 4.0)


def test_stepping_changes_only_the_traces_after_the_terrain():
    board = avbcw_board()
    plain = position_traces(board)
    lit = position_traces(board, {"path": CAR_PATH, "line": [[24, 9], [24, 21]], "units": ["s-car"],
                               "arc": {"origin": [24, 9], "facing": 0, "half_width": 45}})
    assert [t["name"] for t in plain] == [t["name"] for t in lit]
    fig = tabletop_figure(board)
    assert len(fig.data) == len(terrain_traces(board["table"])) + len(plain)


def test_the_figure_serialises_to_json():
    fig = tabletop_figure(avbcw_board(), {"path": CAR_PATH, "units": ["s-car"]})
    data = json.loads(fig.to_json())
    assert {t["name"] for t in data["data"]} >= {"woodland", "hedge", "good-going", "royalist", "path"}


def test_the_board_renders_as_a_png(monkeypatch):
    monkeypatch.setenv("BROWSER_PATH", os.environ.get("BROWSER_PATH", shutil.which("chromium")))
    ARTIFACTS.mkdir(exist_ok=True)
    highlight = {"path": CAR_PATH, "units": ["s-car"], "line": [[24.0, 9.0], [24.0, 21.0]],
                 "arc": {"origin": [24.0, 9.0], "facing": 0, "half_width": 45}}
    out = ARTIFACTS / "tabletop-avbcw.png"
    figure = tabletop_figure(avbcw_board(), highlight)
    try:
        figure.write_image(str(out), width=900, height=820)
    except Exception:  # noqa: BLE001 - kaleido's browser tab can lose its scripts' load on a loaded machine
        figure.write_image(str(out), width=900, height=820)   # once more: a second failure fails the test
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_unit_not_yet_on_the_table_is_not_drawn():
    # AVBCW, UnitDeployed: an Ambush unit is deployed "on its first turn, as its move"; until then it has no position
    board = avbcw_board()
    board["units"]["r-amb"] = dict(unit("royalist", "inf-regulars", 0, 0, 0, 5.0, 2.0), position=None)
    fig = tabletop_figure(board, {"units": ["r-amb"]})
    assert "r-amb" not in trace(fig, "ids").text
    assert len(rings(trace(fig, "royalist"))) == 1 and rings(trace(fig, "touched")) == []


def test_a_smoke_marker_is_a_circle_of_its_radius():
    # AVBCW, MarkerPlaced: smoke has a `position` and a `radius` (the seed gives no size, so the log does)
    board = avbcw_board()
    board["markers"] = [{"marker": "smoke", "id": "sm-1", "position": {"x": 20.0, "y": 30.0}, "radius": 2.0}]
    fig = tabletop_figure(board)
    (circle,) = rings(trace(fig, "marker areas"))
    assert spans(circle) == pytest.approx((4.0, 4.0), abs=0.01)
    assert list(trace(fig, "markers").hovertext) == ['smoke sm-1 at (20.0, 30.0), radius 2.0"']


# -- the replay of a tabletop game ------------------------------------------------------------------
TABLETOP_EXAMPLES = SPEC / "examples-tabletop"


def example_view(name):
    from dashboard.data import GameView
    from domain.log import read_lines

    with open(TABLETOP_EXAMPLES / f"{name}.jsonl", encoding="utf-8") as fh:
        return GameView(name, read_lines(fh))


def test_a_tabletop_game_gets_the_figure_in_inches_and_a_hex_game_the_hex_map():
    from dashboard.data import GameView
    from dashboard.pages.replay import figure_for
    from tests.unit.test_figures import game_lines

    # game-log-tabletop.md: the two miniatures rule systems are "measured in inches"; the AVBCW table is 48" x 48"
    view = example_view("avbcw-example")
    assert view.geometry == "tabletop"
    table = figure_for(view, 20, False)
    assert list(table.layout.xaxis.range) == [0.0, 48.0] and list(table.layout.yaxis.range) == [0.0, 48.0]
    assert {"woodland", "hedge", "good-going"} <= {t.name for t in table.data}
    # before line 2 (TableDefined) the game's one table is drawn all the same, with nobody on it
    early = figure_for(view, 1, False)
    assert [t.name for t in early.data] == [t.name for t in table.data] and trace(early, "ids").text == ()
    hexes = figure_for(GameView("g", game_lines()), 4, False)
    assert GameView("g", game_lines()).geometry == "hex" and hexes.data[0].name == "hexes"


def test_stepping_a_tabletop_game_patches_only_its_position_traces():
    from dashboard.pages.replay import step_patch

    view = example_view("avbcw-example")
    terrain = len(terrain_traces(view.final.table))
    operations = step_patch(view, 20, False).to_plotly_json()["operations"]
    assert sorted(op["location"][1] for op in operations) == list(range(terrain, len(figure_data(view))))
    ids = next(op["params"]["value"] for op in operations if op["params"]["value"]["name"] == "ids")
    assert sorted(ids["text"]) == ["r-inf", "s-car", "s-mil"]  # lines 5, 6, 7


def figure_data(view):
    from dashboard.pages.replay import figure_for
    return figure_for(view, view.last, False).data


def test_a_move_is_highlighted_by_its_path_and_its_length():
    from dashboard.pages.replay import figure_for

    # avbcw-example, line 20 and the text below the log: "the car moves 8.0 + 2.0 = 10.0""
    fig = figure_for(example_view("avbcw-example"), 20, False)
    assert list(trace(fig, "lengths").text) == ['10.0"']
    assert [p for p in zip(trace(fig, "path").x, trace(fig, "path").y) if p[0] is not None] == \
        [(36.0, 30.0), (36.0, 22.0), (34.3, 21.0)]
    (outline,) = rings(trace(fig, "touched"))
    assert Polygon(outline).area == pytest.approx(2.0 * 4.0)  # the car, footprint w 2 by d 4 (line 7)


def test_a_shot_is_drawn_as_its_range_is_measured_with_its_arc():
    from dashboard.pages.replay import _measured_words, figure_for
    from dashboard.renderers import tabletop_at

    # avbcw-example lines 5, 6, 11: r-inf's leader figure stands at (24, 8); s-mil's base (5 by 2,
    # facing 180) spans y 21..23. `avbcw-range` (default from-leader: "Range is unstated; LOS is
    # from the leader figure") measures from the leader to the target's closest point: 21 - 8 =
    # 13.0", the recorded range (the `measure` reading, closest point to closest point, would
    # give 21 - 9 = 12.0"). The arc: "45° to its front" (`avbcw-arc` quadrant: 45° either side).
    view = example_view("avbcw-example")
    fig = figure_for(view, 11, False)
    (line,) = rings(trace(fig, "line"))
    assert line == [(24.0, 8.0), (24.0, 21.0)]
    assert list(trace(fig, "lengths").text) == ['13.0"']
    assert len(rings(trace(fig, "touched"))) == 2
    (wedge,) = rings(trace(fig, "arc"))
    assert (24.0, 8.0) in wedge and Polygon(wedge).contains(Point(24.0, 22.0))
    assert not Polygon(wedge).contains(Point(10.0, 9.0))        # 14" aside, 1" ahead: outside 45°
    _, highlight = tabletop_at(view, 11, False)
    assert _measured_words(view, 11, highlight) == \
        'Line drawn: 13.0" (avbcw-range=from-leader); recorded range 13.0"; arc: front, 90° about 0°'


def test_the_range_follows_the_games_avbcw_range_reading():
    from domain.log import read_lines
    from domain.tabletop.queries import readings, shot_view

    # `avbcw-range=closest`: closest point to closest point, r-inf's base front edge y 9 to s-mil's y 21
    view = example_view("avbcw-example")
    board = view.board(11)
    shot = shot_view(board, view.lines[:11], view.line(11)["data"], readings(["avbcw-range=closest"]))
    assert shot.range == 12.0 and shot.reading == "avbcw-range=closest"
    assert [p[1] for p in shot.range_line] == [9.0, 21.0]
    # `avbcw-arc=narrow`: 22.5° either side
    assert shot_view(board, view.lines[:11], view.line(11)["data"],
                     readings(["avbcw-arc=narrow"])).arc["half_width"] == 22.5


def test_a_sponsons_arc_is_180_degrees_about_its_bearing():
    from domain.tabletop.queries import readings, shot_view

    # mog-example line 7: l-1 (facing 90) has l-1/mg in a sponson with bearing 90 (Landships of
    # Mogdonazia, E. Weapons: "Sponson: This is a weapon that may fire 180 degrees"): 90° either side of 180°
    view = example_view("mog-example")
    board = view.board(16)
    shot = shot_view(board, view.lines[:16], {"shooter": "l-1", "target": "r-1", "weapon": "l-1/mg"},
                     readings(view.final.options))
    assert shot.arc["facing"] % 360 == 180.0 and shot.arc["half_width"] == 90.0
    # "Turret: This is a weapon that may fire 360 degrees": no arc to draw
    assert shot_view(board, view.lines[:16], {"shooter": "l-1", "target": "r-1", "weapon": "l-1/gun"},
                     readings(view.final.options)).arc is None


def test_the_shots_line_follows_the_games_measure_reading():
    from dashboard.tabletop import event_highlight

    # Interpretations, `measure`: `closest` (default) or `centre`; mog-example line 16, r-1 at (40, 24), l-1 at (24, 24)
    view = example_view("mog-example")
    board, shot = view.tabletop_board(16), view.line(16)
    assert event_highlight(shot, board, view.attacks, "centre")["line"] == [(40.0, 24.0), (24.0, 24.0)]
    # closest: r-1 faces 270 (its 2" depth along x: 39..41), l-1 faces 90 (6" depth: 21..27): 39 - 27 = 12.0"
    (a, b) = event_highlight(shot, board, view.attacks, "closest")["line"]
    assert (a[0], b[0]) == (39.0, 27.0) and a[1] == b[1]
    # a reading the page does not name draws no line rather than one picked silently
    assert event_highlight(shot, board, view.attacks, "no-such-reading")["line"] is None


def test_a_roll_or_card_about_an_attack_outlines_its_shooter_and_target():
    from dashboard.tabletop import event_highlight

    view = example_view("mog-example")
    for seq in (17, 19):  # DieRolled and CardDrawn with subject a-1, line 16's attack
        highlight = event_highlight(view.line(seq), view.tabletop_board(seq), view.attacks)
        assert sorted(highlight["units"]) == ["l-1", "r-1"] and "line" not in highlight


def test_round_bases_in_contact_are_measured_zero_apart():
    from dashboard.tabletop import closest_line
    from domain.tabletop.geometry import extent

    # Measuring: "extents 0.0 apart are in contact"; two 1"-based figures 1" apart centre to centre touch
    a = {"position": {"x": 10, "y": 10}, "facing": 0, "footprint": {"w": 1, "d": 1},
         "figures": [{"x": 10, "y": 10}], "figure_base": 1.0}
    b = dict(a, position={"x": 11, "y": 10}, figures=[{"x": 11, "y": 10}])
    (p, q) = closest_line(extent(a), extent(b))
    assert p == q
    far = dict(b, position={"x": 14, "y": 10}, figures=[{"x": 14, "y": 10}])
    assert closest_line(extent(a), extent(far)) == [(10.5, 10.0), (13.5, 10.0)]  # 4" less two radii of 0.5"


def test_tabletop_events_read_in_inches():
    from dashboard.words import describe

    view = example_view("avbcw-example")
    # line 20: 10.0" (see above), facing 180 -> 240 is 60° (the text below the log)
    assert describe(view.line(20)) == 's-car moved (36.0, 30.0) → (34.3, 21.0), 10.0", facing 180° → 240° (turned 60°)'
    assert describe(view.line(11)) == 'r-inf shoots at s-mil (attack a-1): 6 soft dice at range 13.0"'
    assert describe(view.line(19)) == "s-car tests bravery (move) against BRV 8: passed"
    assert describe(view.line(7)) == 's-car deployed at (36.0, 30.0) facing 180°, base 2.0" × 4.0"'
    mog = example_view("mog-example")
    assert describe(mog.line(19)) == "Card AS drawn from main for MOG.FIRE.CARD about a-1"
    assert describe(mog.line(14)) == 'l-1 moved (10.0, 24.0) → (24.0, 24.0), 14.0"'
    # a field a template needs and the line lacks reads "?"; an event nobody describes is said plainly,
    # its points with every digit recorded ("as precise as the recorder likes")
    assert describe({"type": "CohesionLost", "data": {"unit": "s-mil", "points": 1}}) == "s-mil loses 1 cohesion (?)"
    assert describe({"type": "UnitEmbarked", "data": {"unit": "u", "at": {"x": 1, "y": 2.25}}}) == \
        "Unit embarked: unit u, at (1.0, 2.25)"


def test_a_card_is_read_by_the_check_of_the_event_it_was_turned_for():
    from domain.rules.engine import RuleApplication, Verdict

    # Mogdonazia, HitCardResolved: "after its CardDrawn (`MOG.FIRE.CARD`)": mog-example line 20 after line 19;
    # the shot's roll (17) comes before its ShotResolved (18), so the card's check did not read it
    view = example_view("mog-example")
    check = RuleApplication(20, "MOG.FIRE.CARD", Verdict.OK, "Ace card: criticals", "c")
    assert view.read_by({20: [check]}) == {19: [check]}
    assert [d["seq"] for d in view.dice_for(20, [])] == [19]


def test_a_vehicles_arc_is_the_45_degree_arc_of_the_edge_it_fires_from():
    from domain.tabletop.queries import readings, shot_view

    # avbcw-example after line 20: s-car at (34.3, 21.0) facing 240, its LMG listed in arcs F, L, R, B
    # (line 4). dux-bellorum-avbcw.txt, Shooting: "Vehicle weapons may shoot into one or more of four
    # 45° arcs", and Vehicles: LOS "from the centre edge of the facing being fired from". r-inf at
    # (24, 8) lies about 218° from the car: inside the front arc (240° +-45°), fired from the front edge.
    view = example_view("avbcw-example")
    shot = shot_view(view.board(20), view.lines[:20], {"shooter": "s-car", "target": "r-inf"}, readings([]))
    assert shot.arc["label"] == "F" and shot.arc["facing"] == 240.0 and shot.arc["half_width"] == 45.0
    # the front edge's centre: 2" ahead of the centre (footprint d 4) along 240°
    assert shot.arc["origin"] == pytest.approx((34.3 - 2 * math.sin(math.radians(60)), 21.0 - 1.0))
