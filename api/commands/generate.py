"""`umpire generate`: seeded, legal Infernal Machines games on the fixture maps, optionally with
known rule violations injected (Umpire issue 7)."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Optional

import typer

from api.cli_app import app, fail, progress
from domain.log import chain
from domain.rules.tables import resolve
from domain.rulesets import ruleset

RULESET = "infernal-machines"  # the rule system whose games `umpire generate` plays

MAPS_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "maps"


def load_maps(maps_dir: Path) -> list[tuple[str, dict]]:
    files = sorted(maps_dir.glob("*.json"))
    if not files:
        fail(f"{maps_dir}: no map files (*.json holding MapDefined data)")
    return [(f.stem, json.loads(f.read_text(encoding="utf-8"))) for f in files]


def game_seed(seed: int, index: int) -> int:
    """Each game's own seed, derived from the run's seed and the game's number (never the clock)."""
    return random.Random(f"umpire-generate:{seed}:{index}").getrandbits(64)


def write_game(out: Path, seed: int, index: int, map_entry: tuple[str, dict], pack, turns: int,
               inject_violations: int) -> None:
    """Play game number `index` of the run and write its log (and its violations, when injected)."""
    own = game_seed(seed, index)
    map_name, map_data = map_entry
    name = f"gen-{seed}-{index:04d}"
    player = ruleset(RULESET).generator()
    lines = player.play_game(name, own, map_data, pack, turns=turns, scenario=f"generated on map {map_name}")
    if inject_violations:
        lines, found = player.inject(lines, inject_violations, random.Random(own ^ 0x5EED))
        (out / f"{name}.violations.json").write_text(
            json.dumps([{"seq": f["seq"], "rule": f["rule"]} for f in found], indent=1) + "\n", encoding="utf-8")
    (out / f"{name}.jsonl").write_text("".join(t + "\n" for t in chain(lines)), encoding="utf-8")


@app.command()
def generate(out: Annotated[Path, typer.Option("-o", "--out", help="directory for the generated logs")],
             games: Annotated[int, typer.Option("--games", min=1, help="how many games")] = 1,
             seed: Annotated[int, typer.Option("--seed", help="the run's seed: the same seed, the same files")] = 0,
             turns: Annotated[int, typer.Option("--turns", min=1, help="game turns per game")] = 8,
             inject_violations: Annotated[int, typer.Option("--inject-violations", min=0,
                                                            help="rules to break in each game")] = 0,
             tables: Annotated[str, typer.Option("--tables", help="table pack the games use")] = "sample",
             maps: Annotated[Optional[Path], typer.Option("--maps", help="directory of map files")] = None):
    """Play seeded Infernal Machines games and write them as JSONL logs (NAME.jsonl); with
    --inject-violations, also NAME.violations.json listing each broken rule's seq and id."""
    pack = resolve(tables)
    map_list = load_maps(maps or MAPS_DIR)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        fail(f"{out}: cannot create the folder: {err.strerror or err}")
    with progress("generating", games) as steps:
        for index in range(1, games + 1):
            write_game(out, seed, index, map_list[(index - 1) % len(map_list)], pack, turns, inject_violations)
            steps.done()
    typer.echo(f"{games} game(s) written to {out}")
