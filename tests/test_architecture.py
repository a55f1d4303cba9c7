"""The layering (DESIGN.md): domain imports nothing of ours outside domain; projections import
domain; api and dashboard import both. Read from the source, so a new import cannot slip in."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = {"domain", "projections", "api", "dashboard"}
OURS = RUNTIME | {"bench"}
# Benchmarks may use every layer; no runtime package imports them, save the `umpire bench`
# command, which runs them.
ALLOWED = {"domain": {"domain"}, "projections": {"domain", "projections"},
           "api": OURS, "dashboard": OURS, "bench": OURS}
RUNS_THE_BENCHMARKS = Path("api/commands/bench.py")
FORBIDDEN_IN_DOMAIN = {"fastapi", "dash", "plotly", "uvicorn", "typer", "starlette", "sqlite3", "psycopg"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_layers_import_only_what_they_may():
    problems = []
    for package, allowed in ALLOWED.items():
        for path in (ROOT / package).rglob("*.py"):
            bad = (imports_of(path) & OURS) - allowed
            if bad:
                problems.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert problems == []


def test_no_runtime_package_imports_the_benchmarks():
    problems = []
    for package in RUNTIME:
        for path in (ROOT / package).rglob("*.py"):
            rel = path.relative_to(ROOT)
            if "bench" in imports_of(path) and rel != RUNS_THE_BENCHMARKS:
                problems.append(f"{rel} imports bench")
    assert problems == []


def test_domain_is_pure():
    problems = []
    for path in (ROOT / "domain").rglob("*.py"):
        bad = imports_of(path) & FORBIDDEN_IN_DOMAIN
        text = path.read_text(encoding="utf-8")
        if bad or "os.environ" in text or "getenv" in text:
            problems.append(f"{path.relative_to(ROOT)}: {sorted(bad) or 'reads the environment'}")
    assert problems == []


RULE_SYSTEMS = ("infernal_machines", "dux_bellorum_avbcw", "landships_of_mogdonazia")


def _modules_imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_only_a_rule_system_imports_its_own_package():
    # A rule system is reached through its RuleSet (domain/rulesets.py, the entry points of
    # pyproject.toml), never by importing its package from outside it.
    problems = []
    for package in ALLOWED:
        for path in (ROOT / package).rglob("*.py"):
            rel = path.relative_to(ROOT)
            own = rel.parts[2] if rel.parts[:2] == ("domain", "rules") and len(rel.parts) > 3 else None
            for name in _modules_imported(path):
                parts = name.split(".")
                if parts[:2] == ["domain", "rules"] and len(parts) > 2 and parts[2] in RULE_SYSTEMS \
                        and parts[2] != own:
                    problems.append(f"{rel} imports {name}")
    assert problems == []
