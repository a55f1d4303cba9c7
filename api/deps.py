"""What routes depend on: the services of the store (one Ledger per process) and the caller."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Annotated, Callable, Optional

from fastapi import Depends, Header, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from api.cli_app import created_racing, open_ledger
from api.idempotency import IdempotencyStore
from api.limits import MAX_IDEMPOTENCY_KEY
from api.problems import ProblemError
from api.security import RANK, Principal, TokenStore
from api.settings import get_settings
from domain.application import Ledger, UnknownGame
from domain.board.state import BoardState
from projections.audit_trail import AuditReports
from projections.board_state import BoardCheckpoints
from projections.dice_seeds import SeedStore
from projections.lease import close_leases
from projections.store import ProjectionStore


@dataclass
class Services:
    """Everything the API keeps per store: built once per process and store."""

    db: str
    ledger: Ledger
    store: ProjectionStore
    tokens: TokenStore
    seeds: SeedStore
    boards: BoardCheckpoints
    audits: AuditReports
    answers: IdempotencyStore

    def board_at(self, game: str, seq: Optional[int] = None) -> BoardState:
        """The board after `seq` (concurrent catch-ups are serialised by the tracking row's lock)."""
        return self.boards.board_at(game, seq)

    def known_game(self, game: str) -> None:
        if not self.ledger.has_game(game):
            raise UnknownGame(game)


_SERVICES: dict[str, Services] = {}
_LOCK = threading.Lock()


def services_for(db: Optional[str]) -> Services:
    """The services of a store (a SQLite path or a postgresql:// URL), one set per process."""
    settings = get_settings(db)
    target = settings.db
    with _LOCK:
        if target not in _SERVICES:
            ledger = open_ledger(target)
            store = created_racing(lambda: ProjectionStore(target, settings.connect_timeout))
            _SERVICES[target] = created_racing(lambda: Services(
                target, ledger, store, TokenStore(store), SeedStore(store), BoardCheckpoints(ledger, store),
                AuditReports(ledger, store), IdempotencyStore(store)))
        return _SERVICES[target]


def get_services(request: Request) -> Services:
    return request.app.state.services


ServicesDep = Annotated[Services, Depends(get_services)]
bearer = HTTPBearer(auto_error=False, description="a token from `umpire token issue`")


def current_principal(services: ServicesDep,
                      credentials: Annotated[Optional[HTTPAuthorizationCredentials], Depends(bearer)]) -> Principal:
    """The token's holder; 401 without a live token."""
    if credentials is None:
        raise ProblemError(401, "unauthorized", "send `Authorization: Bearer TOKEN` (see `umpire token issue`)")
    principal = services.tokens.lookup(credentials.credentials)
    if principal is None:
        raise ProblemError(401, "unauthorized", "unknown or revoked token")
    return principal


PrincipalDep = Annotated[Principal, Depends(current_principal)]


def authorise(principal: Principal, role: str, game: Optional[str]) -> Principal:
    """The principal, when it holds at least `role` and its token reaches `game` (if any); else 403."""
    if RANK[principal.role] < RANK[role]:
        raise ProblemError(403, "forbidden", f"a {principal.role} token may not do this (needs {role} or better)")
    if game is not None and not principal.sees(game):
        raise ProblemError(403, "forbidden", f"this token is for game {principal.game!r}, not {game!r}")
    return principal


def require(role: str) -> Callable[..., Principal]:
    """A dependency: a caller of at least `role`, whose token reaches the route's game (if any)."""

    def check(request: Request, principal: PrincipalDep) -> Principal:
        return authorise(principal, role, request.path_params.get("game"))

    return check


Viewer = Annotated[Principal, Depends(require("viewer"))]
Player = Annotated[Principal, Depends(require("player"))]
Referee = Annotated[Principal, Depends(require("referee"))]
Admin = Annotated[Principal, Depends(require("admin"))]
IdempotencyKey = Annotated[Optional[str], Header(alias="Idempotency-Key", pattern=r"^[!-~]+$",
                                                 max_length=MAX_IDEMPOTENCY_KEY,
                                                 description="retry safely: the same key and body get the same answer")]


def close_services(db: str) -> None:
    """Forget a store's services and close what can be closed (tests, shutdown)."""
    from api import cli_app
    target = get_settings(db).db
    with _LOCK:
        services = _SERVICES.pop(target, None)
        ledger = cli_app._LEDGERS.pop(target, None)
    if ledger is not None:
        ledger.close()
    if services is not None:
        close_leases(target)
        services.store.close()
