"""The dashboard's figures, built without a browser: geometry, the map layers, highlights, charts."""
from __future__ import annotations

import math

import pytest

from dashboard.figures import (
    STATIC_TRACES, MapData, Touch, board_traces, consumption_figure, fot_figure, hexside_shapes,
    map_figure, marker_trace, points_figure, resistance_figure, resistance_trace, terrain_shapes, touches, unit_trace,
)
from dashboard.hex_fire import FIRE_TRACES
from dashboard.hex_machines import MACHINE_TRACES
from dashboard.geometry import SIZE, SQRT3, HexLayout, grid_cells, hexside_segment, layout_maps
from dashboard.words import describe, headline
from domain.board.state import fold

SIDES = {"british": {"nation": "british", "bloc": "allied"}, "german": {"nation": "german", "bloc": "central"}}


def ev(seq, kind, data, turn=0, phase="setup", side=None):
    return {"v": 1, "game": "g", "seq": seq, "turn": turn, "phase": phase, "side": side, "type": kind, "data": data}


def game_lines(*extra):
    """A tiny game: a map with a wood and a town, a wall, two units, then `extra` events."""
    lines = [
        ev(1, "GameStarted", {"ruleset": "infernal-machines", "scenario": "test", "date": "1917-04", "sides": SIDES}),
        ev(2, "MapDefined", {"maps": ["5"], "hexes": {
            "5:6613": {"terrain": "wood"}, "5:6614": {"terrain": "wood"}, "5:6712": {"terrain": "town"}},
            "hexsides": [{"between": ["5:6613", "5:6612"], "feature": "stone-wall"}]}),
        ev(3, "UnitDeployed", {"unit": "b-1", "class": "infantry-platoon", "location": "5:6513"}, side="british"),
        ev(4, "UnitDeployed", {"unit": "g-1", "class": "infantry-platoon", "location": "5:6713"}, side="german"),
    ]
    return lines + [dict(line, seq=5 + i) for i, line in enumerate(extra)]


def subpaths(path: str) -> int:
    return path.count("M")


# -- geometry -------------------------------------------------------------------------------------
def test_odd_q_neighbours_sit_one_hex_apart():
    # game-log.md, Locations: 5:6613 touches 6612, 6614, 6512, 6513, 6712 and 6713 (odd columns lower)
    layout = HexLayout()
    x, y = layout.center("5:6613")
    for loc in ("5:6612", "5:6614", "5:6512", "5:6513", "5:6712", "5:6713"):
        nx, ny = layout.center(loc)
        assert math.hypot(nx - x, ny - y) == pytest.approx(SQRT3 * SIZE), loc
    for loc in ("5:6511", "5:6514", "5:6711", "5:6714"):
        nx, ny = layout.center(loc)
        assert math.hypot(nx - x, ny - y) > SQRT3 * SIZE + 0.1, loc


def test_plain_maps_share_a_grid_unless_their_hexes_collide():
    apart = layout_maps(["1", "2"], ["1:0101", "1:0303", "2:1010", "2:1212"])
    assert apart.offset("1") == apart.offset("2") == (0, 0)
    collide = layout_maps(["1", "2"], ["1:0101", "1:0505", "2:0202", "2:0404"])
    dc, dr = collide.offset("2")
    assert dc % 2 == 0 and dr == 0, "an even shift keeps odd columns odd"
    assert collide.cell("2:0202")[0] > collide.cell("1:0505")[0] + 1


def test_a_placed_map_keeps_its_origin():
    layout = layout_maps([{"id": "1"}, {"id": "2", "origin": [20, 4]}], ["1:0101", "2:0101"])
    assert layout.cell("2:0101") == (21, 5)


def test_grid_covers_every_location_with_a_margin():
    layout = HexLayout()
    cells = set(grid_cells(layout, ["5:1010", "5:1212"], margin=1))
    assert {(9, 9), (13, 13), (11, 11)} <= cells
    assert (14, 11) not in cells


def test_a_hexside_is_the_shared_edge():
    layout = HexLayout()
    (x1, y1), (x2, y2) = hexside_segment(layout, "5:6613", "5:6612")
    (ax, ay), (bx, by) = layout.center("5:6613"), layout.center("5:6612")
    assert math.hypot(x2 - x1, y2 - y1) == pytest.approx(SIZE)
    assert ((x1 + x2) / 2, (y1 + y2) / 2) == pytest.approx(((ax + bx) / 2, (ay + by) / 2))


