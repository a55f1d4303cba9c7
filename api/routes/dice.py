"""Dice the players can verify: service rolls from a committed seed, and its reveal."""
from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api import recording
from api.deps import IdempotencyKey, Player, Referee, ServicesDep, Viewer
from api.problems import ProblemError, responses
from api.schemas import DiceInfo, EventAnswer, RollRequest

router = APIRouter(prefix="/api", tags=["dice"])


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
