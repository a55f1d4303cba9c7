"""The replay's line of fire on a hex board (issue: the dashboard draws what a dispute about a spot
or a shot needs): the firers and the target, the hexes the line crosses, the range counted in
hexes, whether the board blocks it, the result and the auditor's verdict."""
from __future__ import annotations

import json

import pytest

from dashboard.data import GameView
from dashboard.fire_panel import fire_panel
from dashboard.hex_fire import FIRE_TRACES, shot_events
from dashboard.pages.replay import _disputes_about
from dashboard.renderers import fire_at, hex_at
from projections.audit_trail import audit_lines
from tests.conftest import FIXTURE_GAMES
from tests.unit.test_dashboard_army import text_of

SIDES = {"british": {"nation": "british", "bloc": "allied"}, "german": {"nation": "german", "bloc": "central"}}


def ev(seq, kind, data, turn=1, phase="offensive-small-arms-fire", side=None):
    return {"v": 1, "game": "g", "seq": seq, "turn": turn, "phase": phase, "side": side, "type": kind, "data": data}


def game(hexes, *events, options=()):
    """A British platoon at 5:6613 and a German one at 5:6212 (four hexes apart), then `events`."""
    lines = [
        ev(1, "GameStarted", {"ruleset": "infernal-machines", "scenario": "t", "date": "1917-04", "sides": SIDES,
                              "options": list(options)}, 0, "setup"),
        ev(2, "MapDefined", {"maps": ["5"], "hexes": hexes}, 0, "setup"),
        ev(3, "UnitDeployed", {"unit": "b-1", "class": "infantry-platoon", "location": "5:6613"}, 0, "setup", "british"),
        ev(4, "UnitDeployed", {"unit": "g-1", "class": "infantry-platoon", "location": "5:6212"}, 0, "setup", "german"),
    ]
    return GameView("g", lines + [dict(e, seq=5 + i) for i, e in enumerate(events)])


def spot(spotted=True):
    return ev(0, "Spotted", {"spotter": "b-1", "target": "5:6212", "spotted": spotted}, side="british")


def named(traces, name):
    return next(t for t in traces if t["name"] == name)


def seq_of(gv, kind, **data):
    """The first event of `kind` whose data holds `data` (the demo game's seqs move as it grows)."""
    return next(l["seq"] for l in gv.lines if l["type"] == kind and all(l["data"].get(k) == v for k, v in data.items()))


@pytest.fixture(scope="module")
def michael():
    path = FIXTURE_GAMES / "michael-1918-ronssoy.jsonl"
    return GameView("michael-1918-ronssoy", [json.loads(l) for l in path.read_text().splitlines()])


# -- which events make a shot ----------------------------------------------------------------------
def test_a_resolution_is_told_with_the_fire_that_made_it_and_a_fire_with_its_resolution(michael):
    # michael-1918-ronssoy: b-mg1's attack a-1 is fired, its SACRT d6 rolled, then resolved
    fired, resolved = seq_of(michael, "SmallArmsFired", attack="a-1"), seq_of(michael, "SmallArmsResolved", attack="a-1")
    made, told = shot_events(michael.lines, resolved)
    assert (made["seq"], told["seq"]) == (fired, resolved)
    assert [l["seq"] for l in shot_events(michael.lines, fired)] == [fired, resolved]
    roll = seq_of(michael, "DieRolled", purpose="LS.SACRT", subject="a-1")
    assert shot_events(michael.lines, roll) is None
    assert shot_events(michael.lines, fired - 1)[0]["type"] == "Spotted"


# -- the fixture game's spot and fire --------------------------------------------------------------
def test_a_spot_draws_the_line_from_the_spotter_its_hexes_and_range(michael):
    # b-mg1 (5:6310) spots 5:6508, where g-st1 stands: 3 hexes, a clear line
    seq = seq_of(michael, "Spotted", spotter="b-mg1", target="5:6508")
    view = fire_at(michael, seq, False)
    assert (view.kind, view.firers, view.target, view.target_units) == ("spot", ("b-mg1",), "5:6508", ("g-st1",))
    (line,) = view.lines
    assert (line.origin, line.range, line.clear) == ("5:6310", 3, True)
    assert line.hexes == ("5:6310", "5:6410", "5:6409", "5:6508")
    assert view.outcome == ("spotted",)
    traces, highlight = hex_at(michael, seq, False)
    assert highlight == {"fire": view}
    assert len(named(traces, "fire-hexes")["x"]) == 4
    assert named(traces, "fire-clear")["x"][:2] == [michael.layout.center("5:6310")[0], michael.layout.center("5:6508")[0]]
    assert named(traces, "fire-blocked")["x"] == []
    assert named(traces, "fire-range")["text"] == ["3 hexes"]
    assert named(traces, "lines")["x"] == [], "the shot's own line stands for the event's sight line"


def test_small_arms_fire_tells_the_recorded_range_and_the_results(michael):
    # a-2: g-mg1 fires 4 hexes at 5:6411; b-inf2 is pinned
    view = fire_at(michael, seq_of(michael, "SmallArmsResolved", attack="a-2"), False)
    assert view.seqs == (seq_of(michael, "SmallArmsFired", attack="a-2"), seq_of(michael, "SmallArmsResolved", attack="a-2"))
    assert view.recorded_range == 4 and [l.range for l in view.lines] == [4]
    assert view.outcome == ("b-inf2: pinned",) and view.hits == 1
    said = text_of(fire_panel(view, [], [], []))
    assert "Range counted: 4 hexes; recorded 4 (agrees)" in said
    assert "Result: b-inf2: pinned (1 hit)" in said