# -- the static map ---------------------------------------------------------------------------------
def test_terrain_is_one_path_per_type_with_a_subpath_per_hex():
    lines = game_lines()
    board = fold(lines)
    layout = HexLayout()
    shapes = terrain_shapes(layout, grid_cells(layout, board.hexes), board.hexes)
    by_name = {s.get("name"): s for s in shapes}
    assert subpaths(by_name["wood"]["path"]) == 2
    assert subpaths(by_name["town"]["path"]) == 1
    assert len(shapes) == 3  # the grid, wood, town


def test_hexsides_are_grouped_by_feature():
    shapes = hexside_shapes(HexLayout(), [{"between": ["5:6613", "5:6612"], "feature": "stone-wall"},
                                          {"between": ["5:6613", "5:6614"], "feature": "stone-wall"},
                                          {"between": ["5:6513", "5:6613"], "feature": "ridgeline"}])
    assert sorted((s["name"], subpaths(s["path"])) for s in shapes) == [("ridgeline", 1), ("stone-wall", 2)]


def test_map_figure_keeps_terrain_in_shapes_and_the_moving_parts_after_the_static_traces():
    lines = game_lines()
    board = fold(lines)
    data = MapData(board.maps, board.hexes, board.hexsides, {"5:6513", "5:6713"})
    dynamic = board_traces(board, data.layout(), Touch(), {"british": "#b08d57", "german": "#5f6b73"})
    fig = map_figure(data, dynamic)
    assert len(fig.data) == STATIC_TRACES + len(dynamic) == STATIC_TRACES + 5
    assert [s.name for s in fig.layout.shapes] == [None, "town", "wood", "stone-wall"]
    assert fig.layout.yaxis.scaleanchor == "x"
    hover = fig.data[0].hovertext
    assert "5:6613 wood" in hover and "5:6513 clear" in hover


# -- what changes with the position -----------------------------------------------------------------
def test_units_are_counters_in_side_colours_with_status_tags_and_the_eliminated_are_gone():
    lines = game_lines(
        ev(0, "UnitStatusChanged", {"unit": "b-1", "status": "pinned", "turns": 2}, 1, "barrage", "british"),
        ev(0, "UnitStatusChanged", {"unit": "g-1", "status": "eliminated"}, 1, "barrage", "german"))
    trace = unit_trace(fold(lines), HexLayout(), {"british": "#aa0000", "german": "#0000aa"})
    assert trace["text"] == ["b-1<br>PIN"]
    assert trace["marker"]["color"] == ["#aa0000"]
    assert "pinned" in trace["hovertext"][0]


def test_units_sharing_a_hex_are_offset():
    lines = game_lines(ev(0, "UnitMoved", {"unit": "g-1", "path": ["5:6713", "5:6613", "5:6513"]}, 1, "x", "german"))
    trace = unit_trace(fold(lines), HexLayout(), {})
    assert len(set(zip(trace["x"], trace["y"]))) == 2


def test_markers_and_resistance_counts():
    lines = game_lines(ev(0, "MarkerPlaced", {"marker": "smoke", "location": "5:6613", "turns": 2}),
                       ev(0, "MarkerPlaced", {"marker": "wire", "location": "5:6613"}))
    markers = marker_trace(fold(lines), HexLayout())
    assert markers["marker"]["symbol"] == ["circle", "x-thin-open"]
    assert len(set(markers["x"])) == 2, "two markers on one hex sit side by side"
    resistance = resistance_trace({"5:6613": 2, "5:6614": 0}, HexLayout())
    assert resistance["text"] == ["R2"]


def test_no_resistance_counts_means_an_empty_layer():
    assert resistance_trace({}, HexLayout())["x"] == []


def test_a_move_touches_its_path():
    move = ev(5, "UnitMoved", {"unit": "b-1", "path": ["5:6513", "5:6613", "5:6612"]}, 1, "first-foot-movement")
    touch = touches(move, fold(game_lines(move)), {})
    assert touch.hexes == ["5:6513", "5:6613", "5:6612"]
    assert touch.lines == [["5:6513", "5:6613", "5:6612"]]


