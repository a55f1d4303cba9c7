"""docs/rulesets.md shows what `umpire rules list` prints: it must say what the installed rule
systems are (their phases and event types), not what they were when the page was written."""
from __future__ import annotations

import re

from typer.testing import CliRunner

from api.cli import app
from tests.conftest import ROOT


def test_the_rule_systems_page_shows_what_rules_list_prints():
    printed = CliRunner().invoke(app, ["rules", "list"]).stdout
    listed = {line.split("\t")[0]: line.split("\t")[-1] for line in printed.splitlines() if "\t" in line}
    page = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    shown = {m.group(1): m.group(2) for m in re.finditer(r"^(\S+)\s{2,}.*?(\d+ phases, \d+ event types of its own)$",
                                                       page, re.M)}
    assert listed and shown == listed
