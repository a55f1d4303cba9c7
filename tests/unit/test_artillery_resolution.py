"""Scatter and BCRT resolution (IM.ART section K), from 'Resolving Off-Map Artillery Barrages'."""
from __future__ import annotations

import pytest

from domain.rules.infernal_machines.artillery_resolution import (
    barrage_firepower, bcrt_column, mortar_scatter, scatter_destination, scatter_outcome, shrapnel_shift,
    tadpole_scatter)
from tests.artillery_helpers import ArtyLog, failing, found, verdicts


def game(n=1, firepower=20, **kw) -> ArtyLog:
    log = ArtyLog(**kw)
    for i in range(1, n + 1):
        log.element(f"o{i}", firepower=firepower)
    log.barrage_phase(1)
    return log


@pytest.mark.parametrize("bat,natural,scattered,hexes", [
    ("drumfire", 4, False, 0), ("drumfire", 5, True, 1), ("hurricane", 3, False, 0),
    ("hurricane", 4, True, 2), ("hurricane", 6, True, 2)])
def test_scatter_thresholds_ec08(bat, natural, scattered, hexes):
    # EC-08: "All ... scatter if a 5 or a 6 is obtained" (drumfire); "on a result of 4 to 6 it scatters" (hurricane)
    assert scatter_outcome(bat, "he", "destruction", natural) == (scattered, hexes)
    log = game()
    log.declare("b1", ["o1"], bat=bat)
    new = {1: "1:1009", 2: "1:1008"}.get(hexes)
    log.scatter("b1", natural, scattered, new_target=new, direction=1 if scattered else None, kind=bat.upper())
    assert not failing(log.audit())
    wrong = game()
    wrong.declare("b1", ["o1"], bat=bat)
    wrong.scatter("b1", natural, not scattered, kind=bat.upper())
    assert "mismatch" in verdicts(wrong.audit(), f"IM.ART.SCATTER.{bat.upper()}")


def test_scatter_distance_and_direction():
    # A drumfire barrage scatters into one of the six adjacent hexes; hurricane two hexes
    log = game()
    log.declare("b1", ["o1"])
    log.scatter("b1", 6, True, new_target="1:1012", direction=1)
    assert verdicts(log.audit(), "IM.ART.SCATTER.DRUMFIRE.DIRECTION") >= {"mismatch"}
    # sample pack (ILLUSTRATIVE): direction roll 1 -> index 0, north
    assert scatter_destination("1:1010", 0, 1) == "1:1009"
    assert scatter_destination("1:1010", 3, 2) == "1:1012"
    log = game(tables="sample")
    log.declare("b1", ["o1"])
    log.scatter("b1", 6, True, new_target="1:1009", direction=1)
    assert verdicts(log.audit(), "IM.ART.SCATTER.DRUMFIRE.DIRECTION") == {"ok"}
    missing = game()
    missing.declare("b1", ["o1"])
    missing.scatter("b1", 6, True, new_target="1:1009")
    assert "missing-roll" in verdicts(missing.audit(), "IM.ART.SCATTER.DRUMFIRE.DIRECTION")


def test_one_scatter_roll_for_all_elements():
    # "roll the die only once for all the off-map artillery elements attacking" (EX-IM-11 reject_if 4 rolls)
    log = game(n=2)
    log.declare("b1", ["o1", "o2"], bat="hurricane")
    log.scatter("b1", 2, False, kind="HURRICANE", element="o1")
    log.scatter("b1", 2, False, kind="HURRICANE", element="o2")
    assert verdicts(log.audit(), "IM.ART.SCATTER.HURRICANE.COUNT") == {"violation"}
    log = game()
    log.declare("b1", ["o1"])
    log.roll("IM.ART.SCATTER.DRUMFIRE", 2, "b1", "british")
    log.add("ScatterTested", {"barrage": "b1", "scattered": False}, side="british")
    log.add("ScatterTested", {"barrage": "b1", "scattered": False}, side="british")
    assert "missing-roll" in verdicts(log.audit(), "IM.ART.SCATTER.DRUMFIRE")


