"""`umpire reach` and `umpire sight`: movement and line of sight on a stored game's board."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from api.cli_app import DbOption, FormatOption, app, existing_store, fail, open_ledger, stored_game
from domain.board.hexes import LOC_RE, PlacementError, distance
from domain.board.los import sight
from domain.board.terrain import Board, Extras
from domain.rules.interpretations import InterpretationError, Interpretations
from domain.rules.tables import TablePackError, load_pack_file, resolve
from domain.rulesets import find, ruleset
from projections.board_state import board_at

if TYPE_CHECKING:
    from domain.tabletop import queries as tabletop

AtOption = Annotated[Optional[int], typer.Option("--at", help="the board after this seq (default: the last event)")]
TablesOption = Annotated[Optional[Path], typer.Option("--tables", help="a table pack file (JSON)")]
InterpOption = Annotated[Optional[list[str]], typer.Option("--interpretation", help="NAME=READING")]


def _stored(game: str, at: Optional[int], db: Optional[str]):
    """The game's board after `at` (default: its last event) and its lines up to there."""
    ledger = open_ledger(existing_store(db))
    stored_game(ledger, game)
    last = ledger.last_seq(game)
    if at is not None and not 0 <= at <= last:
        fail(f"--at {at}: {game} has events 1 to {last}")
    return board_at(ledger, game, at), list(ledger.lines(game, upto=at))


def _on_a_tabletop(game: str, db: Optional[str]) -> bool:
    """Whether the game's rule system measures in inches (its GameStarted, the first line)."""
    ledger = open_ledger(existing_store(db))
    stored_game(ledger, game)
    first = next(iter(ledger.lines(game, upto=1)), None)
    rules = find((first or {}).get("data", {}).get("ruleset"))
    return rules is not None and rules.geometry == "tabletop"


def _board(game: str, at: Optional[int], db: Optional[str]) -> tuple[Board, list[dict[str, Any]]]:
    state, lines = _stored(game, at, db)
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
          tables: TablesOption = None, interpretation: InterpOption = None,
          allowance: Annotated[Optional[float], typer.Option(
              "--allowance", help="tabletop: the inches the unit may move (a rolled allowance)")] = None):
    """The hexes UNIT could reach at that point, with the cost of each and the rule that stops it at the edge;
    on a tabletop, the region (in inches) it could reach this turn and what limits it."""
    if _on_a_tabletop(game, db):
        return _tabletop_reach(game, unit, at, db, format, allowance)
    if allowance is not None:
        fail("--allowance is for tabletop games: a hex game's costs come from its table pack")
    board, lines = _board(game, at, db)
    if unit not in board.state.units:
        fail(f"{game}: no unit {unit!r} at seq {board.state.seq}")
    pack, readings = _options(board.state.tables, tables, interpretation)
    try:
        result = ruleset(board.state.ruleset).reach(board.state, lines, unit, pack, readings)
    except ValueError as err:  # a cost the table pack lacks (UnknownCost), or a unit that cannot move
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
           = "both-sides-block",
           side: Annotated[Optional[str], typer.Option(
               "--side", help="tabletop: whose friendly units a sight line from a point must pass")] = None,
           interpretation: InterpOption = None):
    """Whether FROM sees TO: clear or blocked, the hex or hexside that blocks, and the rule. On a tabletop
    FROM and TO are unit ids or x,y points in inches."""
    if _on_a_tabletop(game, db):
        if observer != "ground" or spine != "both-sides-block":
            fail("--observer and --along-hexside are for hex games")
        return _tabletop_sight(game, from_loc, to_loc, at, db, format, side, interpretation)
    if side is not None or interpretation:
        fail("--side and --interpretation are for tabletop games")
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


# ---------------------------------------------------------------- on a tabletop (inches)

def _queries():
    # The tabletop queries bring shapely and numpy: imported by the commands that measure a
    # tabletop, not at the start of every `umpire` command.
    from domain.tabletop import queries
    return queries


def _tabletop_board(game: str, at: Optional[int], db: Optional[str]):
    state, lines = _stored(game, at, db)
    if state.table is None:
        fail(f"{game}: no TableDefined at seq {state.seq}")
    return state, lines


def _place(game: str, text: str) -> tabletop.Place:
    if LOC_RE.match(text):
        # game-log-tabletop.md: "a hex in a tabletop game ... is a format error"
        fail(f"{text!r} is a hex location; {game} is measured in inches: give a unit id or x,y")
    return _queries().parse_place(text)


def _named(place: tabletop.Place) -> str:
    return place if isinstance(place, str) else f"{place[0]:g},{place[1]:g}"


def _xy(point) -> str:
    return f"({point[0]:.1f}, {point[1]:.1f})"


ORIGIN_WORDS = {"F": "front edge centre", "R": "right edge centre", "B": "rear edge centre",
                "L": "left edge centre", "turret": "turret centre", "leader": "leader figure"}


def _tabletop_sight(game, from_loc, to_loc, at, db, format, side, interpretation) -> None:
    state, lines = _tabletop_board(game, at, db)
    frm, to = _place(game, from_loc), _place(game, to_loc)
    tabletop = _queries()
    try:
        chosen = tabletop.readings(state.options, interpretation or ())
        answer = tabletop.sight(state, lines, frm, to, chosen, side=side)
    except tabletop.QueryError as err:
        fail(f"{game}: {err}")
    out = {"game": game, "seq": state.seq, "ruleset": state.ruleset, "from": _named(frm), "to": _named(to),
           **answer.to_json()}
    if format == "json":
        typer.echo(json.dumps(out, indent=1))
        return
    blocker = f" by {out['blocker']}" if out["blocker"] else ""
    origin = out["origin"]
    where = ORIGIN_WORDS.get(origin["from"], origin["from"])
    typer.echo(f"{out['from']} -> {out['to']} ({out['distance']}\" from the {where} at "
               f"{_xy(origin['point'])}): {out['status']}{blocker} [{out['rule'] or 'no rule'}] {out['reason']}")


def _tabletop_reach(game, unit, at, db, format, allowance) -> None:
    state, lines = _tabletop_board(game, at, db)
    tabletop = _queries()
    try:
        answer = tabletop.reach_region(state, lines, unit, allowance)
    except tabletop.QueryError as err:
        fail(f"{game}: {err}")
    out = {"game": game, "seq": state.seq, "phase": state.phase, "ruleset": state.ruleset, **answer.to_json()}
    if format == "json":
        typer.echo(json.dumps(out, indent=1))
        return
    held = f"{out['allowance']:g}\"" if out["allowance"] is not None else "unknown"
    typer.echo(f"{unit} from {_xy(out['from'])} at seq {out['seq']} ({out['phase']}): allowance {held} "
               f"({out['allowance_from']}); moved this turn {out['moved_this_turn']}\"")
    if out["region"] is not None and out["bounds"]:
        x0, y0, x1, y1 = out["bounds"]
        typer.echo(f"region: area {out['area']} sq in, bounding box x {x0:.1f}..{x1:.1f}, y {y0:.1f}..{y1:.1f}")
    elif out["region"] is not None:
        typer.echo("region: none (nowhere to go)")
    else:
        typer.echo("region: unknown without an allowance (--allowance INCHES)")
    if out["region"] is not None:
        typer.echo("limits: " + ("; ".join(out["limits"]) or "none within reach"))
    typer.echo(out["approximation"])
