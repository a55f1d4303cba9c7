"""`umpire audit FILE --format json` of damaged logs: a JSON report (exit 0, or 1 with a failing
finding) for every log that reads as a game, one `umpire:` line naming the line and the field
(exit 2) for one that does not, never a traceback."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.mutations import KINDS, mutated, source_logs, write_log
from tests.fuzz.outcomes import cli_refusal, tally, umpire

SOURCES = source_logs()
NAMES = sorted(SOURCES)
FAILING = {"violation", "mismatch", "missing-roll"}


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(NAMES), data=st.data())
def test_audit_of_a_damaged_log_reports_or_names_the_bad_line(name, data):
    kinds = KINDS[data.draw(st.sampled_from(sorted(KINDS)), label="mutations")]
    log = data.draw(mutated(SOURCES[name], kinds=kinds), label="log")
    every = data.draw(st.booleans(), label="--all")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        write_log(path, log)
        result = umpire("audit", str(path), "--format", "json", *(["--all"] if every else []))
        tally(f"audit: exit {result.exit_code}")
        if result.exit_code == 2:
            cli_refusal(result, path, log)
            return
    assert result.exit_code in (0, 1), (result.exit_code, result.output[-500:], log.steps)
    report = json.loads(result.stdout)
    events = [json.loads(text) for text in log.lines if text.strip()]
    assert (report["game"], report["events"]) == (events[0]["game"], len(events)), log.steps
    failing = [f for f in report["findings"] if f["verdict"] in FAILING]
    assert result.exit_code == (1 if failing else 0), (result.exit_code, report["summary"], log.steps)
    assert all(1 <= f["seq"] <= len(events) for f in report["findings"]), log.steps
