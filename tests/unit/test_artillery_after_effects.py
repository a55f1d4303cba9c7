"""After a barrage: small arms fire the turn after a suppression barrage (IM, Effects of a suppression
mission with high-explosive ammunition against infantry: "half their firepower (round fractions up)
during the next complete turn"; "Crews may not fire at all during one complete turn"), and gassed
units (IM, Gas)."""
from __future__ import annotations

from projections.audit_trail import audit_lines
from domain.rules.infernal_machines.artillery_effects import half_firepower
from tests.acceptance.artillery_text_cases import suppressed_then_fires


def supp_findings(game) -> list[tuple[int, str]]:
    report = audit_lines([dict(line) for line in game.lines])
    return [(a.seq, a.verdict.value) for a in report.applications
            if a.rule == "IM.ART.EFF.SUPP.HE.INF" and a.verdict.value != "ok"]


def test_half_firepower_next_turn():
    assert half_firepower(5) == 3 and half_firepower(4) == 2
    assert supp_findings(suppressed_then_fires(2)[0]) == []
    game, seq = suppressed_then_fires(4)
    assert supp_findings(game) == [(seq, "mismatch")]


def test_only_the_next_turn():
    assert supp_findings(suppressed_then_fires(4, later=2)[0]) == []


def test_crews_may_not_fire():
    game, seq = suppressed_then_fires(1, cls="crew")
    assert supp_findings(game) == [(seq, "violation")]


def test_gassed_units_stay_put_while_the_marker_remains():
    # IM, Gas: "gassed units may not fire or move until the gas marker is removed"
    from tests.acceptance.artillery_text_cases import TEXT_CASES
    for name, verdicts in (("hand-gassed-unit-recovers-while-gas-remains", ["violation"]),
                           ("hand-gassed-unit-moves-after-gas-removed", [])):
        report = audit_lines([dict(line) for line in TEXT_CASES[name]().lines])
        assert [a.verdict.value for a in report.applications
                if a.rule == "IM.ART.AMMO.GAS.EFFECTS" and a.verdict.value != "ok"] == verdicts, name


def test_interdicted_infantry_hold_their_next_turn():
    # IM, interdiction HE vs infantry: no move on their next turn; an already pinned unit does not recover
    from tests.acceptance.artillery_text_cases import TEXT_CASES
    for name, verdicts in (("hand-interdicted-infantry-moves-next-turn", ["violation"]),
                           ("hand-interdicted-infantry-moves-the-turn-after", []),
                           ("hand-interdicted-pinned-infantry-recovers", ["violation"])):
        report = audit_lines([dict(line) for line in TEXT_CASES[name]().lines])
        assert [a.verdict.value for a in report.applications
                if a.rule == "IM.ART.EFF.INT.HE.INF" and a.verdict.value != "ok"] == verdicts, name


def test_a_gassed_unit_is_free_once_the_gas_has_lapsed_even_unremoved():
    # IM, Gas: "gassed units may not fire or move until the gas marker is removed"; a log that never
    # records the removal still loses the gas when its lifetime has passed under both readings of
    # im-gas-duration (domain/board/lifetimes.py), so recovering three turns later is no violation.
    from tests.acceptance.artillery_text_cases import gassed_british_unit
    g = gassed_british_unit()
    g.phase_start("pin-removal")
    early = g.add("UnitStatusChanged", {"unit": "b-x", "status": "unpinned"}, "british")
    g.add("UnitStatusChanged", {"unit": "b-x", "status": "pinned", "cause": "test"}, "british")
    for turn in (4, 5, 6):
        g.phase_start("end"); g.phase_start("pin-removal", "german"); g.phase_start("end", "german")
        g.new_turn(turn)
    g.phase_start("pin-removal")
    late = g.add("UnitStatusChanged", {"unit": "b-x", "status": "unpinned"}, "british")
    report = audit_lines([dict(line) for line in g.lines])
    gas = [(a.seq, a.verdict.value) for a in report.applications
           if a.rule == "IM.ART.AMMO.GAS.EFFECTS" and a.verdict.value == "violation"]
    assert (early, "violation") in gas and (late, "violation") not in gas
