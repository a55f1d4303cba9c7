"""The tabletop event schemas (game-log-tabletop.md): the two example logs validate line by line,
and what the page calls a format error is refused, naming the field."""
from __future__ import annotations

import copy
import json
import re

import pytest
from pydantic import ValidationError

from domain import events as core
from domain.rules.dux_bellorum_avbcw import events as avbcw
from domain.rules.landships_of_mogdonazia import events as mog
from domain.tabletop import events as tabletop
from tests.conftest import SPEC  # the shared spec, else fixtures/spec's copy

PAGE = (SPEC / "game-log-tabletop.md").read_text(encoding="utf-8")
RULESETS = {"dux-bellorum-avbcw": avbcw, "landships-of-mogdonazia": mog}
EXAMPLES = {"avbcw-example.jsonl": avbcw, "mog-example.jsonl": mog}


def example_lines(name: str) -> list[dict]:
    text = (SPEC / "examples-tabletop" / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def line_of(name: str, event_type: str) -> dict:
    """The data of the first line of that type in an example log (a copy to change)."""
    return copy.deepcopy(next(line["data"] for line in example_lines(name) if line["type"] == event_type))


AVBCW_TABLE = line_of("avbcw-example.jsonl", "TableDefined")  # 48" x 48" (the page's example)


def refusal(module, event_type: str, data: dict) -> tuple[str, str]:
    """(field, message) of the schema's refusal of a line; fails when it is accepted."""
    with pytest.raises(ValidationError) as caught:
        module.EVENTS[event_type].model_validate(data)
    return core.first_error(caught.value)


@pytest.fixture
def tabletop_rulesets_known(monkeypatch):
    """GameStarted names an installed rule system; these two are registered by their entry points,
    and until then the core schema is asked to know them."""
    known = core.known
    monkeypatch.setattr(core, "known", lambda ruleset: ruleset in RULESETS or known(ruleset))


# --- The examples -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_line_of_an_example_log_validates_against_its_ruleset(name, tabletop_rulesets_known):
    module = EXAMPLES[name]
    state: dict = {}
    lines = example_lines(name)
    assert RULESETS[lines[0]["data"]["ruleset"]] is module
    for line in lines:
        event_type, data = line["type"], line["data"]
        if event_type in core.CORE_EVENTS:
            typed = core.validate_data(event_type, data)
        else:
            typed = module.EVENTS[event_type].model_validate(data)
        assert typed is not None, line["seq"]
        assert module.check_line(event_type, data, state) is None, line["seq"]
        module.advance_line(event_type, data, state)


def test_the_core_types_are_not_a_rulesets_own():
    for module in RULESETS.values():
        assert not set(module.EVENTS) & set(core.CORE_EVENTS)


def page_section(title: str) -> str:
    start = PAGE.index(f"## {title}")
    return PAGE[start:PAGE.index("\n## ", start + 1)]


def table_events(section: str) -> set[str]:
    """The event types of a section's table: its rows' first column, "`A` / `B`" naming two."""
    names = set()
    for row in re.findall(r"^\| (`[A-Z][^|]*?) \|", section, flags=re.M):
        names.update(re.findall(r"`([A-Z][A-Za-z]+)`", row))
    return names


@pytest.mark.parametrize("title,module", [("Dux Bellorum: A Very British Civil War", avbcw),
                                          ("Landships of Mogdonazia", mog)])
def test_every_event_type_of_the_rulesets_table_has_a_schema(title, module):
    named = table_events(page_section(title))
    assert len(named) > 10
    assert named <= set(module.EVENTS)


def test_the_shared_tabletop_events_are_in_both_rulesets():
    for name in ("TableDefined", "UnitDeployed", "UnitMoved", "UnitEmbarked", "UnitDisembarked",
                 "DeckDefined", "DeckShuffled", "CardDrawn"):
        assert name in avbcw.EVENTS and name in mog.EVENTS


def test_phases_are_the_pages_in_order_with_setup_first_and_start():
    # AVBCW.TURN: leadership, missile fire, move, close combat, morale and victory.
    assert avbcw.PHASES == ("setup", "start", "leadership", "missile-fire", "move", "close-combat",
                            "morale-and-victory")
    # "Phases: setup, movement, shooting, close-combat, end"
    assert mog.PHASES == ("setup", "start", "movement", "shooting", "close-combat", "end")


# --- Geometry: points, angles, footprints -------------------------------------------------------

def test_a_hex_location_in_a_tabletop_unit_deployed_is_refused():
    # "a hex in a tabletop game, or a point in a hex game, is a format error"
    data = line_of("avbcw-example.jsonl", "UnitDeployed")
    data["position"] = "5:6613"
    field, message = refusal(avbcw, "UnitDeployed", data)
    assert field == "position" and "hex location" in message


def test_a_hex_location_field_in_a_tabletop_game_is_refused():
    data = line_of("mog-example.jsonl", "UnitDeployed")
    data["location"] = "5:6613"  # an extra field is kept: the format check names it
    field, message = mog.geometry_problem("UnitDeployed", data, AVBCW_TABLE)
    assert field == "data.location" and "hex" in message


def test_a_hex_map_in_a_tabletop_game_is_refused():
    problem = avbcw.geometry_problem("MapDefined", {"maps": [], "hexes": {"5:6613": {}}}, None)
    assert problem is not None and problem[0] == "type"


def test_a_hex_in_a_table_feature_is_refused():
    table = copy.deepcopy(AVBCW_TABLE)
    table["features"][1]["points"][0] = "5:6613"
    field, message = refusal(avbcw, "TableDefined", table)
    assert field.startswith("features.1.points") and "hex location" in message


@pytest.mark.parametrize("x,y", [(48.1, 8.0), (-0.1, 8.0), (24.0, 48.5), (24.0, -3.0)])
def test_a_point_off_the_table_is_refused(x, y):
    # "x runs along it (0 to width), y away from it (0 to depth) ... a point off the table is a
    # format error"; the example's table is 48" x 48".
    data = line_of("avbcw-example.jsonl", "UnitDeployed")
    data["position"] = {"x": x, "y": y}
    field, message = avbcw.geometry_problem("UnitDeployed", data, AVBCW_TABLE)
    assert field == "data.position" and "off the table" in message


@pytest.mark.parametrize("x,y", [(0, 0), (48.0, 48.0), (0.0, 48)])
def test_a_point_on_the_tables_edge_is_on_the_table(x, y):
    data = line_of("avbcw-example.jsonl", "UnitDeployed")
    data["position"] = {"x": x, "y": y}
    assert avbcw.geometry_problem("UnitDeployed", data, AVBCW_TABLE) is None


def test_a_path_point_off_the_table_is_named_by_its_index():
    data = line_of("avbcw-example.jsonl", "UnitMoved")
    data["path"].append({"x": 36.0, "y": 49.0})
    field, _ = avbcw.geometry_problem("UnitMoved", data, AVBCW_TABLE)
    assert field == "data.path[3]"


def test_a_rulesets_own_points_are_checked_against_the_table():
    bomb = {"plane": "p-1", "results": [2, 3], "direction": 90, "point": {"x": 50.0, "y": 10.0}, "hit": False}
    assert mog.geometry_problem("BombDropped", bomb, {"width": 72.0, "depth": 48.0}) is None
    assert mog.geometry_problem("BombDropped", bomb, AVBCW_TABLE)[0] == "data.point"  # 48" wide
    drift = {"id": "smoke-1", "from": {"x": 10.0, "y": 10.0}, "to": {"x": 10.0, "y": 48.5}}
    assert avbcw.geometry_problem("MarkerMoved", drift, AVBCW_TABLE)[0] == "data.to"


def test_before_the_table_is_defined_no_point_is_off_it():
    data = line_of("avbcw-example.jsonl", "UnitDeployed")
    data["position"] = {"x": 100.0, "y": 8.0}
    assert avbcw.geometry_problem("UnitDeployed", data, None) is None


def test_a_features_point_off_its_own_table_is_refused():
    table = copy.deepcopy(AVBCW_TABLE)
    table["features"][0]["points"][2] = [12.0, 48.2]
    field, message = avbcw.geometry_problem("TableDefined", table, None)
    assert field == "data.features[0].points[2]" and "off the table" in message


def test_a_turret_offset_is_not_a_table_point():
    # "turret {x, y} (offset in the hull's frame)": negative in the hull's frame, not off the table.
    data = line_of("mog-example.jsonl", "UnitDeployed")
    data["turret"] = {"x": -0.5, "y": -1.0}
    assert mog.geometry_problem("UnitDeployed", data, AVBCW_TABLE) is None


@pytest.mark.parametrize("facing", [360, 12.5, -1, True, "90"])
def test_a_facing_is_whole_degrees_0_to_359(facing):
    # "Angles are whole degrees, 0 to 359."
    data = line_of("avbcw-example.jsonl", "UnitDeployed")
    data["facing"] = facing
    field, _ = refusal(avbcw, "UnitDeployed", data)
    assert field == "facing"


def test_a_facing_on_arrival_is_an_angle_too():
    data = line_of("avbcw-example.jsonl", "UnitMoved")
    data["path"][2]["f"] = 360
    field, _ = refusal(avbcw, "UnitMoved", data)
    assert field == "path.2.f"


def test_a_footprint_without_d_is_refused():
    # "footprint {w, d} is a rectangle centred there"
    data = line_of("mog-example.jsonl", "UnitDeployed")
    del data["footprint"]["d"]
    field, _ = refusal(mog, "UnitDeployed", data)
    assert field == "footprint.d"


def test_the_infernal_machines_unit_fields_are_not_required():
    # "The Infernal Machines fields location, morale, firepower, range, movement are absent."
    data = line_of("avbcw-example.jsonl", "UnitDeployed")
    assert not {"location", "morale", "firepower", "range", "movement"} & set(data)
    assert avbcw.EVENTS["UnitDeployed"].model_validate(data).unit == "r-inf"


def test_a_path_that_does_not_start_at_the_units_position_is_refused():
    # UnitMoved: "path: [points] (the first is the present position, else format error)"
    data = line_of("avbcw-example.jsonl", "UnitMoved")  # s-car deployed at (36.0, 30.0)
    assert avbcw.geometry_problem("UnitMoved", data, AVBCW_TABLE, position={"x": 36.0, "y": 30.0}) is None
    field, _ = avbcw.geometry_problem("UnitMoved", data, AVBCW_TABLE, position={"x": 36.0, "y": 29.0})
    assert field == "data.path[0]"


def test_the_line_checks_follow_a_unit_to_where_it_moved():
    state: dict = {}
    lines = example_lines("avbcw-example.jsonl")
    for line in lines:
        avbcw.advance_line(line["type"], line["data"], state)
    again = line_of("avbcw-example.jsonl", "UnitMoved")  # starts at (36.0, 30.0), now left behind
    field, _ = avbcw.check_line("UnitMoved", again, state)
    assert field == "data.path[0]"
    again["path"][0] = {"x": 34.3, "y": 21.0}  # where line 20 ended
    assert avbcw.check_line("UnitMoved", again, state) is None


# --- TableDefined ----------------------------------------------------------------------------

def test_a_self_crossing_woodland_polygon_is_refused():
    # "A polygon is closed implicitly and does not cross itself": a bow tie crosses itself.
    table = copy.deepcopy(AVBCW_TABLE)
    table["features"][0]["points"] = [[2.0, 30.0], [12.0, 40.0], [12.0, 30.0], [2.0, 40.0]]
    field, message = avbcw.geometry_problem("TableDefined", table, None)
    assert field == "data.features[0].points" and "crosses itself" in message


def test_a_polyline_of_one_point_is_refused():
    # "a polyline has two or more points"
    table = copy.deepcopy(AVBCW_TABLE)
    table["features"][1]["points"] = [[44.0, 30.0]]
    field, message = avbcw.geometry_problem("TableDefined", table, None)
    assert field == "data.features[1].points" and "two or more" in message


def test_a_feature_kind_not_in_the_pages_table_is_refused():
    table = copy.deepcopy(AVBCW_TABLE)
    table["features"][0]["kind"] = "marsh"
    field, _ = refusal(avbcw, "TableDefined", table)
    assert field == "features.0.kind"


# --- Statuses, why, dice ----------------------------------------------------------------------

def test_an_unknown_status_is_refused_in_each_ruleset():
    data = {"unit": "s-mil", "status": "sulking"}
    assert refusal(avbcw, "UnitStatusChanged", data)[0] == "status"
    assert refusal(mog, "UnitStatusChanged", data)[0] == "status"


def test_each_ruleset_has_its_own_statuses():
    # AVBCW "here also suppressed ..." beside game-log.md's; Mogdonazia "statuses here: ...".
    assert avbcw.EVENTS["UnitStatusChanged"].model_validate({"unit": "u", "status": "suppressed"})
    assert avbcw.EVENTS["UnitStatusChanged"].model_validate({"unit": "u", "status": "prone"})
    assert mog.EVENTS["UnitStatusChanged"].model_validate({"unit": "u", "status": "bomb-in-cockpit"})
    assert refusal(mog, "UnitStatusChanged", {"unit": "u", "status": "suppressed"})[0] == "status"


def test_an_unknown_why_is_refused():
    # BraveryTested: "why: move|run-over|bog|break|other"
    data = line_of("avbcw-example.jsonl", "BraveryTested")
    data["why"] = "fear"
    assert refusal(avbcw, "BraveryTested", data)[0] == "why"


@pytest.mark.parametrize("name,module", [("avbcw-example.jsonl", avbcw), ("mog-example.jsonl", mog)])
def test_a_string_for_dice_is_refused(name, module):
    # "ShotFired.dice is the number of dice rolled": a number, never the string "6".
    data = line_of(name, "ShotFired")
    data["dice"] = "6"
    assert refusal(module, "ShotFired", data)[0] == "dice"


def test_an_unknown_rating_cause_or_state_is_refused():
    assert refusal(avbcw, "ShotFired", {**line_of("avbcw-example.jsonl", "ShotFired"), "rating": "medium"})[0] == "rating"
    assert refusal(avbcw, "CohesionLost", {**line_of("avbcw-example.jsonl", "CohesionLost"), "cause": "rain"})[0] == "cause"
    assert refusal(avbcw, "AmmoStateChanged", {**line_of("avbcw-example.jsonl", "AmmoStateChanged"),
                                                "state": "plenty"})[0] == "state"


def test_a_unit_move_mode_not_in_the_pages_list_is_refused():
    data = {**line_of("mog-example.jsonl", "UnitMoved"), "mode": "gallop"}  # an IM mode
    assert refusal(mog, "UnitMoved", data)[0] == "mode"


# --- Cards ----------------------------------------------------------------------------------

def test_the_standard_decks_are_thirteen_ranks_of_four_suits_and_two_jokers():
    # "rank A, 2..10, J, Q, K then suit C, D, H, S"; standard-54 adds "jokers JK1, JK2".
    fifty_two = tabletop.deck_cards({"deck": "main", "cards": "standard-52"})
    assert len(set(fifty_two)) == 13 * 4
    assert {"AH", "10S", "QH", "2C", "KD"} <= set(fifty_two)
    fifty_four = tabletop.deck_cards({"deck": "main", "cards": "standard-54"})
    assert set(fifty_four) - set(fifty_two) == {"JK1", "JK2"}
    assert tabletop.deck_cards({"deck": "d", "cards": ["rebels", "loyalists"]}) == ["rebels", "loyalists"]


@pytest.mark.parametrize("card", ["1H", "11S", "JK1", "ah", "AX"])
def test_a_card_not_in_a_standard_52_deck_is_refused(card):
    # "A card not in its deck is a format error."
    data = {**line_of("mog-example.jsonl", "CardDrawn"), "card": card}
    decks = {"main": tabletop.deck_cards({"deck": "main", "cards": "standard-52"})}
    field, message = mog.geometry_problem("CardDrawn", data, None, decks=decks)
    assert field == "data.card" and card in message


def test_a_joker_is_in_a_standard_54_deck():
    data = {**line_of("mog-example.jsonl", "CardDrawn"), "card": "JK1"}
    decks = {"main": tabletop.deck_cards({"deck": "main", "cards": "standard-54"})}
    assert mog.geometry_problem("CardDrawn", data, None, decks=decks) is None


def test_a_card_from_an_undefined_deck_is_refused():
    data = {**line_of("mog-example.jsonl", "CardDrawn"), "deck": "spare"}
    field, _ = mog.geometry_problem("CardDrawn", data, None, decks={"main": ["AS"]})
    assert field == "data.deck"


def test_a_returned_card_not_in_its_deck_is_refused():
    decks = {"main": tabletop.deck_cards({"deck": "main", "cards": "standard-52"})}
    assert mog.geometry_problem("DeckShuffled", {"deck": "main", "returned": "all"}, None, decks=decks) is None
    field, _ = mog.geometry_problem("DeckShuffled", {"deck": "main", "returned": ["AS", "JK2"]}, None, decks=decks)
    assert field == "data.returned[1]"


def test_a_deck_is_standard_52_standard_54_or_a_list_of_names():
    assert refusal(mog, "DeckDefined", {"deck": "main", "cards": "standard-53"})[0].startswith("cards")


def test_a_card_drawn_names_the_rule_it_is_for():
    data = line_of("mog-example.jsonl", "CardDrawn")
    del data["for"]
    assert refusal(mog, "CardDrawn", data)[0] == "for"


# --- The rulesets' own checks -----------------------------------------------------------------

def test_a_tabletop_phase_has_no_active_side():
    # "PhaseStarted.active is null" (both rulesets)
    assert avbcw.check_line("PhaseStarted", {"phase": "move", "active": None}, {}) is None
    field, _ = mog.check_line("PhaseStarted", {"phase": "movement", "active": "rebels"}, {})
    assert field == "data.active"


def test_an_avbcw_side_has_a_role():
    # "GameStarted.sides.<side>.role (aggressor | repeller) is required"
    data = copy.deepcopy(example_lines("avbcw-example.jsonl")[0]["data"])
    assert avbcw.check_line("GameStarted", data, {}) is None
    del data["sides"]["socialist"]["role"]
    assert avbcw.check_line("GameStarted", data, {})[0] == "data.sides.socialist.role"


def test_a_breakdown_test_records_its_outcome():
    # "broke_down (kind breakdown) or restarted (kind restart)"
    data = line_of("mog-example.jsonl", "BreakdownTested")
    del data["broke_down"]
    refusal(mog, "BreakdownTested", data)
    assert mog.EVENTS["BreakdownTested"].model_validate({**data, "kind": "restart", "restarted": True})


def test_a_target_class_is_1_to_4():
    data = {**line_of("mog-example.jsonl", "VehicleBuilt"), "target_class": 5}
    assert refusal(mog, "VehicleBuilt", data)[0] == "target_class"


def test_a_non_vehicle_army_unit_lists_its_figures():
    data = line_of("avbcw-example.jsonl", "ArmyListed")
    del data["units"][0]["figures"]  # r-inf, inf-regulars
    assert refusal(avbcw, "ArmyListed", data)[0] == "units.0"


def test_references_name_the_fields_that_hold_unit_ids():
    data = line_of("avbcw-example.jsonl", "ShotFired")
    for module in (avbcw, mog):
        for event_type, fields in module.REFERENCES.items():
            names = {f.alias or n for n, f in module.EVENTS[event_type].model_fields.items()}
            assert set(fields) <= names, event_type
    assert {data[f] for f in avbcw.REFERENCES["ShotFired"] if f in data} == {"r-inf", "s-mil"}


def test_nested_references_are_found_with_where_they_are():
    fought = {"combat": "c-1", "sides": [{"units": ["r-inf"], "charged": True, "flank": False, "in_terrain": False},
                                         {"units": ["s-mil", "s-car"], "charged": False, "flank": False,
                                          "in_terrain": True}]}
    assert avbcw.EVENTS["CloseCombatFought"].model_validate(fought)
    found = [ref for path in avbcw.NESTED_REFERENCES["CloseCombatFought"]
             for ref in tabletop.references_in(fought, path)]
    assert found == [("data.sides[0].units[0]", "r-inf"), ("data.sides[1].units[0]", "s-mil"),
                     ("data.sides[1].units[1]", "s-car")]


# --- Every field the page lists ------------------------------------------------------------------

# Backticked words of the fields columns that are values, not fields: unit-table rows and a TSATF
# type given as examples ("`commander-foot` ... `medical`", "e.g. `zulu`"), a phase and a key of
# `attrs` ("recorded in the `move` phase", "`attrs`: {`ambush`: true}").
VALUE_WORDS = {"demagogue", "medical", "zulu", "move", "ambush"}


def field_names(schema) -> set[str]:
    """Every field name of a schema and of the models nested in it (by their JSON names)."""
    names, todo, seen = set(), [schema], set()
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        for name, field in model.model_fields.items():
            names.add(field.alias or name)
            todo.extend(nested_models(field.annotation))
    return names


def nested_models(annotation) -> list:
    from typing import get_args
    from pydantic import BaseModel
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for arg in get_args(annotation) for model in nested_models(arg)]