def test_the_disputed_spot_is_told_with_the_auditors_verdicts_its_roll_and_the_dispute(michael):
    # g-st1 spots the Ronssoy garrison (5:6208) through a stone wall; the dispute is upheld
    # (Stone walls: "Units may freely spot or observe through stone walls")
    about = next(l["data"]["about"] for l in michael.lines if l["type"] == "DisputeRaised"
                 and l["data"]["dispute"] == "d-ronssoy-wall-spot")
    ruled = seq_of(michael, "RulingIssued", dispute="d-ronssoy-wall-spot")
    view = fire_at(michael, about, False)
    assert view.kind == "spot" and view.lines[0].clear is True and view.lines[0].range == 1
    apps = [a for a in audit_lines(michael.lines).applications if a.seq in view.seqs]
    dice = [michael.line(s) for a in apps for s in a.related if michael.line(s)["type"] == "DieRolled"]
    said = text_of(fire_panel(view, apps, dice, _disputes_about(michael, set(view.seqs))))
    assert "Result: spotted" in said
    assert "IM.SPOT.ROLL" in said and "unverifiable" in said
    assert "d10 → 2 (IM.SPOT.ROLL" in said
    assert "Disputed: d-ronssoy-wall-spot" in said and f"upheld at event {ruled}" in said


# -- blocked, along a hexside, close combat, anti-tank ---------------------------------------------
def test_a_wood_between_blocks_the_line_as_the_spotting_check_finds(michael):
    # IM.ART.FO.RANGE.LOS / docs/maps.md: a wood as high as the sight line blocks it
    gv = game({"5:6413": {"terrain": "wood"}, "5:6412": {"terrain": "wood"}}, spot())
    view = fire_at(gv, 5, False)
    (line,) = view.lines
    assert line.clear is False and line.blocker in ("5:6412", "5:6413") and line.range == 4
    audited = [a for a in audit_lines(gv.lines).applications if a.seq == 5 and a.verdict.value == "violation"]
    assert [a.inputs.get("blocker") for a in audited] == [line.blocker], "the same fold blocks it"
    traces, _ = hex_at(gv, 5, False)
    assert named(traces, "fire-clear")["x"] == [] and len(named(traces, "fire-blocked")["x"]) == 3
    assert any("blocks b-1's line" in h for h in named(traces, "fire-marks")["hovertext"])
    assert "line blocked at" in text_of(fire_panel(view, [], [], []))


@pytest.mark.parametrize("options, clear", [((), True),
                                             (["interpretation:IM.LOS.ALONG_HEXSIDE=either-side-blocks"], False)])
def test_a_line_along_a_hexside_crosses_both_sides_and_reads_the_games_reading(options, clear):
    # 5:6613 to 5:6212 runs between 5:6412 and 5:6413: a wood on one side blocks only under
    # either-side-blocks (the named reading IM.LOS.ALONG_HEXSIDE; both-sides-block by default)
    gv = game({"5:6412": {"terrain": "wood"}}, spot(), options=options)
    view = fire_at(gv, 5, False)
    assert {"5:6412", "5:6413"} <= set(view.lines[0].hexes)
    assert view.lines[0].clear is clear
    assert view.reading == ("either-side-blocks" if options else "both-sides-block")


def test_a_close_combat_is_drawn_from_its_attackers_to_the_defenders_hex_without_a_sight_line():
    gv = game({}, ev(0, "UnitMoved", {"unit": "b-1", "path": ["5:6613", "5:6512", "5:6412", "5:6312"]},
                     phase="first-foot-movement", side="british"),
              ev(0, "CloseCombatFought", {"combat": "c-1", "location": "5:6212", "attackers": ["b-1"],
                                          "defenders": ["g-1"]}, phase="close-combat", side="british"),
              ev(0, "CloseCombatResolved", {"combat": "c-1", "results": [{"unit": "g-1", "result": "retreated"}]},
                 phase="close-combat", side="british"))
    view = fire_at(gv, 7, False)
    assert view.kind == "close combat" and view.seqs == (6, 7) and view.target_units == ("g-1",)
    assert view.lines[0].clear is None and view.lines[0].range == 1
    assert view.outcome == ("g-1: retreated",) and view.hits == 1
    traces, _ = hex_at(gv, 7, False)
    assert len(named(traces, "fire-unasked")["x"]) == 3 and named(traces, "fire-clear")["x"] == []


def test_anti_tank_fire_not_yet_resolved_says_so():
    gv = game({}, spot(), ev(0, "AntiTankFired", {"attack": "at-1", "firers": ["b-1"], "target": "5:6212",
                                                  "target_unit": "g-1", "range": 5},
                             phase="offensive-anti-tank-fire", side="british"))
    view = fire_at(gv, 6, False)
    assert view.kind == "anti-tank fire" and view.outcome == ("not resolved in the log",) and not view.resolved
    assert "recorded 5 (differs)" in text_of(fire_panel(view, [], [], []))


def test_no_shot_leaves_the_fire_traces_empty():
    gv = game({})
    traces, highlight = hex_at(gv, 4, False)
    assert highlight is None
    assert all(not named(traces, name)["x"] for name in FIRE_TRACES)


def test_the_demo_games_tank_fire_is_drawn_with_its_facing(michael):
    # b-tank (a Mark IV) fires small arms at 5:6609; its counter carries its facing arrow
    fired = next(l for l in michael.lines if l["type"] == "SmallArmsFired" and l["data"]["firers"] == ["b-tank"])
    view = fire_at(michael, fired["seq"], False)
    (line,) = view.lines
    assert line.facing is not None and line.off_facing is not None
    assert 0 <= line.off_facing <= 180
    traces, _ = hex_at(michael, fired["seq"], False)
    assert any(h.startswith("b-tank faces") for h in named(traces, "facing")["hovertext"])
    assert "off its facing" in text_of(fire_panel(view, [], [], []))
