"""Locations as a typed value (domain/locations.py): the schemas say which fields of an event are
locations, and what they are to it; `locations` reads them out of an event's data with their
field paths, nested lists and maps too. The format checks read them from the types: a new event
type with a location field is checked without a list of field names being edited."""
from __future__ import annotations

import pytest

from domain.locations import ROUTE, TERRAIN, Location, located_fields, locations
from domain.log import LogError, read_lines
from domain.rules.dux_bellorum_avbcw import events as avbcw
from domain.rules.infernal_machines import events as im
from domain.rules.landships_of_mogdonazia import events as mog
from domain.tabletop import events as tabletop
from tests.location_helpers import (  # noqa: F401  (flare_rules, skirmish_rules: fixtures)
    Charged, FlareFired, ObjectiveSeized, flare_rules, hex_log, skirmish_rules, tabletop_log,
)

HEX, HEX_ROUTE, HEX_TERRAIN = Location("hex"), Location("hex", ROUTE), Location("hex", TERRAIN)
POINT, POINT_ROUTE, POINT_TERRAIN = Location("point"), Location("point", ROUTE), Location("point", TERRAIN)


def found(schema, data) -> list[tuple[str, str, Location, object]]:
    return [tuple(f) for f in locations(schema, data)]


# -- what the schemas type as locations -------------------------------------------------------------
def test_the_hex_events_type_their_locations():
    # game-log.md, Core event types: `location`, `target`: loc, `path`: [loc, ...] (first = start),
    # `new_target`?: loc, `results`: [{`location`, ...}], `hexes`: {loc: ...}, `between`: [loc, loc].
    assert located_fields(im.UnitDeployed) == {"location": HEX}
    assert located_fields(im.UnitMoved) == {"path[]": HEX_ROUTE}
    assert located_fields(im.Spotted) == located_fields(im.SmallArmsFired) == {"target": HEX}
    assert located_fields(im.ScatterTested) == {"new_target": HEX}
    assert located_fields(im.BarrageResolved) == {"results[].location": HEX}
    assert located_fields(im.MapDefined) == {"hexes{}": HEX_TERRAIN, "hexsides[].between[]": HEX_TERRAIN}
    assert located_fields(im.MoraleChecked) == {}


def test_the_tabletop_events_type_their_points():
    # game-log-tabletop.md, Geometry: "A point is {"x": 12.3, "y": 40.0} in inches ([x, y] inside
    # TableDefined)"; `turret` {x, y} is an "offset in the hull's frame", not a point of the table.
    assert located_fields(avbcw.EVENTS["UnitDeployed"]) == {"position": POINT, "figures[]": POINT}
    assert located_fields(avbcw.EVENTS["UnitMoved"]) == {"path[]": POINT_ROUTE, "figures[]": POINT}
    assert located_fields(avbcw.MarkerMoved) == {"from": POINT_ROUTE, "to": POINT_ROUTE}
    assert located_fields(mog.BombDropped) == {"point": POINT}
    assert located_fields(tabletop.TableDefined) == {"features[].points[]": POINT_TERRAIN}
    assert located_fields(avbcw.ArmyListed) == {}  # a weapon's `at` is in the hull's frame


def test_locations_are_read_with_their_paths_in_the_schemas_order():
    resolved = {"barrage": "b-1", "firepower": 8, "column": "2", "results": [
        {"location": "5:6613", "zone": "primary", "result": "H"},
        {"location": "5:6614", "zone": "secondary", "result": "miss"}]}
    assert found(im.BarrageResolved, resolved) == [
        ("results[].location", "results[0].location", HEX, "5:6613"),
        ("results[].location", "results[1].location", HEX, "5:6614")]
    mapped = {"maps": ["5"], "hexes": {"5:6613": {"terrain": "wood"}},
              "hexsides": [{"between": ["5:6613", "5:6612"], "feature": "stone-wall"}]}
    assert [(f, w) for f, w, _, _ in found(im.MapDefined, mapped)] == [
        ("hexes{}", "hexes.5:6613"), ("hexsides[].between[]", "hexsides[0].between[0]"),
        ("hexsides[].between[]", "hexsides[0].between[1]")]


