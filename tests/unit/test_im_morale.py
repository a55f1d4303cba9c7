"""Morale after small arms fire, the Red Army, pin removal and heroism (morale.py)."""
from __future__ import annotations

from tests.fire_helpers import BRIT, GER, FireLog, fire_game, verdicts


def hit_then_check(natural: int, passed: bool, status: str, morale: int = 4, roll: bool = True):
    g = fire_game()
    g.at(1, "offensive-small-arms-fire")
    g.fire("a1", ["b1"], "5:0505", firepower=4, results=[("g1", "hit")])
    if roll:
        g.roll("LS.MORALE", natural, "g1", GER)
    checked = g.add("MoraleChecked", {"units": ["g1"], "morale": morale, "passed": passed}, side=GER)["seq"]
    changed = g.status("g1", status, side=GER).lines[-1]["seq"]
    return g.audit(), checked, changed


def test_a_hit_is_followed_by_a_morale_check_against_the_morale_value():
    # "Infantry that roll a die result less than or equal to their morale value pass the morale check";
    # "If hit, it is subject to the normal morale check to see whether it is pinned or eliminated"
    report, checked, changed = hit_then_check(4, True, "pinned")
    assert verdicts(report, "IM.CORE.MORALE", checked) == ["ok"]
    assert verdicts(report, "IM.CORE.MORALE", changed) == []
    report, checked, _ = hit_then_check(5, True, "pinned")
    assert verdicts(report, "IM.CORE.MORALE", checked) == ["mismatch"]
    report, checked, _ = hit_then_check(5, False, "eliminated", roll=False)
    assert verdicts(report, "LS.MORALE", checked) == ["missing-roll"]


def test_a_pass_pins_and_a_failure_eliminates():
    # Running: "is hit and passes its morale check, it becomes pinned"; armoured trains: "pinned or eliminated"
    report, _, changed = hit_then_check(2, True, "eliminated")
    assert verdicts(report, "IM.CORE.MORALE", changed) == ["mismatch"]
    report, _, changed = hit_then_check(6, False, "pinned")
    assert verdicts(report, "IM.CORE.MORALE", changed) == ["mismatch"]


def red_game(rout: int | None, leader: bool = False, options=("IM.OPTCBT.REDARMY",)):
    g = FireLog(options=list(options))
    g.lines[0]["data"]["scenario"] = "russian civil war, 1919"
    g.lines[0]["data"]["sides"][GER]["nation"] = "red-army"
    g.unit("b1", BRIT, "infantry-platoon", "5:0502")
    g.unit("r1", GER, "infantry-platoon", "5:0505")
    if leader:
        g.unit("r-ldr", GER, "infantry-leader", "5:0505", firepower=None, range_=None)
    g.at(1, "offensive-small-arms-fire")
    _, resolved = g.fire("a1", ["b1"], "5:0505", firepower=4, results=[("r1", "hit")])
    if rout is not None:
        g.roll("IM.OPTCBT.REDARMY", rout, "r1", GER)
    status = g.status("r1", "eliminated" if rout is not None and rout <= 2 else "pinned", side=GER).lines[-1]["seq"]
    g.at(1, "close-combat")
    return g.audit(), resolved, status


def test_a_red_army_hit_asks_for_the_rout_die():
    # Unpredictability of the Red Army: "each time a Red Army unit suffers a 'hit' result on the SACRT, roll
    # another six-sided die ... On a result of 1 or 2, it routs" (EC-54)
    report, resolved, _ = red_game(None)
    assert verdicts(report, "IM.OPTCBT.REDARMY", resolved) == ["missing-roll"]
    report, resolved, status = red_game(2)
    assert "missing-roll" not in verdicts(report, "IM.OPTCBT.REDARMY", resolved)
    assert verdicts(report, "IM.OPTCBT.REDARMY", status) == []


