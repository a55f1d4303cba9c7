"""Barrage effects by mission x ammunition x target class x zone (IM.ART section J)."""
from __future__ import annotations

from domain.rules.infernal_machines.artillery_effects import (
    active_impact_zones, barrage_effect, half_firepower, suppression_penalties)
from tests.artillery_helpers import ArtyLog, failing, found, verdicts


def barrage(mission="destruction", date="1917-04", missions=None, **kw) -> ArtyLog:
    missions = missions or {"british": mission if mission != "destruction" else "neutralisation"}
    log = ArtyLog(date=date, missions=missions, **kw)
    log.element("o1")
    return log


def fire(log, result, zone="primary", loc="1:1010", mission="destruction", ammo="he", natural=3,
         bat="drumfire", modifiers=None):
    log.barrage_phase(1)
    log.declare("b1", ["o1"], mission=mission, ammo=ammo, target=loc, bat=bat)
    log.scatter("b1", 1, False, kind=bat.upper())
    hurricane = bat == "hurricane"
    log.resolve("b1", natural, 20, "10" if hurricane else "20", [(loc, zone, result)],
                element="o1" if hurricane else None, modifiers=modifiers)


def test_effect_matrix_pure():
    # Section J, row by row (Selection and Effects of Ammunition)
    e = barrage_effect("destruction", "he", "inf", "primary", "H")
    assert e.outcome == "eliminated"                                            # D/HE P: H -> eliminated
    assert barrage_effect("destruction", "he", "inf", "primary", "miss").outcome == "pinned"
    assert barrage_effect("destruction", "he", "inf", "primary", "miss", pinned=True).outcome == "retreat"
    s = barrage_effect("destruction", "shrapnel", "cav", "secondary", "H")
    assert (s.on_pass, s.on_fail, s.rule) == ("pinned", "eliminated", "IM.ART.EFF.DEST.SHR.CAV")
    assert barrage_effect("destruction", "shrapnel", "sw", "primary", "H").outcome == "none"
    assert barrage_effect("destruction", "shrapnel", "tank", "primary", "H+2").subroll is None
    assert barrage_effect("neutralisation", "he", "inf", "primary", "H").outcome == "pinned-2"
    assert barrage_effect("neutralisation", "he", "cav", "primary", "miss").outcome == "none"
    assert barrage_effect("neutralisation", "he", "sw", "primary", "H").outcome == "none"
    assert barrage_effect("neutralisation", "he", "light", "secondary", "H").on_pass == "pinned-2"
    assert barrage_effect("suppression", "he", "cav", "primary", "H", pinned=True).outcome == "retreat"
    assert barrage_effect("suppression", "he", "sw", "primary", "H").outcome == "none"
    assert barrage_effect("suppression", "he", "tank", "primary", "H").outcome == "none"
    assert barrage_effect("interdiction", "he", "inf", "primary", "H").outcome == "none"     # may not move
    assert barrage_effect("interdiction", "he", "inf", "primary", "H", on_bridge=True).outcome == "pinned"
    assert barrage_effect("interdiction", "he", "cav", "secondary", "H").outcome == "none"
    assert barrage_effect("interdiction", "he", "sw", "primary", "H").outcome == "none"
    assert barrage_effect("interdiction", "he", "light", "primary", "miss").outcome == "pinned"
    assert barrage_effect("simple-creeping", "he", "inf", "primary", "H").rule == "IM.ART.EFF.SUPP.HE.INF"


def test_first_turn_example_miss_pins():
    # D/HE primary zone: "automatically pinned on a miss result" (examples/first-turn-barrage.jsonl)
    log = barrage()
    log.unit("g1", "german", "infantry-platoon", "1:1010")
    fire(log, "miss")
    log.status("g1", "pinned", cause="b1")
    assert verdicts(log.audit(), "IM.ART.EFF.DEST.HE.INF") == {"ok"}
    wrong = barrage()
    wrong.unit("g1", "german", "infantry-platoon", "1:1010")
    fire(wrong, "H")
    wrong.status("g1", "pinned", cause="b1")
    assert verdicts(wrong.audit(), "IM.ART.EFF.DEST.HE.INF") == {"mismatch"}    # an H eliminates


def test_missing_effect_is_a_mismatch():
    log = barrage()
    log.unit("g1", "german", "infantry-platoon", "1:1010")
    fire(log, "H")
    assert verdicts(log.audit(), "IM.ART.EFF.DEST.HE.INF") == {"mismatch"}