def test_a_union_is_read_by_the_shape_of_its_value():
    # Mogdonazia's UnitDeployed: `figures` is a count ("figures": 20) or the figures' points.
    deployed = {"unit": "r-1", "class": "figures", "type": "rifles", "position": {"x": 1.0, "y": 2.0},
                "facing": 0, "footprint": {"w": 4.0, "d": 2.0}}
    schema = mog.EVENTS["UnitDeployed"]
    assert [w for _, w, _, _ in found(schema, {**deployed, "figures": 20})] == ["position"]
    points = [{"x": 1.0, "y": 2.0}, {"x": 2.0, "y": 2.0}]
    placed = found(schema, {**deployed, "figures": points})
    assert [w for _, w, _, _ in placed] == ["position", "figures[0]", "figures[1]"]


def test_a_value_of_another_shape_is_passed_over_and_an_unknown_type_has_none():
    assert found(im.UnitDeployed, {"unit": "u", "class": "tank", "location": None}) == []
    assert found(im.UnitMoved, {"unit": "u", "path": "5:6613"}) == []
    assert found(None, {"location": "5:6613"}) == []


def test_a_location_is_a_hex_or_a_point_and_a_place_a_route_or_terrain():
    with pytest.raises(ValueError, match="hex or a point"):
        Location("square")
    with pytest.raises(ValueError, match="place, route or terrain"):
        Location("hex", "target")


# -- a new event type: its locations are checked by their types ----------------------------------------
def test_a_new_event_types_locations_are_found_by_their_types():
    assert located_fields(FlareFired) == {"target": HEX, "drift[]": HEX_ROUTE}
    assert located_fields(ObjectiveSeized) == {"point": POINT, "signals[].at": POINT}
    assert located_fields(Charged) == {"path[]": POINT_ROUTE}


def refusal(texts: list[str]) -> LogError:
    with pytest.raises(LogError) as caught:
        read_lines(texts)
    return caught.value


def test_a_new_hex_event_with_a_bad_hex_is_refused_naming_its_field(flare_rules):
    # game-log.md, Locations: a hex is "<map>:<hex>" with four digits, "column (two digits) then row".
    good = {"unit": "b-1", "target": "5:6613", "drift": ["5:6613", "5:6614"]}
    assert read_lines(hex_log(flare_rules, ("FlareFired", good)))[-1]["data"] == good
    err = refusal(hex_log(flare_rules, ("FlareFired", {**good, "target": "5:66"})))
    assert (err.line, err.field) == (5, "data (FlareFired).target") and "not a hex location" in err.message
    err = refusal(hex_log(flare_rules, ("FlareFired", {**good, "drift": ["5:6613", "6614"]})))
    assert err.field == "data (FlareFired).drift" and "'6614' is not a hex location" in err.message
    err = refusal(hex_log(flare_rules, ("FlareFired", {**good, "target": {"x": 1.0, "y": 2.0}})))
    assert err.field == "data (FlareFired).target"  # "a point in a hex game ... is a format error"


def test_a_new_tabletop_events_point_off_the_table_is_refused_naming_it(skirmish_rules):
    # game-log-tabletop.md, Geometry: "a point off the table is a format error" (the table is 48" x 48").
    seized = {"unit": "r-1", "point": {"x": 12.0, "y": 30.0}, "signals": [{"at": {"x": 1.0, "y": 1.0}}]}
    assert read_lines(tabletop_log(skirmish_rules, ("ObjectiveSeized", seized)))[-1]["data"] == seized
    off = {**seized, "signals": [{"at": {"x": 1.0, "y": 1.0}}, {"at": {"x": 50.0, "y": 1.0}}]}
    err = refusal(tabletop_log(skirmish_rules, ("ObjectiveSeized", off)))
    assert (err.line, err.field) == (5, "data.signals[1].at") and "off the table" in err.message
    err = refusal(tabletop_log(skirmish_rules, ("Charged", {"unit": "r-1", "path": [
        {"x": 10.0, "y": 10.0}, {"x": 10.0, "y": 48.5}]})))
    assert err.field == "data.path[1]" and "off the table" in err.message


def test_a_hex_in_a_new_tabletop_events_point_is_refused_naming_it(skirmish_rules):
    # game-log-tabletop.md: "a hex in a tabletop game, or a point in a hex game, is a format error".
    err = refusal(tabletop_log(skirmish_rules, ("ObjectiveSeized", {"unit": "r-1", "point": "5:6613"})))
    assert (err.line, err.field) == (5, "data (ObjectiveSeized).point") and "hex location" in err.message
