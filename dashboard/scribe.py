"""What the scribe writes, and what its forms choose from.

Every write goes through the API's own services (api.recording, api.cards) with the signed-in
token's rights, as the routes do: a game is started by an admin (`POST /api/games/{game}/events`
creating it), an event from the table by a player of its side or better, a service roll or card
as `POST .../rolls`, `.../cards` and `.../decks/{deck}/shuffle` make them (their request models
read the form's values), and a correction is a dispute and a referee's ruling stored together.
A refusal comes back with the field it names, for the form to show it beside that field.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from pydantic import BaseModel, ValidationError

from api import cards, recording
from api.authority import NEUTRAL_TYPES
from api.problems import ProblemError
from api.routes.dice import CardRequest, ShuffleRequest
from api.schemas import RollRequest
from dashboard.data import DashboardData, GameView
from domain.application import ConflictError, UnknownGame
from domain.dice import DiceError
from domain.events import CORE_EVENTS, first_error
from domain.log import LogError

# The event types the service makes on request (api/routes/dice.py), with its button's words.
SERVICE_ACTIONS = {"DieRolled": "Roll (service)", "CardDrawn": "Deal (service)", "DeckShuffled": "Shuffle (service)"}
# What the scribe does not add as the next event: the game's start has its own form, and a
# dispute or ruling is a correction (its own form here, and the Disputes page).
NOT_NEXT = ("GameStarted", "DisputeRaised", "RulingIssued")
SEEN = 40  # values offered per field, the latest first

Outcome = dict[str, Any]  # {"events": [stored lines]} or {"error": message, "field": the field it names}


def written(write: Callable[[], list[dict[str, Any]]]) -> Outcome:
    """Run a write; its refusal as the message and the field it names (None: the whole form)."""
    try:
        return {"events": write()}
    except ProblemError as err:
        return {"error": err.detail, "field": err.extra.get("field")}
    except LogError as err:
        return {"error": err.message, "field": err.field}
    except DiceError as err:
        return {"error": str(err), "field": "data.die"}
    except ValidationError as err:  # a service request's model (RollRequest, CardRequest)
        where, message = first_error(err, "data")
        return {"error": message, "field": where}
    except (ConflictError, UnknownGame) as err:
        return {"error": str(err), "field": None}


def start_game(data: DashboardData, game: str, started: dict[str, Any]) -> Outcome:
    """A new game's `GameStarted` (an admin's, as creating a game through the API is)."""
    def write() -> list[dict[str, Any]]:
        principal = data.reader.may("admin", None)
        if game and data.services.ledger.has_game(game):
            raise ProblemError(409, "game-exists", f"the store holds a game {game!r} already", field="game")
        line = {"v": 1, "game": game, "seq": 1, "turn": 0, "phase": "setup", "side": None,
                "type": "GameStarted", "data": started}
        recording.append_batch(data.services, principal, game, [line])
        return data.services.ledger.lines(game, upto=1)
    return written(write)


def record(data: DashboardData, game: str, event_type: str, side: Optional[str], event: dict[str, Any]) -> Outcome:
    """The next event of a game, as recorded at the table."""
    return written(lambda: [recording.record_event(data.services, data.reader.may("player", game), game,
                                                   event_type, side, event)])


def _request(model: type[BaseModel], values: dict[str, Any]) -> Any:
    """The API's request model of a service action, from the form's values of the same names."""
    names = {f.alias or name for name, f in model.model_fields.items()}
    return model.model_validate({k: v for k, v in values.items() if k in names})


def by_service(data: DashboardData, game: str, event_type: str, side: Optional[str], event: dict[str, Any]) -> Outcome:
    """A roll, a card or a shuffle made by the service, from what the form says it is for."""
    def write() -> list[dict[str, Any]]:
        principal, services = data.reader.may("player", game), data.services
        asked = {**event, "side": side}
        if event_type == "DieRolled":
            roll = _request(RollRequest, asked)
            return [recording.roll(services, principal, game, roll.purpose, roll.die, roll.subject, roll.side,
                                   roll.modifiers)]
        if event_type == "CardDrawn":
            card = _request(CardRequest, asked)
            return [cards.deal(services, principal, game, card.deck, card.for_, card.subject, card.meaning, card.side)]
        if event_type == "DeckShuffled":
            if not event.get("deck"):
                raise ProblemError(422, "invalid-request", "name the deck to shuffle", field="data.deck")
            shuffle = _request(ShuffleRequest, asked)
            return [cards.shuffle(services, principal, game, event["deck"], shuffle.returned, shuffle.side)]
        raise ProblemError(422, "invalid-request", f"the service does not make a {event_type}", field="type")
    return written(write)


def correct(data: DashboardData, game: str, about: Optional[int], claim: str, ruling: dict[str, Any]) -> Outcome:
    """A mistake corrected: a referee's dispute and ruling together, or a player's dispute alone
    (a referee rules on it on the Disputes page)."""
    def write() -> list[dict[str, Any]]:
        principal = data.reader.may("player", game)
        if not about:
            raise ProblemError(422, "invalid-request", "choose the event to correct", field="about")
        if not claim or not claim.strip():
            raise ProblemError(422, "invalid-event", "say what was wrong (the claim)", field="claim")
        if principal.at_least("referee"):
            return recording.correct(data.services, principal, game, int(about), claim.strip(), ruling)
        return [recording.raise_dispute(data.services, principal, game, int(about), claim.strip(), None)]
    return written(write)


def rule(data: DashboardData, game: str, body: dict[str, Any]) -> Outcome:
    """A referee's ruling on a raised dispute, as POST .../rulings makes it."""
    return written(lambda: [recording.issue_ruling(data.services, data.reader.may("referee", game), game, body)])