def test_destruction_secondary_one_morale_check_ex_im_13():
    # EX-IM-13: H+1 in S, morale 4 and 5, one check of natural 4 (5): the 4 is eliminated, the 5 pinned
    log = barrage()
    log.unit("a", "german", "infantry-platoon", "1:1010", morale=4)
    log.unit("b", "german", "infantry-platoon", "1:1010", morale=5)
    fire(log, "H+1", zone="secondary")
    log.roll("LS.MORALE", 4, "b1", "german", modifiers=[{"value": 1, "why": "H+1"}])
    log.add("MoraleChecked", {"units": ["a"], "morale": 4, "passed": False}, side="german")
    log.add("MoraleChecked", {"units": ["b"], "morale": 5, "passed": True}, side="german")
    log.status("a", "eliminated", cause="b1")
    log.status("b", "pinned", cause="b1")
    report = log.audit()
    assert not failing(report), failing(report)
    # reject_if: two morale rolls for the hex
    log.lines.insert(-4, {**log.lines[-5], "seq": 0})
    for i, line in enumerate(log.lines, 1):
        line["seq"] = i
    assert verdicts(log.audit(), "IM.ART.EFF.MC_SINGLE") == {"violation"}


def test_neutralisation_secondary_ex_im_14():
    # EX-IM-14: N/HE, H+1 in S: natural 3 (4 <= 4) passes -> no effect; natural 4 fails -> pinned (duration: AP-13)
    def case(natural, pinned_turns=None):
        log = barrage("neutralisation", date="1918-04")
        log.unit("u", "german", "infantry-platoon", "1:1010", morale=4)
        fire(log, "H+1", zone="secondary", mission="neutralisation", bat="hurricane")
        log.roll("LS.MORALE", natural, "b1", "german")
        log.add("MoraleChecked", {"units": ["u"], "morale": 4, "passed": natural + 1 <= 4}, side="german")
        if pinned_turns is not None:
            log.status("u", "pinned", cause="b1", turns=pinned_turns)
        return log.audit()
    assert not failing(case(3))
    assert "IM.ART.EFF.NEUT.HE.INF" in {a.rule for a in found(case(3, 2))}       # passing: no pin
    assert verdicts(case(4, 2), "IM.ART.EFF.NEUT.HE.INF") >= {"ambiguous"}      # AP-13
    assert not failing(case(4, 2))


def test_shrapnel_morale_uses_shifted_result():
    # IM, Shrapnel example: H+1 becomes H+2 and "units which test their morale will have their die result
    # modified by +2"
    log = barrage()
    log.unit("u", "german", "infantry-platoon", "1:1010", morale=4)
    fire(log, "H+1", zone="secondary", ammo="shrapnel", bat="hurricane")
    log.roll("LS.MORALE", 2, "b1", "german", modifiers=[{"value": 2, "why": "H+2"}])
    log.add("MoraleChecked", {"units": ["u"], "morale": 4, "passed": True}, side="german")
    log.status("u", "pinned", cause="b1")
    assert not failing(log.audit())


def test_destruction_cavalry_dismount_ec27():
    # EC-27: cavalry in S with H+1 passes -> pinned; dismount d6 = 1 -> dismounted; = 2 -> stays mounted
    def case(dismount_roll, dismounted):
        log = barrage()
        log.unit("c", "german", "cavalry-platoon", "1:1010", morale=5)
        fire(log, "H+1", zone="secondary", modifiers=[-1])    # mounted cavalry -1 on the BCRT
        log.roll("LS.MORALE", 2, "b1", "german")
        log.add("MoraleChecked", {"units": ["c"], "morale": 5, "passed": True}, side="german")
        log.status("c", "pinned", cause="b1")
        log.roll("IM.ART.EFF.DEST.HE.CAV", dismount_roll, "c", "german")
        if dismounted:
            log.status("c", "dismounted", cause="b1")
        return log.audit()
    assert not failing(case(1, True)) and not failing(case(2, False))
    assert verdicts(case(2, True), "IM.ART.EFF.DEST.HE.CAV") >= {"mismatch"}


def test_destruction_support_weapons_ec27():
    # EC-27: SW in P with H -> eliminated, no sub-roll; in S: sub-roll 2 destroys, 3 does not
    log = barrage()
    log.unit("sw", "german", "support-weapon", "1:1010")
    fire(log, "H")
    log.status("sw", "eliminated", cause="b1")
    assert not failing(log.audit())

    def secondary(sub, eliminated):
        log = barrage()
        log.unit("sw", "german", "support-weapon", "1:1010")
        fire(log, "H", zone="secondary")
        log.roll("IM.ART.EFF.DEST.HE.SW", sub, "sw", "german")
        if eliminated:
            log.status("sw", "eliminated", cause="b1")
        return log.audit()
    assert not failing(secondary(2, True)) and not failing(secondary(3, False))
    assert verdicts(secondary(3, True), "IM.ART.EFF.DEST.HE.SW") == {"mismatch"}


