"""Spotting (Spotted, and the spotting direct fire needs): the parts that need no chart, and the chart."""
from __future__ import annotations

from tests.board_helpers import BoardLog, failing, verdicts


def spot(roll=None, spotted=True, target="5:0505", cls="infantry-platoon", at="5:0502", tables="sample",
         hexsides=None, weather="fair", status=None, **attrs):
    g = BoardLog(hexsides=hexsides, weather=weather)
    g.deploy("s1", "british", cls, at, **attrs).deploy("g1", "german", "infantry-platoon", target)
    if status:
        g.status("s1", status, side="british")
    g.at(1, "offensive-small-arms-fire")
    if roll is not None:
        g.roll("IM.SPOT.ROLL", roll, "s1", "british", die="d10")
    seq = g.add("Spotted", {"spotter": "s1", "target": target, "spotted": spotted}, side="british")["seq"]
    return g.audit(tables), seq


def test_a_spot_needs_its_d10_roll():
    # Spotting (changed): roll a ten-sided die; the log records it before the Spotted event
    report, seq = spot(roll=None)
    assert failing(report, seq) == {"IM.SPOT.ROLL": "missing-roll"}


def test_a_spot_is_not_judged_by_the_enemys_spot_roll():
    # Spotting (changed): "the firing unit must first be able to spot the target ... To spot, consult the revised
    # Spotting Table and roll a ten-sided die": the spotter's own roll; the enemy's roll about a unit in the target
    # hex (its own spot) is not this spot's roll
    g = BoardLog()
    g.deploy("s1", "british", "infantry-platoon", "5:0502").deploy("g1", "german", "infantry-platoon", "5:0505")
    g.at(1, "offensive-small-arms-fire")
    g.roll("IM.SPOT.ROLL", 2, "g1", "german", die="d10")
    seq = g.add("Spotted", {"spotter": "s1", "target": "5:0505", "spotted": False}, side="british")["seq"]
    assert failing(g.audit("sample"), seq) == {"IM.SPOT.ROLL": "missing-roll"}


def test_without_the_spotting_table_the_outcome_is_unverifiable():
    report, seq = spot(roll=3, tables="none")
    assert failing(report, seq) == {"IM.SPOT.ROLL": "unverifiable"}


def test_the_roll_against_the_pack_number():
    # the roll must be <= the number for the distance (sample pack, fair column, 3 hexes: 9)
    assert failing(*spot(roll=9)) == {}
    report, seq = spot(roll=9, spotted=False)
    assert failing(report, seq) == {"IM.SPOT.ROLL": "mismatch"}
    assert failing(*spot(roll=10, spotted=False)) == {}


def test_tanks_are_buttoned_up_by_default():
    # Buttoned-Up Hatches: tanks and armoured cars use the buttoned-up column (sample: 3 hexes -> 6)
    report, seq = spot(roll=7, cls="tank")
    assert failing(report, seq) == {"IM.SPOT.ROLL": "mismatch"}
    assert failing(*spot(roll=7, cls="tank", hatch="open")) == {}


def test_no_spotting_over_a_non_adjacent_ridgeline_but_through_stone_walls():
    # Ridgelines block spotting; Stone walls: units may freely spot through them
    ridge = [{"between": ["5:0503", "5:0504"], "feature": "ridgeline"}]
    report, seq = spot(roll=1, hexsides=ridge)
    assert failing(report, seq) == {"IM.TER.RIDGE.LOS": "violation"}
    wall = [{"between": ["5:0503", "5:0504"], "feature": "stone-wall"}]
    assert failing(*spot(roll=1, hexsides=wall)) == {}


def test_a_prone_unit_spots_only_adjacent_hexes():
    # Going Prone: a prone unit may spot only adjacent hexes (except units firing on it)
    report, seq = spot(roll=1, status="prone")
    assert failing(report, seq) == {"IM.OPTMOVE.PRONE.EFFECTS": "violation"}
    assert failing(*spot(roll=1, status="prone", target="5:0503")) == {}


def fire(spotter_cls=None, spotted=True):
    g = BoardLog()
    g.deploy("inf", "british", "infantry-platoon", "5:0502").deploy("g1", "german", "infantry-platoon", "5:0505")
    if spotter_cls:
        g.deploy("eye", "british", spotter_cls, "5:0509")
    g.at(1, "offensive-small-arms-fire")
    spotter = "eye" if spotter_cls else "inf"
    g.roll("IM.SPOT.ROLL", 2, spotter, "british", die="d10")
    g.add("Spotted", {"spotter": spotter, "target": "5:0505", "spotted": spotted}, side="british")
    seq = g.add("SmallArmsFired", {"attack": "a1", "firers": ["inf"], "target": "5:0505"}, side="british")["seq"]
    return g.audit("sample"), seq


def test_direct_fire_needs_a_spotted_target():
    # Spotting (changed): the firing unit must first spot the target
    report, seq = fire()
    assert verdicts(report, "IM.SPOT.NEEDED", seq) == ["ok"]
    report, seq = fire(spotted=False)
    assert failing(report, seq) == {"IM.SPOT.NEEDED": "violation"}


def test_balloons_and_aircraft_do_not_spot_for_ground_fire():
    # Balloons / Aircraft: may not spot instead of ground units conducting small arms or AT fire
    report, seq = fire(spotter_cls="aircraft")
    assert failing(report, seq) == {"IM.ART.AIR.NOSPOT": "violation"}
    report, _ = fire(spotter_cls="balloon")
    assert "IM.ART.AIR.NOSPOT" in {a.rule for a in report.findings}
