"""The services the dashboard's scribe records with (api/recording.py): one event from a form,
its envelope made from the game so far, with a batch's rights; a correction (a dispute and its
ruling) stored together or not at all; a ruling's corrections checked against the game's rule
system."""
from __future__ import annotations

import pytest

from api import recording
from api.deps import services_for
from api.problems import ProblemError
from domain.application import UnknownGame
from domain.log import LogError
from tests.e2e.api_helpers import small_game


@pytest.fixture
def services(api_db):
    services = services_for(api_db)
    admin = services.tokens.issue("admin")[1]
    recording.append_batch(services, admin, "g-1", small_game().lines)
    return services


def principal(services, role, side=None):
    return services.tokens.issue(role, "g-1" if role == "player" else None, side)[1]


def test_an_event_is_stored_next_with_the_turn_and_phase_it_opens_or_finds(services):
    british = principal(services, "player", "british")
    turn = recording.record_event(services, british, "g-1", "TurnStarted", None, {"turn": 2})
    assert (turn["seq"], turn["turn"], turn["phase"], turn["by"]) == (7, 2, "start", british.label)
    phase = recording.record_event(services, british, "g-1", "PhaseStarted", None,
                                   {"phase": "first-foot-movement", "active": "british"})
    assert (phase["turn"], phase["phase"]) == (2, "first-foot-movement")
    moved = recording.record_event(services, british, "g-1", "UnitMoved", "british",
                                   {"unit": "b-fo", "path": ["1:1203", "1:1204"]})
    assert (moved["seq"], moved["turn"], moved["phase"], moved["side"]) == (9, 2, "first-foot-movement", "british")
    assert services.ledger.lines("g-1")[-1] == moved


def test_an_event_is_refused_whole_naming_its_field_and_its_recorders_rights(services):
    british = principal(services, "player", "british")
    with pytest.raises(LogError) as refused:
        recording.record_event(services, british, "g-1", "UnitMoved", "british", {"unit": "x-9", "path": ["1:1203"]})
    assert refused.value.field == "data.unit" and "does not exist" in refused.value.message
    with pytest.raises(ProblemError) as forbidden:
        recording.record_event(services, british, "g-1", "UnitMoved", "german", {"unit": "g-1", "path": ["1:1210"]})
    assert forbidden.value.status == 403 and forbidden.value.extra["field"] == "side"
    with pytest.raises(UnknownGame):
        recording.record_event(services, british, "no-game", "TurnStarted", None, {"turn": 2})
    assert services.ledger.last_seq("g-1") == 6


def test_a_correction_is_a_dispute_and_its_ruling_stored_together(services):
    referee = principal(services, "referee")
    move = {"type": "UnitMoved", "side": "british", "data": {"unit": "b-fo", "path": ["1:1203", "1:1204"]}}
    raised, ruled = recording.correct(services, referee, "g-1", 4, "moved too far",
                                      {"decision": "overturned", "rule": "IM.CORE.PATH.ADJACENT", "note": None,
                                       "corrections": [move]})
    assert (raised["seq"], raised["type"], raised["data"]["about"]) == (7, "DisputeRaised", 4)
    assert (ruled["seq"], ruled["type"]) == (8, "RulingIssued")
    assert ruled["data"] == {"dispute": raised["data"]["dispute"], "decision": "overturned",
                             "rule": "IM.CORE.PATH.ADJACENT", "corrections": [move]}
    assert services.ledger.lines("g-1", after=6) == [raised, ruled]


@pytest.mark.parametrize("correction, field", [
    ({"type": "UnitMoved", "data": {"unit": "b-fo", "path": []}}, "corrections[0].data.path"),
    ({"type": "UnitWandered", "data": {}}, "corrections[0].type"),
])
def test_a_correction_that_is_not_a_valid_event_stores_nothing(services, correction, field):
    referee = principal(services, "referee")
    with pytest.raises(ProblemError) as refused:
        recording.correct(services, referee, "g-1", 4, "claim", {"decision": "overturned", "corrections": [correction]})
    assert refused.value.status == 422 and refused.value.extra["field"] == field
    with pytest.raises(ProblemError) as forbidden:
        recording.correct(services, principal(services, "player", "german"), "g-1", 4, "claim",
                          {"decision": "overturned", "corrections": []})
    assert forbidden.value.status == 403
    assert services.ledger.last_seq("g-1") == 6
