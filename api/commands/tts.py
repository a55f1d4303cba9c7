"""`umpire import-tts SAVE.json --game G --units MAP.json`: where a Tabletop Simulator save has
the units of a stored tabletop game, recorded as its deployments and moves (docs/tts.md)."""
from __future__ import annotations

import json
import re
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from api.cli_app import DbOption, FormatOption, app, existing_store, fail, open_ledger, read_text, stored_game
from domain.application import ConflictError
from domain.army_lists import field_line
from domain.log import LogError, chain, head_hash

if TYPE_CHECKING:
    from domain.tabletop.tts import TTSError
    from domain.tabletop.tts_import import Step

# Another writer appending between the read of the board and the write: plan again on the new board.
RETRIES = 5


class Edge(str, Enum):
    """The TTS table edge of the side listed first in GameStarted.sides."""
    minus_z = "-z"
    plus_z = "+z"
    minus_x = "-x"
    plus_x = "+x"


@app.command("import-tts")
def import_tts(save: Annotated[Path, typer.Argument(metavar="SAVE.json", help="a Tabletop Simulator save")],
               game: Annotated[str, typer.Option("--game", help="the stored tabletop game")],
               units: Annotated[Path, typer.Option("--units", metavar="MAP.json",
                                                   help="which TTS object is which unit (docs/tts.md)")],
               scale: Annotated[float, typer.Option("--scale", metavar="INCHES_PER_UNIT",
                                                    help="inches per TTS unit (default 1: a TTS unit is an inch)")] = 1.0,
               origin: Annotated[Optional[str], typer.Option(
                   "--origin", metavar="X,Z", help="TTS X,Z of the table's origin corner (default: the game's "
                                                   "table centred on TTS 0,0)")] = None,
               edge: Annotated[Edge, typer.Option("--edge", help="the TTS edge of the side listed first")] = Edge.minus_z,
               tolerance: Annotated[float, typer.Option(
                   "--tolerance", metavar="INCHES", help="a place that changed no more than this is unchanged")] = 0.1,
               turn_tolerance: Annotated[float, typer.Option(
                   "--turn-tolerance", metavar="DEGREES", help="a facing that turned no more than this is unchanged")] = 1.0,
               dry_run: Annotated[bool, typer.Option(
                   "--dry-run", help="print the lines it would append (JSONL, chained to the stored game), store nothing")] = False,
               db: DbOption = None, format: FormatOption = "text"):
    """Record a Tabletop Simulator save's positions in a tabletop game: UnitDeployed for a unit not yet
    deployed, UnitMoved for one whose place or facing changed since the board the log holds."""
    from domain.tabletop import tts, tts_import  # shapely: loaded by the commands that measure a tabletop
    for name, value in (("--tolerance", tolerance), ("--turn-tolerance", turn_tolerance)):
        if not value >= 0:
            fail(f"{name} {value:g}: a number 0 or above")
    texts = {"save": (save, read_text(save)), "map": (units, read_text(units))}
    try:
        frame = tts.Frame(scale=scale, edge=edge.value, origin=_xz(origin))
        objects = tts.table_objects(_json(*texts["save"]))
        unit_map = tts_import.read_map(_json(*texts["map"]))
    except tts.TTSError as err:
        _refuse(err, texts)
    ledger = open_ledger(existing_store(db))
    stored_game(ledger, game)
    limits = tts_import.Tolerance(tolerance, turn_tolerance)
    for _ in range(RETRIES):
        lines = ledger.lines(game)
        try:
            steps = tts_import.plan(tts_import.Game.of(game, lines), objects, unit_map, frame, limits)
        except tts.TTSError as err:
            _refuse(err, texts)
        objs = _envelopes(game, lines, steps)
        if dry_run or not objs:
            break
        try:
            ledger.append(game, objs)
        except ConflictError:
            continue
        except LogError as err:
            fail(f"{save}: {_refused_line(err, objs, steps)} (nothing was stored)")
        _catch_up(ledger, game, db)
        break
    else:
        fail(f"{game}: other writers kept appending while this save was read; nothing was stored: run it again", 1)
    if dry_run:
        sys.stdout.write("".join(text + "\n" for text in chain(objs, prev=head_hash(chain(lines)))))
    _report(game, steps, objs, dry_run, format.value)


def _xz(text: Optional[str]) -> Optional[tuple[float, float]]:
    if text is None:
        return None
    try:
        x, z = (float(part) for part in text.split(","))
    except ValueError:
        fail(f"--origin {text}: two numbers X,Z (the TTS position of the table's origin corner)")
    return x, z


