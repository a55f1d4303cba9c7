"""A rule system's rulebook: its rule ids, the section each cites, and what the catalogue says of
each, read from a data file (`rulebook.json` in the rule system's package) instead of being typed
again as constants in code.

The file is JSON:

    {"book": "Infernal Machines",          the book every citation names ("book, section")
     "prefix": "IM",                       every id starts with it and a dot
     "source": "...",                      where the entries come from (free text)
     "rules": {
       "IM.ART.FOT.ROLL": {
         "section": "...",                 the words a finding cites (Rule.citation)
         "passages": {"column": "..."},    optional: other words cited under the same id, by name
         "needs_chart": false,             the rule needs a chart the text does not hold (TABLE:<name>)
         "ambiguous": false,               the catalogue flags the passage (a warning sign, or its Z list)
         "coverage": {"status": "not yet", "note": "..."},
                                           optional: what Umpire says of a rule no module judges
                                           (domain/rules/coverage.py, `umpire rules coverage`)
         ...}}}                            anything else the catalogue gives as fields (kind, spec, table
                                           columns, catalogue_id, section_inherited), kept as data

A tabletop book's entries are the catalogue's (rules-catalogue.md, PART II and III): `section` is the
source heading printed on the entry, or, where it prints none (`section_inherited: true`), the
closest heading above it; a table row's columns are its `fields`. An Infernal Machines entry keeps
the words its module cited before (an id that only a module's COVERAGE names: the heading of the
text it comes from), and `catalogue_id` names the catalogue entry (the id itself, or the closest id
above a finer one; null where the catalogue has none) its flags come from.

`Rulebook.rule(id)` gives the `domain.rules.engine.Rule` a module judges with, and
`Rulebook.sections(ids, passage)` a module's table of words by id (the passage of that name where
an id has one: the movement and sight tables of Infernal Machines); asking for an id
(or a passage) the file does not hold is an `UnknownRule` naming it, so a typo fails when the
module is imported, not when a finding is printed.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Optional

from domain.rules.engine import Rule

FILE_NAME = "rulebook.json"


class RulebookError(ValueError):
    """A rulebook file that does not hold what the format above asks for."""


class UnknownRule(KeyError):
    """An id (or a passage of one) that the rulebook does not hold."""

    def __str__(self) -> str:
        return self.args[0]


class Rulebook:
    """The rules of one book, read from its data file."""

    def __init__(self, book: str, prefix: str, rules: Mapping[str, Mapping[str, Any]], origin: str = "rulebook"):
        self.book, self.prefix, self.origin = book, prefix, origin
        self._rules = MappingProxyType({rule_id: MappingProxyType(dict(entry)) for rule_id, entry in rules.items()})

    @classmethod
    def from_json(cls, data: Any, origin: str = "rulebook") -> "Rulebook":
        """A rulebook from the file's parsed JSON; RulebookError naming what is wrong and where."""
        if not isinstance(data, dict):
            raise RulebookError(f"{origin}: a rulebook is a JSON object")
        for key in ("book", "prefix"):
            if not isinstance(data.get(key), str) or not data[key]:
                raise RulebookError(f"{origin}: {key!r} must be a non-empty string")
        rules = data.get("rules")
        if not isinstance(rules, dict) or not rules:
            raise RulebookError(f"{origin}: 'rules' must be a non-empty object of rule ids")
        for rule_id, entry in rules.items():
            _check_entry(origin, data["prefix"], rule_id, entry)
        return cls(data["book"], data["prefix"], rules, origin)

    @classmethod
    def read(cls, path: Path | str) -> "Rulebook":
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            raise RulebookError(f"{path}: not JSON ({e})") from None
        return cls.from_json(data, str(path))

    def ids(self) -> tuple[str, ...]:
        """Every rule id of the book, in the file's order."""
        return tuple(self._rules)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._rules

    def entry(self, rule_id: str) -> Mapping[str, Any]:
        """All the file says of one rule (read-only)."""
        try:
            return self._rules[rule_id]
        except KeyError:
            raise UnknownRule(f"{self.book} ({self.origin}) has no rule {rule_id!r}") from None

    def section(self, rule_id: str, passage: Optional[str] = None) -> str:
        """The words cited for a rule: its section, or one of its named passages."""
        entry = self.entry(rule_id)
        if passage is None:
            return entry["section"]
        passages = entry.get("passages", {})
        if passage not in passages:
            known = ", ".join(sorted(passages)) or "none"
            raise UnknownRule(f"{self.book} ({self.origin}) has no passage {passage!r} of rule {rule_id!r} "
                              f"(its passages: {known})")
        return passages[passage]

    def sections(self, rule_ids: Iterable[str], passage: Optional[str] = None) -> dict[str, str]:
        """A module's table of the words it cites, {id: words}: each id's passage named `passage`
        where the entry has one (the words that module cites differ from the entry's section),
        else its section. An id the file does not hold is an UnknownRule."""
        return {rule_id: self.entry(rule_id).get("passages", {}).get(passage, self.entry(rule_id)["section"])
                for rule_id in rule_ids}

    def rule(self, rule_id: str, passage: Optional[str] = None) -> Rule:
        """The rule a module judges with, citing this book."""
        return Rule(rule_id, self.section(rule_id, passage), self.book)

    def needs_chart(self, rule_id: str) -> bool:
        return self.entry(rule_id)["needs_chart"]

    def ambiguous(self, rule_id: str) -> bool:
        return self.entry(rule_id)["ambiguous"]

    def __repr__(self) -> str:
        return f"Rulebook({self.book!r}, {len(self._rules)} rules from {self.origin})"


def _check_entry(origin: str, prefix: str, rule_id: Any, entry: Any) -> None:
    where = f"{origin}: rule {rule_id!r}"
    if not isinstance(rule_id, str) or not rule_id.startswith(prefix + "."):
        raise RulebookError(f"{where}: an id of this book starts with {prefix + '.'!r}")
    if not isinstance(entry, dict):
        raise RulebookError(f"{where}: an entry is a JSON object")
    if not isinstance(entry.get("section"), str) or not entry["section"]:
        raise RulebookError(f"{where}: 'section' must be a non-empty string")
    for flag in ("needs_chart", "ambiguous"):
        if not isinstance(entry.get(flag), bool):
            raise RulebookError(f"{where}: {flag!r} must be true or false")
    passages = entry.get("passages", {})
    if not isinstance(passages, dict) or not all(isinstance(v, str) and v for v in passages.values()):
        raise RulebookError(f"{where}: 'passages' must map names to non-empty strings")


@cache
def _read_cached(path: str) -> Rulebook:
    return Rulebook.read(path)


def beside(module_file: str) -> Rulebook:
    """The rulebook of the package a module lives in (its `rulebook.json`), read once per process."""
    return _read_cached(str(Path(module_file).resolve().with_name(FILE_NAME)))