def test_vehicle_subrolls_ec24():
    # EC-24: D/HE P H: d6 1 destroys; I/HE P H: 1-3 destroys; N/HE P H+2: no effect
    def case(mission, result, sub, destroyed, zone="primary"):
        log = barrage(mission)
        log.unit("t", "german", "tank", "1:1010")
        fire(log, result, zone=zone, mission=mission)
        if sub is not None:
            log.roll(f"IM.ART.EFF.{'DEST' if mission == 'destruction' else 'INT'}.HE.VEH", sub, "t", "german")
        if destroyed:
            log.status("t", "eliminated", cause="b1")
        return log.audit()
    assert not failing(case("destruction", "H", 1, True))
    assert not failing(case("destruction", "H", 2, False))
    assert not failing(case("interdiction", "H", 3, True))
    assert verdicts(case("interdiction", "H", 4, True), "IM.ART.EFF.INT.HE.VEH") == {"mismatch"}
    assert verdicts(case("destruction", "H", None, False), "IM.ART.EFF.DEST.HE.VEH") == {"missing-roll"}
    assert verdicts(case("neutralisation", "H+2", None, True), "IM.ART.EFF.NEUT.HE.VEH") == {"mismatch"}


def test_suppression_miss_half_firepower_ec26():
    # EC-26: S/HE miss: no pin; next turn the platoon fires at 3 (ceil 5/2) and the crew not at all
    log = barrage("suppression")
    log.unit("p", "german", "infantry-platoon", "1:1010", firepower=5)
    log.unit("c", "german", "crew", "1:1010")
    fire(log, "miss", mission="suppression")
    report = log.audit()
    assert not failing(report)
    from domain.board.state import fold
    penalties = suppression_penalties(log.lines, lambda loc, seq: fold(log.lines, upto=seq - 1).units_at(loc))
    assert penalties == {"p": {"turn": 2, "fire": "half"}, "c": {"turn": 2, "fire": "none"}}
    assert half_firepower(5) == 3


def test_obstacle_removal():
    # D/HE obstacles: "final firepower 31+ ... on a natural 1, one marker is removed"; other missions: no effect
    def case(firepower, natural, mission="destruction", result="H"):
        log = barrage(mission)
        log.add("MarkerPlaced", {"marker": "wire", "location": "1:1010"})
        log.element("o2")
        log.barrage_phase(1)
        log.declare("b1", ["o1", "o2"], mission=mission, target="1:1010")
        log.scatter("b1", 1, False)
        log.resolve("b1", natural, firepower, "31+" if firepower >= 31 else "20", [("1:1010", "primary", result)])
        log.add("MarkerRemoved", {"marker": "wire", "location": "1:1010"}, side="british")
        return log.audit()
    assert verdicts(case(40, 1), "IM.ART.EFF.DEST.HE.OBST") == {"ok"}
    assert verdicts(case(40, 2), "IM.ART.EFF.DEST.HE.OBST") == {"mismatch"}
    assert verdicts(case(40, 1, "neutralisation"), "IM.ART.EFF.NEUT.HE.OBST") == {"mismatch"}
    assert verdicts(case(20, 1, result="*"), "IM.ART.EFF.DEST.HE.OBST") == {"ambiguous"}   # AP-11


def test_bridge_roll_after_miss_ambiguous_ap14():
    log = barrage("interdiction", hexes={"1:1010": {"terrain": "clear", "features": ["bridge"]}},
                  missions={"british": "suppression"})
    fire(log, "miss", mission="interdiction")
    log.roll("IM.ART.EFF.INT.HE.OBST", 2, "b1", "british")
    assert verdicts(log.audit(), "IM.ART.EFF.INT.HE.OBST") == {"ambiguous"}


def test_smoke_has_no_effect_on_units():
    log = barrage("suppression", permissions=["smoke"])
    log.unit("g", "german", "infantry-platoon", "1:1010")
    log.barrage_phase(1)
    log.declare("b1", ["o1"], mission="suppression", ammo="smoke")
    log.scatter("b1", 2, False, element="o1", subject="o1")
    log.add("MarkerPlaced", {"marker": "smoke", "location": "1:1010"}, side="british")
    log.status("g", "pinned", cause="b1")
    report = log.audit()
    assert verdicts(report, "IM.ART.EFF.SMOKE") == {"mismatch"}
    assert verdicts(report, "IM.ART.AMMO.SMOKE.EFFECT") == {"ok"}


