"""Generic checks (docs/audit.md): the acting side, eliminated units, dice ranges."""
from __future__ import annotations

from domain.log import read_lines
from projections.audit_trail import audit_lines
from tests.builders import LogBuilder


def findings(b: LogBuilder, prefix: str) -> list[tuple[int, str, str]]:
    report = audit_lines(read_lines(b.texts()))
    return [(a.seq, a.rule, a.verdict.value) for a in report.findings if a.rule.startswith(prefix)]


def game() -> LogBuilder:
    b = LogBuilder()
    b.add("MapDefined", {"maps": ["1"], "hexes": {}, "hexsides": []})
    b.add("WeatherSet", {"weather": "fair", "terrain_state": "good"})
    b.unit("g-1", "german", "infantry-platoon", "1:1210")
    b.unit("b-1", "british", "infantry-platoon", "1:1205")
    b.turn_start(1)
    return b


def test_a_side_moves_only_its_own_units():
    b = game()
    b.phase_start("first-foot-movement", "british")
    move = b.add("UnitMoved", {"unit": "g-1", "path": ["1:1210", "1:1209"]}, side="british")
    assert (move["seq"], "IM.CORE.SIDE", "violation") in findings(b, "IM.CORE.SIDE")


def test_a_retreat_outside_the_movement_phases_may_be_recorded_by_either_player():
    b = game()
    b.phase_start("offensive-small-arms-fire", "british")
    b.add("UnitMoved", {"unit": "g-1", "path": ["1:1210", "1:1211"], "retreat": True}, side="british")
    assert findings(b, "IM.CORE.SIDE") == []


def test_an_eliminated_unit_does_not_act():
    b = game()
    b.phase_start("first-foot-movement", "german")
    b.add("UnitStatusChanged", {"unit": "g-1", "status": "eliminated"}, side="german")
    move = b.add("UnitMoved", {"unit": "g-1", "path": ["1:1210", "1:1209"]}, side="german")
    assert (move["seq"], "IM.CORE.REF", "violation") in findings(b, "IM.CORE.REF")


def test_a_die_cannot_show_more_than_its_faces():
    # IM, Global conventions: a recorded roll is the natural result of the die named.
    b = game()
    b.phase_start("offensive-small-arms-fire", "british")
    bad = b.add("DieRolled", {"purpose": "LS.SACRT", "die": "d6", "result": 7, "subject": "b-1"}, side="british")
    two = b.add("DieRolled", {"purpose": "LS.MORALE", "die": "2d6", "result": 7, "results": [3, 3],
                              "subject": "b-1"}, side="british")
    found = findings(b, "IM.CORE.DICE.RANGE")
    assert (bad["seq"], "IM.CORE.DICE.RANGE", "violation") in found
    assert (two["seq"], "IM.CORE.DICE.RANGE", "violation") in found


def test_the_spotting_roll_is_a_d10():
    # IM, Spotting: the Spotting Table is read with a d10.
    b = game()
    b.phase_start("offensive-small-arms-fire", "british")
    roll = b.add("DieRolled", {"purpose": "IM.SPOT.ROLL", "die": "d6", "result": 3, "subject": "b-1"}, side="british")
    assert (roll["seq"], "IM.CORE.DICE", "violation") in findings(b, "IM.CORE.DICE")


def _case_lines(name: str) -> list[str]:
    from tests.conftest import ROOT
    return (ROOT / "tests" / "acceptance" / "cases_avbcw" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()


def _roll_about(texts: list[str], subject: str, purpose: str, phase: str) -> list[str]:
    import json
    last = json.loads(texts[-1])
    roll = {**last, "seq": last["seq"] + 1, "phase": phase, "side": last["side"] or "royalist", "type": "DieRolled",
            "data": {"purpose": purpose, "die": "d6", "result": 3, "subject": subject}}
    roll.pop("prev", None)
    return [*texts, json.dumps(roll)]


def test_a_roll_may_be_about_a_unit_an_army_list_names_or_a_marker_placed():
    # game-log-tabletop.md: Subterfuge's d6 is rolled "before deployment" about its target, which
    # only the army list names by then; a smoke marker's drift d6 is about the marker (its `id`).
    texts = _case_lines("army-smoke-mortar-in-range")     # r-mor listed and deployed; smoke sm-1 placed last
    smoke = _roll_about(texts, "sm-1", "AVBCW.EQ.SMOKE", "missile-fire")
    assert [f for f in audit_lines(read_lines(smoke)).findings if f.rule == "AVBCW.CORE.REF"] == []
    nothing = _roll_about(texts, "sm-9", "AVBCW.EQ.SMOKE", "missile-fire")
    assert [(f.rule, f.verdict.value) for f in audit_lines(read_lines(nothing)).findings
            if f.rule == "AVBCW.CORE.REF"] == [("AVBCW.CORE.REF", "violation")]
