"""The forms made from the event schemas: model -> form (dashboard/forms.py); what was typed ->
the event's data, valid as the same model says, and a refusal's field -> the form's field
(dashboard/form_data.py)."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from dashboard.form_data import FormError, error_field, event_data, picked
from dashboard.forms import (
    CHOICE, GROUP, HEXES, INTEGER, KEY, NUMBER, NUMBERS, POINT, POINTS, ROWS, SIDE, TEXT, UNIT, UNITS, VALUES,
    Context, context_for, form_spec, location_fields,
)
from domain.events import CORE_EVENTS, first_error, schema_of, validate_data
from domain.locations import PLACE, ROUTE
from domain.rulesets import find, registered

IM, AVBCW, MOG = (find(r) for r in ("infernal-machines", "dux-bellorum-avbcw", "landships-of-mogdonazia"))


def spec(rules, event_type, sides=("british", "german")):
    return form_spec(event_type, schema_of(event_type, rules), context_for(rules, event_type, sides))


def names(fields):
    return [f.name for f in fields]


def valid(rules, event_type, data):
    """The data as the log's own validation takes it (no error)."""
    validate_data(event_type, data, rules)
    return data


# -- model -> form --------------------------------------------------------------------------------
def test_every_event_type_of_every_rule_system_has_a_form():
    for rules in registered().values():
        for event_type in [*CORE_EVENTS, *rules.events]:
            form = spec(rules, event_type)
            assert form.fields, event_type
            assert all(f.kind for f in form.fields)


def test_a_hex_move_names_its_unit_from_the_board_and_its_path_as_a_route_of_hexes():
    form = spec(IM, "UnitMoved")
    unit, path, mode = form.fields
    assert (unit.name, unit.kind, unit.required) == ("unit", UNIT, True)  # IM's unit_refs name it
    assert (path.kind, path.role, path.required) == (HEXES, ROUTE, True)
    # game-log.md: mode?: normal|run|trot|gallop|ski|crawl
    assert (mode.kind, mode.required) == (CHOICE, False)
    assert mode.choices == ("normal", "run", "trot", "gallop", "ski", "crawl")


def test_a_tabletop_deployment_asks_a_point_a_facing_and_a_footprint_of_two_lengths():
    form = spec(AVBCW, "UnitDeployed", ("royalist", "socialist"))
    position, facing, footprint = (form.field(n) for n in ("position", "facing", "footprint"))
    assert (position.kind, position.role, position.required) == (POINT, PLACE, True)
    # game-log-tabletop.md, Geometry: "Angles are whole degrees, 0 to 359"
    assert (facing.kind, facing.minimum, facing.maximum) == (INTEGER, 0, 359)
    assert footprint.kind == GROUP and names(footprint.items) == ["footprint.w", "footprint.d"]
    assert all(f.kind == NUMBER and f.minimum == 0 for f in footprint.items)
    assert form.field("footprint.w") is footprint.items[0]
    assert form.field("unit").kind == TEXT  # a new unit's id is typed: it is not on the board yet


def test_a_tabletop_path_is_points_that_may_carry_a_facing():
    path = spec(MOG, "UnitMoved").field("path")
    assert (path.kind, path.role, path.facing, path.pairs) == (POINTS, ROUTE, True, False)
    # TableDefined writes its outlines' points as [x, y]
    points = spec(MOG, "TableDefined").field("features").items
    assert [(f.kind, f.pairs) for f in points if f.name == "points"] == [(POINTS, True)]


def test_a_roll_asks_what_the_table_rolled_and_never_its_source():
    form = spec(IM, "DieRolled")
    assert "source" not in names(form.fields)  # `source: service` is the service's alone
    assert form.field("results").kind == NUMBERS and form.field("results").integer
    modifiers = form.field("modifiers")
    assert modifiers.kind == ROWS and names(modifiers.row(1)) == ["modifiers[1].value", "modifiers[1].why"]


def test_units_fields_and_sides_come_from_the_rule_system_and_the_game():
    assert spec(IM, "SmallArmsFired").field("firers").kind == UNITS
    assert spec(AVBCW, "ShotFired").field("target").kind == UNIT
    fought = spec(AVBCW, "CloseCombatFought").field("sides")
    assert [f.kind for f in fought.items if f.name == "units"] == [UNITS]  # "sides[].units"
    declared = spec(IM, "BarrageDeclared").field("side")
    assert (declared.kind, declared.choices) == (CHOICE, ("british", "german"))
    # a phase is one of the rule system's, never setup or start
    phase = spec(MOG, "PhaseStarted").field("phase")
    assert phase.choices == ("movement", "shooting", "close-combat", "end")
    assert context_for(None, "UnitMoved").units == frozenset()


