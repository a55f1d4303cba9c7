"""The Unit and OffMapArtilleryElement aggregates: the invariants they keep, and what they
record although the rules forbid it (the log records illegal play; the auditor judges it).

Each invariant is tested against the aggregate directly and through a log import, on both stores.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.log import LogError
from domain.model import OffMapArtilleryElement, Unit
from domain.model.artillery import NegativeFirepowerError, NegativeSpendError
from domain.model.base import LedgerInvariantError, OutOfOrderError, history
from domain.model.ids import element_uuid, unit_uuid
from domain.model.unit import EmptyPathError
from tests.builders import LogBuilder
from tests.conftest import SPEC

CASES = Path(__file__).resolve().parents[1] / "acceptance" / "cases"
# rules-catalogue.md, IM.ART.AMMOCON.ENABLE: "Each OBM ... may spend at most 25 artillery points".
OBM_POINTS = 25


def element(points=OBM_POINTS, firepower=20) -> OffMapArtilleryElement:
    return OffMapArtilleryElement("g", "obm-1", "british", firepower, points, 3)


def barrage_game(spends: list, eliminate_before_last: bool = False) -> LogBuilder:
    """An ammunition-option game whose element spends `spends` in turn 1's barrage phase."""
    b = LogBuilder(game="aggregates", options=["IM.ART.AMMOCON.ENABLE"])
    b.unit("b-fo", "british", "forward-observer", "1:1203")
    b.add("ArtilleryElementAssigned", {"element": "obm-1", "side": "british", "firepower": 20,
                                       "artillery_points": OBM_POINTS}, side="british")
    b.turn_start(1)
    b.phase_start("barrage", "british")
    for i, points in enumerate(spends):
        if eliminate_before_last and i == len(spends) - 1:
            b.add("ArtilleryElementEliminated", {"element": "obm-1", "by": None}, side="german")
        b.add("ArtilleryPointsSpent", {"element": "obm-1", "points": points, "reason": "interdiction"},
              side="british")
    return b


def stored_element(ledger, game: str = "aggregates") -> OffMapArtilleryElement:
    return ledger.repository.get(element_uuid(game, "obm-1"))


# -- the element's spends ------------------------------------------------------------------
@pytest.mark.parametrize("points", [-1, True, 2.5, "4"])
def test_an_element_refuses_a_spend_that_is_not_a_whole_number_of_0_or_more(points):
    # game-log.md, ArtilleryPointsSpent {`element`, `points`}: the format takes 0, 1, 2 ... only.
    obm = element()
    with pytest.raises(NegativeSpendError):
        obm.spend(points, seq=5)
    assert (obm.points_spent, obm.version) == (0, 1)


def test_a_spend_of_0_is_kept():
    # rules-catalogue.md, IM.ART.AMMOCON.EXEMPT: creeping and gas barrages "cost no points".
    obm = element()
    obm.spend(0, seq=5)
    assert (obm.points_spent, obm.points_left, obm.version) == (0, OBM_POINTS, 2)


def test_an_element_keeps_a_spend_beyond_its_points_and_says_it_overspent():
    # IM.ART.AMMOCON.COST ("reject any spend that would take an OBM's cumulative total above 25")
    # is judged by the auditor (IM.ART.AMMOCON.COST.CAP), so the record keeps the spend.
    obm = element()
    for seq in range(5, 12):
        obm.spend(4, seq=seq)
    assert obm.points_spent == 7 * 4
    assert obm.points_left == OBM_POINTS - 7 * 4 < 0
    assert obm.overspent


def test_an_element_with_no_points_recorded_counts_its_spends_against_nothing():
    # IM.ART.AMMOCON.ENABLE: points exist only with the option; the auditor reports a spend without it.
    obm = element(points=None)
    obm.spend(3, seq=5)
    assert (obm.points_spent, obm.points_left, obm.overspent) == (3, None, False)


def test_a_spend_and_a_second_elimination_after_the_elimination_are_kept_and_marked():
    obm = element()
    obm.spend(1, seq=5)
    obm.eliminate(seq=6)
    obm.spend(2, seq=7)
    obm.eliminate(seq=8)
    _, entries = history(obm.collect_events())
    marks = [(e["seq"], e["change"], e.get("after_elimination")) for e in entries]
    assert marks == [(3, "assigned", None), (5, "points-spent", False), (6, "eliminated", False),
                     (7, "points-spent", True), (8, "eliminated", True)]
    assert (obm.eliminated, obm.eliminated_seq, obm.points_spent) == (True, 6, 3)


@pytest.mark.parametrize("firepower", [-1, -20])
def test_an_element_refuses_a_negative_firepower(firepower):
    # game-log.md, ArtilleryElementAssigned {`firepower`}: never below 0.
    with pytest.raises(NegativeFirepowerError):
        element(firepower=firepower)


@pytest.mark.parametrize("firepower", [0, 4, 41])
def test_a_firepower_outside_5_to_40_is_kept_for_the_auditor(firepower):
    # rules-catalogue.md, IM.ART.GEN.FP: 5..40 is a rule the auditor judges, not a format error.
    assert element(firepower=firepower).firepower == firepower


