"""`umpire reveal GAME` and `umpire verify-dice FILE`: the commit-reveal scheme of the service's dice
and cards."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Iterator, Optional

import typer

from api.cli_app import DbOption, app, existing_store, fail, optional_store, read_file_lines
from api.verify_hooks import verifier
from domain.cards import service_cards, verify_cards
from domain.dice import service_rolls, verify_rolls

SeedOption = Annotated[Optional[Path], typer.Option("--seed", help="a file holding the revealed seed (hex)")]


@app.command()
def reveal(game: str, db: DbOption = None):
    """Publish a game's dice seed (local access counts as admin); prints the seed."""
    services = _services_for(existing_store(db))
    if not services.ledger.has_game(game):
        fail(f"no game {game!r} in this store")
    seed = services.seeds.reveal(game)
    if seed is None:
        fail(f"game {game!r} has no dice commitment (it was not created through the service)")
    typer.echo(f"{game}: commitment {seed.commitment}", err=True)
    typer.echo(seed.seed.hex())


def read_seed(path: Path) -> bytes:
    """A seed file: the hex of the seed, or the JSON of GET /api/games/{game}/dice."""
    try:
        text = path.read_text(encoding="utf-8").strip()
        if text.startswith("{"):
            text = json.loads(text)["revealed"] or ""
        return bytes.fromhex(text)
    except (OSError, ValueError, KeyError, TypeError) as err:
        fail(f"{path}: not a seed (hex, or the JSON of /api/games/GAME/dice): {err}")


@app.command("verify-dice")
def verify_dice(file: Path, seed: SeedOption = None, db: DbOption = None):
    """Recompute every service roll, shuffle and card of a log from the revealed seed (from --seed, else
    the store)."""
    lines = read_file_lines(file, allow_unknown=True)
    if seed is not None:
        secret = read_seed(seed)
    else:
        stored = _services_for(existing_store(db)).seeds.get(lines[0]["game"])
        if stored is None or not stored.revealed:
            fail(f"{file}: the seed of game {lines[0]['game']!r} is not revealed (give --seed FILE)")
        secret = stored.seed
    problems = verify_service(lines, secret)
    for problem in problems:
        typer.echo(f"{file}: {problem}")
    if problems:
        raise typer.Exit(1)
    count = sum(1 for _ in service_rolls(lines))
    dealt = sum(1 for line in service_cards(lines) if line["type"] == "CardDrawn")
    typer.echo(f"{file}: ok: {count} service rolls match the revealed seed, and {dealt} service cards")


def verify_service(lines: list[dict], seed: bytes) -> list[str]:
    """The problems of the service's rolls, then of its shuffles and cards, in seq order."""
    return sorted(verify_rolls(lines, seed) + verify_cards(lines, seed), key=lambda p: int(p.split(":")[0][4:]))


@verifier
def service_dice(texts: list[str], db: Optional[str], seed: Optional[Path] = None) -> Iterator[str]:
    """`umpire verify`: with `--seed`, or once a game's seed is revealed in the store, every
    service roll, shuffle and card must match it."""
    lines = [json.loads(t) for t in texts if t.strip()]
    if not any(True for _ in service_rolls(lines)) and not any(True for _ in service_cards(lines)):
        return
    if seed is not None:
        yield from verify_service(lines, read_seed(seed))
        return
    target = optional_store(db)
    stored = _services_for(target).seeds.get(lines[0]["game"]) if target else None
    if stored is None or not stored.revealed:
        return  # nothing to recompute from yet: the seed is revealed after the game
    yield from verify_service(lines, stored.seed)


def _services_for(db: str):
    # The service's parts come with FastAPI: imported by the commands that use them, not at the
    # start of every `umpire` command.
    from api.deps import services_for
    return services_for(db)
