"""The auditor's frame: readings chosen in GameStarted.options are in force on the first audit."""
from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

SCRIPT = """
from domain.log import read_lines
from domain.rules.engine import audit
from domain.rules.interpretations import Interpretations
from domain.rules.tables import resolve
from tests.builders import LogBuilder
b = LogBuilder(options=["interpretation:IM.CORE.MINMOVE=costs-only"])
interp = Interpretations()
report = audit(read_lines(b.texts()), tables=resolve("none"), interpretations=interp)
print(interp.chosen)
"""


def test_a_game_chosen_reading_is_taken_on_the_first_audit_of_a_process():
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, check=True)
    assert "IM.CORE.MINMOVE" in out.stdout, out.stdout + out.stderr


def test_an_unknown_chosen_reading_is_reported_not_ignored():
    from domain.log import read_lines
    from projections.audit_trail import audit_lines
    from tests.builders import LogBuilder
    b = LogBuilder(options=["interpretation:IM.CORE.MINMOVE=whatever", "interpretation:no-such=thing",
                            "interpretation:IM.CORE.MINMOVE=costs-only"])
    report = audit_lines(read_lines(b.texts()))
    rejected = [(f.seq, f.rule, f.verdict.value, f.recorded) for f in report.findings if f.rule == "LOG.OPTIONS"]
    assert rejected == [(1, "LOG.OPTIONS", "unverifiable", "IM.CORE.MINMOVE=whatever"),
                        (1, "LOG.OPTIONS", "unverifiable", "no-such=thing")]


def test_a_rule_module_that_fails_on_an_event_is_reported_and_the_audit_goes_on():
    from domain.log import read_lines
    from domain.rules.engine import RuleModule, audit, modules_for
    from domain.rules.interpretations import Interpretations
    from domain.rules.tables import resolve
    from tests.builders import LogBuilder

    class Fragile(RuleModule):
        """A rule system's module with a defect: it cannot judge a weather change."""

        def on_WeatherSet(self, line):
            raise KeyError("weather")

    b = LogBuilder()
    b.add("WeatherSet", {"weather": "fair", "terrain_state": "good"})
    b.turn_start(1)
    report = audit(read_lines(b.texts()), tables=resolve("none"), interpretations=Interpretations(),
                   rule_modules=[*modules_for("infernal-machines"), Fragile])
    failed = [(f.seq, f.rule, f.verdict.value) for f in report.findings if f.rule == "LOG.AUDIT"]
    assert failed == [(2, "LOG.AUDIT", "unverifiable")]
    assert "Fragile" in report.findings[0].message and report.events == 3


def test_a_reading_named_on_the_command_line_is_known_in_a_fresh_process():
    # Before the rule modules were loaded, `--interpretation` knew only the readings of the modules
    # imported so far and refused IM.CORE.MINMOVE (exit 2, "unknown interpretation").
    from tests.conftest import EXAMPLES
    out = subprocess.run([sys.executable, "-m", "api.cli", "audit", str(EXAMPLES / "resistance-turns.jsonl"),
                          "--interpretation", "IM.CORE.MINMOVE=costs-only"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode in (0, 1) and "unknown interpretation" not in out.stderr, out.stderr


def _audit(lines, interpretations):
    from domain.rules.engine import audit
    from domain.rules.tables import resolve
    return audit(lines, tables=resolve("none"), interpretations=interpretations)


def test_a_tabletop_game_chooses_its_readings_as_name_equals_reading():
    # game-log-tabletop.md, Interpretations: "chosen as NAME=READING in GameStarted.options";
    # the AVBCW example chooses avbcw-arc=quadrant.
    from domain.log import read_lines
    from domain.rules.interpretations import Interpretations
    from tests.conftest import SPEC
    lines = read_lines((SPEC / "examples-tabletop" / "avbcw-example.jsonl").read_text().splitlines())
    chosen = Interpretations()
    report = _audit(lines, chosen)
    assert chosen.chosen == {"avbcw-arc": "quadrant"} and chosen.rejected == []
    assert not [f for f in report.findings if f.rule == "LOG.OPTIONS"]


def test_a_reading_of_another_rule_system_is_reported_not_taken():
    from domain.log import read_lines
    from domain.rules.interpretations import Interpretations
    from tests.builders import LogBuilder
    b = LogBuilder(options=["avbcw-arc=narrow"])
    cli = Interpretations.from_pairs(["mog-terrain-class=start"])  # a Mogdonazia reading on the command line
    report = _audit(read_lines(b.texts()), cli)
    rejected = sorted(f.recorded for f in report.findings if f.rule == "LOG.OPTIONS")
    assert rejected == ["avbcw-arc=narrow", "mog-terrain-class=start"] and cli.chosen == {}
