"""Recording games live: batches from the table, and the events the service writes itself
(service dice, disputes, rulings), with the rights of each caller and safe retries."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Callable, Optional

from api.deps import Services
from api.idempotency import PENDING, fingerprint
from api.problems import ProblemError
from api.security import Principal
from domain.application import ConflictError, parse_batch
from domain.dice import derive_roll, parse_die
from domain.events import validate_data
from domain.log import LogError, canonical

MAX_BATCH = 10_000
SERVICE_RETRIES = 20

Outcome = tuple[int, Any]  # HTTP status and JSON body


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# -- idempotency ------------------------------------------------------------------------------
def idempotent(services: Services, principal: Principal, key: Optional[str], request: tuple[str, str, Any],
               action: Callable[[], Outcome], replay: Optional[Callable[[], Optional[Outcome]]] = None) -> Outcome:
    """Run `action` once per (token, key); the same key and body get the first answer again.

    `replay` recognises a request that was stored but whose answer was lost (a server killed
    between the two): it gives the answer again from what the log holds."""
    if key is None:
        return action()
    fp = fingerprint(*request)
    held = services.answers.reserve(principal.id, key, fp)
    if held is not None:
        if held.fingerprint != fp:
            raise ProblemError(422, "idempotency-key-reused",
                               "this Idempotency-Key was used with another request; use a new key")
        if held.status == PENDING:
            replayed = replay() if replay else None
            if replayed is None:
                raise ProblemError(409, "request-in-progress", "a request with this Idempotency-Key is running; retry")
            return replayed
        return held.status, held.body
    try:
        status, body = action()
    except ConflictError:
        replayed = replay() if replay else None
        if replayed is None:
            services.answers.release(principal.id, key)
            raise
        status, body = replayed
    except BaseException:
        services.answers.release(principal.id, key)
        raise
    services.answers.finish(principal.id, key, status, body)
    return status, body


# -- batches from the table -------------------------------------------------------------------
def check_rights(principal: Principal, objs: list[dict[str, Any]], creating: bool) -> None:
    """Admins create games; players record their own side's events and neutral ones."""
    if creating and not principal.at_least("admin"):
        raise ProblemError(403, "forbidden", "only an admin may create a game")
    if principal.at_least("referee"):
        return
    for line, obj in enumerate(objs, start=1):
        side = obj.get("side")
        if side is not None and side != principal.side:
            raise ProblemError(403, "forbidden", f"a player of side {principal.side!r} may not record "
                               f"events of side {side!r}", line=line, field="side")
        if obj.get("type") == "RulingIssued":
            raise ProblemError(403, "forbidden", "only a referee issues rulings", line=line, field="type")


def batch_answer(game: str, objs: list[dict[str, Any]]) -> Outcome:
    first, last = objs[0]["seq"], objs[-1]["seq"]
    return 201, {"game": game, "appended": len(objs), "first_seq": first, "last_seq": last,
                 "status": "created" if first == 1 else "appended"}


def stored_already(services: Services, game: str, objs: list[dict[str, Any]]) -> Optional[Outcome]:
    """The answer to a batch that the log already holds line for line (a retried request)."""
    first, last = objs[0].get("seq"), objs[-1].get("seq")
    if not isinstance(first, int) or not isinstance(last, int) or last < first:
        return None
    stored = services.ledger.lines(game, after=first - 1, upto=last)
    if len(stored) != len(objs):
        return None
    for old, new in zip(stored, objs):
        if canonical(old) != canonical({k: v for k, v in new.items() if k != "prev"}):
            return None
    return batch_answer(game, objs)


def append_batch(services: Services, principal: Principal, game: str, events: list[Any]) -> Outcome:
    """Check a batch from the table and store it whole (201), or refuse it whole."""
    objs = parse_batch(events)
    if not objs:
        raise LogError(1, "events", "an empty batch")
    if len(objs) > MAX_BATCH:
        raise LogError(MAX_BATCH + 1, "events", f"at most {MAX_BATCH} events a batch")
    creating = not services.ledger.has_game(game)
    if creating and objs[0].get("type") != "GameStarted":
        raise ProblemError(404, "unknown-game", f"no game {game!r}: a new game's first event is its GameStarted")
    check_rights(principal, objs, creating)
    if creating:
        services.seeds.ensure(game)  # the dice commitment exists before the game's first event
    services.ledger.append(game, objs)
    return batch_answer(game, objs)


