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


# -- the dashboard's writes (dashboard/scribe.py): the same services, refusals naming their field ------
def scribe_data(api_db, role, side=None, game=None):
    from dashboard.access import Reader
    from dashboard.data import DashboardData
    data = DashboardData(api_db)
    return data.scoped(Reader(data.services.tokens.issue(role, game, side)[1]))


def test_the_scribe_starts_a_game_as_an_admin_and_only_once(api_db):
    from dashboard import scribe
    started = {"ruleset": "landships-of-mogdonazia", "scenario": "s", "date": "1890-06",
               "sides": {"m": {"nation": "m", "bloc": "other"}, "r": {"nation": "r", "bloc": "other"}}}
    refused = scribe.start_game(scribe_data(api_db, "referee"), "t-1", started)
    assert refused["field"] is None and "needs admin" in refused["error"]
    admin = scribe_data(api_db, "admin")
    assert scribe.start_game(admin, "Bad Id", started)["field"] == "game"
    assert scribe.start_game(admin, "t-1", {**started, "date": "1890"})["field"].startswith("data")
    [line] = scribe.start_game(admin, "t-1", started)["events"]
    assert (line["seq"], line["type"], line["data"]) == (1, "GameStarted", started)
    assert admin.services.seeds.get("t-1") is not None  # its service dice are committed from the start
    assert scribe.start_game(admin, "t-1", started)["field"] == "game"


def test_the_scribes_service_roll_shuffle_and_card_read_the_apis_request_models(api_db):
    from dashboard import scribe
    admin = scribe_data(api_db, "admin")
    scribe.start_game(admin, "t-2", {"ruleset": "landships-of-mogdonazia", "scenario": "s", "date": "1890-06",
                                    "sides": {"m": {"nation": "m", "bloc": "other"},
                                              "r": {"nation": "r", "bloc": "other"}}})
    scribe.record(admin, "t-2", "DeckDefined", None, {"deck": "main", "cards": "standard-52"})
    player = scribe_data(api_db, "player", "m", "t-2")
    [rolled] = scribe.by_service(player, "t-2", "DieRolled", "m",
                                 {"purpose": "TSATF.FIRE", "die": "2d20", "result": 99, "subject": "a-1",
                                  "modifiers": []})["events"]
    assert rolled["side"] == "m" and rolled["data"]["source"] == "service" and len(rolled["data"]["results"]) == 2
    assert scribe.by_service(player, "t-2", "DieRolled", "m", {"purpose": "x", "die": "d7"})["field"] == "data.die"
    assert scribe.by_service(player, "t-2", "DieRolled", "r", {"purpose": "x", "die": "d6"})["field"] == "side"
    assert scribe.by_service(player, "t-2", "CardDrawn", "m", {"deck": "main", "for": "TSATF.SAVE"})["field"] == \
        "data.subject"
    assert scribe.by_service(player, "t-2", "DeckShuffled", "m", {"returned": "all"})["field"] == "data.deck"
    [shuffled] = scribe.by_service(player, "t-2", "DeckShuffled", "m", {"deck": "main", "returned": "all"})["events"]
    [dealt] = scribe.by_service(player, "t-2", "CardDrawn", "m",
                                {"deck": "main", "for": "TSATF.SAVE", "subject": "u"})["events"]
    assert dealt["data"]["shuffle"] == shuffled["seq"] and dealt["data"]["source"] == "service"


def test_a_token_is_issued_with_a_sign_in_link_to_its_games_scribe(tmp_path):
    from typer.testing import CliRunner

    from api.cli import app
    from api.commands.tokens import sign_in_link
    issued = CliRunner().invoke(app, ["token", "issue", "--role", "player", "--game", "g-1", "--side", "british",
                                      "--link", "http://127.0.0.1:8000/", "--db", str(tmp_path / "u.db")])
    assert issued.exit_code == 0, issued.output
    token = issued.stdout.strip().splitlines()[-1]  # the token is still the last line printed
    assert f"sign in: {sign_in_link('http://127.0.0.1:8000', token, '/record/g-1')}" in issued.stderr
    # the token rides in the fragment, which a browser never sends to a server
    assert sign_in_link("http://h:1", token, "/record/g-1") == f"http://h:1/sign-in?next=%2Frecord%2Fg-1#token={token}"


def test_a_players_correction_raises_the_dispute_for_a_referee_to_rule(api_db):
    from dashboard import scribe
    admin = scribe_data(api_db, "admin")
    recording.append_batch(admin.services, admin.reader.principal, "g-1", small_game().lines)
    german = scribe_data(api_db, "player", "german", "g-1")
    assert scribe.correct(german, "g-1", 4, " ", {"decision": "overturned"})["field"] == "claim"
    ruling = {"decision": "overturned", "corrections": [{"type": "TurnStarted", "data": {}}]}
    [raised] = scribe.correct(german, "g-1", 4, "b-fo deployed off its hex", ruling)["events"]
    assert (raised["type"], raised["side"], raised["data"]["about"]) == ("DisputeRaised", "german", 4)
    assert german.services.ledger.last_seq("g-1") == raised["seq"]  # no ruling: a player does not rule
