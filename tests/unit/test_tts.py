"""Positions from a Tabletop Simulator save (domain/tabletop/tts.py, tts_import.py) on saves built
here from the format's documented structure (TTS knowledge base, "Save File Format": top-level
`ObjectStates`, each with `GUID`, `Nickname`, `Name`, `Transform` {posX..rotZ, scaleX..}; a bag's or
deck's `ContainedObjects`), against the two tabletop example games of game-log-tabletop.md.

The expected places are worked out by hand: with the default frame the game's table is centred
on TTS (0, 0) and the first side's edge is TTS -Z, so a log point (x, y) on a 48" x 48" table is
TTS X = x - 24, Z = y - 24, and a facing is the object's rotY (its forward axis, local +Z, bears
rotY clockwise from +Z, as the log's facing is clockwise from +y)."""
from __future__ import annotations

import json

import pytest

from domain.tabletop.tts import Frame, TTSError, table_objects, whole_degrees
from domain.tabletop.tts_import import Game, Tolerance, plan, read_map
from tests.conftest import EXAMPLES, SPEC

TABLETOP = SPEC / "examples-tabletop"


def log(name: str, upto: int | None = None, folder=TABLETOP) -> list[dict]:
    lines = [json.loads(t) for t in (folder / f"{name}.jsonl").read_text(encoding="utf-8").splitlines() if t.strip()]
    for line in lines:
        line.pop("prev", None)
    return [line for line in lines if upto is None or line["seq"] <= upto]