def test_a_scatter_touches_the_aimed_and_the_hit_hex():
    scatter = ev(5, "ScatterTested", {"barrage": "b-1", "scattered": True, "new_target": "5:6614"}, 1, "barrage")
    touch = touches(scatter, fold(game_lines()), {"b-1": "5:6613"})
    assert touch.hexes == ["5:6613", "5:6614"] and touch.lines == [["5:6613", "5:6614"]]


def test_spotting_draws_the_line_of_sight_from_the_spotter():
    spot = ev(5, "Spotted", {"spotter": "b-1", "target": "5:6713", "spotted": True}, 1, "x", "british")
    touch = touches(spot, fold(game_lines()), {})
    assert touch.lines == [["5:6513", "5:6713"]]


def test_a_roll_about_a_barrage_touches_its_target():
    roll = ev(5, "DieRolled", {"purpose": "IM.ART.BCRT.REVISED", "die": "d6", "result": 3, "subject": "b-1"})
    assert touches(roll, fold(game_lines()), {"b-1": "5:6613"}).hexes == ["5:6613"]


def test_the_highlight_is_one_outline_trace_and_one_line_trace():
    board_fig = board_traces(fold(game_lines()), HexLayout(), Touch(["5:6613", "5:6614"], [["5:6513", "5:6613"]]), {})
    outline, lines = board_fig[-2], board_fig[-1]
    assert outline["x"].count(None) == 2 and len(outline["x"]) == 2 * 8
    assert lines["x"].count(None) == 1


# -- analytics --------------------------------------------------------------------------------------
SPENDS = [{"game": "a", "element": "e1", "turn": 1, "points": 6},
          {"game": "a", "element": "e1", "turn": 2, "points": 4},
          {"game": "a", "element": "e2", "turn": 2, "points": 3},
          {"game": "b", "element": "e1", "turn": 1, "points": 5}]


def test_points_are_stacked_by_turn_under_the_cap():
    fig = points_figure(SPENDS, cap=25)
    assert fig.layout.barmode == "stack"
    totals = {}
    for bar in fig.data:
        for x, y in zip(bar.x, bar.y):
            totals[x] = totals.get(x, 0) + y
    assert totals == {"a<br>e1": 10, "a<br>e2": 3, "b<br>e1": 5}
    assert [s.y0 for s in fig.layout.shapes] == [25]


def test_consumption_is_cumulative_per_game():
    fig = consumption_figure(SPENDS)
    by_game = {t.name: (list(t.x), list(t.y)) for t in fig.data}
    assert by_game == {"a": ([1, 2], [6, 13]), "b": ([1], [5])}


def test_fire_orders_are_counted_by_column_and_outcome():
    requests = [{"game": "a", "barrage": "b1", "turn": 1, "column": 0, "granted": True},
                {"game": "a", "barrage": "b2", "turn": 2, "column": 1, "granted": False},
                {"game": "a", "barrage": "b3", "turn": 3, "column": 1, "granted": True, "computed": 2}]
    fot = {t.name: list(t.y) for t in fot_figure(requests).data}
    assert fot == {"granted": [1, 1], "refused": [0, 1]}
    resist = resistance_figure(requests)
    assert [list(t.y) for t in resist.data] == [[0, 1, 1], [2]]


def test_empty_charts_say_so():
    for fig in (points_figure([]), consumption_figure([]), resistance_figure([]), fot_figure([])):
        assert not fig.data and "no " in fig.layout.annotations[0].text


# -- events in words --------------------------------------------------------------------------------
def test_events_read_as_sentences():
    assert describe(ev(9, "UnitMoved", {"unit": "b-1", "path": ["5:6513", "5:6613"]})) == \
        "b-1 moved 5:6513 → 5:6613, 1 hexes"
    assert describe(ev(9, "FireOrderChecked", {"barrage": "b-1", "column": 2, "granted": False})) == \
        "Barrage b-1: fire order refused (column 2)"
    assert headline(ev(9, "TurnStarted", {"turn": 2}, 2, "start")) == "9 · T2 start: Turn 2 begins"
    assert describe(ev(9, "SomethingNew", {"a": 1})) == "Something new: a 1"


