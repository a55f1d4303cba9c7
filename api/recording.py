"""Recording games live: batches from the table, and the events the service writes itself
(service dice, disputes, rulings), with the rights of each caller and safe retries."""
from __future__ import annotations

import hashlib
from typing import Any, Callable, Optional

from pydantic import ValidationError

from api.authority import as_stored, check_rights, now, stamp
from api.deps import Services, authorise
from api.idempotency import PENDING, fingerprint
from api.problems import ProblemError
from api.security import Principal
from domain.application import ConflictError, parse_batch
from domain.dice import derive_roll, parse_die
from domain.events import first_error, validate_data
from domain.log import LogCursor, LogError, canonical, chain, next_line, text_lines
from domain.rulesets import RuleSet

SERVICE_RETRIES = 20

Outcome = tuple[int, Any]  # HTTP status and JSON body


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
        try:
            status, body = action()
        except ConflictError:
            replayed = replay() if replay else None
            if replayed is None:
                raise
            status, body = replayed
    except BaseException:
        services.answers.release(principal.id, key)
        raise
    services.answers.finish(principal.id, key, status, body)
    return status, body


# -- batches from the table -------------------------------------------------------------------
def batch_answer(services: Services, game: str, objs: list[dict[str, Any]]) -> Outcome:
    first, last = objs[0]["seq"], objs[-1]["seq"]
    return 201, {"game": game, "appended": len(objs), "first_seq": first, "last_seq": last,
                 "status": "created" if first == 1 else "appended", "head": head_at(services, game, last)}


def head_at(services: Services, game: str, seq: int) -> str:
    """The hash of the stored line `seq` with its `prev`: what the next line's `prev` names."""
    cursor = services.ledger.cursor(game)
    if cursor.next_seq == seq + 1:
        return cursor.prev
    *_, text = chain(services.ledger.lines(game, upto=seq))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def stored_already(services: Services, principal: Principal, game: str, events: list[Any]) -> Optional[Outcome]:
    """The answer to a batch of this token's that the log already holds line for line, `at`
    aside (a retried request whose first answer was lost)."""
    objs = parse_batch(events)
    first, last = (objs[0].get("seq"), objs[-1].get("seq")) if objs else (None, None)
    if type(first) is not int or type(last) is not int or not 1 <= first <= last <= services.ledger.last_seq(game):
        return None
    stored = services.ledger.lines(game, after=first - 1, upto=last)
    if len(stored) != len(objs):
        return None
    for old, new in zip(stored, objs):
        if canonical({k: v for k, v in old.items() if k != "at"}) != canonical(as_stored(principal, new)):
            return None
    return batch_answer(services, game, stored)


def append_batch(services: Services, principal: Principal, game: str, events: list[Any]) -> Outcome:
    """Check a batch from the table, stamp it and store it whole (201), or refuse it whole."""
    objs = parse_batch(events)
    if not objs:
        raise LogError(1, "events", "an empty batch")
    creating = not services.ledger.has_game(game)
    if creating and objs[0].get("type") != "GameStarted":
        raise ProblemError(404, "unknown-game", f"no game {game!r}: a new game's first event is its GameStarted")
    check_rights(principal, objs, creating)
    stamped = stamp(principal, objs)
    if creating:
        services.seeds.ensure(game)  # the dice commitment exists before the game's first event
    services.ledger.append(game, stamped)
    return batch_answer(services, game, stamped)


def import_log(services: Services, text: str) -> Outcome:
    """Import one JSONL log whole, as `umpire import` does."""
    result = services.ledger.import_lines(text_lines(text))
    if result.status == "created":
        services.seeds.ensure(result.game)
    return (201 if result.status != "unchanged" else 200), result.__dict__


