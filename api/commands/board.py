"""`umpire reach` and `umpire sight`: movement and line of sight on a stored game's board."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from api.cli_app import DbOption, FormatOption, app, existing_store, fail, open_ledger, stored_game
from domain.board.graph import UnknownCost, reachable
from domain.board.hexes import LOC_RE, PlacementError, distance
from domain.board.los import sight
from domain.board.terrain import Board, Extras
from domain.rules.interpretations import InterpretationError, Interpretations
from domain.rules.tables import TablePackError, load_pack_file, resolve
from projections.board_state import board_at

AtOption = Annotated[Optional[int], typer.Option("--at", help="the board after this seq (default: the last event)")]
TablesOption = Annotated[Optional[Path], typer.Option("--tables", help="a table pack file (JSON)")]
InterpOption = Annotated[Optional[list[str]], typer.Option("--interpretation", help="NAME=READING")]


def _board(game: str, at: Optional[int], db: Optional[str]) -> tuple[Board, list[dict[str, Any]]]:
    ledger = open_ledger(existing_store(db))
    stored_game(ledger, game)
    last = ledger.last_seq(game)
    if at is not None and not 0 <= at <= last:
        fail(f"--at {at}: {game} has events 1 to {last}")
    lines = list(ledger.lines(game, upto=at))
    state = board_at(ledger, game, at)
    try:
        return Board(state, Extras.from_lines(lines)), lines
    except PlacementError as err:
        fail(f"{game}: MapDefined: {err}")


def _options(state_tables: str, tables: Optional[Path], interpretation: Optional[list[str]]):
    try:
        pack = resolve(state_tables, load_pack_file(tables) if tables else None)
        readings = Interpretations.from_pairs(interpretation or ())
    except (TablePackError, InterpretationError) as err:
        fail(str(err))
    return pack, readings


@app.command("reach")
def reach(game: Annotated[str, typer.Argument(help="game id")],
          unit: Annotated[str, typer.Argument(help="unit id")],
          at: AtOption = None, db: DbOption = None, format: FormatOption = "text",
          tables: TablesOption = None, interpretation: InterpOption = None):
    """The hexes UNIT could reach at that point, with the cost of each and the rule that stops it at the edge."""
    board, _ = _board(game, at, db)
    if unit not in board.state.units:
        fail(f"{game}: no unit {unit!r} at seq {board.state.seq}")
    pack, readings = _options(board.state.tables, tables, interpretation)
    try:
        result = reachable(board, unit, pack, readings)
    except (UnknownCost, ValueError) as err:
        fail(f"{game}: {unit}: {err}", 1)
    rows = [{"hex": loc, "cost": cost, "stopped_by": rule}
            for loc, (cost, rule) in sorted(result.items(), key=lambda kv: (kv[1][0], kv[0]))]
    out = {"game": game, "seq": board.state.seq, "unit": unit, "from": board.state.units[unit].location,
           "phase": board.state.phase, "tables": pack.label(), "interpretations": readings.used(), "hexes": rows}
    if format == "json":
        typer.echo(json.dumps(out, indent=1))
        return
    typer.echo(f"{unit} from {out['from']} at seq {out['seq']} ({out['phase']}), tables: {out['tables']}")
    for row in rows:
        stop = f"  stopped by {row['stopped_by']}" if row["stopped_by"] else ""
        typer.echo(f"{row['hex']}  {row['cost']:g} MP{stop}")


@app.command("sight")
def sight_(game: Annotated[str, typer.Argument(help="game id")],
           from_loc: Annotated[str, typer.Argument(metavar="FROM", help="observer's hex, e.g. 5:6613")],
           to_loc: Annotated[str, typer.Argument(metavar="TO", help="target hex")],
           at: AtOption = None, db: DbOption = None, format: FormatOption = "text",
           observer: Annotated[str, typer.Option("--observer", help="ground, aircraft or balloon")] = "ground",
           spine: Annotated[str, typer.Option("--along-hexside", help="both-sides-block or either-side-blocks")]
           = "both-sides-block"):
    """Whether FROM sees TO: clear or blocked, the hex or hexside that blocks, and the rule."""
    for loc in (from_loc, to_loc):
        if not LOC_RE.match(loc):
            fail(f"{loc!r} is not a hex location like '5:6613'")
    if observer not in ("ground", "aircraft", "balloon") or spine not in ("both-sides-block", "either-side-blocks"):
        fail("--observer: ground, aircraft or balloon; --along-hexside: both-sides-block or either-side-blocks")
    board, _ = _board(game, at, db)
    result = sight(board, from_loc, to_loc, observer, spine=spine)
    out = {"game": game, "seq": board.state.seq, "from": from_loc, "to": to_loc,
           "distance": distance(from_loc, to_loc, board.placement), **result.to_json()}
    if format == "json":
        typer.echo(json.dumps(out, indent=1))
        return
    state = "clear" if result.clear else f"blocked at {result.blocker}"
    typer.echo(f"{from_loc} -> {to_loc} ({out['distance']} hexes): {state} [{result.rule}] {result.reason}")