def test_counter_battery_scatter_plus_two():
    # EC-18: natural 1 -> 3 and 2 -> 4 do not scatter; 3 -> 5 and 6 -> 8 do, and the mission fails
    for natural, scattered in ((1, False), (2, False), (3, True), (6, True)):
        assert scatter_outcome("drumfire", "he", "counter-battery", natural)[0] is scattered
        log = ArtyLog(date="1917-06")
        log.element("o1"); log.element("g1", side="german")
        log.barrage_phase(1)
        log.declare("cb", ["o1"], target=None, mission="counter-battery")
        log.scatter("cb", natural, scattered, modifiers=[2])
        if not scattered:   # "If the fire does not scatter, one enemy off-map artillery element is eliminated"
            log.add("ArtilleryElementEliminated", {"element": "g1", "by": "cb"}, side="british")
        assert verdicts(log.audit(), "IM.ART.MISSION.CB.RESOLVE") == {"ok"}
    log = game(date="1917-06")
    log.declare("cb", ["o1"], target=None, mission="counter-battery")
    log.scatter("cb", 3, False)
    assert verdicts(log.audit(), "IM.ART.MISSION.CB.RESOLVE") == {"mismatch"}


def test_smoke_scatter_per_element_no_bcrt():
    # Smoke: "Test the scatter individually for each off-map artillery element, but do not make a die roll on the BCRT"
    log = game(n=2, permissions=["smoke"], missions={"british": "suppression"})
    log.declare("b1", ["o1", "o2"], mission="suppression", ammo="smoke")
    log.scatter("b1", 2, False, element="o1", subject="o1")
    log.scatter("b1", 5, True, element="o2", subject="o2", new_target="1:1011", direction=4)
    assert not failing(log.audit())
    short = game(n=2, permissions=["smoke"], missions={"british": "suppression"})
    short.declare("b1", ["o1", "o2"], mission="suppression", ammo="smoke")
    short.scatter("b1", 2, False, element="o1", subject="o1")
    short.resolve("b1", 3, 40, "31+", [("1:1010", "primary", "H")])
    report = short.audit()
    assert verdicts(report, "IM.ART.SCATTER.DRUMFIRE.COUNT") == {"missing-roll"}
    assert verdicts(report, "IM.ART.AMMO.SMOKE.PROC") == {"violation"}


def test_gas_scatter_per_element():
    # Gas: "Test the scatter individually for each off-map artillery element" (reading im-gas-scatter-per-element)
    log = game(n=2, date="1916-06", permissions=["gas"])
    log.declare("b1", ["o1", "o2"], mission="gas", ammo="gas")
    log.scatter("b1", 2, False)
    # one test for two elements: the second element's scatter roll is missing
    assert verdicts(log.audit(), "IM.ART.SCATTER.DRUMFIRE.COUNT") == {"missing-roll"}
    assert not found(log.audit(interpretations=["im-gas-scatter-per-element=one-roll"]), "IM.ART.SCATTER")


def test_resolution_without_scatter_test():
    # "all barrages ... are subject to a scatter test before determining whether a hit is recorded" (EC-11)
    log = game()
    log.declare("b1", ["o1"])
    log.resolve("b1", 3, 20, "20", [("1:1010", "primary", "miss")])
    assert verdicts(log.audit(), "IM.ART.SCATTER.ALL") == {"missing-roll"}
    log = game()
    log.declare("b1", ["o1"])
    log.scatter("b1", 2, False)
    log.resolve("b1", None, 20, "20", [("1:1010", "primary", "miss")])
    assert verdicts(log.audit(), "IM.ART.BCRT.REVISED") == {"missing-roll"}


def test_drumfire_sum_ex_im_16():
    # EX-IM-16: two elements of 20 project 40 into each hex; one scatter roll, one BCRT roll
    assert barrage_firepower([20, 20]) == 40
    log = game(n=2)
    log.declare("b1", ["o1", "o2"])
    log.scatter("b1", 2, False)
    log.resolve("b1", 3, 40, "31+", [("1:1010", "primary", "miss")])
    assert not failing(log.audit())
    wrong = game(n=2)
    wrong.declare("b1", ["o1", "o2"])
    wrong.scatter("b1", 2, False)
    wrong.resolve("b1", 3, 20, "20", [("1:1010", "primary", "miss")])
    assert verdicts(wrong.audit(), "IM.ART.FP.SUM") == {"mismatch"}


def test_drumfire_31_plus_ex_im_17():
    # EX-IM-17: 3 x 20 = 60 -> "Locate the 31+ column", one roll, no modifier for clear terrain
    assert bcrt_column(60) == "31+" and bcrt_column(30) is None and bcrt_column(40, "hurricane") == "10"
    log = game(n=3, hexes={"1:1010": {"terrain": "clear"}})
    log.unit("g", "german", "infantry-platoon", "1:1010")
    log.declare("b1", ["o1", "o2", "o3"])
    log.scatter("b1", 1, False)
    log.resolve("b1", 3, 60, "31+", [("1:1010", "primary", "miss")])
    log.status("g", "pinned", cause="b1")
    report = log.audit()
    assert not failing(report)
    assert verdicts(report, "IM.ART.FP.COLUMN") == {"ok"}
    assert verdicts(report, "IM.ART.FP.TERRAIN") == {"ok"}
    wrong = game(n=3)
    wrong.declare("b1", ["o1", "o2", "o3"])
    wrong.scatter("b1", 1, False)
    wrong.resolve("b1", 3, 60, "30", [("1:1010", "primary", "miss")])
    assert verdicts(wrong.audit(), "IM.ART.FP.COLUMN") == {"mismatch"}