def test_the_start_of_an_avbcw_game_asks_each_sides_role():
    form = form_spec("GameStarted", AVBCW.start_schema, Context(omit=frozenset({"ruleset"})))
    sides = form.field("sides")
    assert sides.kind == ROWS and sides.keyed and sides.required
    # game-log-tabletop.md: "GameStarted.sides.<side>.role (aggressor | repeller) is required"
    assert [(f.name, f.kind, f.choices) for f in sides.items if f.name == "role"] == \
        [("role", CHOICE, ("aggressor", "repeller"))]
    assert "ruleset" not in names(form.fields)
    assert form.field("options").kind == VALUES


# -- what was typed -> data -----------------------------------------------------------------------
def test_typed_values_become_the_data_the_log_validates():
    moved = event_data(spec(IM, "UnitMoved"), {"unit": "b-1", "path": "1:1203 1:1204, 1:1205", "mode": None})
    assert valid(IM, "UnitMoved", moved) == {"unit": "b-1", "path": ["1:1203", "1:1204", "1:1205"]}
    deployed = event_data(spec(AVBCW, "UnitDeployed"), {
        "unit": " r-inf ", "position": "24, 8.5", "facing": "90", "footprint.w": 5, "footprint.d": "2",
        "turret.x": "", "turret.y": None, "note": "  "})
    assert valid(AVBCW, "UnitDeployed", deployed) == {
        "unit": "r-inf", "position": {"x": 24, "y": 8.5}, "facing": 90, "footprint": {"w": 5, "d": 2}}
    path = event_data(spec(MOG, "UnitMoved"), {"unit": "l-1", "path": "10, 24\n24,24, 90"})
    assert valid(MOG, "UnitMoved", path)["path"] == [{"x": 10, "y": 24}, {"x": 24, "y": 24, "f": 90}]


def test_a_whole_number_stays_an_integer_and_a_fraction_is_refused_where_one_is_asked():
    rolled = event_data(spec(IM, "DieRolled"), {"purpose": "LS.SACRT", "die": "2d6", "result": 7.0, "results": "3 4"})
    assert valid(IM, "DieRolled", rolled) == {"purpose": "LS.SACRT", "die": "2d6", "result": 7, "results": [3, 4],
                                              "modifiers": []}
    assert type(rolled["result"]) is int  # the log is strict: 7.0 is not the integer 7
    with pytest.raises(FormError) as refused:
        event_data(spec(IM, "DieRolled"), {"purpose": "x", "die": "d6", "result": "4.5"})
    assert refused.value.name == "result" and "whole number" in refused.value.message


@pytest.mark.parametrize("name, text, says", [
    ("position", "twelve, 3", "is not a point"),
    ("position", "12, 3, 90", "carries no facing"),
    ("attrs", "{bad", "not JSON"),
])
def test_text_that_is_not_its_kind_names_the_field(name, text, says):
    values = {"unit": "u", "position": "1, 1", "facing": 0, "footprint.w": 1, "footprint.d": 1, name: text}
    with pytest.raises(FormError) as refused:
        event_data(spec(AVBCW, "UnitDeployed"), values)
    assert refused.value.name == name and says in refused.value.message


def test_rows_become_a_list_or_a_map_and_blank_rows_are_left_out():
    resolved = event_data(spec(IM, "SmallArmsResolved"), {
        "attack": "a-1", "results[0].unit": "g-1", "results[0].result": "pinned",
        "results[1].unit": None, "results[1].result": None})
    assert valid(IM, "SmallArmsResolved", resolved)["results"] == [{"unit": "g-1", "result": "pinned"}]
    form = form_spec("GameStarted", AVBCW.start_schema, Context(omit=frozenset({"ruleset"})))
    started = event_data(form, {
        "scenario": "s", "date": "1938-05",
        f"sides[0].{KEY}": "royalist", "sides[0].nation": "a", "sides[0].bloc": "other", "sides[0].role": "aggressor",
        f"sides[1].{KEY}": "socialist", "sides[1].nation": "b", "sides[1].bloc": "other", "sides[1].role": "repeller",
        "options": "avbcw-arc=quadrant\n\n5", "permissions": ""})
    assert started["sides"] == {"royalist": {"nation": "a", "bloc": "other", "role": "aggressor"},
                                "socialist": {"nation": "b", "bloc": "other", "role": "repeller"}}
    assert started["options"] == ["avbcw-arc=quadrant", "5"]  # a line of a list of anything stays text
    valid(AVBCW, "GameStarted", {"ruleset": "dux-bellorum-avbcw", **started})
    with pytest.raises(FormError) as refused:
        event_data(form, {"scenario": "s", "date": "1938-05", "sides[0].nation": "a"})
    assert refused.value.name == f"sides[0].{KEY}"