def obj(guid: str, nickname: str, x: float, z: float, rot_y: float = 0.0, name: str = "Custom_Model",
        rot_x: float = 0.0, rot_z: float = 0.0, **more) -> dict:
    return {"GUID": guid, "Name": name, "Nickname": nickname,
            "Transform": {"posX": x, "posY": 1.02, "posZ": z, "rotX": rot_x, "rotY": rot_y, "rotZ": rot_z,
                          "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}, **more}


def save(*objects: dict) -> dict:
    return {"SaveName": "Club night", "GameMode": "", "Date": "5/3/2026 8:12:40 PM", "Table": "Table_Custom",
            "Sky": "Sky_Museum", "Note": "", "Rules": "", "PlayerTurn": "", "ObjectStates": list(objects)}


FOOT = {"footprint": {"w": 5.0, "d": 2.0}}
CAR = {"footprint": {"w": 2.0, "d": 4.0}}
AVBCW_MAP = {"units": [{"unit": "r-inf", "guid": "a1b2c3", "deploy": FOOT},
                       {"unit": "s-mil", "nickname": "Chopwell Militia", "deploy": FOOT},
                       {"unit": "s-car", "guid": "c4c4c4", "deploy": CAR}]}


def run(lines: list[dict], the_save: dict, unit_map: dict = AVBCW_MAP, frame: Frame = Frame(),
        tolerance: Tolerance = Tolerance()):
    return plan(Game.of(lines[0]["game"], lines), table_objects(the_save), read_map(unit_map), frame, tolerance)


def events(steps) -> list[dict]:
    return [s.event for s in steps if s.event is not None]


def refused(lines, the_save, unit_map=AVBCW_MAP, frame=Frame()) -> TTSError:
    with pytest.raises(TTSError) as caught:
        run(lines, the_save, unit_map, frame)
    return caught.value


def test_units_not_yet_deployed_are_deployed_as_the_pages_example_deploys_them():
    """The AVBCW example's seq 5-7 (r-inf at (24, 8) facing 0, s-mil at (24, 22) facing 180, s-car at
    (36, 30) facing 180), from a save; the side of each is its army list's (seq 3, 4)."""
    steps = run(log("avbcw-example", upto=4), save(
        obj("a1b2c3", "Royalist Regulars", 0.0, -16.0, 0.0),
        obj("d4e5f6", "Chopwell Militia", 0.0, -2.0, 180.0),
        obj("c4c4c4", "Armoured car", 12.0, 6.0, 179.991959)))
    expected = {line["data"]["unit"]: line for line in log("avbcw-example") if line["type"] == "UnitDeployed"}
    assert [s.status for s in steps] == ["deployed"] * 3
    for event in events(steps):
        page = expected[event["data"]["unit"]]
        assert event["type"] == "UnitDeployed" and event["side"] == page["side"]
        assert {k: v for k, v in event["data"].items() if k != "note"} == page["data"]
    assert events(steps)[1]["data"]["note"] == "Tabletop Simulator object d4e5f6 'Chopwell Militia'"


def test_only_what_changed_since_the_board_the_log_holds_is_moved():
    """After the AVBCW example (seq 20) r-inf stands at (24, 8) facing 0, s-mil at (24, 22) facing
    180, s-car at (34.3, 21.0) facing 240. The save jitters r-inf by less than 0.1" and 1°,
    moves s-mil 8" towards the royalists, and turns s-car on the spot to 270."""
    steps = run(log("avbcw-example"), save(
        obj("a1b2c3", "Royalist Regulars", 0.04, -15.96, 0.4),
        obj("d4e5f6", "Chopwell Militia", 0.0, -10.0, 180.0),
        obj("c4c4c4", "Armoured car", 10.3, -3.0, 270.2)))
    assert [(s.unit, s.status) for s in steps] == [("r-inf", "unchanged"), ("s-mil", "moved"), ("s-car", "moved")]
    militia, car = events(steps)
    assert militia["type"] == "UnitMoved" and militia["side"] == "socialist"
    # "path: [points] (the first is the present position ...)"; facing unchanged: no `f`
    assert militia["data"]["path"] == [{"x": 24.0, "y": 22.0}, {"x": 24.0, "y": 14.0}]
    # a turn on the spot: the present position carrying the facing on arrival
    assert car["data"]["path"] == [{"x": 34.3, "y": 21.0, "f": 270}]
    assert steps[2].before == {"position": {"x": 34.3, "y": 21.0}, "facing": 240}


def test_the_tolerances_decide_what_is_jitter():
    lines = log("avbcw-example")
    the_save = save(obj("a1b2c3", "Royalist Regulars", 0.04, -15.8, 2.0))  # (24.0, 8.2) facing 2
    one = {"units": [AVBCW_MAP["units"][0]]}
    assert [s.status for s in run(lines, the_save, one)] == ["moved"]
    assert [s.status for s in run(lines, the_save, one, tolerance=Tolerance(0.2, 2.0))] == ["unchanged"]
    moved = events(run(lines, the_save, one, tolerance=Tolerance(0.2, 1.0)))[0]["data"]["path"]
    assert moved == [{"x": 24.0, "y": 8.0, "f": 2}]  # the turn alone is recorded


def test_what_a_deck_or_a_bag_holds_and_an_objects_other_states_are_never_read():
    """"If an Object is placed inside of a bag/deck/etc, it stops existing and is no longer in the
    scene" (TTS API, Object): the car's model inside a deck and a bag, and as another object's
    second state, is not on the table; nothing of where it lies there reaches the events."""
    hidden = obj("c4c4c4", "Armoured car", 17.5, 9.25, 93.0)
    steps = run(log("avbcw-example", upto=4), save(
        obj("a1b2c3", "Royalist Regulars", 0.0, -16.0),
        obj("deck01", "Reinforcements", -20.0, 20.0, 180.0, name="DeckCustom", ContainedObjects=[hidden],
            DeckIDs=[100]),
        obj("bag001", "Reserves", 20.0, 20.0, name="Bag", ContainedObjects=[hidden]),
        obj("tok001", "Objective", -20.0, -20.0, name="Custom_Token", States={"2": hidden})))
    assert [(s.unit, s.status) for s in steps] == [("r-inf", "deployed"), ("s-mil", "not-on-table"),
                                                  ("s-car", "not-on-table")]
    written = json.dumps(events(steps))
    assert "c4c4c4" not in written and "41.5" not in written and "33.2" not in written  # (17.5+24, 9.25+24)


def test_guid_and_nickname_mapping():
    twins = save(obj("a1b2c3", "Rifles", 0.0, -16.0), obj("b2c3d4", "Rifles", 0.0, -2.0, 180.0))
    by_guid = {"units": [{"unit": "r-inf", "guid": "a1b2c3", "deploy": FOOT},
                         {"unit": "s-mil", "guid": "b2c3d4", "deploy": FOOT}]}
    steps = run(log("avbcw-example", upto=4), twins, by_guid)
    assert [s.position for s in steps] == [{"x": 24.0, "y": 8.0}, {"x": 24.0, "y": 22.0}]
    err = refused(log("avbcw-example", upto=4), twins,
                  {"units": [{"unit": "r-inf", "nickname": "Rifles", "deploy": FOOT}]})
    assert (err.source, err.field) == ("map", "units[0].nickname")
    assert "names 2 objects" in err.message and "a1b2c3, b2c3d4" in err.message and "guid" in err.message


def test_scale_in_inches_per_tts_unit():
    """--scale 2: a TTS unit is 2"; the 48" table centred on TTS (0, 0) spans -12..12, so TTS
    (0, -8) is (24, 8) and (6, 3) is (36, 30)."""
    steps = run(log("avbcw-example", upto=4), save(obj("a1b2c3", "R", 0.0, -8.0), obj("c4c4c4", "Car", 6.0, 3.0, 180.0)),
                frame=Frame(scale=2.0))
    assert [s.position for s in steps if s.position] == [{"x": 24.0, "y": 8.0}, {"x": 36.0, "y": 30.0}]


def test_edges_origin_and_a_models_front():
    """Edge +x: the first side sits at TTS +X looking towards -X, so the log's +y is TTS -X, its
    +x (to that side's right) TTS +Z, and its origin (that side's left corner) TTS (24, -24):
    (24, 8) is TTS (24 - 8, -24 + 24) = (16, 0), and facing 0 (towards -X) is rotY 270."""
    lines = log("avbcw-example", upto=4)
    one = {"units": [AVBCW_MAP["units"][0]]}
    step, = run(lines, save(obj("a1b2c3", "R", 16.0, 0.0, 270.0)), one, Frame(edge="+x"))
    assert (step.position, step.facing) == ({"x": 24.0, "y": 8.0}, 0)
    # --origin: the log's (0, 0) at TTS (100, 50) under edge -z: (124, 58) is (24, 8)
    step, = run(lines, save(obj("a1b2c3", "R", 124.0, 58.0, 90.0)), one, Frame(origin=(100.0, 50.0)))
    assert (step.position, step.facing) == ({"x": 24.0, "y": 8.0}, 90)
    # a model made facing its local -Z: front 180 turns rotY 90 into facing 270
    turned = {"units": [{**AVBCW_MAP["units"][0], "front": 180}]}
    step, = run(lines, save(obj("a1b2c3", "R", 0.0, -16.0, 90.0)), turned)
    assert step.facing == 270


def test_angles_are_whole_degrees_half_up():
    # game-log-tabletop.md: "Angles are whole degrees, 0 to 359"
    assert [whole_degrees(a) for a in (359.6, 89.5, 179.991959, -90.0, 720.4)] == [0, 90, 180, 270, 0]


def test_a_knocked_over_model_and_a_model_off_the_table_are_refused():
    lines = log("avbcw-example", upto=4)
    one = {"units": [AVBCW_MAP["units"][0]]}
    err = refused(lines, save(obj("a1b2c3", "R", 0.0, -16.0, rot_z=88.0)), one)
    assert (err.source, err.field) == ("save", "ObjectStates[0].Transform") and "knocked over" in err.message
    err = refused(lines, save(obj("zzz", "Dice", 0, 0), obj("a1b2c3", "R", 30.0, -16.0)), one)
    assert (err.source, err.field) == ("save", "ObjectStates[1].Transform")
    assert "(54, 8)" in err.message and "off the table" in err.message and "--origin" in err.message


@pytest.mark.parametrize("bad, field, words", [
    ({"units": []}, "units", "at least 1"),
    ({"units": [{"unit": "r-inf"}]}, "units[0]", "`guid` or its `nickname`"),
    ({"units": [{"unit": "r-inf", "guid": "a1b2c3", "nickname": "R"}]}, "units[0]", "one of them"),
    ({"units": [{"unit": "r-inf", "guild": "a1b2c3"}]}, "units[0].guild", "Extra inputs"),
    ({"units": [{"unit": "r-inf", "guid": 12}]}, "units[0].guid", "string"),
    ({"units": [{"unit": "r-inf", "guid": "a1b2c3", "deploy": FOOT},
                {"unit": "r-inf", "guid": "d4e5f6", "deploy": FOOT}]}, "units[1].unit", "mapped already by units[0]"),
    ({"units": [{"unit": "r-inf", "guid": "a1b2c3", "deploy": FOOT},
                {"unit": "s-mil", "nickname": "Royalist Regulars", "deploy": FOOT}]},
     "units[1].nickname", "mapped already to 'r-inf'"),
    ({"units": [{"unit": "r-tank", "guid": "a1b2c3", "deploy": FOOT}]}, "units[0].unit", "ArmyListed"),
    ({"units": [{"unit": "r-inf", "guid": "a1b2c3"}]}, "units[0].deploy.footprint", "Field required"),
    ({"units": [{"unit": "r-inf", "guid": "a1b2c3", "deploy": {"footprint": {"w": 0, "d": 2.0}}}]},
     "units[0].deploy.footprint.w", "greater than 0"),
    ({"units": [{"unit": "r-inf", "guid": "a1b2c3", "deploy": {**FOOT, "position": {"x": 1, "y": 1}}}]},
     "units[0].deploy.position", "comes from the save"),
    ({"units": [{"unit": "r-inf", "guid": "a1b2c3", "side": "socialist", "deploy": FOOT}]},
     "units[0].side", "lists 'r-inf' on side 'royalist'"),
    ({"units": [{"unit": "r-inf", "guid": "a1b2c3", "side": "roundheads", "deploy": FOOT}]},
     "units[0].side", "not a side"),
])
def test_a_bad_unit_map_is_refused_naming_its_field(bad, field, words):
    the_save = save(obj("a1b2c3", "Royalist Regulars", 0.0, -16.0), obj("d4e5f6", "Militia", 0.0, -2.0, 180.0))
    with pytest.raises(TTSError) as caught:
        run(log("avbcw-example", upto=4), the_save, bad)
    assert (caught.value.source, caught.value.field) == ("map", field), caught.value
    assert words in caught.value.message


@pytest.mark.parametrize("bad, field", [
    ([1, 2], "(save)"),
    ({"SaveName": "x"}, "ObjectStates"),
    ({"ObjectStates": ["a"]}, "ObjectStates[0]"),
    ({"ObjectStates": [{"GUID": 12, "Nickname": "R"}]}, "ObjectStates[0].GUID"),
])
def test_what_is_not_a_save_is_refused(bad, field):
    with pytest.raises(TTSError) as caught:
        table_objects(bad)
    assert (caught.value.source, caught.value.field) == ("save", field)


def test_a_mapped_object_needs_a_numeric_transform():
    broken = obj("a1b2c3", "R", 0.0, -16.0)
    broken["Transform"]["posX"] = "left"
    err = refused(log("avbcw-example", upto=4), save(broken), {"units": [AVBCW_MAP["units"][0]]})
    assert (err.field, err.message) == ("ObjectStates[0].Transform.posX", "'left' is not a finite number")


def test_mogdonazia_deploys_a_new_unit_from_the_map_and_moves_the_landship():
    """Mogdonazia's units come into the game by deploying: a new figures unit needs its class,
    type and figures ("class: vehicle|figures; figures: type (TSATF, ...), figures"); the 72" x 48"
    table centred on TTS (0, 0) puts (24, 24) at TTS (-12, 0)."""
    lines = log("mog-example")
    unit_map = {"units": [
        {"unit": "l-1", "guid": "11aa11"},
        {"unit": "r-2", "nickname": "Dervishes", "side": "rebels",
         "deploy": {"class": "figures", "type": "zulu", "figures": 12, "footprint": {"w": 6.0, "d": 2.0}}}]}
    steps = run(lines, save(obj("11aa11", "Landship", -4.0, 0.0, 90.0), obj("22bb22", "Dervishes", 20.0, 6.0, 270.0)),
                unit_map)
    moved, deployed = events(steps)
    assert moved["data"]["path"] == [{"x": 24.0, "y": 24.0}, {"x": 32.0, "y": 24.0}]
    assert deployed["side"] == "rebels" and deployed["data"]["position"] == {"x": 56.0, "y": 30.0}
    assert deployed["data"]["facing"] == 270 and deployed["data"]["class"] == "figures"
    no_class = {"units": [{"unit": "r-2", "nickname": "Dervishes", "side": "rebels", "deploy": {"footprint": FOOT["footprint"]}}]}
    err = refused(lines, save(obj("22bb22", "Dervishes", 20.0, 6.0)), no_class)
    assert err.field == "units[0].deploy.class"
    unknown = {"units": [{"unit": "r-9", "nickname": "Dervishes"}]}
    assert "needs `deploy`" in refused(lines, save(), unknown).message


def test_a_destroyed_unit_is_out_of_play_wherever_its_model_lies():
    lines = log("avbcw-example") + [{"v": 1, "game": "avbcw-example", "seq": 21, "turn": 1, "phase": "move",
                                     "side": "socialist", "type": "UnitStatusChanged",
                                     "data": {"unit": "s-car", "status": "destroyed"}}]
    steps = run(lines, save(obj("c4c4c4", "Car", 90.0, 90.0)), {"units": [AVBCW_MAP["units"][2]]})
    assert [s.status for s in steps] == ["out-of-play"] and events(steps) == []


def test_a_hex_game_is_refused():
    err = refused(log("resistance-turns", folder=EXAMPLES), save())
    assert err.source == "game" and "hex game (infernal-machines)" in err.message


def test_a_frame_that_cannot_place_the_table_is_refused():
    for frame_options, field in (({"scale": 0.0}, "scale"), ({"scale": float("nan")}, "scale"), ({"edge": "up"}, "edge")):
        with pytest.raises(TTSError) as caught:
            Frame(**frame_options)
        assert (caught.value.source, caught.value.field) == ("frame", field)
    no_table = [line for line in log("avbcw-example", upto=4) if line["type"] != "TableDefined"]
    err = refused(no_table, save())
    assert (err.source, err.field) == ("frame", "origin") and "TableDefined" in err.message