def test_drumfire_single_roll():
    # "roll a single six-sided die to determine the effects against all units attacked"
    log = game()
    log.declare("b1", ["o1"])
    log.scatter("b1", 2, False)
    log.roll("IM.ART.BCRT.REVISED", 3, "b1", "british")
    log.resolve("b1", 4, 20, "20", [("1:1010", "primary", "miss")])
    assert "violation" in verdicts(log.audit(), "IM.ART.BAT.DRUMFIRE")


def hurricane(n=4, **kw):
    log = game(n=n, **kw)
    log.declare("b1", [f"o{i}" for i in range(1, n + 1)], mission="destruction", bat="hurricane")
    log.scatter("b1", 2, False, kind="HURRICANE")
    return log


def test_hurricane_four_elements_ex_im_11():
    # EX-IM-11: four separate column-10 attacks, one per element, in order
    log = hurricane()
    for i in range(1, 5):
        log.resolve("b1", 4, 20, "10", [("1:1010", "primary", "miss")], element=f"o{i}")
    report = log.audit()
    assert not failing(report)
    assert verdicts(report, "IM.ART.FP.HURRICANE_COL") == {"ok"}
    combined = hurricane()
    combined.resolve("b1", 4, 80, "31+", [("1:1010", "primary", "miss")])
    report = combined.audit()
    assert verdicts(report, "IM.ART.BAT.HURRICANE") == {"mismatch"}
    assert verdicts(report, "IM.ART.FP.HURRICANE_COL") == {"mismatch"}


def test_hurricane_no_retargeting_ex_im_12():
    # EX-IM-12: miss pins, second miss: retreat 2 hexes; later elements may not select a new hexagon
    log = hurricane()
    log.unit("u", "german", "infantry-platoon", "1:1010")
    log.resolve("b1", 5, 20, "10", [("1:1010", "primary", "miss")], element="o1")
    log.status("u", "pinned", cause="b1")
    log.resolve("b1", 5, 20, "10", [("1:1010", "primary", "miss")], element="o2")
    log.status("u", "retreated", cause="b1")
    log.add("UnitMoved", {"unit": "u", "path": ["1:1010", "1:1011", "1:1012"]}, side="german")
    log.resolve("b1", 5, 20, "10", [("1:1010", "primary", "miss")], element="o3")
    log.resolve("b1", 5, 20, "10", [("1:1020", "primary", "H")], element="o4")
    report = log.audit()
    stop = found(report, "IM.ART.BAT.HURRICANE.STOP")
    assert [a.seq for a in stop] == [log.lines[-1]["seq"]]
    assert not [f for f in failing(report) if "STOP" not in f]


def test_hurricane_extra_attacks_ambiguous_ap02():
    # AP-02: "resolves four attacks separately" vs its example: a second attack by one element is ambiguous
    log = hurricane(n=2)
    for element in ("o1", "o1", "o2", "o2"):
        log.resolve("b1", 4, 20, "10", [("1:1010", "primary", "miss")], element=element)
    assert verdicts(log.audit(), "IM.ART.FP.HURRICANE_COL") == {"ok", "ambiguous"}
    assert "violation" in verdicts(log.audit(interpretations=["im-hurricane-attacks-per-element=one"]),
                                   "IM.ART.FP.HURRICANE_COL")


def test_terrain_modifiers_checked():
    # Town +2 (first-turn example), prepared trench +2 (EC-28), mud +1 for HE; HE adds no ammunition modifier
    def case(mods, terrain="town", markers=(), terrain_state="good", ammo="he"):
        log = game(hexes={"1:1010": {"terrain": terrain}}, terrain_state=terrain_state)
        log.unit("g", "german", "infantry-platoon", "1:1010")
        for m in markers:
            log.add("MarkerPlaced", {"marker": m, "location": "1:1010"})
        log.declare("b1", ["o1"], ammo=ammo)
        log.scatter("b1", 2, False)
        log.resolve("b1", 5, 20, "20", [("1:1010", "primary", "miss")], modifiers=mods)
        return verdicts(log.audit(), "IM.ART.FP.TERRAIN")
    assert case([2]) == {"ok"}
    assert case([]) == {"mismatch"}
    assert case([2], terrain="clear", markers=["trench-prepared"]) == {"ok"}
    assert case([1], terrain="clear", terrain_state="mud") == {"ok"}
    assert case([], terrain="clear", terrain_state="mud", ammo="shrapnel") == {"ok"}
    assert case([5], ammo="shrapnel") == {"ok"}                               # town +2, shrapnel in cover +3
    assert case([1], terrain="wood") == set()                                 # the chart's wood modifier: not judged


