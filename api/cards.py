"""Service cards (game-log-tabletop.md, Cards): the service shuffles a deck, publishing its
commitment and the shuffle's proof, and deals a card for a player of the side that draws it, as
it rolls a die (api/recording.py `roll`); `umpire verify-dice` recomputes both after the reveal."""
from __future__ import annotations

from typing import Any, Optional, Union

from api.deps import Services
from api.problems import ProblemError
from api.recording import acting_side, append_service_event, service_seed
from api.security import Principal
from domain.cards import DeckError, Decks, deal_data, shuffle_data

INSTEAD = "shuffle and draw at the table"


def _decks(services: Services, game: str, seq: int, seed: bytes) -> Decks:
    """The game's decks as the lines before `seq` leave them."""
    decks = Decks(seed)
    for line in services.ledger.lines(game, upto=seq - 1):
        decks.take(line)
    return decks


def _refused(err: DeckError) -> ProblemError:
    status, kind = (404, "unknown-deck") if "not defined" in str(err) else (409, "deck-not-dealable")
    return ProblemError(status, kind, str(err), field="deck")


def shuffle(services: Services, principal: Principal, game: str, deck: str,
            returned: Union[str, list[str]], side: Optional[str]) -> dict[str, Any]:
    """A service `DeckShuffled`: the cards then in the deck in an order fixed by the seed."""
    seed = service_seed(services, game, INSTEAD)
    who = acting_side(principal, side)

    def data(seq: int) -> dict[str, Any]:
        try:
            return shuffle_data(seed.seed, game, seq, deck, returned, _decks(services, game, seq, seed.seed))
        except DeckError as err:
            raise _refused(err) from None

    return append_service_event(services, principal, game, "DeckShuffled", who, data)


def deal(services: Services, principal: Principal, game: str, deck: str, purpose: str, subject: str,
         meaning: Optional[str], side: Optional[str]) -> dict[str, Any]:
    """A service `CardDrawn`: the next card of the deck's last service shuffle still in the deck."""
    seed = service_seed(services, game, INSTEAD)
    who = acting_side(principal, side)

    def data(seq: int) -> dict[str, Any]:
        try:
            dealt = deal_data(seed.seed, deck, _decks(services, game, seq, seed.seed))
        except DeckError as err:
            raise _refused(err) from None
        out = {**dealt, "for": purpose, "subject": subject}
        if meaning is not None:
            out["meaning"] = meaning
        return out

    return append_service_event(services, principal, game, "CardDrawn", who, data)
