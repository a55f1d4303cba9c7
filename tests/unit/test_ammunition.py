"""Optional rule: artillery ammunition consumption (IM.ART section M), from the rulebook's cost table."""
from __future__ import annotations

from domain.rules.infernal_machines.ammunition import objective_destroyed, points_cost
from tests.artillery_helpers import ArtyLog, failing, verdicts

OPTION = "IM.ART.AMMOCON.ENABLE"


def game(options=(OPTION,), points=25, **kw) -> ArtyLog:
    log = ArtyLog(date="1917-04", options=list(options), **kw)
    log.element("o1", points=points)
    log.element("o2", points=points)
    log.unit("g-gun", "german", "artillery-gun", "1:1010")
    log.barrage_phase(1)
    return log


def spend(log, element, points, barrage="b1"):
    log.add("ArtilleryPointsSpent", {"element": element, "points": points, "reason": "test", "barrage": barrage},
            side="british")


def test_cost_table_pure():
    # IM, Optional Rule: strongpoint 4, wire 2, gun 1, smoke screen 5, interdiction 1, any barrage 2
    assert points_cost("destruction", "he", "strongpoint") == 4
    assert points_cost("destruction", "he", "wire") == 2
    assert points_cost("destruction", "shrapnel", "gun") == 1
    assert points_cost("suppression", "smoke") == 5
    assert points_cost("interdiction", "he") == 1
    assert points_cost("neutralisation", "he") == 2
    assert points_cost("destruction", "he", "gun", rows="cumulative") == 3
    # "Simple and double creeping barrages, gas missions ... are exempt"
    assert points_cost("simple-creeping", "he") == points_cost("gas", "gas") == 0


def test_gun_destroyed_ex_im_18():
    # EX-IM-18: German-style destruction against an observed gun, 1 point per element, no scatter -> destroyed
    log = game()
    log.declare("b1", ["o1"], objective="gun")
    spend(log, "o1", 1)
    log.scatter("b1", 2, False)
    log.status("g-gun", "eliminated", cause="b1")
    report = log.audit()
    assert verdicts(report, "IM.ART.AMMOCON.AUTOKILL") == {"ok"}
    assert verdicts(report, "IM.ART.AMMOCON.COST") == {"ok"}
    assert not failing(report)


def test_gun_not_destroyed_is_a_mismatch_and_scatter_wastes_the_point():
    # "If the targeted hexagon ... lies within the primary impact zone after scatter, the objective is
    # automatically considered destroyed"
    log = game()
    log.declare("b1", ["o1"], objective="gun")
    spend(log, "o1", 1)
    log.scatter("b1", 2, False)
    assert verdicts(log.audit(), "IM.ART.AMMOCON.AUTOKILL") == {"mismatch"}
    # scatter: needs the impact-zone template, unless the reading 'wasted' is chosen
    assert objective_destroyed("1:1010", True, "1:1011", "he") is None
    assert objective_destroyed("1:1010", True, "1:1011", "he", [[0, 0, 0]]) is False
    assert objective_destroyed("1:1010", True, "1:1011", "he", [[0, 0, 0], [0, 1, -1]]) is True   # the target is north of the new centre
    assert objective_destroyed("1:1010", True, "1:1011", "he", reading="wasted") is False
    assert objective_destroyed("1:1010", False, None, "smoke") is False     # "(unless you are firing smoke)"


def test_cost_table_and_cap():
    # A wrong amount is a mismatch; going over the 25 points is a violation (IM.ART.AMMOCON.COST)
    log = game(points=25)
    log.declare("b1", ["o1"], objective="strongpoint")
    spend(log, "o1", 2)
    assert verdicts(log.audit(), "IM.ART.AMMOCON.COST", exact=True) == {"mismatch"}
    log = game(points=25)
    log.add("ArtilleryPointsSpent", {"element": "o1", "points": 24, "reason": "earlier turns"}, side="british")
    log.declare("b1", ["o1"])
    spend(log, "o1", 2)
    assert "violation" in verdicts(log.audit(), "IM.ART.AMMOCON.COST.CAP")


def test_exempt_missions():
    # "Simple and double creeping barrages, gas missions and all other artillery fire are exempt"
    log = game(permissions=["gas"])
    log.declare("b1", ["o1"], mission="gas", ammo="gas")
    spend(log, "o1", 2)
    assert verdicts(log.audit(), "IM.ART.AMMOCON.EXEMPT") == {"violation"}


def test_missing_spend_is_a_missing_step():
    # "Once artillery points are spent, the off-map artillery element fires and checks the scatter"
    log = game()
    log.declare("b1", ["o1", "o2"])
    spend(log, "o1", 2)
    log.scatter("b1", 2, False)
    assert verdicts(log.audit(), "IM.ART.AMMOCON.SEQUENCE") == {"missing-roll"}


def test_option_off_spend_is_a_violation():
    # The rule is optional: without it no points exist; with it every element has 25
    log = game(options=())
    log.declare("b1", ["o1"])
    spend(log, "o1", 2)
    assert verdicts(log.audit(), "IM.ART.AMMOCON.ENABLE") == {"violation"}
    assert verdicts(game(points=20).audit(), "IM.ART.AMMOCON.ENABLE") == {"mismatch"}


