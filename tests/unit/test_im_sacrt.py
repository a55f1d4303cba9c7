"""The SACRT cell, the revised SACRT, pre-set rifle ranges, commander hits, trot fire (sacrt.py, cavalry.py)."""
from __future__ import annotations

from domain.rules.infernal_machines.sacrt import preset_modifier
from domain.rules.tables import TablePack
from domain.rules.engine import audit
from domain.rules.interpretations import Interpretations
from tests.fire_helpers import BRIT, GER, FireLog, fire_game, verdicts

PACK = TablePack("test-pack", tables={"SACRT": {"4": {"1": "hit", "2": "hit", "3": "miss", "4": "miss",
                                                      "5": "miss", "6": "miss"}}})


def test_the_sacrt_cell_is_checked_only_when_the_pack_holds_it():
    # IM.X: the SACRT is a Landships! chart on the table sheet, not in the text
    g = fire_game()
    g.at(1, "offensive-small-arms-fire")
    _, resolved = g.fire("a1", ["b1"], "5:0505", firepower=4, sacrt=2, results=[("g1", "no-effect")])
    assert verdicts(g.audit(), "LS.SACRT", resolved) == ["unverifiable"]
    report = audit(g.lines, tables=PACK, interpretations=Interpretations())
    assert verdicts(report, "LS.SACRT", resolved) == ["mismatch"]
    g = fire_game()
    g.at(1, "offensive-small-arms-fire")
    _, resolved = g.fire("a1", ["b1"], "5:0505", firepower=4, sacrt=5, results=[("g1", "no-effect")])
    assert verdicts(audit(g.lines, tables=PACK, interpretations=Interpretations()), "LS.SACRT", resolved) == ["ok"]


def test_the_revised_sacrt_rolls_for_each_unit_in_the_hex():
    # Small Arms Resolution Table (optional): "Roll the die separately for each unit in the targeted hexagon"
    g = FireLog(options=["IM.OPTCBT.SACRT"])
    g.unit("b1", BRIT, "infantry-platoon", "5:0502")
    g.unit("g1", GER, "infantry-platoon", "5:0505")
    g.unit("g2", GER, "mg-platoon", "5:0505")
    g.at(1, "offensive-small-arms-fire")
    _, resolved = g.fire("a1", ["b1"], "5:0505", firepower=4, results=[("g1", "no-effect"), ("g2", "no-effect")])
    assert verdicts(g.audit(), "IM.OPTCBT.SACRT", resolved)[0] == "missing-roll"


def test_pre_set_ranges_by_nation():
    # Pre-Set Rifle Ranges: "French/Germans/Russians 4 hexagons; Americans/British 2 hexagons; All others 3";
    # "+1 to the die roll on the SACRT for every two hexagons" (EC-52: British at 2 -> 0, 4 -> +1, 6 -> +2;
    # German at 4 -> 0, 6 -> +1)
    assert [preset_modifier("british", d, None)[0] for d in (2, 4, 6)] == [0, 1, 2]
    assert [preset_modifier("german", d, None)[0] for d in (4, 6)] == [0, 1]
    # AP-17: British at 5 hexes: +1 or +2? ambiguous without a reading
    assert preset_modifier("british", 5, None)[0] is None
    assert preset_modifier("british", 5, "full-pairs")[0] == 1
    assert preset_modifier("british", 5, "started-pairs")[0] == 2
    assert preset_modifier("italian", 5, None)[0] == 1


def preset_shot(target: str, mods=()):
    g = FireLog(options=["IM.OPTCBT.PRESET"])
    g.unit("b1", BRIT, "infantry-platoon", "5:0502")
    g.unit("g1", GER, "infantry-platoon", target)
    g.at(1, "offensive-small-arms-fire")
    return g, g.fire("a1", ["b1"], target, firepower=4, mods=mods, results=[("g1", "no-effect")])[1]


def test_the_pre_set_modifier_is_on_the_roll():
    g, resolved = preset_shot("5:0506")      # British, 4 hexes: +1
    assert verdicts(g.audit(), "IM.OPTCBT.PRESET", resolved) == ["mismatch"]
    g, resolved = preset_shot("5:0506", mods=(1,))
    assert verdicts(g.audit(), "IM.OPTCBT.PRESET", resolved) == ["ok"]
    g, resolved = preset_shot("5:0507", mods=(1,))     # 5 hexes: AP-17
    assert verdicts(g.audit(), "IM.OPTCBT.PRESET", resolved) == ["ambiguous"]
    assert verdicts(g.audit(**{"IM__OPTCBT__PRESET__ROUNDING": "full-pairs"}), "IM.OPTCBT.PRESET", resolved) == ["ok"]


def test_a_hit_on_a_hatch_open_vehicle_asks_for_the_commander_die():
    # Buttoned-Up Hatches: "A second result of 1 or 2 on a six-sided die following a successful to-hit roll on
    # the SACRT indicates that the commander has been seriously wounded"
    g = FireLog()
    g.unit("g1", GER, "infantry-platoon", "5:0502")
    g.unit("b-tank", BRIT, "tank", "5:0505")
    g.unit("b-fo", BRIT, "forward-observer", "5:0505", firepower=None, range_=None, vehicle="b-tank")
    g.at(1, "defensive-small-arms-fire", "british")
    _, resolved = g.fire("a1", ["g1"], "5:0505", GER, firepower=4, results=[("b-tank", "hit")])
    g.at(1, "offensive-anti-tank-fire", "british")
    assert verdicts(g.audit(), "IM.SPOT.BUTTONED.CMDR_HIT", resolved) == ["missing-roll"]


def trot(hexes: int, firepower: int, rng: int, mode=None):
    g = FireLog()
    g.unit("b-cav", BRIT, "cavalry-platoon", "5:0502", firepower=0, range_=0, movement=10)
    g.unit("g1", GER, "infantry-platoon", f"5:05{2 + hexes + rng:02d}")
    g.at(1, "first-foot-movement")
    path = [f"5:05{2 + i:02d}" for i in range(hexes + 1)]
    g.move("b-cav", path, mode=mode)
    g.at(1, "offensive-small-arms-fire")
    fired = g.fire("a1", ["b-cav"], f"5:05{2 + hexes + rng:02d}", firepower=firepower)[0]
    return g.audit(), fired


def test_trotting_cavalry_fires_at_one_to_two_hexes():
    # Mounted Cavalry Small Arms Fire: "moves a maximum of five hexagons ... is considered to be trotting ...
    # an inherent firepower of 1 and a range of 2" (EC-55)
    report, fired = trot(5, 1, 2)
    assert verdicts(report, "IM.CAV.TROT", fired) == ["ok", "ok"]
    report, fired = trot(5, 1, 3)
    assert "violation" in verdicts(report, "IM.CAV.TROT", fired)
    # "Cavalry units that charge or gallop still have no firepower" (EC-55: moves 6 hexes -> no FP)
    report, fired = trot(6, 1, 1)
    assert "violation" in verdicts(report, "IM.CAV.TROT", fired)
