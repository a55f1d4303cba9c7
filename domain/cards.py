"""Cards the players can verify: the service deals a card as it rolls a die (domain/dice.py), from
the same committed seed (pure; no I/O).

game-log-tabletop.md, Cards: "A card dealt by the service adds "source": "service" and the
verifiable-dice proof fields, its commitment given at DeckDefined / DeckShuffled". So:

- A service `DeckShuffled` at `seq` puts the cards then in the deck (the defined deck in its
  order, less those drawn since and not returned) in an order drawn from the HMAC stream of
  (seed, "{game}|{seq}|{deck}|shuffle|order") by Fisher-Yates, each index unbiased (rejection
  sampling over two bytes). It publishes `commitment` (the seed's SHA-256, as on a service die)
  and `mac`, HMAC-SHA256(seed, "{game}|{seq}|{deck}|shuffle|" + the order, comma-separated): the
  order is fixed at the shuffle and bound by the mac, and nobody can read it before the reveal.
- A service `CardDrawn` deals the first card of that order still in the deck, and records
  `commitment`, `shuffle` (the seq of the shuffle) and `position` (the card's index in its order).

Once the seed is revealed anyone can recompute every service shuffle and every card the service
dealt (`verify_cards`); a changed card, position, order or seed no longer matches. Cards drawn at
the table from the same deck only take cards out of it.
"""
from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Optional

from domain.dice import byte_stream, commitment

SERVICE_CARD_EVENTS = ("DeckShuffled", "CardDrawn")


class DeckError(ValueError):
    """A deck the service cannot shuffle or deal from (undefined, empty, not shuffled by it)."""


def shuffle_message(game: str, seq: int, deck: str) -> bytes:
    return f"{game}|{seq}|{deck}|shuffle".encode("utf-8")


def _index(stream: Iterator[int], n: int) -> int:
    """An unbiased index below `n` (at most 65536) from two bytes of the stream at a time."""
    limit = 65536 - 65536 % n
    while True:
        value = next(stream) << 8 | next(stream)
        if value < limit:
            return value % n