def untyped(natural, scattered, interpretations=()):
    """EX-IM-18's destruction of an observed gun, its barrage type left out ("barrage type need not be
    specified for this action"), then a scatter test of `natural`."""
    log = game()
    log.declare("b1", ["o1"], objective="gun", bat=None)
    del log.lines[-1]["data"]["barrage_type"]
    spend(log, "o1", 1)
    log.scatter("b1", natural, scattered, new_target="1:1012" if scattered else None,
                direction=1 if scattered else None)
    if not scattered:
        log.status("g-gun", "eliminated", cause="b1")
    return log.audit(interpretations=list(interpretations))


def test_an_untyped_barrages_scatter_is_ambiguous_only_where_the_types_disagree_ap09():
    # AP-09: "barrage type need not be specified for this action", yet the Scatter test's threshold is
    # the type's: drumfire scatters on 5-6 (one hex), hurricane on 4-6 (two hexes)
    for scattered in (False, True):
        assert verdicts(untyped(4, scattered), "IM.ART.SCATTER") == {"ambiguous"}
    # a 1-3 keeps either type on target: judged, and the gun is destroyed automatically
    report = untyped(2, False)
    assert verdicts(report, "IM.ART.SCATTER") == {"ok"} and verdicts(report, "IM.ART.AMMOCON.AUTOKILL") == {"ok"}
    assert not failing(report)
    assert "mismatch" in verdicts(untyped(2, True), "IM.ART.SCATTER")
    # a 5-6 scatters either type, but how far (one hex or two) is the type's again
    six = untyped(6, True)
    assert verdicts(six, "IM.ART.SCATTER.DRUMFIRE", exact=True) == {"ok"}
    assert verdicts(six, "IM.ART.SCATTER.DRUMFIRE.DIRECTION") == {"ambiguous"}
    # a game that names its reading is judged by it
    reading = "im-ammocon-untyped-scatter="
    assert verdicts(untyped(4, False, [reading + "drumfire"]), "IM.ART.SCATTER") == {"ok"}
    assert "mismatch" in verdicts(untyped(4, True, [reading + "drumfire"]), "IM.ART.SCATTER")
    assert "ok" in verdicts(untyped(4, True, [reading + "hurricane"]), "IM.ART.SCATTER.HURRICANE")


def test_only_an_objectives_destruction_may_leave_its_barrage_type_out():
    # game-log.md requires barrage_type; the extension lets only this action leave it out
    import pytest
    from pydantic import ValidationError
    from domain.rules.infernal_machines.events import BarrageDeclared
    base = {"barrage": "b1", "side": "british", "target": "1:1010", "elements": ["o1"], "ammunition": "he"}
    assert BarrageDeclared(**base, mission="destruction", objective="wire").barrage_type is None
    for other in ({"mission": "destruction"}, {"mission": "neutralisation", "objective": "wire"}):
        with pytest.raises(ValidationError, match="barrage_type is required"):
            BarrageDeclared(**base, **other)


def test_a_house_rule_ruling_settles_the_reading_for_the_whole_game():
    # docs/game-log-extensions.md, RulingIssued.interpretations: a referee's house rule chooses the
    # reading the text leaves open (here AP-09's), and the audit applies it to every event of the game
    def ruled(pairs, interpretations=()):
        log = game()
        log.declare("b1", ["o1"], objective="gun", bat=None)
        del log.lines[-1]["data"]["barrage_type"]
        spend(log, "o1", 1)
        log.scatter("b1", 4, False)
        log.status("g-gun", "eliminated", cause="b1")
        about = log.lines[-2]["seq"]
        log.add("DisputeRaised", {"dispute": "d1", "about": about, "by": "german", "claim": "a 4 scatters"})
        ruling = log.add("RulingIssued", {"dispute": "d1", "decision": "house-rule", "note": "we play drumfire",
                                          "interpretations": pairs})
        return log.audit(interpretations=list(interpretations)), ruling["seq"]
    report, _ = ruled([])
    assert verdicts(report, "IM.ART.SCATTER") == {"ambiguous"}
    report, _ = ruled(["im-ammocon-untyped-scatter=drumfire"])
    assert verdicts(report, "IM.ART.SCATTER") == {"ok"}
    assert report.interpretations["im-ammocon-untyped-scatter"] == "drumfire"
    # the command line's reading still wins
    report, _ = ruled(["im-ammocon-untyped-scatter=drumfire"], ["im-ammocon-untyped-scatter=hurricane"])
    assert "mismatch" in verdicts(report, "IM.ART.SCATTER")
    # a pair no interpretation knows is said, at the ruling, and not applied
    report, seq = ruled(["im-ammocon-untyped-scatter=sideways"])
    assert [(a.seq, a.verdict.value) for a in report.applications if a.rule == "LOG.RULINGS"] == [(seq, "unverifiable")]
    assert verdicts(report, "IM.ART.SCATTER") == {"ambiguous"}


def test_only_a_house_rule_chooses_readings():
    import pytest
    from pydantic import ValidationError
    from domain.events import RulingIssued
    assert RulingIssued(dispute="d1", decision="house-rule", interpretations=["a=b"]).interpretations == ["a=b"]
    for bad in ({"decision": "upheld", "interpretations": ["a=b"]}, {"decision": "house-rule", "interpretations": ["ab"]}):
        with pytest.raises(ValidationError):
            RulingIssued(dispute="d1", **bad)