def braced_fields(text: str, event_type: str) -> set[str]:
    """The fields of "`Type` {`a`, `b`?, ...}" in the page's text (nested braces included)."""
    start = text.index(f"`{event_type}` {{") + len(event_type) + 4
    depth, end = 1, start
    while depth:
        depth += {"{": 1, "}": -1}.get(text[end], 0)
        end += 1
    return set(re.findall(r"`([a-z_]+)`", text[start:end]))


def row_fields(section: str, word: str = r"[a-z_]+") -> list[tuple[tuple[str, ...], set[str]]]:
    """(the event types of a row, the backticked field names of its fields column) of a
    section's table; "`A` / `B`" rows give the fields of both in one column."""
    rows = []
    for first, fields in re.findall(r"^\| (`[A-Z][^|]*?) \| ((?:[^|\\]|\\\|)*) \|", section, flags=re.M):
        words = set(re.findall(f"`({word})`", fields)) - VALUE_WORDS
        rows.append((tuple(re.findall(r"`([A-Z][A-Za-z]+)`", first)), words))
    return rows


@pytest.mark.parametrize("event_type", ["TableDefined", "UnitDeployed", "UnitMoved", "DeckDefined",
                                        "DeckShuffled", "CardDrawn"])
def test_the_shared_forms_have_every_field_the_page_lists(event_type):
    # CardDrawn's `for` is "DieRolled's `purpose`": a word of the text, not a field.
    assert braced_fields(PAGE, event_type) - {"purpose"} <= field_names(tabletop.SHARED_EVENTS[event_type])