def shuffled(seed: bytes, game: str, seq: int, deck: str, cards: list[str]) -> list[str]:
    """The order a service shuffle at `seq` puts `cards` in (Fisher-Yates)."""
    order, stream = list(cards), byte_stream(seed, shuffle_message(game, seq, deck) + b"|order")
    for i in range(len(order) - 1, 0, -1):
        j = _index(stream, i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def order_mac(seed: bytes, game: str, seq: int, deck: str, order: list[str]) -> str:
    """The shuffle's proof: binds its order without telling it."""
    msg = shuffle_message(game, seq, deck) + b"|" + ",".join(order).encode("utf-8")
    return hmac.new(seed, msg, hashlib.sha256).hexdigest()


@dataclass
class Deck:
    """One deck as the log has it so far: its cards, those out, and the service's order if the
    deck was last shuffled by the service."""

    cards: list[str]
    out: list[str] = field(default_factory=list)
    shuffle: Optional[int] = None          # seq of the service shuffle in force
    order: list[str] = field(default_factory=list)

    def remaining(self) -> list[str]:
        gone = set(self.out)
        return [c for c in self.cards if c not in gone]

    def next_dealt(self) -> tuple[int, str]:
        """(position, card): the first card of the service's order still in the deck."""
        gone = set(self.out)
        for position, card in enumerate(self.order):
            if card not in gone:
                return position, card
        raise DeckError("the deck is empty: every card of its last shuffle is drawn")


class Decks:
    """The game's decks, taking the log's lines in order (`take`); with `seed`, a service shuffle
    is recomputed as it is taken (the dealer's view, or the verifier's after the reveal)."""

    def __init__(self, seed: Optional[bytes] = None):
        self.seed = seed
        self.decks: dict[str, Deck] = {}

    def take(self, line: dict[str, Any]) -> None:
        kind, data = line.get("type"), line.get("data") or {}
        if kind == "DeckDefined":
            from domain.tabletop.events import deck_cards   # here: verifying dice needs no tabletop geometry
            self.decks[data["deck"]] = Deck(deck_cards(data))
        elif kind == "DeckShuffled":
            deck = self.decks.setdefault(data["deck"], Deck([]))
            returned = data.get("returned")
            deck.out = [] if returned == "all" else [c for c in deck.out if c not in (returned or [])]
            deck.shuffle, deck.order = None, []
            if data.get("source") == "service" and self.seed is not None:
                deck.shuffle = line["seq"]
                deck.order = shuffled(self.seed, line["game"], line["seq"], data["deck"], deck.remaining())
        elif kind == "CardDrawn":
            self.decks.setdefault(data["deck"], Deck([])).out.append(data["card"])

    def get(self, deck: str) -> Deck:
        found = self.decks.get(deck)
        if found is None:
            raise DeckError(f"deck {deck!r} is not defined in this game (no DeckDefined before)")
        return found


def shuffle_data(seed: bytes, game: str, seq: int, deck: str, returned: Any, decks: Decks) -> dict[str, Any]:
    """The `DeckShuffled` data of a service shuffle at `seq`, the log so far taken into `decks`."""
    state = decks.get(deck)
    out = [] if returned == "all" else [c for c in state.out if c not in returned]
    cards = [c for c in state.cards if c not in set(out)]
    order = shuffled(seed, game, seq, deck, cards)
    return {"deck": deck, "returned": returned, "source": "service", "commitment": commitment(seed),
            "mac": order_mac(seed, game, seq, deck, order)}


def deal_data(seed: bytes, deck: str, decks: Decks) -> dict[str, Any]:
    """The proof part of a service `CardDrawn` (deck, card, source, commitment, shuffle,
    position), dealt from the deck as the log so far (taken into `decks`, with `seed`) leaves it."""
    state = decks.get(deck)
    if state.shuffle is None:
        raise DeckError(f"deck {deck!r} was last shuffled at the table, not by the service: shuffle it "
                        "through the service before it deals from it")
    position, card = state.next_dealt()
    return {"deck": deck, "card": card, "source": "service", "commitment": commitment(seed),
            "shuffle": state.shuffle, "position": position}


def service_cards(lines: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for line in lines:
        if line.get("type") in SERVICE_CARD_EVENTS and (line.get("data") or {}).get("source") == "service":
            yield line


def verify_cards(lines: Iterable[dict[str, Any]], seed: bytes) -> list[str]:
    """Every service shuffle and every card the service dealt, recomputed from the revealed seed:
    the problems, each naming its seq."""
    problems: list[str] = []
    committed, decks = commitment(seed), Decks(seed)
    for line in lines:
        data, seq = line.get("data") or {}, line.get("seq")
        if line.get("type") in SERVICE_CARD_EVENTS and data.get("source") == "service":
            problems.extend(f"seq {seq}: {p}" for p in _card_problems(line, data, committed, decks, seed))
        if line.get("type") in ("DeckDefined", *SERVICE_CARD_EVENTS):
            decks.take(line)
    return problems


def _card_problems(line: dict[str, Any], data: dict[str, Any], committed: str, decks: Decks,
                   seed: bytes) -> Iterator[str]:
    if data.get("commitment") != committed:
        yield (f"the {line['type']}'s commitment {data.get('commitment')!r} is not the SHA-256 of the revealed "
               f"seed ({committed})")
        return
    try:
        state = decks.get(data.get("deck"))
        if line["type"] == "DeckShuffled":
            expected = shuffle_data(seed, line["game"], line["seq"], data["deck"], data.get("returned"), decks)
            if data.get("mac") != expected["mac"]:
                yield "the shuffle's proof (mac) does not match the order the seed gives its cards"
            return
        if data.get("shuffle") != state.shuffle:
            yield (f"dealt from the shuffle at seq {data.get('shuffle')}, but the shuffle in force is "
                   f"{'at seq ' + str(state.shuffle) if state.shuffle else 'none of the service'}")
            return
        position, card = state.next_dealt()
    except DeckError as err:
        yield str(err)
        return
    if (data.get("card"), data.get("position")) != (card, position):
        yield (f"recorded card {data.get('card')} at position {data.get('position')}; the seed gives "
               f"{card} at position {position} of the shuffle at seq {state.shuffle}")
