"""`umpire rules coverage`: the rule coverage tables of docs/rules/, from the rule modules."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from api.cli_app import app
from domain.rules.coverage import catalogue_ids, coverage_table, merged

rules_app = typer.Typer(help="What the auditor covers.")
app.add_typer(rules_app, name="rules")

DEFAULT_CATALOGUE = next((p for p in (Path("../shared/spec/rules-catalogue.md"),
                                       Path("fixtures/spec/rules-catalogue.md")) if p.exists()),
                         Path("../shared/spec/rules-catalogue.md"))
TABLES = {"IM.ART.": ("docs/rules/infernal-machines-artillery.md",
                      "Infernal Machines: artillery module rule coverage")}


def render(catalogue: Path) -> dict[str, str]:
    text = catalogue.read_text(encoding="utf-8")
    coverage = merged()
    return {path: coverage_table(catalogue_ids(text, prefix), coverage, title)
            for prefix, (path, title) in TABLES.items()}


@rules_app.command("coverage")
def coverage(catalogue: Annotated[Path, typer.Option("--catalogue")] = DEFAULT_CATALOGUE,
             write: Annotated[bool, typer.Option("--write", help="write docs/rules/*.md")] = False):
    """Print (or write) one row per catalogue id: implemented / needs a chart / ambiguous, and its test."""
    for path, text in render(catalogue).items():
        if write:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_text(text, encoding="utf-8")
            typer.echo(f"wrote {path}")
        else:
            typer.echo(text)
