"""Running (optional): fire by and at running units (IM.OPTMOVE.RUN.FIRE, IM.OPTMOVE.RUN.TARGET), from the Running
section of Advanced Infantry Movement Rules and EX-IM-21 / EC-51 of rule-cases.md."""
from __future__ import annotations

from tests.vehicle_helpers import BRIT, GER, VehicleLog, failing, verdicts

A, B, C, D, E = "5:0505", "5:0506", "5:0507", "5:0508", "5:0509"
G = "5:0511"


def run_then_fire() -> VehicleLog:
    """British platoon r1 (with a Lewis gun counter it carries) runs A -> D in the first foot phase of turn 1."""
    g = VehicleLog(options=["IM.OPTMOVE.RUN"])
    g.unit("r1", BRIT, "infantry-platoon", A, movement=2, range_=6)
    g.unit("lewis", BRIT, "support-weapon", A, movement=2, range_=6, weapon="lmg-lewis", carrier="r1")
    g.unit("g1", GER, "infantry-platoon", G, movement=2, range_=6)
    g.at(1, "first-foot-movement", BRIT)
    g.move("r1", [A, B, C, D], mode="run")
    g.move("lewis", [A, B, C, D])
    return g


def test_the_support_weapons_of_a_runner_may_not_fire_that_turn():
    # "While running, units may not conduct small arms fire or have support weapons fire." EX-IM-21: the runner's own
    # fire that turn -> REJECT(IM.OPTMOVE.RUN.AFTER).
    g = run_then_fire()
    g.at(1, "offensive-small-arms-fire", BRIT)
    lewis, _ = g.small_arms("a-1", ["lewis"], G, BRIT, roll=None)
    own, _ = g.small_arms("a-2", ["r1"], G, BRIT, roll=None)
    g.at(2, "offensive-small-arms-fire", BRIT)
    later, _ = g.small_arms("a-3", ["lewis"], G, BRIT, roll=None)
    report = g.audit()
    assert verdicts(report, "IM.OPTMOVE.RUN.FIRE", lewis) == ["violation"]
    assert verdicts(report, "IM.OPTMOVE.RUN.FIRE", own) == []
    assert verdicts(report, "IM.OPTMOVE.RUN.AFTER", own) == ["violation"]
    assert verdicts(report, "IM.OPTMOVE.RUN.FIRE", later) == []           # turn 2: "could ... conduct small arms fire"


def test_defensive_fire_at_a_hex_a_runner_crossed_takes_minus_one():
    # "the player may conduct fire against any hexagon within firing range traversed by the enemy units ... If fired
    # upon during a defensive fire phase, running units suffer a -1 penalty modifier on the SACRT" (EC-51).
    g = run_then_fire()
    g.at(1, "defensive-small-arms-fire", BRIT)
    _, with_it = g.small_arms("a-1", ["g1"], B, GER, mods=({"value": -1, "why": "running"},))
    _, without = g.small_arms("a-2", ["g1"], C, GER)
    g.at(1, "offensive-small-arms-fire", BRIT)
    _, offensive = g.small_arms("a-3", ["g1"], B, GER)
    report = g.audit()
    assert verdicts(report, "IM.OPTMOVE.RUN.TARGET", with_it) == ["ok"]
    assert verdicts(report, "IM.OPTMOVE.RUN.TARGET", without) == ["mismatch"]
    assert verdicts(report, "IM.OPTMOVE.RUN.TARGET", offensive) == []     # only in a defensive fire phase
    assert "IM.OPTMOVE.RUN.TARGET" not in failing(report, with_it)


def test_a_runner_is_moved_back_to_the_hexagon_fired_at():
    # "This is true even if the running units have reached cover at the end of their run (move them back to the
    # targeted hexagon)": that move in the fire phase is no move outside the movement phases.
    g = run_then_fire()
    g.at(1, "defensive-small-arms-fire", BRIT)
    g.small_arms("a-1", ["g1"], B, GER, mods=({"value": -1, "why": "running"},), results=[("r1", "no-effect")])
    back = g.move("r1", [D, C, B], side=GER)["seq"]
    report = g.audit()
    assert verdicts(report, "IM.OPTMOVE.RUN.TARGET", back) == ["ok"] and failing(report, back) == {}
    g = run_then_fire()
    g.at(1, "defensive-small-arms-fire", BRIT)
    g.small_arms("a-1", ["g1"], B, GER, mods=({"value": -1, "why": "running"},), results=[("r1", "no-effect")])
    astray = g.move("r1", [D, C], side=GER)["seq"]                  # C was crossed, but not fired at
    report = g.audit()
    assert verdicts(report, "IM.OPTMOVE.RUN.TARGET", astray) == ["violation"]
    assert failing(report, astray)["IM.CORE.PHASE.MOVE"] == "violation"