# -- what the forms choose from ---------------------------------------------------------------------
@dataclass
class Choices:
    """What a game's forms offer at its last event: the units and off-map elements on the board,
    where each unit stands, and the values its events gave each field so far."""

    sides: list[str] = field(default_factory=list)
    units: list[dict[str, str]] = field(default_factory=list)      # dropdown options
    elements: list[dict[str, str]] = field(default_factory=list)
    places: dict[str, Any] = field(default_factory=dict)           # unit -> its hex or its point
    seen: dict[str, list[str]] = field(default_factory=dict)       # field -> values given, latest first
    side: Optional[str] = None                                     # the signed-in player's side

    def side_for(self, event_type: str) -> Optional[str]:
        """The side an event is recorded for by default: none for the game's clock."""
        return None if event_type in NEUTRAL_TYPES else self.side


def choices_for(gv: Optional[GameView], side: Optional[str] = None) -> Choices:
    if gv is None:
        return Choices(side=side)
    board = gv.final
    units, places = [], {}
    for uid, unit in sorted(board.units.items()):
        place = unit.location or unit.position
        if unit.eliminated or place is None:
            continue
        places[uid] = place
        where = place if isinstance(place, str) else f"({place['x']:g}, {place['y']:g})"
        units.append({"label": f"{uid} ({unit.side}) at {where}", "value": uid})
    elements = [{"label": f"{eid} ({e.side}, firepower {e.firepower})", "value": eid}
                for eid, e in sorted(board.elements.items()) if not e.eliminated]
    return Choices(list(board.sides), units, elements, places, _seen(gv.lines), side)


def player_choices(data: DashboardData, gv: Optional[GameView]) -> Choices:
    """A game's choices for the signed-in reader: a player records for their side by default."""
    principal = data.reader.principal
    side = principal.side if principal is not None and principal.role == "player" else None
    return choices_for(gv, side)


def _seen(lines: list[dict[str, Any]]) -> dict[str, list[str]]:
    seen: dict[str, list[str]] = {}
    for line in reversed(lines):
        for key, value in line["data"].items():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and item not in seen.setdefault(key, []) and len(seen[key]) < SEEN:
                    seen[key].append(item)
    return seen


def next_types(rules: Any) -> list[str]:
    """The event types a scribe adds next: the core ones and the rule system's own."""
    return [t for t in [*CORE_EVENTS, *(rules.events if rules is not None else ())] if t not in NOT_NEXT]
