"""The scribe's map (dashboard/record_map.py): room to click around what a game names, and a click
read back as a hex (game-log.md, Locations) or a point in inches to 0.1" (game-log-tabletop.md)."""
from __future__ import annotations

import math

from dashboard import record_map
from dashboard.data import GameView
from dashboard.geometry import HexLayout, cell_center
from domain.log import read_lines
from tests.builders import LogBuilder


def hex_game() -> GameView:
    log = LogBuilder("r-hex")
    log.add("MapDefined", {"maps": ["1"], "hexes": {}, "hexsides": []})
    log.unit("b-1", "british", "infantry-platoon", "1:1203")
    return GameView("r-hex", read_lines(log.texts()))


def table_game() -> GameView:
    log = LogBuilder("r-table")
    log.lines[0]["data"].update(ruleset="landships-of-mogdonazia", date="1890-06",
                                sides={"m": {"nation": "m", "bloc": "other"}, "r": {"nation": "r", "bloc": "other"}})
    log.add("TableDefined", {"width": 72.0, "depth": 48.0, "features": []})
    return GameView("r-table", read_lines(log.texts()))


def test_the_board_is_drawn_around_what_the_game_names_or_from_a_maps_first_hexes():
    around = record_map.room(["1"], ["1:1203"], around=1)
    assert around == {f"1:{c:02d}{r:02d}" for c in (11, 12, 13) for r in (2, 3, 4)}
    first = record_map.room(["5"], [])
    assert "5:0101" in first and "5:1210" in first and len(first) == 12 * 10
    # game-log.md: "The four digits are column (two digits) then row (two digits)"
    assert record_map.location("5", 66, 13) == "5:6613"


def test_a_click_is_read_as_the_hex_under_it():
    layout = HexLayout({"1": (0, 0)})
    drawn = ["1:1203", "1:1204", "1:1303"]
    x, y = cell_center(12, 3)
    assert record_map.hex_at(layout, drawn, x + 0.3, y - 0.2) == "1:1203"
    assert record_map.hex_at(layout, drawn, *cell_center(13, 3)) == "1:1303"  # odd columns sit half a hex lower
    assert record_map.hex_at(layout, drawn, x + 10, y) is None
    gv = hex_game()
    assert record_map.place_at(gv, *cell_center(12, 5)) == "1:1205"  # within the room around b-1
    assert record_map.place_at(gv, "12", 3) is None


def test_a_click_on_the_table_is_a_point_to_a_tenth_of_an_inch_and_off_it_nothing():
    gv = table_game()
    assert record_map.place_at(gv, 24.04, 7.96) == {"x": 24.0, "y": 8.0}
    assert record_map.place_at(gv, 72.0, 0.0) == {"x": 72.0, "y": 0.0}
    assert record_map.place_at(gv, 72.06, 10) is None and record_map.place_at(gv, 10, -0.2) is None
    assert not record_map.is_hex_board(gv) and record_map.is_hex_board(hex_game())


def test_the_figure_is_the_replays_board_with_no_drag_to_mistake_for_a_click():
    fig = record_map.figure(hex_game())
    assert fig.layout.dragmode is False
    units = next(t for t in fig.data if t.name == "units")
    assert list(units.text) == ["b-1"]
    assert math.isclose(units.x[0], cell_center(12, 3)[0])