def test_embarking_has_the_fields_the_page_lists():
    # "`UnitEmbarked` / `UnitDisembarked` {`unit`, `vehicle`, `at` ..., `figures`?}"
    for event_type in ("UnitEmbarked", "UnitDisembarked"):
        assert {"unit", "vehicle", "at", "figures"} <= field_names(tabletop.SHARED_EVENTS[event_type])


@pytest.mark.parametrize("title,module", [("Dux Bellorum: A Very British Civil War", avbcw),
                                          ("Landships of Mogdonazia", mog)])
def test_every_field_of_the_rulesets_table_is_in_its_schema(title, module):
    rows = row_fields(page_section(title))
    assert rows
    missing = {types: words - set().union(*(field_names(module.EVENTS[t]) for t in types))
               for types, words in rows if types != ("UnitStatusChanged",)}
    assert {k: v for k, v in missing.items() if v} == {}


@pytest.mark.parametrize("title,module", [("Dux Bellorum: A Very British Civil War", avbcw),
                                          ("Landships of Mogdonazia", mog)])
def test_every_status_of_the_rulesets_table_is_accepted(title, module):
    statuses = dict(row_fields(page_section(title), word=r"[a-z][a-z-]*"))[("UnitStatusChanged",)]
    assert len(statuses) >= 8
    for status in statuses:
        assert module.EVENTS["UnitStatusChanged"].model_validate({"unit": "u", "status": status})
