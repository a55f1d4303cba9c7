"""`umpire token issue|revoke|list`: who may use the HTTP API."""
from __future__ import annotations

import json
from typing import Annotated, Optional
from urllib.parse import quote, urlencode

import typer

from api.cli_app import DbOption, app, created_store, existing_store, fail
from api.security import ROLES, TokenError

token_app = typer.Typer(help="Bearer tokens for the HTTP API (stored hashed beside the ledger).", no_args_is_help=True)
app.add_typer(token_app, name="token")


@token_app.command("issue")
def issue(role: Annotated[str, typer.Option("--role", help=" | ".join(ROLES))],
          game: Annotated[Optional[str], typer.Option("--game", help="bind the token to one game")] = None,
          side: Annotated[Optional[str], typer.Option("--side", help="player tokens: the side they record")] = None,
          name: Annotated[Optional[str], typer.Option("--name", help="who holds it (recorded as `by`)")] = None,
          link: Annotated[Optional[str], typer.Option(
              "--link", metavar="URL", help="also print a dashboard sign-in link on this server (e.g. "
              "http://127.0.0.1:8000): it opens the scribe (/record, with --game that game's page)")] = None,
          db: DbOption = None):
    """Issue a token; it is printed once, as the last line, and stored only as its SHA-256."""
    try:
        token, principal = _services_for(created_store(db)).tokens.issue(role, game, side, name)
    except TokenError as err:
        fail(str(err))
    scope = f" for game {game}" if game else ""
    typer.echo(f"token {principal.id}: {role}{scope}{f', side {side}' if side else ''}", err=True)
    if link:
        typer.echo(f"sign in: {sign_in_link(link, token, f'/record/{game}' if game else '/record')}", err=True)
    typer.echo(token)


def sign_in_link(base: str, token: str, next_path: str = "/") -> str:
    """The dashboard's sign-in address (`/sign-in`, dashboard/signin.py) that signs a browser in
    with `token`, then opens `next_path`: the token rides in the fragment, which the browser keeps
    to itself (the sign-in page posts it once, then takes it out of the address)."""
    query = f"?{urlencode({'next': next_path})}" if next_path != "/" else ""
    return f"{base.rstrip('/')}/sign-in{query}#token={quote(token, safe='')}"


@token_app.command("revoke")
def revoke(token_or_id: Annotated[str, typer.Argument(metavar="TOKEN_OR_ID")], db: DbOption = None):
    """Revoke a token, named by itself or by its id."""
    revoked = _services_for(existing_store(db)).tokens.revoke(token_or_id)
    if revoked is None:
        fail("no live token matches")
    typer.echo(f"revoked token {revoked}")


@token_app.command("list")
def list_(db: DbOption = None):
    """The tokens issued (ids, roles, scopes; never the tokens themselves)."""
    for row in _services_for(existing_store(db)).tokens.list():
        typer.echo(json.dumps(row))


def _services_for(db: str):
    # The service's parts come with FastAPI: imported by the commands that use them, not at the
    # start of every `umpire` command.
    from api.deps import services_for
    return services_for(db)
