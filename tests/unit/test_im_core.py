"""IM.CORE: dice, modifier signs, what supersedes what (direct_fire.py, the generic dice check)."""
from __future__ import annotations

from domain.rules.coverage import coverage_rows, declared
from domain.rules.infernal_machines import direct_fire
from domain.rules.infernal_machines.direct_fire import Term
from domain.rules.infernal_machines.ruleset import RULESET
from tests.fire_helpers import BRIT, GER, FireLog, fire_game, verdicts


def test_the_text_names_the_die_of_these_rolls():
    # Mortar fire procedure "(using a six-sided die)"; Red Army "another six-sided die"; Buttoned-Up Hatches "a
    # six-sided die"; Non-Automatic Removal "roll a six-sided die"; Additional Column Shifts "roll a six-sided die"
    g = fire_game(options=["IM.OPTCBT.PINREMOVAL"])
    g.at(1, "pin-removal")
    wrong = [g.add("DieRolled", {"purpose": p, "die": "d10", "result": 3, "subject": "b1"}, side=BRIT)["seq"]
             for p in ("IM.SW.MORTAR.SCATTER", "IM.OPTCBT.REDARMY", "IM.SPOT.BUTTONED.CMDR_HIT",
                       "IM.OPTCBT.PINREMOVAL", "IM.OPTCBT.CCSHIFT", "IM.SW.MORTAR.ROF_OPT")]
    right = g.add("DieRolled", {"purpose": "IM.OPTCBT.PINREMOVAL", "die": "d6", "result": 3, "subject": "b1"},
                  side=BRIT)["seq"]
    report = g.audit()
    assert [verdicts(report, "IM.CORE.DICE", s) for s in wrong] == [["violation"]] * 6
    assert verdicts(report, "IM.CORE.DICE", right) == ["ok"]


def test_a_modifier_recorded_with_the_wrong_sign(monkeypatch):
    # IM.CORE.MODSIGN: on the SACRT a positive modifier helps the defender, a negative one the attacker
    # (mortar "favourable die modifier of -1")
    monkeypatch.setattr(direct_fire, "term_sources", lambda: (lambda shot, ctx: [Term("IM.SW.MORTAR.RESOLVE", -1, "mortar")],))
    g = fire_game()
    g.at(1, "offensive-small-arms-fire")
    _, resolved = g.fire("a1", ["b1"], "5:0505", firepower=4, mods=(1,))
    assert verdicts(g.audit(), "IM.CORE.MODSIGN", resolved) == ["mismatch"]


def test_what_is_not_judged_from_a_log_says_so():
    # 1.11 Using This Expansion: "all new tables, new charts and new rules supersede the earlier ones": the
    # auditor only ever applies Infernal Machines' rules; no log records which edition a table came from
    rows = dict(coverage_rows(["IM.CORE.SUPERSEDE"], declared("infernal-machines"), RULESET.rulebook()))
    assert rows["IM.CORE.SUPERSEDE"].status == "not judgeable from a log"