# -- stepping ---------------------------------------------------------------------------------------
def test_a_step_patches_only_the_moving_traces():
    from dashboard.data import GameView
    from dashboard.pages.replay import step_patch

    move = ev(5, "UnitMoved", {"unit": "b-1", "path": ["5:6513", "5:6613"]}, 1, "first-foot-movement", "british")
    operations = step_patch(GameView("g", game_lines(move)), 5, False).to_plotly_json()["operations"]
    assert {op["operation"] for op in operations} == {"Assign"}
    # the board's five, then the chosen shot's and the machines' (always there, empty or not)
    moving = 5 + len(FIRE_TRACES) + len(MACHINE_TRACES)
    assert sorted(op["location"][1] for op in operations) == list(range(STATIC_TRACES, STATIC_TRACES + moving))
    assert all(op["location"][0] == "data" for op in operations), "the terrain (layout.shapes) is not resent"
    units = next(op["params"]["value"] for op in operations if op["params"]["value"]["name"] == "units")
    assert units["x"][0] == pytest.approx(HexLayout().center("5:6613")[0])


def test_the_board_from_snapshots_is_the_fold_as_played_and_as_ruled():
    from dashboard.data import SNAPSHOT_EVERY, GameView

    steps = [ev(0, "UnitMoved", {"unit": "b-1", "path": ["5:6513", "5:6613"] if i % 2 == 0 else ["5:6613", "5:6513"]},
                1, "first-foot-movement", "british") for i in range(SNAPSHOT_EVERY + 7)]
    pin = ev(0, "UnitStatusChanged", {"unit": "g-1", "status": "pinned", "turns": 1}, 1, "x", "german")
    dispute = ev(0, "DisputeRaised", {"dispute": "d-1", "about": 5, "claim": "no"}, 1, "x")
    ruling = ev(0, "RulingIssued", {"dispute": "d-1", "decision": "overturned", "corrections": [
        {"type": "UnitStatusChanged", "data": {"unit": "g-1", "status": "unpinned"}}]}, 1, "x")
    lines = game_lines(pin, dispute, ruling, *steps)
    view = GameView("g", lines)
    for seq in (3, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 3, len(lines)):
        expected = fold(lines, upto=seq).public()
        assert view.board(seq).public() == expected
    assert "pinned" in view.board(len(lines)).units["g-1"].status
    assert "pinned" not in view.board(len(lines), ruled=True).units["g-1"].status


def test_the_jump_list_has_each_turn_and_each_phase_with_its_active_side():
    from dashboard.data import GameView

    lines = game_lines(ev(0, "TurnStarted", {"turn": 1}, 1, "start"),
                       ev(0, "PhaseStarted", {"phase": "barrage", "active": "british"}, 1, "barrage"),
                       ev(0, "TurnStarted", {"turn": 2}, 2, "start"))
    segments = [(s["turn"], s["phase"], s["active"], s["seq"]) for s in GameView("g", lines).segments]
    assert segments == [(0, None, None, 1), (0, "setup", None, 1), (1, None, None, 5),
                        (1, "barrage", "british", 6), (2, None, None, 7)]


def test_the_dice_of_an_outcome_are_the_rolls_about_its_subject_just_before_it():
    from dashboard.data import GameView

    lines = game_lines(
        ev(0, "DieRolled", {"purpose": "IM.SPOT.ROLL", "die": "d10", "result": 4, "subject": "b-1"}, 1, "x"),
        ev(0, "DieRolled", {"purpose": "IM.ART.FOT.ROLL", "die": "d6", "result": 2, "subject": "bb-1"}, 1, "x"),
        ev(0, "FireOrderChecked", {"barrage": "bb-1", "column": 1, "granted": True}, 1, "x"))
    assert [d["seq"] for d in GameView("g", lines).dice_for(7, [])] == [6]
    assert [d["seq"] for d in GameView("g", lines).dice_for(7, [5])] == [5, 6]


# -- serving a dispute: the findings in turn, and the checks that read a roll --------------------------
def app(seq, verdict, rule="IM.X", related=(), inputs=None):
    from domain.rules.engine import RuleApplication, Verdict
    return RuleApplication(seq, rule, Verdict(verdict), "m", "c", related=list(related), inputs=inputs or {})


