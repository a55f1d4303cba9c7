"""Rule coverage: what each rule module says it judges (its COVERAGE dict), merged, and the coverage
table of a rule system (`umpire rules coverage`): one row per id of its part of the rules catalogue.

A module declares `COVERAGE = {rule_id: (status, tests)}` or `{rule_id: (status, tests, note)}`:
status one of MODULE_STATUSES, tests one or more `path::name` separated by ";", and the note what
the module judges of the rule and what it leaves (free text). An id no module declares takes the
`coverage` object of its rulebook entry (`{"status": "not judgeable from a log" or "not yet",
"note": ...}`), else it is "not yet".
"""
from __future__ import annotations

import importlib
import pkgutil
import re
from collections import Counter
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Mapping, Sequence

from domain.rulesets import GROUP, UnknownRuleSet

STATUSES = ("implemented", "partial", "needs a chart", "ambiguous", "not judgeable from a log", "not yet")
MODULE_STATUSES = STATUSES[:4]     # what a rule module may say of a rule it judges
UNJUDGED_STATUSES = STATUSES[4:]   # what a rulebook entry may say of a rule no module judges
_ID = r"[A-Z]+\.[A-Z0-9_]+(?:\.[A-Z0-9_]+)*"
# rules-catalogue.md, 0. How to read an entry: bold entries ("**IM.OBS.STRONGPOINT / IM.OBS.MINEFIELD**"
# names two) and the rows of tables that carry an id
CATALOGUE_ENTRY = re.compile(rf"\*\*({_ID}(?: / {_ID})*)\*\*|^\| ({_ID}) \|", re.M)
MEANINGS = (
    ("implemented", "everything the check needs is in the text, and a module judges it"),
    ("partial", "a module judges part of the rule; the note says which part, and what is not judged yet"),
    ("needs a chart", "the text fixes part of the check; the rest is a chart or a core procedure the text does "
                      "not hold, table-pack data, and the verdict is `unverifiable` without it"),
    ("ambiguous", "a named interpretation decides, or the passage is flagged; with no reading the verdict is "
                  "`ambiguous`"),
    ("not judgeable from a log", "the rule is about a fact no log records"),
    ("not yet", "no module judges it so far"),
)


class CoverageError(ValueError):
    """A COVERAGE declaration or a rulebook `coverage` object that does not say what this module asks for."""