def test_mounted_cavalry_modifier():
    # "Mounted cavalry units subtract 1 from their die roll on the BCRT ... no other die modifier applies"
    log = game(hexes={"1:1010": {"terrain": "clear"}}, terrain_state="mud")
    log.unit("c", "german", "cavalry-platoon", "1:1010")
    log.declare("b1", ["o1"])
    log.scatter("b1", 2, False)
    log.resolve("b1", 5, 20, "20", [("1:1010", "primary", "miss")], modifiers=[-1])
    assert verdicts(log.audit(), "IM.ART.FP.TERRAIN") == {"ok"}


def test_shrapnel_shift_ex_im_15():
    # EX-IM-15: H+1 -> H+2, H -> H+1, miss stays miss
    assert shrapnel_shift("H+1") == "H+2" and shrapnel_shift("H") == "H+1" and shrapnel_shift("miss") == "miss"


def test_bcrt_cell_checked_with_pack():
    # With a pack holding the BCRT the cell is checked; with 'none' it is unverifiable
    def case(tables, natural, result):
        log = game(tables=tables)
        log.declare("b1", ["o1"])
        log.scatter("b1", 2, False)
        log.resolve("b1", natural, 20, "20", [("1:1010", "primary", result)])
        return verdicts(log.audit(), "IM.ART.BCRT.REVISED")
    assert case("none", 3, "H") == {"unverifiable"}
    assert case("sample", 6, "miss") == {"ok"}             # ILLUSTRATIVE sample: column 20, roll 6 -> miss
    assert case("sample", 6, "H+2") == {"mismatch"}


def test_creeping_barrage_attacks_at_ten():
    # "subject to a suppression mission attack with high-explosive ammunition ... with a firepower of 10"
    log = ArtyLog(date="1917-04", missions={"british": "suppression"})
    for i in range(3):
        log.element(f"o{i}")
    log.declare("scb", ["o0", "o1", "o2"], target=None, mission="simple-creeping")
    log.barrage_phase(1)
    log.declare("scb-1", ["o0", "o1", "o2"], target=None, mission="simple-creeping")
    log.resolve("scb-1", 3, 60, "31+", [("1:1010", "primary", "miss")])
    assert verdicts(log.audit(), "IM.ART.MISSION.SCB.ATTACK") == {"mismatch"}


def test_mortar_and_tadpole_scatter_pure():
    # IM.SW.MORTAR.SCATTER: 5-6 into an adjacent hex; the Tadpole always scatters one hex
    assert mortar_scatter(4) == (False, 0) and mortar_scatter(5) == (True, 1)
    assert tadpole_scatter() == (True, 1)


def test_a_morale_check_in_a_hurricanes_primary_zone_is_ambiguous_ap12():
    # AP-12: the "Hurricane" barrage's second EXAMPLE pins a unit in the primary zone "after it has
    # undergone a morale check", yet a destruction mission with HE makes no morale check there (H ->
    # eliminated, miss -> pinned): a log following the example is ambiguous, never a mismatch or ok
    for result in ("H", "miss"):
        log = hurricane()
        log.unit("u", "german", "infantry-platoon", "1:1010")
        log.resolve("b1", 5, 20, "10", [("1:1010", "primary", result)], element="o1")
        log.roll("LS.MORALE", 3, "u", "german")
        checked = log.add("MoraleChecked", {"units": ["u"], "morale": 4, "passed": True}, side="german")
        log.status("u", "pinned", cause="b1")
        found_ = found(log.audit(), "IM.ART.EFF.DEST.HE.INF", ("ok", "mismatch", "violation", "ambiguous"))
        assert [(a.seq, a.verdict.value) for a in found_] == [(checked["seq"], "ambiguous")], result
    # without the check, the procedure alone judges: H eliminates
    log = hurricane()
    log.unit("u", "german", "infantry-platoon", "1:1010")
    log.resolve("b1", 5, 20, "10", [("1:1010", "primary", "H")], element="o1")
    log.status("u", "pinned", cause="b1")
    assert verdicts(log.audit(), "IM.ART.EFF.DEST.HE.INF") == {"mismatch"}
