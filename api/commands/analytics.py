"""`umpire analytics ammunition|fire-orders|resistance|vehicle-breakdowns|fascines|vehicle-losses|
losses-by-cause` (Infernal Machines), `umpire analytics avbcw-...|mog-...` (the tabletop rule systems):
the cross-game analytics, as JSON or CSV."""
from __future__ import annotations

import json
from enum import Enum
from typing import Annotated, Optional

import typer

from api.cli_app import DbOption, app, existing_store, fail, open_ledger
from api.settings import get_settings
from domain.application import UnknownGame
from projections.analytics import MACHINE_QUERIES, QUERIES, TABLETOP_QUERIES, to_csv
from projections.store import ProjectionStore

analytics_app = typer.Typer(name="analytics", no_args_is_help=True,
                            help="Cross-game analytics: ammunition, fire orders, resistance turns, vehicle "
                                 "breakdowns, fascines, vehicle losses (Infernal Machines); ammunition, supply, "
                                 "leadership, suppression (avbcw-*); breakdowns, turns lost, criticals (mog-*).")
app.add_typer(analytics_app, name="analytics")

GameOption = Annotated[Optional[str], typer.Option("--game", help="only this game (default: every game)")]


class DataFormat(str, Enum):
    """Analytics print rows of data only: JSON (the API's answer) or CSV."""
    json = "json"
    csv = "csv"


FormatOption = Annotated[DataFormat, typer.Option("--format", help="json or csv")]


def _run(kind: str, db: Optional[str], game: Optional[str], format: DataFormat) -> None:
    ledger = open_ledger(existing_store(db))
    if game is not None and not ledger.has_game(game):
        fail(str(UnknownGame(game)))
    result = {**QUERIES, **KEPT_QUERIES}[kind](ledger, ProjectionStore(get_settings(db).db), game)
    if format == "csv":
        typer.echo(to_csv(kind, result["rows"]), nl=False)
    else:
        typer.echo(json.dumps(result, indent=1, ensure_ascii=False))


@analytics_app.command("ammunition")
def ammunition(db: DbOption = None, game: GameOption = None, format: FormatOption = "json"):
    """One row per ArtilleryPointsSpent, with each element's running total."""
    _run("ammunition", db, game, format)


@analytics_app.command("fire-orders")
def fire_orders(db: DbOption = None, game: GameOption = None, format: FormatOption = "json"):
    """One row per barrage that went to the Fire Order Table: column recorded vs computed."""
    _run("fire-orders", db, game, format)


@analytics_app.command("resistance")
def resistance(db: DbOption = None, game: GameOption = None, format: FormatOption = "json"):
    """Per hex, the resisted turns until the guns were granted, the position fell or the count reset."""
    _run("resistance", db, game, format)


def _tabletop_command(kind: str) -> None:
    def command(db: DbOption = None, game: GameOption = None, format: FormatOption = "json"):
        _run(kind, db, game, format)
    command.__doc__ = KEPT_QUERIES[kind].__doc__
    analytics_app.command(kind)(command)


KEPT_QUERIES = {**MACHINE_QUERIES, **TABLETOP_QUERIES}
for _kind in KEPT_QUERIES:   # docs/analytics.md, "The machines" and "Tabletop games"
    _tabletop_command(_kind)


@analytics_app.command("charts")
def charts(out: Annotated[str, typer.Argument(help="directory for the PNG files")] = "docs/img",
           db: DbOption = None, game: GameOption = None):
    """Write the analytics charts of docs/analytics.md as PNG files (plotly + kaleido)."""
    from api.analytics_charts import write_charts
    ledger = open_ledger(existing_store(db))
    store = ProjectionStore(get_settings(db).db)
    rows = {kind: query(ledger, store)["rows"] for kind, query in QUERIES.items()}
    for path in write_charts(rows, out, game=game):
        typer.echo(path)