def test_smoke_removed_in_opponent_pin_removal():
    # "Smoke markers are removed during the opposing player's turn, in the 'pin removal' phase."
    def case(phase, active):
        log = barrage("suppression", permissions=["smoke"])
        log.barrage_phase(1)
        log.declare("b1", ["o1"], mission="suppression", ammo="smoke")
        log.scatter("b1", 2, False, element="o1")
        log.add("MarkerPlaced", {"marker": "smoke", "location": "1:1010"}, side="british")
        log.phase_start(phase, active)
        log.add("MarkerRemoved", {"marker": "smoke", "location": "1:1010"}, side=active)
        return verdicts(log.audit(), "IM.ART.AMMO.SMOKE.EFFECT")
    assert case("pin-removal", "german") == {"ok"}
    assert "violation" in case("pin-removal", "british")
    assert "violation" in case("end", "german")


def gas_log(unit_side="german", cls="infantry-platoon", turns=None, double_roll=None, date="1916-04"):
    log = ArtyLog(date=date, permissions=["gas"])
    log.element("g1", "german")
    log.unit("u", unit_side, cls, "1:1010")
    log.barrage_phase(1, "german")
    log.declare("gb", ["g1"], mission="gas", ammo="gas", side="german")
    log.scatter("gb", 2, False, element="g1", side="german")
    log.add("MarkerPlaced", {"marker": "gas", "location": "1:1010"}, side="german")
    if double_roll is not None:
        log.roll("IM.ART.AMMO.GAS.DOUBLE", double_roll, "u", "german")
    log.status("u", "pinned", cause="gb", side="german", turns=turns)
    return log


def test_gas_friendly_and_immune():
    # Gas: "no effect on ... tanks or armoured cars"; scattered gas on friendly units: "there is no effect"
    assert verdicts(gas_log(unit_side="british").audit(), "IM.ART.AMMO.GAS.EFFECTS") == {"ok"}
    assert verdicts(gas_log(unit_side="german").audit(), "IM.ART.SCATTER.GAS_FRIENDLY") == {"mismatch"}
    assert verdicts(gas_log(unit_side="british", cls="tank").audit(), "IM.ART.EFF.GAS") == {"mismatch"}


def test_double_gas_rolls_ec23():
    # EC-23: German gas 1916: d6 4-6 -> pinned 4 turns; 1-3 -> survives
    assert verdicts(gas_log("british", turns=4, double_roll=4).audit(), "IM.ART.AMMO.GAS.DOUBLE") == {"ok"}
    assert verdicts(gas_log("british", turns=4, double_roll=3).audit(), "IM.ART.AMMO.GAS.DOUBLE") == {"mismatch"}
    assert verdicts(gas_log("british", turns=4, double_roll=5, date="1915-12").audit(),
                    "IM.ART.AMMO.GAS.DOUBLE") == {"violation"}


def test_gas_area_and_duration_ambiguous_ap03():
    log = gas_log("british")
    log.turn_start(2)
    log.phase_start("end", "british")
    log.add("MarkerRemoved", {"marker": "gas", "location": "1:1010"}, side="british")
    report = log.audit()
    assert "ambiguous" in verdicts(report, "IM.ART.MISSION.GAS.AREA")
    assert verdicts(report, "IM.ART.MISSION.GAS.DURATION") == {"ambiguous"}
    chosen = log.audit(interpretations=["im-gas-duration=opponent-turn", "im-gas-area=radius-3"])
    assert verdicts(chosen, "IM.ART.MISSION.GAS.DURATION") == {"ok"}


def test_counter_battery_elimination():
    # Counter-battery: "If the fire does not scatter, one enemy off-map artillery element is eliminated"
    def case(natural, scattered):
        log = ArtyLog(date="1917-06")
        log.element("o1")
        log.element("g1", "german")
        log.barrage_phase(1, "german")
        log.declare("gb", ["g1"], target="1:1004", side="german")
        log.barrage_phase(1, "british")
        log.declare("cb", ["o1"], target=None, mission="counter-battery", target_element="g1")
        log.scatter("cb", natural, scattered, modifiers=[2])
        log.add("ArtilleryElementEliminated", {"element": "g1", "by": "cb"}, side="british")
        return log.audit()
    assert verdicts(case(2, False), "IM.ART.EFF.CB") == {"ok"}
    assert verdicts(case(3, True), "IM.ART.EFF.CB") == {"mismatch"}
    assert verdicts(case(3, True), "IM.ART.MISSION.CB.RESOLVE") == {"ok"}


def test_active_impact_zones_until_next_barrage_phase():
    # IM, Who may fire: effects "continue to exist during the opponent's turn until the player's next barrage phase"
    log = barrage()
    fire(log, "H")
    log.phase_start("barrage", "german")
    assert [z["primary"] for z in active_impact_zones(log.lines)] == [["1:1010"]]
    log.turn_start(2)
    log.phase_start("barrage", "british")
    assert active_impact_zones(log.lines) == []
