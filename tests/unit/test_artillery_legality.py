"""Declaration legality of off-map barrages (IM.ART sections F-I), from the rulebook's Artillery Options."""
from __future__ import annotations

import pytest

from domain.rules.infernal_machines.artillery_legality import (
    legal_ammunition, legal_barrage_types, matrix_problems, shrapnel_compulsion_passed)
from tests.artillery_helpers import PROCEDURE, ArtyLog, failing, found, verdicts


def declared(mission="destruction", bat="drumfire", ammo="he", date="1917-04", permissions=None,
             missions=None, allowed=("drumfire", "hurricane"), side="british", **extra) -> ArtyLog:
    log = ArtyLog(date=date, permissions=permissions, missions=missions, allowed=allowed)
    log.element("o1", side)
    log.element("g1", "german" if side == "british" else "british")
    log.barrage_phase(1, side)
    log.declare("b1", ["o1"], mission=mission, bat=bat, ammo=ammo, side=side, **extra)
    return log


def legality_findings(log):
    report = log.audit()
    seq = next(l["seq"] for l in log.lines if l["type"] == "BarrageDeclared")
    return {a.rule for a in report.applications if a.seq == seq and a.verdict.value == "violation"
            and not a.rule.startswith(PROCEDURE)}


# -- EC-01..EC-04: the legality matrix ---------------------------------------------------------------
@pytest.mark.parametrize("mission", ["neutralisation", "suppression", "interdiction"])
def test_shrapnel_illegal_outside_destruction(mission):
    # IM, Shrapnel: "Neutralisation/Suppression/Interdiction mission with shrapnel: not permitted" (EC-01)
    rules = legality_findings(declared(mission, "drumfire", "shrapnel", missions={"british": mission}))
    assert "IM.ART.AMMO.SHRAP.ILLEGAL" in rules


def test_destruction_hurricane_shrapnel_is_legal():
    # EC-01: {D, hurricane, shrapnel} -> ACCEPT
    assert legality_findings(declared("destruction", "hurricane", "shrapnel")) == set()


def test_hurricane_fires_only_he_or_shrapnel():
    # IM, "Hurricane" barrage: "Only high-explosive ammunition and shrapnel may be used" (EC-02)
    smoke = legality_findings(declared("neutralisation", "hurricane", "smoke", permissions=["smoke"],
                                       missions={"british": "neutralisation"}))
    assert {"IM.ART.BAT.HURRICANE", "IM.ART.AMMO.SMOKE.COMBO"} <= smoke
    gas = legality_findings(declared("gas", "hurricane", "gas", permissions=["gas"]))
    assert "IM.ART.BAT.HURRICANE" in gas and "IM.ART.MISSION.GAS.ELIG" in gas
    ok = legality_findings(declared("neutralisation", "drumfire", "smoke", permissions=["smoke"],
                                    missions={"british": "neutralisation"}))
    assert ok == set()


@pytest.mark.parametrize("mission,ammo,rule", [
    ("suppression", "he", "IM.ART.MISSION.SUPP"), ("interdiction", "he", "IM.ART.MISSION.INTERDICT"),
    ("counter-battery", "he", "IM.ART.MISSION.CB.RESOLVE")])
def test_drumfire_only_missions(mission, ammo, rule):
    # IM, Suppression: "may only choose the drumfire barrage type"; Interdiction: "only drumfire";
    # Counter-battery: "always use drumfire barrages and high-explosive ammunition" (EC-03)
    assert rule in legality_findings(declared(mission, "hurricane", ammo, missions={"british": "suppression"}))


def test_counter_battery_shrapnel_rejected():
    # EC-03: {CB, drumfire, shrapnel} -> REJECT
    assert "IM.ART.MISSION.CB.RESOLVE" in legality_findings(declared("counter-battery", "drumfire", "shrapnel"))


@pytest.mark.parametrize("mission,ammo,rule", [
    ("destruction", "smoke", "IM.ART.MISSION.DEST.COMBOS"), ("destruction", "gas", "IM.ART.MISSION.DEST.COMBOS"),
    ("interdiction", "smoke", "IM.ART.MISSION.INTERDICT"), ("gas", "he", "IM.ART.MISSION.GAS.ELIG")])
def test_ammunition_locked_by_mission(mission, ammo, rule):
    # IM, Destruction: "only choose high-explosive or shrapnel"; Interdiction: HE only; Gas: "only gas
    # ammunition may be used" (EC-04)
    rules = legality_findings(declared(mission, "drumfire", ammo, permissions=["smoke", "gas"],
                                       missions={"british": "suppression"}))
    assert rule in rules


def test_matrix_pure_function():
    # Section I summarised by the pure helpers a generator uses.
    assert legal_barrage_types("suppression") == {"drumfire"}
    assert legal_ammunition("neutralisation", "hurricane") == {"he"}
    assert legal_ammunition("neutralisation", "drumfire") == {"he", "smoke"}
    assert legal_ammunition("gas", "drumfire", date="1915-03") == set()        # never before April 1915
    assert legal_ammunition("counter-battery", "drumfire", "allied", "1916-06") == set()   # Allies from 1917
    assert legal_ammunition("counter-battery", "drumfire", "central", "1915-07") == {"he"}
    assert matrix_problems("destruction", "drumfire", "he") == []


