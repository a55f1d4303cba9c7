"""`umpire generate`: seeded, legal games of a rule system (Infernal Machines on the fixture maps,
the tabletop rule systems on tables they generate), optionally with known rule violations
injected (Umpire issues 7, 13 and 14)."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Optional

import typer

from api.cli_app import app, fail, progress
from domain.log import chain
from domain.rules.tables import resolve
from domain.rulesets import UnknownRuleSet, ruleset

RULESET = "infernal-machines"  # the rule system whose games `umpire generate` plays unless told

MAPS_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "maps"


def load_maps(maps_dir: Path) -> list[tuple[str, dict]]:
    files = sorted(maps_dir.glob("*.json"))
    if not files:
        fail(f"{maps_dir}: no map files (*.json holding MapDefined data)")
    return [(f.stem, json.loads(f.read_text(encoding="utf-8"))) for f in files]


def game_seed(seed: int, index: int) -> int:
    """Each game's own seed, derived from the run's seed and the game's number (never the clock)."""
    return random.Random(f"umpire-generate:{seed}:{index}").getrandbits(64)


def write_game(out: Path, seed: int, index: int, map_entry: Optional[tuple[str, dict]], pack, turns: int,
               inject_violations: int, rules=None) -> None:
    """Play game number `index` of the run and write its log (and its violations, when injected);
    a tabletop rule system's game (`map_entry` None) generates its own table."""
    own = game_seed(seed, index)
    map_name, map_data = map_entry or ("", None)
    rules = rules or ruleset(RULESET)
    # another rule system's games are named by its prefix, so that they share a store with these
    name = f"gen-{seed}-{index:04d}" if rules.id == RULESET else f"gen-{rules.prefix.lower()}-{seed}-{index:04d}"
    player = rules.generator()
    scenario = f"generated on map {map_name}" if map_entry else "generated table"
    lines = player.play_game(name, own, map_data, pack, turns=turns, scenario=scenario)
    if inject_violations:
        lines, found = player.inject(lines, inject_violations, random.Random(own ^ 0x5EED))
        (out / f"{name}.violations.json").write_text(
            json.dumps([{"seq": f["seq"], "rule": f["rule"]} for f in found], indent=1) + "\n", encoding="utf-8")
    (out / f"{name}.jsonl").write_text("".join(t + "\n" for t in chain(lines)), encoding="utf-8")


def chosen(ruleset_id: str):
    """The rule system `--ruleset` names, when it has a generator."""
    try:
        rules = ruleset(ruleset_id)
    except UnknownRuleSet as err:
        fail(f"--ruleset: {err}")
    if rules.generator is None:
        fail(f"--ruleset: {ruleset_id} has no game generator")
    return rules


@app.command()
def generate(out: Annotated[Path, typer.Option("-o", "--out", help="directory for the generated logs")],
             games: Annotated[int, typer.Option("--games", min=1, help="how many games")] = 1,
             seed: Annotated[int, typer.Option("--seed", help="the run's seed: the same seed, the same files")] = 0,
             turns: Annotated[int, typer.Option("--turns", min=1, help="game turns per game")] = 8,
             inject_violations: Annotated[int, typer.Option("--inject-violations", min=0,
                                                            help="rules to break in each game")] = 0,
             tables: Annotated[str, typer.Option("--tables", help="table pack the games use")] = "sample",
             maps: Annotated[Optional[Path], typer.Option("--maps", help="directory of map files")] = None,
             ruleset_id: Annotated[str, typer.Option("--ruleset", help="the rule system to play (umpire rules list)")]
             = RULESET):
    """Play seeded games of a rule system and write them as JSONL logs (NAME.jsonl); with
    --inject-violations, also NAME.violations.json listing each broken rule's seq and id."""
    rules = chosen(ruleset_id)
    pack = resolve(tables)
    map_list = load_maps(maps or MAPS_DIR) if rules.geometry == "hex" else [None]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        fail(f"{out}: cannot create the folder: {err.strerror or err}")
    with progress("generating", games) as steps:
        for index in range(1, games + 1):
            write_game(out, seed, index, map_list[(index - 1) % len(map_list)], pack, turns, inject_violations,
                       rules)
            steps.done()
    typer.echo(f"{games} game(s) written to {out}")
