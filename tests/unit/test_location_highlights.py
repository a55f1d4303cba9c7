"""The replay's highlights read what an event touches from its schema's typed locations
(domain/locations.py): a new event type with a location field is highlighted without a list of
event types or field names being edited; a route is drawn as a line."""
from __future__ import annotations

from dashboard.data import GameView
from dashboard.figures import touches
from dashboard.pages.replay import figure_for
from dashboard.tabletop import event_highlight
from domain.board.state import fold
from domain.log import read_lines
from tests.location_helpers import flare_rules, hex_log, skirmish_rules, tabletop_log  # noqa: F401  (fixtures)


def points(trace) -> list[tuple[float, float]]:
    return [(x, y) for x, y in zip(trace.x, trace.y) if x is not None]


def test_a_new_hex_events_places_are_outlined_and_its_route_drawn(flare_rules):
    flare = {"unit": "b-1", "target": "5:6613", "drift": ["5:6613", "5:6614", "5:6615"]}
    lines = read_lines(hex_log(flare_rules, ("FlareFired", flare)))
    touch = touches(lines[-1], fold(lines), {})
    assert touch.hexes == ["5:6613", "5:6613", "5:6614", "5:6615"]
    assert touch.lines == [["5:6613", "5:6614", "5:6615"]]
    fig = figure_for(GameView("flares", lines), 5, False)
    outlined = next(t for t in fig.data if t.name == "touched")
    assert list(outlined.x).count(None) == 3  # three hexes, the target outlined once
    line = next(t for t in fig.data if t.name == "lines")
    assert len(points(line)) == 3


def test_a_new_hex_event_without_its_optional_route_has_no_line(flare_rules):
    lines = read_lines(hex_log(flare_rules, ("FlareFired", {"unit": "b-1", "target": "5:6613"})))
    touch = touches(lines[-1], fold(lines), {})
    assert (touch.hexes, touch.lines) == (["5:6613"], [])


def test_a_new_tabletop_events_route_is_its_highlighted_path(skirmish_rules):
    charge = {"unit": "r-1", "path": [{"x": 10.0, "y": 10.0}, {"x": 10.0, "y": 16.0, "f": 90}]}
    view = GameView("skirmish", read_lines(tabletop_log(skirmish_rules, ("Charged", charge))))
    highlight = event_highlight(view.line(5), view.tabletop_board(5), view.attacks)
    assert highlight == {"units": ["r-1"], "path": charge["path"]}
    fig = figure_for(view, 5, False)
    assert points(next(t for t in fig.data if t.name == "path")) == [(10.0, 10.0), (10.0, 16.0)]
    # game-log-tabletop.md, Measuring: the drawn length rounded to 0.1"
    assert list(next(t for t in fig.data if t.name == "lengths").text) == ['6.0"']


def test_a_tabletop_place_outlines_the_unit_it_names_and_draws_no_path(skirmish_rules):
    seized = {"unit": "r-1", "point": {"x": 12.0, "y": 30.0}}
    view = GameView("skirmish", read_lines(tabletop_log(skirmish_rules, ("ObjectiveSeized", seized))))
    assert event_highlight(view.line(5), view.tabletop_board(5), view.attacks) == {"units": ["r-1"]}