# -- order and paths ------------------------------------------------------------------------
def test_an_aggregate_refuses_a_change_from_a_line_that_is_not_later_than_its_last():
    # game-log.md, Envelope: seq is 1, 2, 3 ... with no gaps, so each change comes from a later line.
    obm = element()
    obm.spend(1, seq=5)
    unit = Unit("g", "g-1", "german", "infantry-platoon", "1:1210", 4)
    for change in (lambda: obm.spend(1, seq=5), lambda: obm.eliminate(seq=2),
                   lambda: unit.move(["1:1210", "1:1211"], seq=4), lambda: unit.change_status("pinned", seq=1)):
        with pytest.raises(OutOfOrderError):
            change()
    assert (obm.version, unit.version) == (2, 1)


def test_a_unit_refuses_a_move_with_an_empty_path():
    # game-log.md, Units: `path`: [loc, ...] (first = start): a move names at least where it starts.
    unit = Unit("g", "g-1", "german", "infantry-platoon", "1:1210", 4)
    with pytest.raises(EmptyPathError):
        unit.move([], seq=5)
    assert (unit.location, unit.version) == ("1:1210", 1)


def test_a_unit_keeps_every_status_in_order_and_ends_where_its_path_ends():
    unit = Unit("g", "g-1", "german", "infantry-platoon", "1:1210", 4)
    unit.change_status("pinned", seq=5)
    unit.change_status("unpinned", seq=6)
    unit.change_status("eliminated", seq=7)
    unit.move(["1:1210", "1:1211", "1:1212"], seq=8)   # a move after elimination: the auditor's to judge
    assert unit.statuses == ["pinned", "unpinned", "eliminated"]
    assert (unit.location, unit.deployed_seq, unit.last_seq) == ("1:1212", 4, 8)


CHANGES = [{"seq": 5, "status": "pinned"}, {"seq": 6, "path": ["1:1210", "1:1211"], "mode": "run"},
           {"seq": 9, "status": "unpinned"}, {"seq": 12, "path": ["1:1211", "1:1311", "1:1312"], "mode": "normal"}]


def one_change_at_a_time(unit: Unit) -> Unit:
    for change in CHANGES:
        if "path" in change:
            unit.move(change["path"], change["seq"], mode=change["mode"])
        else:
            unit.change_status(change["status"], change["seq"])
    return unit


def test_a_batchs_changes_of_a_unit_in_one_event_leave_it_and_its_history_as_one_event_each():
    # An import stores a unit's changes of the batch as one Unit.Changed: the unit stands where
    # the same changes made one by one leave it, and its history has the same entry for each.
    one_by_one = one_change_at_a_time(Unit("g", "g-1", "german", "infantry-platoon", "1:1210", 4))
    at_once = Unit("g", "g-1", "german", "infantry-platoon", "1:1210", 4)
    at_once.change_all(CHANGES)
    events = at_once.collect_events()
    assert [type(e) for e in events] == [Unit.Deployed, Unit.Changed]
    assert (at_once.location, at_once.statuses, at_once.seqs) == \
           (one_by_one.location, one_by_one.statuses, one_by_one.seqs) == ("1:1312", ["pinned", "unpinned"],
                                                                            [4, 5, 6, 9, 12])
    folded, entries = history(events)
    assert entries == history(one_by_one.collect_events())[1]
    assert (folded.location, folded.seqs) == (at_once.location, at_once.seqs)


def test_a_single_change_of_a_batch_is_stored_as_its_own_event():
    unit = Unit("g", "g-1", "german", "infantry-platoon", "1:1210", 4)
    unit.change_all([CHANGES[1]])
    unit.change_all([CHANGES[2]])
    assert [type(e) for e in unit.collect_events()] == [Unit.Deployed, Unit.Moved, Unit.StatusChanged]
    assert (unit.location, unit.statuses, unit.seqs) == ("1:1211", ["unpinned"], [4, 6, 9])


@pytest.mark.parametrize("changes, error", [
    ([{"seq": 5, "status": "pinned"}, {"seq": 5, "path": ["1:1210"], "mode": "normal"}], OutOfOrderError),
    ([{"seq": 3, "status": "pinned"}, {"seq": 5, "path": ["1:1210"], "mode": "normal"}], OutOfOrderError),
    ([{"seq": 5, "status": "pinned"}, {"seq": 6, "path": [], "mode": "normal"}], EmptyPathError),
])
def test_a_batchs_changes_are_refused_whole_as_one_change_at_a_time_would_be(changes, error):
    unit = Unit("g", "g-1", "german", "infantry-platoon", "1:1210", 4)
    with pytest.raises(error):
        unit.change_all(changes)
    assert (unit.version, unit.seqs, unit.statuses) == (1, [4], [])


def test_every_named_refusal_is_a_ledger_invariant_error():
    for error in (NegativeSpendError, NegativeFirepowerError, OutOfOrderError, EmptyPathError):
        assert issubclass(error, LedgerInvariantError)


