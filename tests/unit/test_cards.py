"""Service cards: the commit-reveal proof of a shuffle and of every card the service deals
(game-log-tabletop.md, Cards: "A card dealt by the service adds "source": "service" and the
verifiable-dice proof fields, its commitment given at DeckDefined / DeckShuffled")."""
from __future__ import annotations

import copy
from collections import Counter

import pytest

from domain.cards import DeckError, Decks, deal_data, order_mac, shuffle_data, shuffled, verify_cards
from domain.dice import commitment
from domain.tabletop.events import STANDARD_52

SEED = bytes(range(32))
OTHER_SEED = bytes(range(1, 33))


def line(seq: int, kind: str, data: dict) -> dict:
    return {"v": 1, "game": "g-1", "seq": seq, "turn": 1, "phase": "shooting", "side": "rebels",
            "type": kind, "data": data}


def dealt_game(seed: bytes = SEED, draws: int = 3, table_card: str = "") -> list[dict]:
    """DeckDefined, a service shuffle, then `draws` service cards (a table card first if given)."""
    decks, lines = Decks(seed), []

    def add(kind: str, data: dict) -> None:
        lines.append(line(len(lines) + 1, kind, data))
        decks.take(lines[-1])

    add("DeckDefined", {"deck": "main", "cards": "standard-52"})
    add("DeckShuffled", shuffle_data(seed, "g-1", 2, "main", "all", decks))
    if table_card:
        add("CardDrawn", {"deck": "main", "card": table_card, "for": "TSATF.SAVE", "subject": "r-1"})
    for _ in range(draws):
        add("CardDrawn", {**deal_data(seed, "main", decks), "for": "MOG.FIRE.CARD", "subject": "a-1"})
    return lines


def test_a_shuffle_is_a_permutation_fixed_by_seed_game_seq_and_deck():
    order = shuffled(SEED, "g-1", 2, "main", list(STANDARD_52))
    assert sorted(order) == sorted(STANDARD_52) and order != list(STANDARD_52)
    assert order == shuffled(SEED, "g-1", 2, "main", list(STANDARD_52))
    for other in (shuffled(OTHER_SEED, "g-1", 2, "main", list(STANDARD_52)),
                  shuffled(SEED, "g-2", 2, "main", list(STANDARD_52)),
                  shuffled(SEED, "g-1", 3, "main", list(STANDARD_52)),
                  shuffled(SEED, "g-1", 2, "save", list(STANDARD_52))):
        assert other != order


def test_every_card_is_about_equally_likely_to_come_first():
    # 5200 shuffles of a 4-card deck: each card first about 1300 times
    counts = Counter(shuffled(SEED, "g-1", seq, "d", ["AS", "KS", "QS", "JS"])[0] for seq in range(1, 5201))
    chi2 = sum((c - 1300) ** 2 / 1300 for c in counts.values())
    assert set(counts) == {"AS", "KS", "QS", "JS"} and chi2 < 16.3   # 0.1% point, 3 degrees of freedom


def test_the_shuffle_publishes_the_commitment_and_a_mac_binding_its_order():
    lines = dealt_game(draws=0)
    data = lines[1]["data"]
    order = shuffled(SEED, "g-1", 2, "main", list(STANDARD_52))
    assert data["source"] == "service" and data["commitment"] == commitment(SEED)
    assert data["mac"] == order_mac(SEED, "g-1", 2, "main", order)
    assert order[0] not in str(data)   # the order itself is not published


def test_the_service_deals_the_order_from_the_top():
    lines = dealt_game(draws=3)
    order = shuffled(SEED, "g-1", 2, "main", list(STANDARD_52))
    assert [(l["data"]["card"], l["data"]["position"], l["data"]["shuffle"]) for l in lines[2:]] == \
        [(order[0], 0, 2), (order[1], 1, 2), (order[2], 2, 2)]
    assert verify_cards(lines, SEED) == []


def test_a_card_drawn_at_the_table_is_skipped_by_the_next_service_card():
    order = shuffled(SEED, "g-1", 2, "main", list(STANDARD_52))
    lines = dealt_game(draws=1, table_card=order[0])
    assert (lines[-1]["data"]["card"], lines[-1]["data"]["position"]) == (order[1], 1)
    assert verify_cards(lines, SEED) == []


def test_a_changed_card_is_reported_at_its_seq():
    lines = dealt_game(draws=3)
    tampered = copy.deepcopy(lines)
    tampered[3]["data"]["card"] = "AH" if tampered[3]["data"]["card"] != "AH" else "KH"
    problems = verify_cards(tampered, SEED)
    assert problems and problems[0].startswith("seq 4:")


def test_a_card_moved_to_a_later_position_is_reported():
    lines = dealt_game(draws=1)
    order = shuffled(SEED, "g-1", 2, "main", list(STANDARD_52))
    lines[-1]["data"].update(card=order[5], position=5)
    assert verify_cards(lines, SEED)[0].startswith("seq 3:")


def test_another_seed_fails_the_commitment():
    problems = verify_cards(dealt_game(draws=2), OTHER_SEED)
    assert len(problems) == 3 and all("commitment" in p for p in problems)


def test_a_changed_shuffle_mac_is_reported():
    lines = dealt_game(draws=0)
    lines[1]["data"]["mac"] = "0" * 64
    assert verify_cards(lines, SEED) == ["seq 2: the shuffle's proof (mac) does not match the order the seed "
                                         "gives its cards"]


def test_the_service_deals_only_from_its_own_shuffle_and_not_from_an_empty_deck():
    decks = Decks(SEED)
    decks.take(line(1, "DeckDefined", {"deck": "two", "cards": ["A", "B"]}))
    with pytest.raises(DeckError, match="shuffle it through the service"):
        deal_data(SEED, "two", decks)
    with pytest.raises(DeckError, match="not defined"):
        deal_data(SEED, "other", decks)
    decks.take(line(2, "DeckShuffled", shuffle_data(SEED, "g-1", 2, "two", "all", decks)))
    for seq in (3, 4):
        decks.take(line(seq, "CardDrawn", {**deal_data(SEED, "two", decks), "for": "X", "subject": "s"}))
    with pytest.raises(DeckError, match="empty"):
        deal_data(SEED, "two", decks)


def test_table_cards_are_not_recomputed():
    lines = [line(1, "DeckDefined", {"deck": "main", "cards": "standard-52"}),
             line(2, "CardDrawn", {"deck": "main", "card": "AS", "for": "MOG.FIRE.CARD", "subject": "a-1"})]
    assert verify_cards(lines, SEED) == []