# -- EC-05: smoke and gas permissions --------------------------------------------------------------
def test_smoke_needs_permission():
    # IM, Smoke: "When stated by the scenario, smoke shells may be used" (EC-05)
    rules = legality_findings(declared("suppression", "drumfire", "smoke", missions={"british": "suppression"}))
    assert "IM.ART.AMMO.SMOKE.PERMIT" in rules


def test_gas_permission_and_date():
    # IM, Gas missions: "only when indicated by the scenario, or if obtained on the AFMT and gas is not
    # strictly forbidden by the scenario, and never before April 1915 in any case" (EC-05)
    assert "IM.ART.MISSION.GAS.ELIG" in legality_findings(declared("gas", "drumfire", "gas", date="1915-03",
                                                                   permissions=["gas"]))
    assert legality_findings(declared("gas", "drumfire", "gas", date="1915-04", permissions=["gas"])) == set()
    forbidden = declared("gas", "drumfire", "gas", date="1916-04", permissions=["no-gas"],
                         missions={"british": "gas"})
    assert "IM.ART.MISSION.GAS.ELIG" in legality_findings(forbidden)
    by_afmt = declared("gas", "drumfire", "gas", date="1916-04", missions={"british": "G"})
    assert legality_findings(by_afmt) == set()
    assert "IM.ART.MISSION.GAS.ELIG" in legality_findings(declared("gas", "drumfire", "gas", date="1916-04"))


def test_double_gas_german_from_1916():
    # IM, Double gas attack: "from January 1916, the Germans ... The Allies never did." (EC-23)
    assert "IM.ART.AMMO.GAS.DOUBLE" in legality_findings(
        declared("gas", "drumfire", "gas", date="1916-04", permissions=["gas"], double_gas=True))
    assert "IM.ART.AMMO.GAS.DOUBLE" in legality_findings(
        declared("gas", "drumfire", "gas", date="1915-12", permissions=["gas"], side="german", double_gas=True))
    assert legality_findings(declared("gas", "drumfire", "gas", date="1916-02", permissions=["gas"],
                                      side="german", double_gas=True)) == set()


# -- AFMT, BTT and who fires ---------------------------------------------------------------------------
def test_mission_must_be_the_afmt_result():
    # IM, Artillery Fire Missions: the AFMT result "remains until the end of the scenario"
    assert "IM.ART.AFMT.ROLL" in legality_findings(declared("neutralisation", missions={"british": "suppression"}))
    assert legality_findings(declared("neutralisation", missions={"british": "N"})) == set()


def test_destruction_always_available():
    # IM, Destruction mission: "Players may always choose a destruction mission whatever the result on the AFMT"
    report = declared("destruction", missions={"british": "neutralisation"}).audit()
    assert verdicts(report, "IM.ART.MISSION.DEST.ALWAYS") == {"ok"}
    assert not failing(report)


def test_interdiction_unlocked_by_suppression():
    # IM, Interdiction: "a specialised form of the suppression mission" (reading im-interdiction-unlock)
    assert legality_findings(declared("interdiction", missions={"british": "suppression"})) == set()
    assert "IM.ART.AFMT.ROLL" in legality_findings(declared("interdiction", missions={"british": "neutralisation"}))
    log = declared("interdiction", missions={"british": "neutralisation"})
    assert not failing(log.audit(interpretations=["im-interdiction-unlock=any"]))


def test_barrage_type_must_be_allowed_by_btt():
    # IM, Barrage Type Table: "to determine which barrage type is permitted during the scenario"
    assert "IM.ART.BTT.ROLL" in legality_findings(declared("destruction", "hurricane", allowed=["drumfire"]))


def test_only_off_map_elements_fire_barrages():
    # IM, General Rule: "Only OBMs may ... conduct the artillery fire missions (AFM) and barrage types (BAT)"
    log = ArtyLog()
    log.unit("gun-1", "british", "artillery-gun", "1:1001")
    log.barrage_phase(1)
    log.declare("b1", ["gun-1"])
    rules = legality_findings(log)
    assert {"IM.ART.GEN.TWO_KINDS", "IM.ART.DIRECT.NOPROC"} <= rules


def test_one_ammunition_per_hex():
    # IM, Selection and Effects of Ammunition: "Only one type of ammunition may be designated to attack a hexagon"
    log = ArtyLog()
    log.element("o1")
    log.element("o2")
    log.barrage_phase(1)
    log.declare("b1", ["o1"], ammo="he")
    log.declare("b2", ["o2"], ammo="shrapnel")
    report = log.audit()
    assert [a.seq for a in found(report, "IM.ART.AMMO.ONE_PER_HEX")] == [log.lines[-1]["seq"]]