# -- through a log import, on both stores ---------------------------------------------------
def test_the_over_cap_acceptance_case_imports_and_its_element_shows_the_overspend(ledger):
    path = CASES / "ammo-points-over-cap.jsonl"
    texts = path.read_text(encoding="utf-8").splitlines()
    lines = [json.loads(t) for t in texts]
    spends = [l for l in lines if l["type"] == "ArtilleryPointsSpent" and l["data"]["element"] == "obm-1"]
    budget = next(l["data"]["artillery_points"] for l in lines if l["type"] == "ArtilleryElementAssigned")
    expected = json.loads(path.with_name("ammo-points-over-cap.expected.json").read_text())["findings"]
    assert any(f["rule"].startswith("IM.ART.AMMOCON") and f["verdict"] == "violation" for f in expected)

    assert ledger.import_lines(texts).appended == len(lines)
    obm = stored_element(ledger, "ammo-points-over-cap")
    total = sum(l["data"]["points"] for l in spends)
    assert (obm.points_spent, obm.points_left, obm.overspent) == (total, budget - total, True)
    assert obm.last_seq == spends[-1]["seq"]


def test_a_negative_spend_is_refused_by_the_format_with_its_line_and_nothing_is_stored(ledger):
    b = barrage_game([2, -1])
    with pytest.raises(LogError) as info:
        ledger.import_lines(b.texts())
    assert info.value.line == len(b.lines) and info.value.field.endswith(".points")
    assert not ledger.has_game("aggregates")


def test_a_bad_batch_appended_to_a_stored_game_leaves_the_element_as_it_was(ledger):
    b = barrage_game([2])
    ledger.import_lines(b.texts())
    before = stored_element(ledger)
    bad = {**b.lines[-1], "seq": len(b.lines) + 1, "data": {"element": "obm-1", "points": -3}}
    with pytest.raises(LogError):
        ledger.append("aggregates", [bad])
    after = stored_element(ledger)
    assert (after.version, after.points_spent) == (before.version, before.points_spent) == (2, 2)


def test_a_spend_after_the_elimination_imports_and_is_marked_in_the_history(ledger):
    b = barrage_game([1, 2], eliminate_before_last=True)
    ledger.import_lines(b.texts())
    state, entries = history(ledger.events.get(element_uuid("aggregates", "obm-1")))
    seqs = {l["type"]: l["seq"] for l in b.lines}
    assert state.eliminated_seq == seqs["ArtilleryElementEliminated"]
    assert entries[-1] == {"seq": len(b.lines), "change": "points-spent", "points": 2, "points_spent": 3,
                           "points_left": OBM_POINTS - 3, "after_elimination": True}


def test_the_history_fold_gives_the_repositorys_state(ledger):
    ledger.import_lines((SPEC / "examples" / "resistance-turns.jsonl").read_text(encoding="utf-8").splitlines())
    uid = unit_uuid("resistance-turns", "g-1")
    folded, entries = history(ledger.events.get(uid))
    stored = ledger.repository.get(uid)
    assert (folded.version, folded.location, folded.statuses, folded.seqs) == \
           (stored.version, stored.location, stored.statuses, stored.seqs)
    assert [e["seq"] for e in entries] == stored.seqs


def test_stored_units_and_elements_keep_the_topics_they_were_stored_under(ledger):
    # The creation events are now explicit classes: their topics must be those the
    # `@event("Deployed")` and `@event("Assigned")` decorators gave, or stored games stop loading.
    ledger.import_lines(barrage_game([1]).texts())
    unit_rows = ledger.recorder.select_events(unit_uuid("aggregates", "b-fo"))
    element_rows = ledger.recorder.select_events(element_uuid("aggregates", "obm-1"))
    assert unit_rows[0].topic == "domain.model.unit:Unit.Deployed"
    assert [r.topic for r in element_rows] == ["domain.model.artillery:OffMapArtilleryElement.Assigned",
                                               "domain.model.artillery:OffMapArtilleryElement.PointsSpent"]


def test_a_tabletop_unit_stands_at_the_last_point_of_its_path(ledger):
    path = SPEC / "examples-tabletop" / "avbcw-example.jsonl"
    texts = path.read_text(encoding="utf-8").splitlines()
    ledger.import_lines(texts)
    moves = [json.loads(t) for t in texts if '"UnitMoved"' in t]
    last = [m for m in moves if m["data"]["unit"] == "s-car"][-1]
    assert ledger.repository.get(unit_uuid("avbcw-example", "s-car")).location == last["data"]["path"][-1]


def test_a_status_of_a_listed_unit_not_yet_deployed_imports(ledger):
    # game-log-tabletop.md, UnitStatusChanged: `not-arrived` (AVBCW.ARMY.SUBTERFUGE, "before deployment").
    texts = (SPEC / "examples-tabletop" / "avbcw-example.jsonl").read_text(encoding="utf-8").splitlines()
    head = [json.loads(t) for t in texts[:4]]
    status = {**head[-1], "seq": 5, "side": "royalist", "type": "UnitStatusChanged",
              "data": {"unit": "r-inf", "status": "not-arrived"}}
    status.pop("prev", None)
    assert ledger.import_lines([*texts[:4], json.dumps(status)]).appended == 5