def test_with_a_red_leader_the_unit_is_simply_pinned():
    # "EXCEPTION: if a Red Army infantry leader is present in the hexagon ... simply pinned in place; no rout
    # test is needed" (EC-54: a logged rout roll -> REJECT)
    report, resolved, _ = red_game(None, leader=True)
    assert verdicts(report, "IM.OPTCBT.REDARMY", resolved) == ["ok"]
    report, resolved, _ = red_game(4, leader=True)
    assert verdicts(report, "IM.OPTCBT.REDARMY", resolved) == ["violation"]


def test_optional_rules_need_the_players_agreement():
    # Advanced Infantry Combat Rules: "Both players must agree at the start of a scenario which they will use"
    report, _, _ = red_game(3, options=())
    assert "violation" in [a.verdict.value for a in report.applications if a.rule == "IM.OPTCBT.AGREE"]


def pin_game(roll: int, heroism: int | None = None, status: str = "unpinned", enemy_at: str = "5:0507"):
    g = FireLog(options=["IM.OPTCBT.PINREMOVAL", "IM.OPTCBT.HEROISM"])
    g.unit("b1", BRIT, "infantry-platoon", "5:0502")
    g.unit("g1", GER, "infantry-platoon", enemy_at)
    g.status("b1", "pinned", side=BRIT)
    g.at(2, "pin-removal")
    g.roll("IM.OPTCBT.PINREMOVAL", roll, "b1", BRIT)
    if heroism is not None:
        g.roll("IM.OPTCBT.HEROISM", heroism, "b1", BRIT)
    changed = g.status("b1", status, side=BRIT).lines[-1]["seq"]
    return g.audit(), changed


def test_pin_removal_frees_on_one_or_two():
    # Non-Automatic Removal of Pinned Markers: "1-2 All units in the hexagon immediately become non-pinned;
    # 3-5 ... remain pinned" (EC-53)
    report, changed = pin_game(2)
    assert verdicts(report, "IM.OPTCBT.PINREMOVAL", changed) == ["ok"]
    report, changed = pin_game(4)
    assert verdicts(report, "IM.OPTCBT.PINREMOVAL", changed) == ["mismatch"]


def test_heroism_surrender_or_rally_by_the_nearest_enemy():
    # Infantry Heroism, 6 Surrender/Rally: "if an enemy unit (except an individual) is within five hexagons ...
    # remove the latter. ... Otherwise ... non-pinned" (EC-53: 5 hexes -> destroyed; 6 hexes -> un-pinned)
    report, changed = pin_game(6, 6, status="unpinned", enemy_at="5:0507")
    assert "mismatch" in verdicts(report, "IM.OPTCBT.HEROISM", changed)
    report, changed = pin_game(6, 6, status="unpinned", enemy_at="5:0508")
    assert "mismatch" not in verdicts(report, "IM.OPTCBT.HEROISM", changed)
    # 4 Retreat: "retreats two hexagons and remains pinned"
    report, changed = pin_game(6, 4)
    assert verdicts(report, "IM.OPTCBT.HEROISM", changed) == ["mismatch"]


def test_a_check_that_does_not_say_its_morale_is_judged_against_the_infantry_rules_value():
    # IM.INF.ST.MORALE: Sturmtruppen "morale is always 5, whatever the counter says"; a roll of 5 passes
    # ("less than or equal to their morale value"), though the counter prints 4
    def checked(natural: int, passed: bool, **attrs):
        g = FireLog()
        g.unit("b1", BRIT, "infantry-platoon", "5:0502")
        g.unit("g1", GER, "infantry-platoon", "5:0505", **attrs)
        g.at(1, "offensive-small-arms-fire")
        g.fire("a1", ["b1"], "5:0505", firepower=4, results=[("g1", "hit")])
        g.roll("LS.MORALE", natural, "g1", GER)
        seq = g.add("MoraleChecked", {"units": ["g1"], "passed": passed}, side=GER)["seq"]
        return verdicts(g.audit(), "IM.CORE.MORALE", seq)
    assert checked(5, True, sturmtruppen=True) == ["ok"]
    assert checked(6, True, sturmtruppen=True) == ["mismatch"]
    assert checked(5, True) == ["mismatch"]            # an ordinary platoon: its printed 4
