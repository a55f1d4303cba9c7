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


def _audit_with(module_class, b):
    from domain.log import read_lines
    from domain.rules.engine import audit
    from domain.rules.interpretations import Interpretations
    from domain.rules.tables import resolve
    return audit(read_lines(b.texts()), tables=resolve("none"), interpretations=Interpretations(),
                 rule_modules=[module_class])


def test_a_module_reads_a_line_as_its_typed_event_built_once():
    from domain.rules.engine import RuleModule
    from tests.builders import LogBuilder
    seen = []

    class Reader(RuleModule):
        def on_DieRolled(self, line):
            event = self.ctx.typed(line)
            seen.append((type(event).__name__, event.purpose, event.result, event is self.ctx.typed(line)))
            return []

    b = LogBuilder()
    b.roll("IM.SPOT.ROLL", 7, "b-1", "british", die="d10")
    _audit_with(Reader, b)
    assert seen == [("DieRolled", "IM.SPOT.ROLL", 7, True)]


def test_looking_back_by_type_and_by_roll_purpose_finds_what_a_rescan_would():
    from domain.rules.engine import RuleModule
    from tests.builders import LogBuilder
    found = {}

    class LookBack(RuleModule):
        def on_TurnStarted(self, line):
            ctx, seq = self.ctx, line["seq"]
            rescan = [l for l in ctx.lines[:seq - 1] if l["type"] == "DieRolled"]
            found["types"] = (ctx.of_type("DieRolled", before=seq), rescan)
            found["spot"] = [l["seq"] for l in ctx.rolls("IM.SPOT.ROLL", after=2, before=seq)]
            found["spot-prefix"] = [l["seq"] for l in ctx.rolls("IM.SP", before=seq)]
            found["art"] = [l["seq"] for l in ctx.rolls("IM.ART.", before=seq)]
            found["about"] = [l["seq"] for l in ctx.rolls_for("b-2", "IM.", before=seq)]
            return []

    b = LogBuilder()
    b.roll("IM.SPOT.ROLL", 7, "b-1", "british", die="d10")        # seq 2
    b.roll("IM.SPOT.ROLLED", 3, "b-2", "british", die="d10")      # seq 3: "starts with" is kept exact
    b.roll("IM.ART.FOT", 4, "b-2", "british")                     # seq 4
    b.roll("IM.SPOT.ROLL", 2, "b-1", "british", die="d10")        # seq 5
    b.turn_start(1)
    _audit_with(LookBack, b)
    assert found["types"][0] == found["types"][1] and len(found["types"][0]) == 4
    assert found["spot"] == [3, 5]
    assert found["spot-prefix"] == [2, 3, 5]
    assert found["art"] == [4]
    assert found["about"] == [3, 4]


def test_a_closer_runs_only_after_its_module_was_told_something_and_finds_the_same():
    """A phase end judges what the phase owed: a module's `closer` is skipped at the end of a phase in
    which none of its steps ran (it owes nothing), and runs at the end of one in which one did."""
    from domain.rules.engine import Rule, RuleModule, closer
    from tests.builders import LogBuilder
    owed_rule, calls = Rule("TEST.OWED", "a test's phase end"), []

    class Owing(RuleModule):
        def __init__(self, ctx):
            super().__init__(ctx)
            self.rolls: list[int] = []

        def on_DieRolled(self, line):
            self.rolls.append(line["seq"])

        @closer
        def on_PhaseStarted(self, line):
            calls.append(line["seq"])
            found, self.rolls = [owed_rule.unverifiable(seq, "owed at the phase end") for seq in self.rolls], []
            return found

    b = LogBuilder()
    b.turn_start(1)
    b.phase_start("first-foot-movement", "british")
    first = len(b.lines)
    b.phase_start("vehicle-movement", "british")            # nothing told: skipped
    second = len(b.lines)
    b.roll("IM.SPOT.ROLL", 7, "b-1", "british", die="d10")
    rolled = len(b.lines)
    b.phase_start("second-foot-movement", "british")        # told a roll: runs, and judges it
    third = len(b.lines)
    b.phase_start("close-combat", "british")                # nothing told since: skipped
    fourth = len(b.lines)
    report = _audit_with(Owing, b)
    assert calls == [first, third]      # the first: every module may owe at the start
    assert [(f.seq, f.rule) for f in report.findings if f.rule == "TEST.OWED"] == [(rolled, "TEST.OWED")]
    assert second not in calls and fourth not in calls


def test_a_handler_for_some_phases_is_called_when_those_begin_only():
    from domain.rules.engine import RuleModule, in_phases
    from tests.builders import LogBuilder
    called = []

    class Barrages(RuleModule):
        @in_phases("barrage")
        def after_PhaseStarted(self, line):
            called.append(line["phase"])

    b = LogBuilder()
    b.turn_start(1)
    for phase in ("pin-removal", "barrage", "vehicle-movement"):
        b.phase_start(phase, "british")
    _audit_with(Barrages, b)
    assert called == ["barrage"]
