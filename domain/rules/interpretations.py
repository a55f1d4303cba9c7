"""Named interpretations: where the rulebook is ambiguous or garbled, a game chooses a reading.

A rule module declares an `Interpretation` with its readings and a default (a documented
reading, or None where no reading is safe: then the check reports `ambiguous`). A game chooses
in `GameStarted.options` (`"interpretation:NAME=READING"` or `{"interpretation": NAME,
"reading": READING}`) or with `umpire audit --interpretation NAME=READING`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional


class InterpretationError(ValueError):
    pass


@dataclass(frozen=True)
class Interpretation:
    name: str
    rules: tuple[str, ...]
    question: str
    readings: dict[str, str]
    default: Optional[str] = None  # None: no safe reading, report `ambiguous`

    def describe(self) -> str:
        readings = "; ".join(f"{k}: {v}" for k, v in self.readings.items())
        return f"{self.question} Readings: {readings}"


CATALOGUE: dict[str, Interpretation] = {}


def declare(interpretation: Interpretation) -> Interpretation:
    CATALOGUE[interpretation.name] = interpretation
    return interpretation


def catalogue(ruleset_id: Optional[str] = None) -> dict[str, Interpretation]:
    """The interpretations of one rule system (RuleSet.interpretations), or of every installed
    one: a reading is taken only where its rule system offers it."""
    from domain.rulesets import find, registered
    chosen = [find(ruleset_id)] if find(ruleset_id) else \
        ([] if ruleset_id is not None else list(registered().values()))
    return {item.name: item for rules in chosen for item in rules.interpretations()}


@dataclass
class Interpretations:
    """The readings chosen for one audit, and the record of which were used."""

    chosen: dict[str, str] = field(default_factory=dict)
    ruleset: Optional[str] = None  # the game's rule system, once its GameStarted is read
    rejected: list[str] = field(default_factory=list)  # game options naming no known interpretation/reading
    _used: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_pairs(cls, pairs: Iterable[str]) -> "Interpretations":
        out = cls()
        for pair in pairs:
            name, sep, reading = pair.partition("=")
            if not sep:
                raise InterpretationError(f"{pair!r}: expected NAME=READING")
            out.choose(name.strip(), reading.strip())
        return out

    def choose(self, name: str, reading: str, *, override: bool = True) -> None:
        offered = catalogue(self.ruleset)
        known = offered.get(name)
        if known is None:
            raise InterpretationError(f"unknown interpretation {name!r}; known: {', '.join(sorted(offered))}")
        if reading not in known.readings:
            raise InterpretationError(f"{name}: unknown reading {reading!r}; one of {', '.join(known.readings)}")
        if override or name not in self.chosen:
            self.chosen[name] = reading

    def for_ruleset(self, ruleset_id: Optional[str]) -> None:
        """The game's rule system is known: a reading named for another one is not taken."""
        self.ruleset = ruleset_id
        offered = catalogue(ruleset_id)
        for name in [n for n in self.chosen if n not in offered]:
            self.rejected.append(f"{name}={self.chosen.pop(name)}")

    def read_options(self, options: list[Any]) -> None:
        """Take the readings a game chose in GameStarted.options (the command line wins):
        `"interpretation:NAME=READING"`, `{"interpretation": NAME, "reading": READING}`, or
        `"NAME=READING"` (game-log-tabletop.md's form); other options are rule ids."""
        offered = catalogue(self.ruleset)
        for opt in options:
            if isinstance(opt, dict) and "interpretation" in opt:
                name, reading = opt["interpretation"], opt.get("reading", "")
            elif isinstance(opt, str) and opt.startswith("interpretation:"):
                name, _, reading = opt[len("interpretation:"):].partition("=")
            elif isinstance(opt, str) and "=" in opt:
                name, _, reading = opt.partition("=")
            else:
                continue
            if name in offered and reading in offered[name].readings:
                self.choose(name, reading, override=False)
            else:
                self.rejected.append(f"{name}={reading}")

    def read_rulings(self, rulings: Iterable[tuple[int, str]], keep: Iterable[str] = ()) -> list[tuple[int, str]]:
        """Take the readings house-rule rulings chose ((seq, "NAME=READING"), in log order: a later
        ruling wins), over the game's options but not over those in `keep` (the command line's);
        return the pairs that name no known interpretation and reading of the game's rule system."""
        offered, kept, rejected = catalogue(self.ruleset), set(keep), []
        for seq, pair in rulings:
            name, _, reading = pair.partition("=")
            name, reading = name.strip(), reading.strip()
            if name not in offered or reading not in offered[name].readings:
                rejected.append((seq, pair))
            elif name not in kept:
                self.chosen[name] = reading
        return rejected

    def reading(self, name: str) -> Optional[str]:
        """The reading in force (chosen, else the default), or None: report `ambiguous`."""
        known = CATALOGUE[name]
        value = self.chosen.get(name, known.default)
        self._used[name] = value if value is not None else "ambiguous"
        return value

    def label(self, name: str) -> str:
        value = self.reading(name)
        source = "chosen" if name in self.chosen else "default"
        return f"{name}={value} ({source})" if value else f"{name}: ambiguous"

    def used(self) -> dict[str, str]:
        return dict(sorted(self._used.items()))
