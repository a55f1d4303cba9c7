"""`umpire army check LIST.json`: an army list validated and costed against the text before a
game (the file holds what an `ArmyListed` event's data holds)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from api.cli_app import FormatOption, app, fail, read_text
from domain.army_lists import DEFAULT_RULESET, ArmyListError, check_list, field_line
from domain.rules.interpretations import InterpretationError
from domain.rulesets import UnknownRuleSet

army_app = typer.Typer(help="Army lists, checked against the rulebook before a game.")
app.add_typer(army_app, name="army")


@army_app.command("check")
def check(file: Annotated[Path, typer.Argument(help="LIST.json: an ArmyListed event's data")],
          ruleset_id: Annotated[str, typer.Option("--ruleset", help="the rule system (its id)")] = DEFAULT_RULESET,
          interpretation: Annotated[list[str], typer.Option(
              "--interpretation", help="NAME=READING (e.g. avbcw-heavy-mortar-pts=4); repeatable")] = [],
          format: FormatOption = "text"):
    """Exit 0 when the list is legal, 1 with one line per error (unit, rule, count against its
    limit, the rulebook's words), 2 for a file that is not an army list."""
    text = read_text(file)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        fail(f"{file}: line {err.lineno}: (json): malformed JSON: {err.msg} at column {err.colno}")
    try:
        answer = check_list(data, ruleset_id, interpretation)
    except UnknownRuleSet as err:
        fail(f"--ruleset: {err}")
    except InterpretationError as err:
        fail(f"--interpretation: {err}")
    except ArmyListError as err:
        line = field_line(text, err.field) or 1
        fail(f"{file}: line {line}: {err.field}: {err.message}")
    if format == "json":
        typer.echo(json.dumps(answer, indent=1, ensure_ascii=False))
    else:
        for error in answer["errors"]:
            typer.echo(f"{file}: {'' if error['verdict'] == 'violation' else error['verdict'] + ': '}{error['line']}")
        if answer["legal"]:
            typer.echo(f"{file}: legal: {len(answer['costs'])} units, {answer['total']} points")
    raise typer.Exit(0 if answer["legal"] else 1)