# -- EC-17: counter-battery preconditions -------------------------------------------------------------------
def cb_log(date="1917-04", enemy_fired=True, weather="fair", fo_pinned=False, elements=("o1",)):
    log = ArtyLog(date=date, weather=weather)
    log.element("o1")
    log.element("o2")
    log.element("g1", "german")
    log.unit("g-inf", "german", "infantry-platoon", "1:1012")
    if fo_pinned:
        log.status("b-fo", "pinned")   # the builder's only British forward observer
    log.barrage_phase(1, "german")
    if enemy_fired:
        log.declare("gb", ["g1"], target="1:1001", side="german")
    log.barrage_phase(1, "british")
    log.declare("cb", list(elements), target=None, mission="counter-battery", target_element="g1")
    return log


def test_counter_battery_preconditions():
    # IM, Counter-battery mission: WWI, Allies from January 1917, enemy used an OBM in its previous barrage
    # phase, fair weather, a non-pinned FO/LNO or aircraft/balloon; one element (EC-17)
    seq_of = lambda log: next(l["seq"] for l in log.lines if l["data"].get("barrage") == "cb")
    ok = cb_log()
    assert [a for a in found(ok.audit(), "IM.ART.MISSION.CB.ELIG") if a.seq == seq_of(ok)] == []
    for bad in (cb_log(enemy_fired=False), cb_log(weather="bad"), cb_log(fo_pinned=True),
                cb_log(date="1916-06"), cb_log(date="1919-03"), cb_log(elements=("o1", "o2"))):
        assert [a for a in found(bad.audit(), "IM.ART.MISSION.CB.ELIG") if a.seq == seq_of(bad)], bad.lines[0]


# -- Allied use of shrapnel ---------------------------------------------------------------------------------
def allied_he(date, natural=None, mission="destruction"):
    log = ArtyLog(date=date, missions={"british": mission})
    log.element("o1")
    log.barrage_phase(1)
    log.declare("b1", ["o1"], mission=mission)
    if natural is not None:
        log.roll("IM.ART.AMMO.SHRAP.ALLIED", natural, "b1", "british")
    log.scatter("b1", 2, False)
    return log


def test_allied_shrapnel_compulsion():
    # IM, Allied use of shrapnel: "must obtain a 6 or more ... Add +1 in 1915 and +2 in 1916. ... free choice from 1917"
    assert shrapnel_compulsion_passed("1916-05", 4) and not shrapnel_compulsion_passed("1916-05", 3)
    assert shrapnel_compulsion_passed("1915-05", 5) and not shrapnel_compulsion_passed("1915-05", 4)
    assert verdicts(allied_he("1916-05", 4).audit(), "IM.ART.AMMO.SHRAP.ALLIED") == {"ok"}
    assert verdicts(allied_he("1916-05", 3).audit(), "IM.ART.AMMO.SHRAP.ALLIED") == {"violation"}
    assert verdicts(allied_he("1915-05", None).audit(), "IM.ART.AMMO.SHRAP.ALLIED") == {"missing-roll"}
    assert verdicts(allied_he("1917-05", None).audit(), "IM.ART.AMMO.SHRAP.ALLIED") == set()


def test_allied_shrapnel_vs_suppression_is_ambiguous_ap07():
    # AP-07: Allied WWI player, AFMT S, fails the compulsion roll: may it fire a suppression mission?
    log = allied_he("1916-05", 2, mission="suppression")
    assert verdicts(log.audit(), "IM.ART.AMMO.SHRAP.ALLIED") == {"ambiguous"}
    chosen = log.audit(interpretations=["im-allied-shrapnel-vs-mission=mission-barred"])
    assert verdicts(chosen, "IM.ART.AMMO.SHRAP.ALLIED") == {"violation"}


def test_afmt_and_btt_rolls_checked_against_the_pack():
    # IM, Artillery Fire Mission Table / Barrage Type Table: the charts are table data (sample pack: ILLUSTRATIVE)
    def setup(tables, afmt_roll, mission, btt_roll, allowed):
        log = ArtyLog(date="1917-04", tables=tables, missions={})
        log.roll("IM.ART.AFMT.ROLL", afmt_roll, "british", "british")
        log.add("ArtilleryMissionSet", {"side": "british", "mission": mission})
        log.roll("IM.ART.BTT.ROLL", btt_roll, "british", "british")
        log.add("BarrageTypesSet", {"side": "british", "allowed": allowed})
        return log.audit()
    # sample pack, allied 1917: AFMT 4 -> N; BTT 5 -> both
    good = setup("sample", 4, "neutralisation", 5, ["drumfire", "hurricane"])
    assert verdicts(good, "IM.ART.AFMT.ROLL") == {"ok"} and verdicts(good, "IM.ART.BTT.ROLL") == {"ok"}
    bad = setup("sample", 4, "suppression", 1, ["hurricane"])
    assert verdicts(bad, "IM.ART.AFMT.ROLL") == {"mismatch"} and verdicts(bad, "IM.ART.BTT.ROLL") == {"mismatch"}
    none = setup("none", 4, "suppression", 1, ["hurricane"])
    assert verdicts(none, "IM.ART.AFMT.ROLL") == {"unverifiable"}
