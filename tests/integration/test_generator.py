"""`umpire generate` (Umpire issue 7): seeded games are byte-identical for a seed, legal games
audit clean, and every injected violation is found by the auditor at the seq and rule the
generator names."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from api.cli import app
from domain.log import read_lines
from domain.rules.engine import audit
from domain.rules.interpretations import Interpretations
from domain.rules.tables import resolve

runner = CliRunner()
FAILING = {"violation", "mismatch", "missing-roll"}


def generate(out, *args):
    result = runner.invoke(app, ["generate", "-o", str(out), *[str(a) for a in args]])
    assert result.exit_code == 0, result.output
    return sorted(out.glob("*.jsonl"))


def audit_file(path):
    with open(path, encoding="utf-8") as fh:
        lines = read_lines(fh)
    return audit(lines, tables=resolve(lines[0]["data"]["tables"]), interpretations=Interpretations())


def failing(report):
    return [f for f in report.findings if f.verdict.value in FAILING]


def found(injected: dict, findings) -> bool:
    """An injected violation is among the findings at its seq, under its rule or one below it."""
    return any(f.seq == injected["seq"] and (f.rule == injected["rule"] or f.rule.startswith(injected["rule"] + "."))
               for f in findings)


def test_same_seed_gives_byte_identical_logs(tmp_path):
    first = generate(tmp_path / "a", "--games", 3, "--seed", 11, "--turns", 3, "--inject-violations", 2)
    second = generate(tmp_path / "b", "--games", 3, "--seed", 11, "--turns", 3, "--inject-violations", 2)
    other = generate(tmp_path / "c", "--games", 3, "--seed", 12, "--turns", 3)
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]
    for a, b in zip(sorted((tmp_path / "a").glob("*.violations.json")), sorted((tmp_path / "b").glob("*.violations.json"))):
        assert a.read_bytes() == b.read_bytes()
    assert [p.read_bytes() for p in first] != [p.read_bytes() for p in other]


def test_generated_games_are_substantial_and_verify(tmp_path):
    paths = generate(tmp_path, "--games", 2, "--seed", 3, "--turns", 8)
    for path in paths:
        result = runner.invoke(app, ["verify", str(path), "--db", ":memory:"])  # an empty store
        assert result.exit_code == 0 and "chain intact" in result.output, result.output
        kinds = [json.loads(line)["type"] for line in path.read_text().splitlines()]
        assert len(kinds) >= 300
        # the whole barrage procedure and the ground war are there (game-log.md)
        assert {"HexObserved", "BarrageDeclared", "ArtilleryPointsSpent", "CommunicationTested",
                "FireOrderChecked", "ScatterTested", "BarrageResolved", "Spotted", "SmallArmsFired",
                "SmallArmsResolved", "UnitMoved", "UnitStatusChanged"} <= set(kinds)


def test_legal_games_audit_clean(tmp_path):
    paths = generate(tmp_path, "--games", 20, "--seed", 2026, "--turns", 6)
    for path in paths:
        assert failing(audit_file(path)) == [], path.name
    cli = runner.invoke(app, ["audit", str(paths[0])])
    assert cli.exit_code == 0, cli.output


def test_legal_games_on_the_none_pack_audit_clean(tmp_path):
    for path in generate(tmp_path, "--games", 10, "--seed", 5, "--turns", 5, "--tables", "none"):
        assert failing(audit_file(path)) == [], path.name


def test_every_injected_violation_is_found_over_200_games(tmp_path):
    paths = generate(tmp_path, "--games", 200, "--seed", 7, "--turns", 4, "--inject-violations", 3)
    missed, kinds = [], set()
    for path in paths:
        injected = json.loads(path.with_suffix(".violations.json").read_text())
        assert len(injected) == 3, path.name
        report = failing(audit_file(path))
        for v in injected:
            kinds.add(v["rule"])
            if not found(v, report):
                missed.append((path.name, v))
    assert missed == []
    assert len(kinds) >= 6   # several different rules broken across the run
