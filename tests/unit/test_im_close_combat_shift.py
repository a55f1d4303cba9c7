"""Additional Column Shifts in Close Combat (close_combat_shift.py)."""
from __future__ import annotations

from domain.rules.engine import audit
from domain.rules.infernal_machines.close_combat_shift import average_morale
from domain.rules.interpretations import Interpretations
from domain.rules.tables import TablePack
from tests.fire_helpers import BRIT, GER, FireLog, verdicts


def test_ec24_average_morale_rounds_half_up():
    # EX-IM-24: attackers FP 4 and 6, morale 3 and 4: "3.5 will be rounded to 4"
    assert average_morale([3, 4]) == 4
    assert average_morale([3, 3, 4]) == 3


def combat(roll, shifts=(), options=("IM.OPTCBT.CCSHIFT",)):
    g = FireLog(options=list(options))
    g.unit("b1", BRIT, "infantry-platoon", "5:0504", firepower=4, morale=3)
    g.unit("b2", BRIT, "infantry-platoon", "5:0504", firepower=6, morale=4)
    g.unit("g1", GER, "infantry-platoon", "5:0505")
    g.at(1, "close-combat")
    g.add("CloseCombatFought", {"combat": "c1", "location": "5:0505", "attackers": ["b1", "b2"], "defenders": ["g1"],
                                "shifts": list(shifts)}, side=BRIT)
    if roll is not None:
        g.roll("IM.OPTCBT.CCSHIFT", roll, "c1", BRIT)
    g.roll("LS.CACRT", 3, "c1", BRIT)
    resolved = g.add("CloseCombatResolved", {"combat": "c1", "results": [{"unit": "g1", "result": "no-effect"}]},
                     side=BRIT)["seq"]
    return g, resolved


def test_the_shift_roll_against_the_grid():
    # "Cross-reference the attacker's firepower with the average morale value to obtain a range of die results
    # that generates a favourable column shift ... Then roll a six-sided die"
    pack = TablePack("test", tables={"CCSHIFT": {"5": {"4": [1, 2]}}})
    g, resolved = combat(2, shifts=[{"value": 1, "why": "IM.OPTCBT.CCSHIFT"}])
    assert verdicts(audit(g.lines, tables=pack, interpretations=Interpretations()), "IM.OPTCBT.CCSHIFT", resolved) == ["ok"]
    g, resolved = combat(2)
    assert verdicts(audit(g.lines, tables=pack, interpretations=Interpretations()), "IM.OPTCBT.CCSHIFT", resolved) == ["mismatch"]
    g, resolved = combat(2)
    assert verdicts(g.audit(), "IM.OPTCBT.CCSHIFT", resolved) == ["unverifiable"]
    g, resolved = combat(None)
    assert verdicts(g.audit(), "IM.OPTCBT.CCSHIFT", resolved) == ["missing-roll"]


def test_a_close_combat_introduces_its_combat_as_the_subject_of_its_rolls():
    # game-log-extensions.md, CloseCombatFought: "its `DieRolled` (purpose `LS.CACRT`, subject the `combat`) follows";
    # game-log.md, Dice: a roll's subject is one an earlier event introduces
    g, _ = combat(None)
    report = audit(g.lines, tables=TablePack("none", tables={}), interpretations=Interpretations())
    assert [a for a in report.applications if a.rule == "IM.CORE.REF"] == []
    g.roll("LS.CACRT", 4, "c2", BRIT)   # a combat no event fought
    report = audit(g.lines, tables=TablePack("none", tables={}), interpretations=Interpretations())
    assert [(a.recorded, a.verdict.value) for a in report.applications if a.rule == "IM.CORE.REF"] == [("c2", "violation")]
