"""Anti-tank fire and the anti-tank rifle's criticals (anti_tank.py). Expectations cite the rulebook."""
from __future__ import annotations

from tests.fire_helpers import BRIT, GER, FireLog, verdicts


def atr_game(second=None, third=None, repairs=(), tables="none", **tank) -> tuple[FireLog, dict]:
    g = FireLog(tables=tables)
    g.unit("g-atr", GER, "support-weapon", "5:0502", firepower=1, range_=4, weapon="atr")
    g.unit("b-tank", BRIT, "tank", "5:0505", movement=2, **tank)
    g.at(1, "defensive-anti-tank-fire", "british")
    g.spot("g-atr", "5:0505", GER)
    seqs = {"fired": g.add("AntiTankFired", {"attack": "t1", "firers": ["g-atr"], "target": "5:0505",
                                             "target_unit": "b-tank", "weapon": "atr", "range": 3}, side=GER)["seq"]}
    g.roll("LS.ATCRT", 3, "t1", GER, die="d10")
    seqs["resolved"] = g.add("AntiTankResolved", {"attack": "t1", "results": [{"unit": "b-tank", "result": "hit"}]},
                             side=GER)["seq"]
    if second is not None:
        g.roll("IM.SW.ATR.CRIT", second, "b-tank", GER)
        seqs["second"] = len(g.lines)
    if third is not None:
        g.roll("IM.SW.ATR.CRIT", third, "b-tank", GER)
        seqs["third"] = len(g.lines)
    for turn, roll in repairs:
        g.at(turn, "pin-removal")
        g.roll("IM.SW.ATR.CRIT.REPAIR", roll, "b-tank", BRIT)
        seqs[f"repair{turn}"] = len(g.lines)
    return g, seqs


def test_a_hit_asks_for_the_second_die():
    # Anti-Tank Rifles: "if a 'hit' is recorded, roll a second six-sided die"
    g, s = atr_game()
    g.at(2, "pin-removal")
    assert verdicts(g.audit(), "IM.SW.ATR.CRIT", s["resolved"]) == ["missing-roll"]


def test_six_destroys_the_tank():
    # "on a result of 6, the tank is destroyed (lucky shot)" (EC-35)
    g, s = atr_game(second=6)
    g.at(2, "vehicle-movement", "british")
    moved = g.move("b-tank", ["5:0505", "5:0504"])["seq"]
    report = g.audit()
    assert verdicts(report, "IM.SW.ATR.CRIT", s["second"]) == ["ok"]
    assert verdicts(report, "IM.SW.ATR.CRIT", moved) == ["mismatch"]


def test_a_driver_hit_holds_the_tank_for_a_turn_and_a_killed_driver_halves_it():
    # "on a result of 2 or 3 ... the tank immediately stops its movement and will then remain in the hexagon for
    # one turn. ... on a result of 1 or 2, the driver is killed ... half the tank's normal movement allowance,
    # but not less than one hexagon per turn" (EC-35: = 3, third die 2)
    g, s = atr_game(second=3, third=2)
    g.at(2, "vehicle-movement", "british")
    held = g.move("b-tank", ["5:0505", "5:0504"])["seq"]
    g.at(3, "vehicle-movement", "british")
    fast = g.move("b-tank", ["5:0505", "5:0504", "5:0503"])["seq"]
    g.at(4, "vehicle-movement", "british")
    slow = g.move("b-tank", ["5:0505", "5:0504"])["seq"]
    report = g.audit()
    assert verdicts(report, "IM.SW.ATR.CRIT", held) == ["violation"]
    assert verdicts(report, "IM.SW.ATR.CRIT", fast) == ["violation"]
    assert verdicts(report, "IM.SW.ATR.CRIT", slow) == ["ok"]


def test_an_engine_hit_halts_until_repaired_in_two_turns():
    # "a third die result of 1 or 2 indicates a permanent halt until repaired. The crew has two consecutive turns
    # to repair ... succeeds in repairing on a result of 1 to 3 ... After the second turn without effect, the engine
    # is considered permanently broken" (EC-35: repairs 5 then 4 -> broken; 5 then 2 -> repaired)
    g, s = atr_game(second=5, third=1, repairs=[(2, 5), (3, 4)])
    g.at(4, "vehicle-movement", "british")
    broken = g.move("b-tank", ["5:0505", "5:0504"])["seq"]
    assert verdicts(g.audit(), "IM.SW.ATR.CRIT", broken) == ["violation"]
    g, s = atr_game(second=5, third=1, repairs=[(2, 5), (3, 2)])
    g.at(4, "vehicle-movement", "british")
    repaired = g.move("b-tank", ["5:0505", "5:0504"])["seq"]
    assert verdicts(g.audit(), "IM.SW.ATR.CRIT", repaired) == []


def test_an_engine_hit_with_a_high_third_die_is_ambiguous():
    # the text gives no effect for an engine hit whose third die is 3-6 (catalogue warning)
    g, s = atr_game(second=4, third=5)
    g.at(2, "pin-removal")
    assert verdicts(g.audit(), "IM.SW.ATR.CRIT", s["third"]) == ["ambiguous"]


def test_the_elephant_ignores_anti_tank_rifles():
    # EC-35: "Against the Elephant -> no effect at any step"
    g, s = atr_game(second=6, model="elephant")
    g.at(2, "pin-removal")
    assert verdicts(g.audit(), "IM.SW.ATR.CRIT", s["resolved"]) == ["violation"]


def test_the_atcrt_is_checked_only_with_a_pack_holding_it():
    g, s = atr_game(second=1)
    g.at(2, "pin-removal")
    assert verdicts(g.audit(), "LS.ATCRT", s["resolved"]) == ["unverifiable"]


def test_anti_tank_fire_is_made_in_the_anti_tank_phases():
    g = FireLog()
    g.unit("g-atr", GER, "support-weapon", "5:0502", firepower=1, range_=4, weapon="atr")
    g.unit("b-tank", BRIT, "tank", "5:0505")
    g.at(1, "defensive-small-arms-fire", "british")
    g.spot("g-atr", "5:0505", GER)
    fired = g.add("AntiTankFired", {"attack": "t1", "firers": ["g-atr"], "target": "5:0505"}, side=GER)["seq"]
    assert verdicts(g.audit(), "IM.CORE.PHASE.FIRE", fired) == ["violation"]
