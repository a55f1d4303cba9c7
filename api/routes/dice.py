"""Dice and cards the players can verify: service rolls and service cards from a committed seed,
and its reveal."""
from __future__ import annotations

from typing import Literal, Optional, Union

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from api import cards, recording
from api.deps import IdempotencyKey, Player, Referee, ServicesDep, Viewer
from api.problems import ProblemError, responses
from api.schemas import DiceInfo, EventAnswer, RollRequest

router = APIRouter(prefix="/api", tags=["dice"])


class ShuffleRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    returned: Union[Literal["all"], list[str]] = Field(default="all", description="the cards that go back")
    side: Optional[str] = Field(default=None, description="referee or admin only: the side that shuffles")


class CardRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    deck: str = Field(min_length=1, max_length=200)
    for_: str = Field(alias="for", min_length=1, max_length=200,
                      description="the rule id whose procedure turns the card (as a roll's purpose)")
    subject: str = Field(min_length=1, max_length=200)
    meaning: Optional[str] = Field(default=None, max_length=200)
    side: Optional[str] = Field(default=None, description="referee or admin only: the side that draws")


@router.post("/games/{game}/rolls", status_code=201, response_model=EventAnswer,
             responses=responses(400, 401, 403, 404, 409, 413, 422))
def service_roll(game: str, body: RollRequest, services: ServicesDep, principal: Player,
                 idempotency_key: IdempotencyKey = None) -> JSONResponse:
    """Roll a die for the table (appends a `DieRolled` with `source: service` and its proof)."""
    status, answer = recording.idempotent(
        services, principal, idempotency_key, ("POST", f"/api/games/{game}/rolls", body.model_dump()),
        lambda: (201, {"event": recording.roll(services, principal, game, body.purpose, body.die, body.subject,
                                               body.side, body.modifiers)}))
    return JSONResponse(answer, status_code=status)


@router.post("/games/{game}/decks/{deck}/shuffle", status_code=201, response_model=EventAnswer,
             responses=responses(400, 401, 403, 404, 409, 413, 422))
def service_shuffle(game: str, deck: str, body: ShuffleRequest, services: ServicesDep, principal: Player,
                    idempotency_key: IdempotencyKey = None) -> JSONResponse:
    """Shuffle a deck for the table (appends a `DeckShuffled` with `source: service`, the seed's
    commitment and the shuffle's proof); the service deals from it until the next shuffle."""
    status, answer = recording.idempotent(
        services, principal, idempotency_key, ("POST", f"/api/games/{game}/decks/{deck}/shuffle", body.model_dump()),
        lambda: (201, {"event": cards.shuffle(services, principal, game, deck, body.returned, body.side)}))
    return JSONResponse(answer, status_code=status)


@router.post("/games/{game}/cards", status_code=201, response_model=EventAnswer,
             responses=responses(400, 401, 403, 404, 409, 413, 422))
def service_card(game: str, body: CardRequest, services: ServicesDep, principal: Player,
                 idempotency_key: IdempotencyKey = None) -> JSONResponse:
    """Deal a card for the table (appends a `CardDrawn` with `source: service` and its proof: the
    next card of the deck's last service shuffle still in the deck)."""
    status, answer = recording.idempotent(
        services, principal, idempotency_key, ("POST", f"/api/games/{game}/cards", body.model_dump(by_alias=True)),
        lambda: (201, {"event": cards.deal(services, principal, game, body.deck, body.for_, body.subject,
                                           body.meaning, body.side)}))
    return JSONResponse(answer, status_code=status)


@router.get("/games/{game}/dice", response_model=DiceInfo, responses=responses(401, 403, 404, 422))
def dice_commitment(game: str, services: ServicesDep, _: Viewer) -> dict:
    """The game's dice commitment, and its seed once revealed."""
    services.known_game(game)
    seed = services.seeds.get(game)
    if seed is None:
        raise ProblemError(404, "no-service-dice", f"game {game!r} has no dice commitment")
    return seed.public()


@router.post("/games/{game}/dice/reveal", response_model=DiceInfo, responses=responses(401, 403, 404, 413))
def reveal_seed(game: str, services: ServicesDep, _: Referee) -> dict:
    """Publish the game's seed (referee or admin); the service rolls no more dice for it."""
    services.known_game(game)
    seed = services.seeds.reveal(game)
    if seed is None:
        raise ProblemError(404, "no-service-dice", f"game {game!r} has no dice commitment")
    return seed.public()