def test_blank_leaves_a_field_to_its_model_and_a_list_is_empty_where_the_model_lists_none():
    # game-log-tabletop.md, TableDefined: features "listed without `?`; an empty table has an empty list"
    table = event_data(spec(AVBCW, "TableDefined"), {"width": 48, "depth": "48", "wind": None})
    assert valid(AVBCW, "TableDefined", table) == {"width": 48, "depth": 48, "features": []}
    shot = event_data(spec(AVBCW, "ShotFired"), {"attack": "a-1", "shooter": "r", "target": "s", "dice": 6,
                                                 "range": 12, "rating": "soft", "modifiers": "", "indirect": ""})
    assert shot["modifiers"] == [] and "indirect" not in shot
    assert valid(AVBCW, "ShotFired", shot)
    spotted = event_data(spec(IM, "Spotted"), {"spotter": "b-1", "target": "1:1206", "spotted": "no"})
    assert spotted["spotted"] is False and valid(IM, "Spotted", spotted)
    with pytest.raises(ValidationError):  # a required field left blank: the model says so
        validate_data("Spotted", event_data(spec(IM, "Spotted"), {"spotter": "b-1", "target": "1:1206"}), IM)


# -- a click on the map ---------------------------------------------------------------------------
def test_a_pick_replaces_a_place_and_starts_a_route_where_its_unit_stands():
    form = spec(MOG, "UnitMoved")
    path = form.field("path")
    assert picked(path, "", {"x": 30.0, "y": 24.04}, start={"x": 10, "y": 24}) == "10, 24\n30, 24"
    assert picked(path, "10, 24", {"x": 31, "y": 2}) == "10, 24\n31, 2"
    hexes = spec(IM, "UnitMoved").field("path")
    assert picked(hexes, "", "1:1204", start="1:1203") == "1:1203 1:1204"
    target = spec(IM, "Spotted").field("target")
    assert picked(target, "1:1201", "1:1206") == "1:1206"
    assert [f.name for f in location_fields(spec(IM, "BarrageResolved"))] == ["results[0].location"]


# -- a refusal -> the field it names ----------------------------------------------------------------
FIELDS = ["@side", "unit", "path", "footprint", "footprint.w", "results", "results[1].unit", "sides",
          f"sides[0].{KEY}", "sides[0].role", f"sides[1].{KEY}", "sides[1].role"]


@pytest.mark.parametrize("where, field", [
    ("data.path[0]", "path"),
    ("data (UnitMoved).unit", "unit"),
    ("data.footprint.w", "footprint.w"),
    ("data.footprint", "footprint"),
    ("data.results[1].unit", "results[1].unit"),
    ("data.results[3].unit", "results"),
    ("data.sides.socialist.role", "sides[1].role"),
    ("side", SIDE),
    ("turn", None),
    ("data.elsewhere", None),
    (None, None),
])
def test_a_refusal_is_shown_beside_the_field_it_names(where, field):
    values = {f"sides[0].{KEY}": "royalist", f"sides[1].{KEY}": " socialist "}
    assert error_field(where, FIELDS, values) == field


def test_the_logs_own_refusal_names_a_field_of_the_form():
    form = spec(AVBCW, "UnitDeployed")
    data = event_data(form, {"unit": "u", "position": "1, 1", "facing": 400, "footprint.w": 1, "footprint.d": 1})
    with pytest.raises(ValidationError) as refused:
        validate_data("UnitDeployed", data, AVBCW)
    where, _ = first_error(refused.value, "data (UnitDeployed)")
    assert error_field(where, [f.name for f in form.fields]) == "facing"