def import_log(services: Services, text: str) -> Outcome:
    """Import one JSONL log whole, as `umpire import` does."""
    result = services.ledger.import_lines(text.splitlines())
    if result.status == "created":
        services.seeds.ensure(result.game)
    return (201 if result.status != "unchanged" else 200), result.__dict__


# -- events the service writes ----------------------------------------------------------------
def append_service_event(services: Services, principal: Principal, game: str, event_type: str,
                         side: Optional[str], make_data: Callable[[int], dict[str, Any]]) -> dict[str, Any]:
    """Append one event at the game's next seq, with the turn and phase in force; on a race with
    another writer, try again at the new next seq."""
    services.known_game(game)
    for _ in range(SERVICE_RETRIES):
        cursor = services.ledger.cursor(game)
        seq = cursor.next_seq
        obj = {"v": 1, "game": game, "seq": seq, "turn": cursor.turn, "phase": cursor.phase, "side": side,
               "type": event_type, "data": make_data(seq), "by": principal.label, "at": _now()}
        try:
            services.ledger.append(game, [obj])
        except ConflictError:
            continue
        return obj
    last = services.ledger.last_seq(game)
    raise ConflictError(game, last, f"the game kept moving on; its last seq is {last}: retry")


def acting_side(principal: Principal, requested: Optional[str]) -> Optional[str]:
    """A player acts for their side; a referee or admin names the side (or none)."""
    if principal.at_least("referee"):
        return requested
    if requested is not None and requested != principal.side:
        raise ProblemError(403, "forbidden", f"a player of side {principal.side!r} may not act for {requested!r}",
                           field="side")
    return principal.side


def roll(services: Services, principal: Principal, game: str, purpose: str, die: str,
         subject: Optional[str], side: Optional[str], modifiers: list[dict[str, Any]]) -> dict[str, Any]:
    """A service roll, derived from the game's committed seed."""
    services.known_game(game)
    seed = services.seeds.get(game)
    if seed is None:
        raise ProblemError(409, "no-service-dice", f"game {game!r} has no dice commitment (it was not created "
                           "through the service): roll at the table")
    if seed.revealed:
        raise ProblemError(409, "seed-revealed", f"the seed of game {game!r} is revealed: its dice are no longer secret")
    parse_die(die)
    who = acting_side(principal, side)

    def data(seq: int) -> dict[str, Any]:
        out = derive_roll(seed.seed, game, seq, purpose, die).data(purpose, subject)
        if modifiers:
            out["modifiers"] = modifiers
        return out

    return append_service_event(services, principal, game, "DieRolled", who, data)


def raise_dispute(services: Services, principal: Principal, game: str, about: int, claim: str,
                  dispute: Optional[str]) -> dict[str, Any]:
    """A `DisputeRaised` about an earlier event."""
    services.known_game(game)
    if dispute is not None and dispute in dispute_ids(services, game):
        raise ProblemError(409, "dispute-exists", f"dispute {dispute!r} already exists", field="dispute")
    side = principal.side if principal.role == "player" else None

    def data(seq: int) -> dict[str, Any]:
        return {"dispute": dispute or f"dispute-{seq}", "about": about, "by": principal.label, "claim": claim}

    return append_service_event(services, principal, game, "DisputeRaised", side, data)


def issue_ruling(services: Services, principal: Principal, game: str, body: dict[str, Any]) -> dict[str, Any]:
    """A referee's `RulingIssued` on a raised dispute, with its corrections."""
    services.known_game(game)
    if body["dispute"] not in dispute_ids(services, game):
        raise ProblemError(404, "unknown-dispute", f"no dispute {body['dispute']!r} in game {game!r}", field="dispute")
    for i, correction in enumerate(body.get("corrections") or []):
        _check_correction(i, correction)
    data = {k: v for k, v in body.items() if v is not None}
    return append_service_event(services, principal, game, "RulingIssued", None, lambda seq: dict(data))


def _check_correction(i: int, correction: dict[str, Any]) -> None:
    where = f"corrections[{i}]"
    if not isinstance(correction.get("type"), str) or not isinstance(correction.get("data"), dict):
        raise ProblemError(422, "invalid-event", "a correction is an event: an object with `type` and `data`",
                           field=where)
    try:
        validate_data(correction["type"], correction["data"])
    except ValueError as err:
        raise ProblemError(422, "invalid-event", str(err).splitlines()[0], field=f"{where}.data") from None


def dispute_ids(services: Services, game: str) -> set[str]:
    return {line["data"]["dispute"] for line in services.ledger.iter_lines(game) if line["type"] == "DisputeRaised"}
