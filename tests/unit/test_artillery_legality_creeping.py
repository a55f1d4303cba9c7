"""Simple and double creeping barrages (IM.ART section F), from 'Simple creeping barrage' and
'Double creeping barrage'."""
from __future__ import annotations

import pytest

from domain.rules.infernal_machines.artillery_legality_creeping import (
    dcb_initial_rows, dcb_step, scb_advance, scb_rows)
from tests.artillery_helpers import ArtyLog, verdicts


def scb(side="british", date="1916-06", afmt="suppression", elements=3, maps=("1",), extra_roll=None, turn=0,
        mission="simple-creeping"):
    log = ArtyLog(date=date, missions={side: afmt}, maps=list(maps))
    for i in range(elements):
        log.element(f"e{i}", side)
    if extra_roll is not None:
        log.roll("IM.ART.MISSION.SCB.ELIG", extra_roll, side, side)
    if turn:
        log.barrage_phase(turn, side)
    log.declare("creep", [f"e{i}" for i in range(elements)], target=None, mission=mission, side=side)
    return log


@pytest.mark.parametrize("side,date,afmt,elements,maps,roll,verdict", [
    ("british", "1916-05", "suppression", 3, ("1",), 2, "violation"),   # before June 1916
    ("british", "1916-06", "suppression", 3, ("1",), 2, "ok"),
    ("british", "1916-06", "suppression", 3, ("1",), 4, "violation"),   # second d6 must be 1-3
    ("british", "1917-03", "suppression", 3, ("1",), None, "ok"),       # free from 1917
    ("german", "1915-06", "suppression", 3, ("1",), None, "violation"),
    ("german", "1915-07", "suppression", 3, ("1",), None, "ok"),
    ("german", "1916-04", "neutralisation", 3, ("1",), None, "violation"),   # needs a suppression result
    ("german", "1916-04", "suppression", 2, ("1",), None, "violation"),      # >= 3 per map
    ("german", "1916-04", "suppression", 5, ("1", "2"), None, "violation"),  # two maps need 6
    ("german", "1920-04", "suppression", 3, ("1",), None, "violation"),      # post-WWI
])
def test_scb_eligibility_table(side, date, afmt, elements, maps, roll, verdict):
    # EC-19
    report = scb(side, date, afmt, elements, maps, roll).audit()
    assert "violation" in verdicts(report, "IM.ART.MISSION.SCB.ELIG") if verdict == "violation" \
        else verdicts(report, "IM.ART.MISSION.SCB.ELIG") == {"ok"}


def test_scb_missing_allied_roll_and_late_selection():
    # "The simple creeping barrage must be selected before the scenario begins" (EC-19)
    assert verdicts(scb("british", "1916-07").audit(), "IM.ART.MISSION.SCB.ELIG") == {"missing-roll", "ok"}
    assert "violation" in verdicts(scb("german", "1916-04", turn=1).audit(), "IM.ART.MISSION.SCB.ELIG")


def test_scb_elements_not_available_for_other_missions():
    # "The off-map artillery elements are not available for other mission types during the scenario"
    log = scb("german", "1916-04")
    log.barrage_phase(1, "german")
    log.declare("b2", ["e0"], side="german")
    assert "violation" in verdicts(log.audit(), "IM.ART.MISSION.SCB.ELIG")


def test_scb_rows_by_period():
    # 5 rows; "January to June 1918" 3 rows; "From July 1918" 2 rows (EC-20)
    assert (scb_rows("1917-05"), scb_rows("1918-03"), scb_rows("1918-08")) == (5, 3, 2)


def test_scb_advance_roll():
    # EC-20: d6 = 3 advances 5 rows (1917); d6 = 4 stays; March 1918 3 rows; August 1918 2 rows
    assert scb_advance("1917-05", 3) == 5 and scb_advance("1917-05", 4) == 0
    assert scb_advance("1918-03", 1) == 3 and scb_advance("1918-08", 2) == 2


def test_scb_cancel_threshold_is_ambiguous():
    # AP-04: "may be cancelled once ... by rolling a six-sided die": no threshold printed
    log = scb("german", "1918-08")
    log.barrage_phase(1, "german")
    log.roll("IM.ART.MISSION.SCB.CANCEL", 3, "creep", "german")
    assert verdicts(log.audit(), "IM.ART.MISSION.SCB.CANCEL") == {"ambiguous"}
    early = scb("german", "1918-03")
    early.barrage_phase(1, "german")
    early.roll("IM.ART.MISSION.SCB.CANCEL", 3, "creep", "german")
    assert verdicts(early.audit(), "IM.ART.MISSION.SCB.CANCEL") == {"violation"}
    log.roll("IM.ART.MISSION.SCB.CANCEL", 2, "creep", "german")
    assert "violation" in verdicts(log.audit(interpretations=["im-scb-cancel-threshold=1-3"]),
                                   "IM.ART.MISSION.SCB.CANCEL")


def test_dcb_eligibility():
    # EC-21: Allied DCB rejected; German December 1915 rejected; February 1916 with 5 per panel rejected, 6 accepted
    def v(side, date, n):
        return verdicts(scb(side, date, elements=n, mission="double-creeping").audit(), "IM.ART.MISSION.DCB.ELIG",
                        exact=True)
    assert "violation" in v("british", "1917-03", 6)
    assert "violation" in v("german", "1915-12", 6)
    assert "violation" in v("german", "1916-02", 5)
    assert v("german", "1916-02", 6) == {"ok"}


def test_dcb_rows():
    # near 2 rows, far exactly 6; near advances 2 a barrage phase; on overlap far jumps 6; from July 1917 only
    # when German units are adjacent to the near line's rear
    near, far = dcb_initial_rows()
    assert (near, far) == (2, 6)
    near, far = dcb_step(near, far, "1916-05")
    assert (near, far) == (4, 6)
    assert dcb_step(near, far, "1916-05") == (6, 12)
    assert dcb_step(4, 6, "1917-08", germans_adjacent=False) == (4, 6)


def test_scb_barrage_row_not_too_close():
    # "The initial hexagon row chosen must be five hexagon rows away from the nearest friendly unit"
    # (three from January 1918): a row closer than that is a violation; the template stays a chart.
    from projections.audit_trail import audit_lines
    from tests.acceptance.artillery_text_cases import TEXT_CASES

    def place(name):
        report = audit_lines([dict(line) for line in TEXT_CASES[name]().lines])
        return [a.verdict.value for a in report.applications if a.rule == "IM.ART.MISSION.SCB.PLACE"]
    assert place("hand-simple-creeping-row-too-close") == ["violation"]
    assert place("hand-simple-creeping-row-three-away-in-1918") == ["ok"]
