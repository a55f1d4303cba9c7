"""The seam between Umpire and a rule system: a `RuleSet`, chosen by `GameStarted.ruleset`.

A rule system is registered explicitly, as an entry point of the group `umpire.rulesets`
(pyproject.toml), naming its `RuleSet` object: a club ships its own rule system as a separate
package with one such line, and `umpire rules list` shows it. Nothing here imports a rule
system's package; they are loaded through their entry points when first asked for.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from typing import Any, Callable, Iterator, Mapping, Optional, Sequence

GROUP = "umpire.rulesets"

# What a line names, for the structure check "unit X does not exist in this game": per event
# type, the data fields holding a unit id (or a list of them); a path "a[].b" reaches into a list.
Refs = Mapping[str, tuple[str, ...]]
# A check of one line against what the game holds so far (the ruleset's own state of the log):
# (field, message) of a format error, or None.
LineCheck = Callable[[str, dict[str, Any], dict[str, Any]], Optional[tuple[str, str]]]
# Taking a valid line into that state.
LineAdvance = Callable[[str, dict[str, Any], dict[str, Any]], None]


@dataclass(frozen=True)
class Generator:
    """A rule system's player of seeded legal games (`umpire generate`): `play_game(name, seed,
    map_data, tables, turns=, scenario=) -> lines`, and `inject(lines, count, rng) -> (lines,
    [{seq, rule}])` breaking `count` of its rules where the auditor must find them."""

    play_game: Callable[..., list[dict[str, Any]]]
    inject: Callable[..., tuple[list[dict[str, Any]], list[dict[str, Any]]]]


class UnknownRuleSet(KeyError):
    def __str__(self) -> str:
        known = ", ".join(sorted(registered())) or "none"
        return f"no rule system {self.args[0]!r} is installed (installed: {known}; see `umpire rules list`)"


@dataclass(frozen=True)
class RuleSet:
    """Everything Umpire needs of a rule system."""

    id: str                                   # GameStarted.ruleset
    prefix: str                               # its rule ids' prefix: "IM", "AVBCW", "MOG"
    book: str                                 # the book its citations name
    geometry: str                             # "hex" (cube coordinates) or "tabletop" (inches)
    phases: tuple[str, ...]                   # in order, "setup" first, "start" (TurnStarted) among them
    events: Mapping[str, type]                # its own event schemas, beside the core ones
    unit_refs: Refs = field(default_factory=dict)
    element_refs: Refs = field(default_factory=dict)
    # Where units come into the game (default: UnitDeployed.unit), e.g. an army list.
    declares: Refs = field(default_factory=lambda: {"UnitDeployed": ("unit",)})
    # Its rule modules, in the order they judge (imported when first audited).
    rule_modules: Callable[[], Sequence[type]] = lambda: ()
    # Its part of the board fold: {event type: handler(board, line)}.
    board_handlers: Callable[[], Mapping[str, Callable]] = lambda: {}
    # Format checks that need the game so far (a point off the table, a card not in its deck).
    check_line: Optional[LineCheck] = None
    advance_line: Optional[LineAdvance] = None
    # Optional parts: a game generator, and the cross-game analytics' fold of one game (a class
    # taking the game id, with take(line) -> [(kind, row)], to_json() and from_json()).
    generator: Optional[Callable[[], Generator]] = None
    analytics: Optional[Callable[[], type]] = None
    # `umpire reach` on its board: reach(board_state, lines, unit, tables, interpretations) ->
    # {location: (cost, rule that stops it there or None)}; ValueError when it cannot say.
    reach: Optional[Callable[..., dict[str, Any]]] = None
    # The charts a table pack may hold for it ({table: its shape}, docs/table-packs.md), and the
    # folder of its built-in packs (`sample`, ...; `none` is everybody's).
    table_schemas: Mapping[str, str] = field(default_factory=dict)
    table_packs: Optional[Callable[[], Any]] = None
    # Its named interpretations (domain/rules/interpretations.py): a game of this rule system
    # chooses among these, and only these.
    interpretations: Callable[[], Sequence[Any]] = lambda: ()
    # The numbers the dashboard shows on a hex board's hexes: () -> (lines -> {location: count}).
    hex_counts: Optional[Callable[[], Callable[[list], dict[str, int]]]] = None
    # Where its units face, as its checks read the log: () -> (lines, the board's maps) -> {unit:
    # degrees clockwise from north}; the dashboard draws a vehicle's facing from it.
    facings: Optional[Callable[[], Callable[[list, list], dict[str, float]]]] = None
    # Its own benchmarks for `umpire bench`: {name: run() -> figures}.
    benchmarks: Optional[Callable[[], Mapping[str, Callable[[], dict[str, Any]]]]] = None
    rulebook: Optional[Callable[[], Any]] = None  # () -> domain.rulebook.Rulebook: its ids, sections, citations
    # `umpire army check`: () -> (an army list's data, {interpretation: reading}) -> a report with
    # `errors` (domain.army_lists.ArmyError), `costs` and `total`; ValueError with `field`
    # and `message` for data that is not an army list.
    army_check: Optional[Callable[[], Callable[..., Any]]] = None
    title: str = ""
    # Which of a listed vehicle's weapons are turret-mounted, firing all round from the turret's
    # centre (a tabletop rule system whose army list tells it): () -> (the unit's army-list entry)
    # -> the ids of those weapons. `umpire sight` and the replay's shot lines ask it, as the audit does.
    turret_weapons: Optional[Callable[[], Callable[[Mapping[str, Any]], set[str]]]] = None
    # The dashboard renderer that draws its games, by name (dashboard/renderers.py: `hex`,
    # `tabletop`, or one a package registers under `umpire.renderers`); None: its geometry's.
    renderer: Optional[str] = None
    # Its schema of GameStarted where it asks more of a game's start than the core one does (Dux
    # Bellorum AVBCW: each side's `role`): a narrowing of domain.events.GameStarted that the
    # dashboard's form to start a game is made from. None: the core schema.
    start_schema: Optional[type] = None

    def phase_known(self, phase: str) -> bool:
        return phase in self.phases


@cache
def _points() -> dict[str, Any]:
    return {point.name: point for point in entry_points(group=GROUP)}


_LOADED: dict[str, RuleSet] = {}


def _load(name: str) -> RuleSet:
    # One rule system is loaded when a game of it is met: a process auditing Infernal Machines
    # never imports the tabletop ones (nor shapely).
    if name not in _LOADED:
        ruleset = _points()[name].load()
        if not isinstance(ruleset, RuleSet):
            raise TypeError(f"entry point {name!r} of {GROUP} is not a RuleSet: {ruleset!r}")
        if ruleset.id != name:
            raise ValueError(f"entry point {name!r} of {GROUP} names the rule system {ruleset.id!r}")
        _LOADED[name] = ruleset
    return _LOADED[name]


@cache
def registered() -> dict[str, RuleSet]:
    """Every installed rule system, by id (each loaded)."""
    return {name: _load(name) for name in _points()}


def find(ruleset_id: Optional[str]) -> Optional[RuleSet]:
    """The installed rule system of that id (loading it alone), or None."""
    if not isinstance(ruleset_id, str):
        return None
    if ruleset_id in _LOADED:
        return _LOADED[ruleset_id]
    installed = registered() if ruleset_id not in _points() else None
    if installed is not None:  # a rule system added to the dict by hand (tests, docs/rulesets.md)
        return installed.get(ruleset_id)
    return _load(ruleset_id)


def ruleset(ruleset_id: str) -> RuleSet:
    """The rule system of a game; UnknownRuleSet when none of that id is installed."""
    found = find(ruleset_id)
    if found is None:
        raise UnknownRuleSet(ruleset_id)
    return found


def known(ruleset_id: Any) -> bool:
    return find(ruleset_id) is not None


def named_at(data: Mapping[str, Any], path: str, prefix: str = "data") -> Iterator[tuple[str, str]]:
    """The ids a Refs path names in an event's data, with where each is ("data.sides[0].units[1]")."""
    head, nested, rest = path.partition("[].")
    value = data.get(head)
    where = f"{prefix}.{head}"
    if nested:
        for i, item in enumerate(value if isinstance(value, list) else ()):
            if isinstance(item, dict):
                yield from named_at(item, rest, f"{where}[{i}]")
    elif isinstance(value, str):
        yield where, value
    elif isinstance(value, list):
        yield from ((f"{where}[{i}]", v) for i, v in enumerate(value) if isinstance(v, str))