# -- one event at the game's next seq ----------------------------------------------------------
def append_next(services: Services, game: str,
                build: Callable[[LogCursor], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Append the lines `build` makes from the game's cursor (its next seq, the turn and phase in
    force), whole or not at all; on a race with another writer, build them again at the new next
    seq."""
    services.known_game(game)
    for _ in range(SERVICE_RETRIES):
        objs = build(services.ledger.cursor(game))
        try:
            services.ledger.append(game, objs)
        except ConflictError:
            continue
        return objs
    last = services.ledger.last_seq(game)
    raise ConflictError(game, last, f"the game kept moving on; its last seq is {last}: retry")


def record_event(services: Services, principal: Principal, game: str, event_type: str,
                 side: Optional[str], data: dict[str, Any]) -> dict[str, Any]:
    """One event from the table, stored next with the rights and stamps of a batch of one (what
    `POST /api/games/{game}/events` stores), its envelope made from the game so far."""
    def build(cursor: LogCursor) -> list[dict[str, Any]]:
        line = next_line(cursor, game, event_type, side, data)
        check_rights(principal, [line], creating=False)
        return stamp(principal, [line])

    return append_next(services, game, build)[0]


def correct(services: Services, principal: Principal, game: str, about: int, claim: str,
            ruling: dict[str, Any]) -> list[dict[str, Any]]:
    """A referee's correction at the table: a `DisputeRaised` about an event and the
    `RulingIssued` on it with its corrections (game-log.md, Rulings: "a correction is a new event
    that says what it corrects"), stored together or not at all."""
    authorise(principal, "referee", game)
    _check_corrections(services, game, ruling.get("corrections") or [])

    def build(cursor: LogCursor) -> list[dict[str, Any]]:
        dispute = f"dispute-{cursor.next_seq}"
        raised = next_line(cursor, game, "DisputeRaised", None,
                           {"dispute": dispute, "about": about, "by": principal.label, "claim": claim})
        ruled = {**next_line(cursor, game, "RulingIssued", None, {
            "dispute": dispute, **{k: v for k, v in ruling.items() if v is not None and k != "dispute"}}),
                 "seq": cursor.next_seq + 1}
        return stamp(principal, [raised, ruled])

    return append_next(services, game, build)


# -- events the service writes ----------------------------------------------------------------
def append_service_event(services: Services, principal: Principal, game: str, event_type: str,
                         side: Optional[str], make_data: Callable[[int], dict[str, Any]]) -> dict[str, Any]:
    """Append one event at the game's next seq, with the turn and phase in force; on a race with
    another writer, try again at the new next seq."""
    def build(cursor: LogCursor) -> list[dict[str, Any]]:
        return [{"v": 1, "game": game, "seq": cursor.next_seq, "turn": cursor.turn, "phase": cursor.phase,
                 "side": side, "type": event_type, "data": make_data(cursor.next_seq), "by": principal.label,
                 "at": now()}]

    return append_next(services, game, build)[0]


def acting_side(principal: Principal, requested: Optional[str]) -> Optional[str]:
    """A player acts for their side; a referee or admin names the side (or none)."""
    if principal.at_least("referee"):
        return requested
    if requested is not None and requested != principal.side:
        raise ProblemError(403, "forbidden", f"a player of side {principal.side!r} may not act for {requested!r}",
                           field="side")
    return principal.side


def service_seed(services: Services, game: str, instead: str) -> Any:
    """The game's committed seed, still secret: what the service rolls dice and deals cards from."""
    services.known_game(game)
    seed = services.seeds.get(game)
    if seed is None:
        raise ProblemError(409, "no-service-dice", f"game {game!r} has no dice commitment (it was not created "
                           f"through the service): {instead}")
    if seed.revealed:
        raise ProblemError(409, "seed-revealed", f"the seed of game {game!r} is revealed: its dice are no longer secret")
    return seed


def roll(services: Services, principal: Principal, game: str, purpose: str, die: str,
         subject: Optional[str], side: Optional[str], modifiers: list[dict[str, Any]]) -> dict[str, Any]:
    """A service roll, derived from the game's committed seed."""
    seed = service_seed(services, game, "roll at the table")
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
    _check_corrections(services, game, body.get("corrections") or [])
    data = {k: v for k, v in body.items() if v is not None}
    return append_service_event(services, principal, game, "RulingIssued", None, lambda seq: dict(data))


def _check_corrections(services: Services, game: str, corrections: list[dict[str, Any]]) -> None:
    """Each correction is an event of the game's rule system, valid as its schema says."""
    rules = services.ledger.cursor(game).rules
    for i, correction in enumerate(corrections):
        _check_correction(i, correction, rules)


def _check_correction(i: int, correction: dict[str, Any], rules: Optional[RuleSet]) -> None:
    where = f"corrections[{i}]"
    if not isinstance(correction.get("type"), str) or not isinstance(correction.get("data"), dict):
        raise ProblemError(422, "invalid-event", "a correction is an event: an object with `type` and `data`",
                           field=where)
    service = correction["data"].get("source") == "service"
    if service and correction["type"] in ("DieRolled", "DeckShuffled", "CardDrawn"):
        raise ProblemError(403, "forbidden", "a service roll is made by the roll route, not written into a ruling",
                           field=f"{where}.data.source")
    try:
        typed = validate_data(correction["type"], correction["data"], rules)
    except ValidationError as err:
        path, message = first_error(err, f"{where}.data")
        raise ProblemError(422, "invalid-event", message, field=path) from None
    if typed is None:
        raise ProblemError(422, "invalid-event", f"unknown event type {correction['type']!r}", field=f"{where}.type")


def dispute_ids(services: Services, game: str) -> set[str]:
    return {line["data"]["dispute"] for line in services.ledger.iter_lines(game) if line["type"] == "DisputeRaised"}
