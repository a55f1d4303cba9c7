"""Landships of Mogdonazia fire cards, from the text (landships-of-mogdonazia.txt, D. Firing at
vehicles 2) and the deck check of game-log-tabletop.md, Cards. The games are the page's example
(a small-arms shot a-1 at the landship l-1 that hits once, seq 16-20) with the card changed."""
from __future__ import annotations

import copy

import pytest

from domain.rules.engine import Verdict
from tests.unit.test_mog_vehicles import EXAMPLE, SETUP, built, failing, game, judged, line

SHOT = [l for l in EXAMPLE if l["phase"] == "shooting"]   # PhaseStarted, ShotFired, DieRolled, ShotResolved, CardDrawn, HitCardResolved
TURN_1 = [l for l in EXAMPLE if l["turn"] == 1 and l["phase"] != "shooting"]


def fired(card: str, outcome: str, weapon_class: str = "small-arms", hits: int = 1, setup=None) -> list[dict]:
    shot = copy.deepcopy(SHOT)
    shot[1]["data"]["weapon_class"] = weapon_class
    shot[3]["data"]["hits"] = hits
    shot[4]["data"]["card"] = card
    shot[5]["data"].update(card=card, outcome=outcome, weapon_class=weapon_class)
    turn = copy.deepcopy(TURN_1)
    speed = turn[4]["data"]   # the legal 3 off-road dice for the 14" move: 4 + 5 + 6 = 15"
    speed.update(die="3d6", results=[4, 5, 6], result=15)
    return game(*turn, *shot, setup=setup)


def outcome_verdicts(card, outcome, weapon_class="small-arms", setup=None, rule="MOG.FIRE.CARD", **kw):
    """The verdicts of `rule` on the HitCardResolved (the last line)."""
    lines = fired(card, outcome, weapon_class, setup=setup)
    return [a.verdict.value for a in judged(lines, rule, **kw) if a.seq == lines[-1]["seq"]]


# D. 2: "If the weapon firing is a gun: Face card- Criticals, Ace of Hearts card- Destroyed. If the
# weapon firing is a machine gun or small arms: Ace card- Criticals" (rule-cases.md EC-MOG-04).
@pytest.mark.parametrize("weapon_class, card, outcome", [
    ("gun", "QC", "critical"), ("gun", "KS", "critical"), ("gun", "AH", "destroyed"), ("gun", "AS", "none"),
    ("gun", "10H", "none"), ("artillery", "JD", "critical"), ("machine-gun", "AS", "critical"),
    ("machine-gun", "KH", "none"), ("small-arms", "AH", "critical"), ("small-arms", "7C", "none")])
def test_hit_cards_by_weapon_class(weapon_class, card, outcome):
    assert outcome_verdicts(card, outcome, weapon_class) == ["ok"]
    other = "none" if outcome != "none" else "critical"
    assert outcome_verdicts(card, other, weapon_class) == ["mismatch"]


def test_the_example_hit_card_is_a_critical_and_nothing_fails():
    # "the small-arms hit's Ace is a critical ("Ace card- Criticals")"
    assert failing(fired("AS", "critical")) == []


def test_a_card_other_than_the_one_turned_is_a_mismatch():
    lines = fired("AS", "critical")
    lines[-1]["data"]["card"] = "KS"
    assert [f[1:] for f in failing(lines)] == [("MOG.FIRE.CARD", "mismatch")]


def test_more_cards_than_hits():
    # "When a vehicle is hit, play out a card": one shot hitting once turns one card
    lines = fired("AS", "critical")
    again = [copy.deepcopy(lines[-2]), copy.deepcopy(lines[-1])]
    again[0]["data"]["card"] = again[1]["data"]["card"] = "4C"
    again[1]["data"]["outcome"] = "none"
    assert [f[1:] for f in failing(game(*lines[len(SETUP):], *again))] == [("MOG.FIRE.CARD", "violation")]



def test_every_hit_on_a_vehicle_plays_out_a_card():
    # MOG, D. 2: "When a vehicle is hit, play out a card as per all other units": two hits, one card
    lines = fired("AS", "critical", hits=2)
    assert [f[1:] for f in failing(lines)] == [("MOG.FIRE.CARD", "missing-roll")]
    assert failing(fired("AS", "critical", hits=1)) == []

def test_powered_armour_face_is_a_wound_and_ace_killed():
    # E. "When hit, a face card counts as a wound, an ace as killed."
    pa = built(kind="powered-armour", crew=1, weapons=[])
    assert outcome_verdicts("QH", "wound", setup=pa, rule="MOG.PA") == ["ok"]
    assert outcome_verdicts("AC", "wound", setup=pa, rule="MOG.PA") == ["mismatch"]


def test_an_ace_against_an_airship_follows_mog_air_cards():
    # A. 3: "On a face card, consult the Airship Critical Chart"; aces are not covered (mog-air-cards)
    air = built(kind="airship", target_class=4)
    assert outcome_verdicts("JH", "critical", setup=air, rule="MOG.AIR.SHOOT") == ["ok"]
    assert outcome_verdicts("AS", "critical", setup=air) == ["ambiguous"]
    assert outcome_verdicts("AS", "none", setup=air, interpretations=["mog-air-cards=face-only"]) == ["ok"]
    assert outcome_verdicts("AS", "critical", setup=air, interpretations=["mog-air-cards=as-landship"]) == ["ok"]


# --- The deck: <for>.DECK (game-log-tabletop.md, Cards) -----------------------------------------

def draw(card: str, purpose: str = "MOG.FIRE.CARD") -> dict:
    return line("CardDrawn", {"deck": "main", "card": card, "for": purpose, "subject": "a-1"}, phase="shooting",
                side="rebels")


def test_a_card_drawn_twice_before_a_shuffle_is_a_violation():
    # "A card drawn while out of the deck (drawn since the last shuffle that did not return it) ...
    # is a violation of <for>.DECK (e.g. MOG.FIRE.CARD.DECK)"
    twice = game(draw("AS"), draw("AS"))
    assert [f[1:] for f in failing(twice)] == [("MOG.FIRE.CARD.DECK", "violation")]
    returned = game(draw("AS"), line("DeckShuffled", {"deck": "main", "returned": ["AS"]}), draw("AS"))
    assert failing(returned) == []
    others = game(draw("AS"), line("DeckShuffled", {"deck": "main", "returned": ["KS"]}), draw("AS"))
    assert [f[1:] for f in failing(others)] == [("MOG.FIRE.CARD.DECK", "violation")]


def test_a_card_from_an_empty_deck_is_a_violation():
    # "..., or from an empty deck, is a violation": a custom deck of two cards
    setup = copy.deepcopy(SETUP)
    setup[2]["data"]["cards"] = ["AS", "KS"]
    lines = game(draw("AS"), draw("KS"), draw("KS"), setup=setup)
    found = judged(lines, "MOG.FIRE.CARD.DECK")
    assert [a.verdict for a in found] == [Verdict.OK, Verdict.OK, Verdict.VIOLATION] and "empty" in found[-1].message


def test_a_save_card_is_checked_against_its_deck_under_its_own_id():
    # "A save or rally card is a CardDrawn whose for is TSATF.SAVE": the check is TSATF.SAVE.DECK
    assert [f[1:] for f in failing(game(draw("2C", "TSATF.SAVE"), draw("2C", "TSATF.SAVE")), "TSATF.")] \
        == [("TSATF.SAVE.DECK", "violation")]