def _json(path: Path, text: str) -> Any:
    try:
        return json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as err:
        fail(f"{path}: line {err.lineno}: (json): malformed JSON: {err.msg} at column {err.colno}")


def _refuse(err: TTSError, texts: dict[str, tuple[Path, str]]) -> None:
    """The one line of a save, map or option that cannot be read, naming its line and field."""
    if err.source in texts:
        path, text = texts[err.source]
        line = field_line(text.removeprefix("\ufeff"), re.sub(r"\[(\d+)\]", r".\1", err.field)) or 1
        fail(f"{path}: line {line}: {err.field}: {err.message} (nothing was stored)")
    where = f"--{err.field}" if err.source == "frame" else err.field
    fail(f"{where}: {err.message} (nothing was stored)")


def _envelopes(game: str, lines: list[dict[str, Any]], steps: list[Step]) -> list[dict[str, Any]]:
    """The steps' events as the game's next lines, at the turn and phase in force."""
    events = [s.event for s in steps if s.event is not None]
    if not events:
        return []
    from api.authority import now
    last, at = lines[-1], now()
    return [{"v": 1, "game": game, "seq": last["seq"] + k, "turn": last["turn"], "phase": last["phase"],
             "side": e["side"], "type": e["type"], "data": e["data"], "at": at}
            for k, e in enumerate(events, start=1)]


def _refused_line(err: LogError, objs: list[dict[str, Any]], steps: list[Step]) -> str:
    """A line the log's checks refused, named by the unit and the TTS object it came from."""
    if not 1 <= err.line <= len(objs):
        return str(err)
    obj = objs[err.line - 1]
    step = [s for s in steps if s.event is not None][err.line - 1]
    source = f" (object {step.obj.label()})" if step.obj else ""
    return f"{obj['type']} of {step.unit}{source}: {err.field}: {err.message}"


def _catch_up(ledger, game: str, db: Optional[str]) -> None:
    from api.cli import projection_store
    from projections.board_state import BoardCheckpoints
    BoardCheckpoints(ledger, projection_store(db)).catch_up_game(game)


def _report(game: str, steps: list[Step], objs: list[dict[str, Any]], dry_run: bool, format: str) -> None:
    """Per unit what was done, then the lines recorded; on stderr with --dry-run (stdout has the lines)."""
    out = sys.stderr if dry_run else sys.stdout
    if format == "json":
        rows = [{"unit": s.unit, "status": s.status, "position": s.position, "facing": s.facing,
                 "before": s.before, "notes": s.notes,
                 "object": {"guid": s.obj.guid, "nickname": s.obj.nickname} if s.obj else None} for s in steps]
        seqs = [o["seq"] for o in objs]
        print(json.dumps({"game": game, "dry_run": dry_run, "recorded": 0 if dry_run else len(objs),
                          "first_seq": seqs[0] if seqs else None, "last_seq": seqs[-1] if seqs else None,
                          "units": rows}, indent=1, ensure_ascii=False), file=out)
        return
    for s in steps:
        print(f"{game}: {s.unit} {_words(s)}", file=out)
    if not objs:
        print(f"{game}: nothing changed since the board the log holds: nothing recorded", file=out)
    elif dry_run:
        print(f"{game}: would record {_events(objs)}, seq {objs[0]['seq']} to {objs[-1]['seq']} "
              "(--dry-run: nothing stored)", file=out)
    else:
        print(f"{game}: recorded {_events(objs)}, seq {objs[0]['seq']} to {objs[-1]['seq']}", file=out)


def _events(objs: list[dict[str, Any]]) -> str:
    return f"{len(objs)} event{'s' if len(objs) != 1 else ''}"


def _at(position: Optional[dict[str, float]], facing: Optional[int]) -> str:
    return f"({position['x']}, {position['y']}) facing {facing}" if position else "-"


def _words(s: Step) -> str:
    source = f" [object {s.obj.label()}]" if s.obj else ""
    notes = "".join(f"; {note}" for note in s.notes)
    if s.status == "deployed":
        return f"deployed at {_at(s.position, s.facing)}{source}{notes}"
    if s.status == "moved":
        before = s.before or {}
        return f"moved {_at(before.get('position'), before.get('facing'))} -> {_at(s.position, s.facing)}{source}{notes}"
    if s.status == "unchanged":
        return f"unchanged at {_at(s.position, s.facing)}{source}"
    words = {"not-on-table": "not on the table", "out-of-play": "out of play", "aboard": "aboard a vehicle"}
    return f"{words[s.status]}: nothing recorded{source}{notes}"