@dataclass(frozen=True)
class Covered:
    """What Umpire says of one rule id: its status, the tests that show it, the modules and notes."""

    status: str
    tests: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def declared(ruleset_id: str = "infernal-machines") -> dict[str, Covered]:
    """Every module's COVERAGE in the rule system's package (the one its entry point names), in module
    name order; a later module adds its tests and notes to an id, never hides one, and the id keeps the
    stronger status (MODULE_STATUSES order)."""
    package = ruleset_package(ruleset_id)
    out: dict[str, Covered] = {}
    for info in sorted(pkgutil.iter_modules(importlib.import_module(package).__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{package}.{info.name}")
        for rule, value in getattr(module, "COVERAGE", {}).items():
            status, tests, note = _declaration(f"{package}.{info.name}", rule, value)
            mine = Covered(status, tests, (f"{info.name}.py",), (note,) if note else ())
            out[rule] = _merge(out[rule], mine) if rule in out else mine
    return out


def merged(ruleset_id: str = "infernal-machines") -> dict[str, tuple[str, str]]:
    """`declared` as {id: (status, "test; test")}."""
    return {rule: (c.status, "; ".join(c.tests)) for rule, c in declared(ruleset_id).items()}


def ruleset_package(ruleset_id: str) -> str:
    """The package of an installed rule system: where its entry point's RuleSet lives."""
    for point in entry_points(group=GROUP):
        if point.name == ruleset_id:
            return point.module.rsplit(".", 1)[0]
    raise UnknownRuleSet(ruleset_id)


def _declaration(module: str, rule: str, value: Any) -> tuple[str, tuple[str, ...], str]:
    where = f"{module}.COVERAGE[{rule!r}]"
    if not isinstance(value, tuple) or len(value) not in (2, 3) or not all(isinstance(v, str) for v in value):
        raise CoverageError(f"{where}: a declaration is (status, tests) or (status, tests, note), all strings")
    status, tests, note = (*value, "")[:3]
    if status not in MODULE_STATUSES:
        raise CoverageError(f"{where}: status {status!r} is not one of {', '.join(MODULE_STATUSES)}")
    named = tuple(t.strip() for t in tests.split(";") if t.strip())
    if not named or not all("::" in t for t in named):
        raise CoverageError(f"{where}: tests must name at least one test as path::name ({tests!r})")
    return status, named, note.strip()


def _merge(a: Covered, b: Covered) -> Covered:
    status = a.status if MODULE_STATUSES.index(a.status) <= MODULE_STATUSES.index(b.status) else b.status
    tests = a.tests + tuple(t for t in b.tests if t not in a.tests)
    return Covered(status, tests, a.modules + tuple(m for m in b.modules if m not in a.modules), a.notes + b.notes)


def catalogue_ids(text: str, prefix: str) -> list[str]:
    """Rule ids of the catalogue under `prefix` ("IM.", "MOG."), in its order: bold entries (one or
    several ids) and table rows."""
    seen: list[str] = []
    for match in CATALOGUE_ENTRY.finditer(text):
        for rule in (match.group(1) or match.group(2)).split(" / "):
            if rule.startswith(prefix) and rule not in seen:
                seen.append(rule)
    return seen


def unjudged(rule: str, entry: Mapping[str, Any] | None, origin: str = "rulebook") -> Covered:
    """What a rulebook entry says of a rule no module judges (its `coverage` object), else "not yet"."""
    given = (entry or {}).get("coverage")
    if given is None:
        return Covered("not yet")
    where = f"{origin}: rule {rule!r}, coverage"
    if not isinstance(given, dict) or set(given) - {"status", "note"}:
        raise CoverageError(f"{where}: an object with 'status' and 'note'")
    if given.get("status") not in UNJUDGED_STATUSES:
        raise CoverageError(f"{where}: 'status' must be one of {', '.join(UNJUDGED_STATUSES)}")
    if not isinstance(given.get("note", ""), str):
        raise CoverageError(f"{where}: 'note' must be a string")
    return Covered(given["status"], notes=(given["note"],) if given.get("note") else ())


def coverage_rows(ids: Sequence[str], coverage: Mapping[str, Covered], rulebook: Any) -> list[tuple[str, Covered]]:
    """(id, what Umpire says of it) for each id: the modules' declaration, else the rulebook's."""
    return [(rule, coverage[rule] if rule in coverage
             else unjudged(rule, rulebook.entry(rule) if rule in rulebook else None, rulebook.origin))
            for rule in ids]


def coverage_table(ruleset: Any, catalogue_text: str) -> str:
    """The coverage page of a rule system (docs/rules/<id>.md): every catalogue id under its prefix,
    then the finer ids its modules declare, with status, section, modules, notes and tests."""
    book, prefix = ruleset.rulebook(), ruleset.prefix + "."
    coverage = declared(ruleset.id)
    ids = catalogue_ids(catalogue_text, prefix)
    rows = coverage_rows(ids, coverage, book)
    finer = coverage_rows(sorted(set(coverage) - set(ids)), coverage, book)
    counts = Counter(c.status for _, c in rows)
    lines = [f"# {ruleset.book}: rule coverage", "",
             "Generated by `umpire rules coverage --write` from the rule modules' COVERAGE declarations (in",
             f"`{ruleset_package(ruleset.id).replace('.', '/')}/`) and the rule system's rulebook.json. One row per",
             f"`{prefix}*` id of rules-catalogue.md ({len(ids)}); a test checks that this page is the command's",
             "output, that every declared id is in the rulebook and that every test named exists. Status:", ""]
    lines += [f"- **{status}**: {meaning}" for status, meaning in MEANINGS]
    lines += ["", *_table(rows, book)]
    if finer:
        lines += ["", "## Finer ids", "", "Ids the modules judge below a catalogue entry:", "", *_table(finer, book)]
    shown = ", ".join(f"{status} {counts[status]}" for status in STATUSES)
    lines += ["", f"Counts: {shown}; {len(ids)} in all."]
    return "\n".join(lines) + "\n"


def _table(rows: Sequence[tuple[str, Covered]], book: Any) -> list[str]:
    out = ["| id | status | section | module | what is judged | tests |", "|---|---|---|---|---|---|"]
    for rule, c in rows:
        section = book.section(rule) if rule in book else "-"
        tests = "<br>".join(f"`{t}`" for t in c.tests) or "-"
        out.append(f"| `{rule}` | {c.status} | {_cell(section)} | {', '.join(c.modules) or '-'} | "
                   f"{_cell('; '.join(c.notes)) or '-'} | {tests} |")
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")