def test_the_findings_are_the_events_with_an_application_that_is_not_ok():
    from dashboard.data import finding_seqs

    by_seq = {3: [app(3, "ok")], 9: [app(9, "ok"), app(9, "mismatch")], 5: [app(5, "violation")],
              12: [app(12, "ambiguous")], 20: [app(20, "unverifiable")]}
    assert finding_seqs(by_seq) == [5, 9, 12, 20]


@pytest.mark.parametrize("seq, step, expected", [
    (1, 1, 5), (5, 1, 9), (7, 1, 9), (9, -1, 5), (12, 1, None), (5, -1, None), (1, -1, None), (13, -1, 12)])
def test_the_next_and_previous_finding_from_a_position(seq, step, expected):
    from dashboard.data import adjacent_finding

    assert adjacent_finding([5, 9, 12], seq, step) == expected


def test_the_first_finding_of_a_fixture_game_is_its_first_non_ok_application():
    from dashboard.data import adjacent_finding, finding_seqs
    from domain.log import read_lines
    from projections.audit_trail import audit_lines
    from tests.conftest import FIXTURE_GAMES

    with open(FIXTURE_GAMES / "cambrai-1917-flesquieres.jsonl", encoding="utf-8") as fh:
        lines = read_lines(fh)
    report = audit_lines(lines)
    by_seq: dict = {}
    for a in report.applications:
        by_seq.setdefault(a.seq, []).append(a)
    first = min(a.seq for a in report.applications if a.verdict.value != "ok")
    assert adjacent_finding(finding_seqs(by_seq), 1, 1) == first


def roll_game():
    return game_lines(
        ev(0, "DieRolled", {"purpose": "IM.SPOT.ROLL", "die": "d10", "result": 4, "subject": "b-1"}, 1, "x"),
        ev(0, "DieRolled", {"purpose": "IM.ART.FOT.ROLL", "die": "d6", "result": 2, "subject": "bb-1"}, 1, "x"),
        ev(0, "FireOrderChecked", {"barrage": "bb-1", "column": 1, "granted": True}, 1, "x"),
        ev(0, "Spotted", {"spotter": "b-1", "target": "5:6713", "spotted": True}, 1, "x"))


def test_a_roll_is_read_by_the_checks_whose_dice_show_it():
    from dashboard.data import GameView

    view = GameView("g", roll_game())  # 5: roll about b-1, 6: roll about bb-1, 7: bb-1's outcome, 8: a spotting
    fot, spot = app(7, "ok", "IM.ART.FOT"), app(8, "mismatch", "IM.SPOT.ROLL", related=[5])
    readers = view.read_by({7: [fot], 8: [spot]})
    # 6 comes right before 7 about the same barrage (dice_for); 5 is named in 8's related seqs
    assert readers == {6: [fot], 5: [spot]}


def test_a_roll_named_by_an_applications_inputs_is_read_but_a_face_value_is_not():
    from dashboard.data import GameView, input_seqs

    view = GameView("g", roll_game())
    assert input_seqs({"roll_seq": 5, "seqs": [6, True], "roll": 6, "die_seq": "5"}) == [5, 6]
    named = app(8, "ok", "IM.SPOT.ROLL", inputs={"roll_seq": 5})
    face = app(8, "ok", "IM.SPOT.LOS", inputs={"roll": 6})
    assert view.read_by({8: [named, face]}) == {5: [named]}


def test_the_rules_panel_of_a_roll_shows_the_checks_that_read_it():
    from dashboard.data import GameView
    from dashboard.pages.replay import rules_panel

    view = GameView("g", roll_game())
    fot = app(7, "violation", "IM.ART.FOT")

    class Data:  # the two reads the panel makes of the store
        def applications(self, _):
            return {7: [fot]}

        def readers(self, gv):
            return gv.read_by(self.applications(gv))

    roll = repr(rules_panel(Data(), view, 6, False))  # the components with their texts
    assert "Checks that read this roll" in roll and "IM.ART.FOT" in roll and "No rule judges this event." not in roll
    assert "No rule judges this event." in repr(rules_panel(Data(), view, 5, False))  # nothing read roll 5
