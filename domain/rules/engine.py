"""The auditor's frame: rule applications, verdicts, the registry rule modules plug into.

A rule module is a class with one method per event type it judges (`on_BarrageDeclared`, ...).
The runner walks the log in order beside the board fold; when a module sees an event, `ctx.board`
is the board *before* that event. Each judgement is a `RuleApplication` that names its rule id
(from `rules-catalogue.md`, or a finer id below one), its verdict and its citation.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property, lru_cache
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Sequence

from domain.board.state import BoardState, apply
from domain.events import schema_of
from domain.gcpause import collector_paused
from domain.dispatch import handlers_of
from domain.rules.interpretations import Interpretations
from domain.rules.tables import TablePack
from domain.rulesets import find


class Verdict(str, Enum):
    OK = "ok"
    VIOLATION = "violation"
    MISMATCH = "mismatch"
    MISSING_ROLL = "missing-roll"
    UNVERIFIABLE = "unverifiable"
    AMBIGUOUS = "ambiguous"


FAILING = (Verdict.VIOLATION, Verdict.MISMATCH, Verdict.MISSING_ROLL)
_UNSEEN = object()
VERDICT_ORDER = [v.value for v in Verdict]


class _NoInputs(Mapping[str, Any]):
    """The inputs of an application that records none: empty, unchangeable, shared."""

    def __getitem__(self, key: str) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __hash__(self) -> int:   # a dataclass default must be hashable (it is then known unchangeable)
        return 0

    def __repr__(self) -> str:
        return "{}"


NO_INPUTS: Mapping[str, Any] = _NoInputs()


@dataclass(slots=True)
class RuleApplication:
    seq: int
    rule: str
    verdict: Verdict
    message: str
    citation: str
    expected: Any = None
    recorded: Any = None
    # Read, never changed, once made. Most applications relate nothing and have no inputs: their
    # shared empty values, not a new list and dict each (an audit makes thousands).
    related: Sequence[int] = ()
    inputs: Mapping[str, Any] = NO_INPUTS
    interpretation: Optional[str] = None

    def to_json(self) -> dict[str, Any]:
        out = {"seq": self.seq, "rule": self.rule, "verdict": self.verdict.value,
               "message": self.message, "expected": self.expected, "recorded": self.recorded,
               "citation": self.citation, "related": sorted(set(self.related))}
        if self.inputs:
            out["inputs"] = self.inputs
        if self.interpretation:
            out["interpretation"] = self.interpretation
        return out


def _verdict(verdict: Verdict) -> Callable[..., RuleApplication]:
    """A Rule's method giving an application of this verdict (Rule.ok, Rule.violation, ...)."""
    def application(self: "Rule", seq: int, message: str, expected: Any = None, recorded: Any = None,
                    related: Sequence[int] = (), inputs: Mapping[str, Any] = NO_INPUTS,
                    interpretation: Optional[str] = None) -> RuleApplication:
        return RuleApplication(seq, self.id, verdict, message, self.citation, expected, recorded, related, inputs,
                               interpretation)
    application.__name__ = verdict.name.lower()
    return application


@dataclass
class Rule:
    """A rule id with its citation, so that every application cites the same words."""

    id: str
    section: str
    book: str = "Infernal Machines"

    @cached_property
    def citation(self) -> str:
        # worded once per rule (its fields are never changed): an audit makes thousands of applications
        return f"{self.book}, {self.section}"

    # Each verdict builds its application directly, its fields named in its signature (no call
    # through `apply`, no dict of keywords packed and unpacked): an audit makes thousands.
    def apply(self, seq: int, verdict: Verdict, message: str, expected: Any = None, recorded: Any = None,
              related: Sequence[int] = (), inputs: Mapping[str, Any] = NO_INPUTS,
              interpretation: Optional[str] = None) -> RuleApplication:
        return RuleApplication(seq, self.id, verdict, message, self.citation, expected, recorded, related, inputs,
                               interpretation)

    ok = _verdict(Verdict.OK)
    violation = _verdict(Verdict.VIOLATION)
    mismatch = _verdict(Verdict.MISMATCH)
    missing_roll = _verdict(Verdict.MISSING_ROLL)
    unverifiable = _verdict(Verdict.UNVERIFIABLE)
    ambiguous = _verdict(Verdict.AMBIGUOUS)

    def judge(self, seq: int, good: bool, if_ok: str, if_not: str, verdict: Verdict = Verdict.VIOLATION,
              expected: Any = None, recorded: Any = None, related: Sequence[int] = (),
              inputs: Mapping[str, Any] = NO_INPUTS, interpretation: Optional[str] = None) -> RuleApplication:
        return RuleApplication(seq, self.id, Verdict.OK if good else verdict, if_ok if good else if_not, self.citation,
                               expected, recorded, related, inputs, interpretation)


@dataclass
class AuditContext:
    """What a rule module may read: the board before the event, earlier lines, tables, readings."""

    board: BoardState
    tables: TablePack
    interpretations: Interpretations
    lines: list[dict[str, Any]] = field(default_factory=list)
    line: Optional[dict[str, Any]] = None
    # Bumped each time the board (and the shared folds with it) takes an event: what is built
    # from the board at one moment (a terrain view) is built once per moment, not once per module.
    moment: int = 0
    _shared: dict[str, Any] = field(default_factory=dict)
    _folds: list[Any] = field(default_factory=list)
    _fold_plans: dict[str, tuple[int, list]] = field(default_factory=dict)
    _moments: dict[str, tuple[int, Any]] = field(default_factory=dict)
    _index: dict[Any, tuple[list[int], list[dict[str, Any]]]] = field(default_factory=dict)
    # the game's rule system (its event schemas type the lines), and the typed data built so far
    rules: Any = None
    _typed: dict[int, tuple[dict[str, Any], Any]] = field(default_factory=dict)
    _validators: dict[str, Optional[Callable[[Any], Any]]] = field(default_factory=dict)
    _event_of: Optional[dict[str, Any]] = None   # the line `typed` was last asked, and its event
    _event: Any = None

    def use_rules(self, rules: Any) -> None:
        """The game's rule system, named by its GameStarted: its schemas type its lines from here on."""
        self.rules = rules
        self._validators.clear()

    def release(self) -> None:
        """Drops what the audit kept (typed events, the index, the moments' and the shared facts)
        once its report is made. Some of it keeps the context in turn (a shot's Aim, kept for the
        moment, holds it): in a cycle, it would wait for the cyclic collector, whose walk of all
        of it the audit's caller would pay; dropped here, reference counting frees it at once."""
        for kept in (self._typed, self._index, self._moments, self._shared, self._fold_plans, self._validators):
            kept.clear()
        self._folds.clear()
        self.lines = []
        self.line = self._event_of = self._event = None

    def typed(self, line: dict[str, Any]) -> Any:
        """The line's data as its typed event: the pydantic model the log is validated with (the
        core schemas and the rule system's), built once per line however many modules read it;
        None for an event type no schema knows (a log read with unknown types allowed)."""
        if line is self._event_of:
            return self._event   # the line asked last (the one being judged, by most of its modules)
        found = self._typed.get(line["seq"])
        if found is None or found[0] is not line:
            kind = line["type"]
            validate = self._validators.get(kind, _UNSEEN)
            if validate is _UNSEEN:   # the type's schema looked up once per audit (rules set at GameStarted)
                schema = schema_of(kind, self.rules)
                validate = self._validators[kind] = None if schema is None else schema.__pydantic_validator__.validate_python
            found = self._typed[line["seq"]] = (line, None if validate is None else validate(line["data"]))
        self._event_of, self._event = line, found[1]
        return found[1]

    def shared(self, key: str, make: Callable[[], Any]) -> Any:
        """The audit's one instance of a fact several modules need, made when first asked for.
        One with `update(line, board)` is a fold: the auditor takes each line into it once, right
        after the board takes it, so every module reads the same facts without rebuilding them."""
        found = self._shared.get(key)
        if found is None:
            found = self._shared[key] = make()
            if callable(getattr(found, "update", None)):
                self._folds.append(found)
        return found

    def folds_for(self, kind: str) -> list[Callable[[dict[str, Any], BoardState], None]]:
        """The `update` of each fold that reads events of this type (its `reads`, when it says;
        else every event), in the order the folds were made."""
        found = self._fold_plans.get(kind)
        if found is None or found[0] != len(self._folds):
            found = self._fold_plans[kind] = (len(self._folds), [
                fold.update for fold in self._folds if getattr(fold, "reads", None) is None or kind in fold.reads])
        return found[1]

    def at_moment(self, key: str, make: Callable[[], Any], version: Optional[int] = None) -> Any:
        """`make()` once per moment of the board (see `moment`), or once per `version` of what
        it is made from, when the caller knows a finer one."""
        version = self.moment if version is None else version
        cached = self._moments.get(key)
        if cached is None or cached[0] != version:
            cached = self._moments[key] = (version, make())
        return cached[1]

    def record(self, line: dict[str, Any]) -> None:
        """The auditor takes `line` into the lines so far, and into their index: by type, and a
        roll by every dotted head of its purpose ("IM", "IM.SPOT" for "IM.SPOT.ROLL")."""
        self.lines.append(line)
        self.line = line
        kind, seq, index = line["type"], line["seq"], self._index
        found = index.get(kind)
        if found is None:
            found = index[kind] = ([], [])
        found[0].append(seq)
        found[1].append(line)
        if kind == "DieRolled":
            for key in _roll_keys(line["data"].get("purpose") or ""):
                seqs, lines = index.setdefault(key, ([], []))
                seqs.append(seq)
                lines.append(line)

    def _between(self, key: Any, after: int, before: Optional[int]) -> list[dict[str, Any]]:
        seqs, lines = self._index.get(key, ((), ()))
        start = bisect_right(seqs, after)
        end = len(seqs) if before is None else bisect_left(seqs, before, start)
        return lines[start:end]

    def turn_began(self, before: int) -> int:
        """The seq of the last TurnStarted before `before` (0 when there is none): the lines of the turn
        under way come after it, so a look back over "this turn" costs the turn, not the game."""
        return self._last_before("TurnStarted", before)

    def phase_began(self, before: int) -> int:
        """The seq of the last PhaseStarted before `before` (0 when there is none): what a module would
        otherwise note at every phase."""
        return self._last_before("PhaseStarted", before)

    def _last_before(self, kind: str, before: int) -> int:
        seqs, _ = self._index.get(kind, ((), ()))
        at = bisect_left(seqs, before)
        return seqs[at - 1] if at else 0

    def earlier(self, seq: int) -> dict[str, Any]:
        return self.lines[seq - 1]

    def of_type(self, kind: str, after: int = 0, before: Optional[int] = None) -> list[dict[str, Any]]:
        """The lines so far of one type with `after < seq < before`, in log order: found through the
        index, so that a check looking back costs what it finds, not the game's length."""
        return self._between(kind, after, before)

    def rolls(self, purpose_prefix: str = "", after: int = 0, before: Optional[int] = None) -> list[dict[str, Any]]:
        """The DieRolled lines so far whose purpose starts with `purpose_prefix`, `after < seq < before`."""
        head = purpose_prefix.rsplit(".", 1)[0] if "." in purpose_prefix else ""
        return [l for l in self._between(("roll", head), after, before)
                if (l["data"].get("purpose") or "").startswith(purpose_prefix)]

    def rolls_for(self, subject: str, purpose_prefix: str = "", after: int = 0,
                  before: Optional[int] = None) -> list[dict[str, Any]]:
        """Recorded DieRolled lines about `subject` with a purpose under `purpose_prefix`."""
        return [l for l in self.rolls(purpose_prefix, after, before) if l["data"].get("subject") == subject]


@lru_cache(maxsize=1024)
def _roll_keys(purpose: str) -> tuple[tuple[str, str], ...]:
    """The index keys of a roll of this purpose: each dotted head, then every roll's; worked out
    once per purpose (a game rolls a few dozen purposes thousands of times)."""
    return (*(("roll", purpose[:i]) for i, c in enumerate(purpose) if c == "."), ("roll", ""))


class RuleModule:
    """Base of the rule modules: dispatches each event to `on_<Type>` and collects applications."""

    ruleset = "infernal-machines"

    def __init__(self, ctx: AuditContext):
        self.ctx = ctx

    def before(self, line: dict[str, Any]) -> Iterable[RuleApplication]:
        handler = handlers_of(type(self), "on_").get(line["type"])
        return handler(self, line) or () if handler else ()

    def after(self, line: dict[str, Any]) -> Iterable[RuleApplication]:
        """Called with the board already holding the event (for state the module keeps)."""
        handler = handlers_of(type(self), "after_").get(line["type"])
        return handler(self, line) or () if handler else ()

    def steps_for(self, kind: str) -> tuple[Optional[Step], Optional[Step]]:
        """What judges an event of this type before and after the board takes it: the module's
        own `before`/`after` when it overrides them (it sees every event), else its
        `on_<Type>`/`after_<Type>` handler, else nothing (it is not called for that type)."""
        return (_step(self, "before", "on_", kind), _step(self, "after", "after_", kind))

    def own_handlers(self, kind: str) -> tuple[Optional[Step], Optional[Step]]:
        """Its `on_<Type>`/`after_<Type>` handlers bound, or None: for a module whose generic
        `before`/`after` is needed for some types only (its `steps_for` says which)."""
        return tuple(None if h is None else h.__get__(self)
                     for h in (handlers_of(type(self), "on_").get(kind), handlers_of(type(self), "after_").get(kind)))

    def finish(self) -> Iterable[RuleApplication]:
        return ()


Step = Callable[[dict[str, Any]], Iterable[RuleApplication]]


def closer(handler: Callable) -> Callable:
    """Marks a handler that judges only what its module owes (what it was told since it last
    closed) and leaves it owing nothing: called again with nothing told in between, it finds
    nothing. The auditor calls it only when another step of its module has run since (a phase end
    after an empty phase costs nothing: most phases of a game are empty for most modules)."""
    handler.step_kind = CLOSES
    return handler


def bookkeeping(handler: Callable) -> Callable:
    """Marks a handler that only notes what the module reads later (the seq a phase began at, where
    units stood): it leaves the module owing nothing, so it does not wake the module's closers."""
    handler.step_kind = KEEPS
    return handler


def in_phases(*phases: str) -> Callable[[Callable], Callable]:
    """Marks a PhaseStarted handler that does something only when these phases begin: the auditor
    calls it for those alone (a game starts a phase far more often than it does anything else)."""
    def mark(handler: Callable) -> Callable:
        handler.phases = frozenset(phases)
        return handler
    return mark


TELLS, CLOSES, KEEPS = 0, 1, 2   # what a step is to its module's closers (see `closer`)


def _step(module: RuleModule, generic: str, prefix: str, kind: str) -> Optional[Step]:
    if getattr(type(module), generic) is not getattr(RuleModule, generic):
        return getattr(module, generic)
    handler = handlers_of(type(module), prefix).get(kind)
    return None if handler is None else handler.__get__(module)   # the bound handler: one call per event


PlannedStep = tuple[RuleModule, Step, int]   # the module, its step, what the step is (TELLS, CLOSES, KEEPS)


class Dispatch:
    """Each event type's judges, in module order, looked up once per type and audit (one
    dispatch for "a handler per event type": no per-event lookup in every module)."""

    def __init__(self, modules: Sequence[RuleModule]):
        self.modules = modules
        self._plans: dict[str, tuple[list, list]] = {}
        # the modules told something since their closers last ran (all of them at the start)
        self.owing: set[RuleModule] = set(modules)

    def plan(self, kind: str, phase: Optional[str] = None) -> tuple[list[PlannedStep], list[PlannedStep]]:
        """The steps for an event of this type (a PhaseStarted's: for the phase it begins)."""
        key = kind if phase is None else (kind, phase)
        found = self._plans.get(key)
        if found is None:
            steps = [(module, module.steps_for(kind)) for module in self.modules]
            found = ([(m, b, _kind_of(b)) for m, (b, _) in steps if b and _in_phase(b, phase)],
                     [(m, a, _kind_of(a)) for m, (_, a) in steps if a and _in_phase(a, phase)])
            self._plans[key] = found
        return found


def _kind_of(step: Step) -> int:
    return getattr(step, "step_kind", TELLS)


def _in_phase(step: Step, phase: Optional[str]) -> bool:
    phases = getattr(step, "phases", None)
    return phases is None or phase in phases


def modules_for(ruleset_id: Optional[str]) -> list[type[RuleModule]]:
    """The checks every game gets, then the rule system's own modules (RuleSet.rule_modules)."""
    from domain.rules.core import CoreChecks
    rules = find(ruleset_id)
    return [CoreChecks, *(rules.rule_modules() if rules is not None else ())]


@dataclass
class AuditReport:
    game: Optional[str]
    ruleset: Optional[str]
    tables: TablePack
    events: int
    applications: list[RuleApplication]
    interpretations: dict[str, str]

    @property
    def findings(self) -> list[RuleApplication]:
        return sorted((a for a in self.applications if a.verdict is not Verdict.OK), key=lambda a: a.seq)

    def summary(self) -> dict[str, int]:
        counts = Counter(a.verdict for a in self.applications)   # one pass, however many verdicts
        return {"applications": len(self.applications), **{v.value: counts[v] for v in Verdict}}

    @property
    def exit_status(self) -> int:
        return 1 if any(a.verdict in FAILING for a in self.applications) else 0

    def to_json(self, *, all_applications: bool = False) -> dict[str, Any]:
        out = {"v": 1, "game": self.game, "ruleset": self.ruleset, "tables": self.tables.name,
               "table_pack": self.tables.describe(), "events": self.events,
               "interpretations": self.interpretations,
               "findings": [a.to_json() for a in self.findings], "summary": self.summary()}
        if all_applications:
            out["applications"] = [a.to_json() for a in sorted(self.applications, key=lambda a: a.seq)]
        return out


def audit(lines: Iterable[dict[str, Any]], *, tables: TablePack,
          interpretations: Interpretations,
          on_progress: Optional[Callable[[int], None]] = None,
          rule_modules: Optional[Sequence[type[RuleModule]]] = None) -> AuditReport:
    """Judge every event of one game, in order, beside the board fold."""
    # Like an import, an audit builds objects (typed events, applications, fold entries) that
    # live until its report and are freed by reference counting: the cyclic collector's walks
    # of the whole heap as they accumulate find nothing to free (domain/gcpause.py).
    with collector_paused():
        return _audit(lines, tables=tables, interpretations=interpretations, on_progress=on_progress,
                      rule_modules=rule_modules)


def _audit(lines: Iterable[dict[str, Any]], *, tables: TablePack, interpretations: Interpretations,
           on_progress: Optional[Callable[[int], None]],
           rule_modules: Optional[Sequence[type[RuleModule]]]) -> AuditReport:
    lines = lines if isinstance(lines, list) else list(lines)
    # readings a house-rule ruling chose apply to the whole game (the command line's still win)
    rulings, from_command_line = _house_rules(lines), set(interpretations.chosen)
    board = BoardState()
    ctx = AuditContext(board=board, tables=tables, interpretations=interpretations)
    modules: list[RuleModule] = []
    dispatch = Dispatch(modules)
    applications: list[RuleApplication] = []
    ruleset = None
    owing = dispatch.owing
    for line in lines:
        kind = line["type"]
        if kind == "GameStarted" and not modules:
            ruleset = line["data"].get("ruleset")
            ctx.use_rules(find(ruleset))
            # Importing the rule modules declares their interpretations: before reading options.
            module_classes = rule_modules if rule_modules is not None else modules_for(ruleset)
            interpretations.for_ruleset(ruleset)
            unknown_rulings = interpretations.read_rulings(rulings, keep=from_command_line)
            interpretations.read_options(line["data"].get("options", []))
            modules = [m(ctx) for m in module_classes]
            dispatch = Dispatch(modules)
            owing = dispatch.owing
            applications.extend(_rejected_options(line, interpretations))
            applications.extend(_rejected_rulings(unknown_rulings))
        ctx.record(line)
        before, after = dispatch.plan(kind, line["phase"] if kind == "PhaseStarted" else None)
        if before:
            _judge_all(applications, before, line, owing)
        apply(board, line)
        for update in ctx.folds_for(kind):
            update(line, board)
        ctx.moment += 1
        if after:
            _judge_all(applications, after, line, owing)
        if on_progress:
            on_progress(line["seq"])
    for module in modules:
        _judge(applications, module, lambda _: module.finish(), {"seq": len(ctx.lines)})
    report = AuditReport(board.game, ruleset, tables, len(ctx.lines), applications, interpretations.used())
    ctx.release()
    return report


AUDIT_FAILED = Rule("LOG.AUDIT", "the auditor itself", "Umpire")


def _judge_all(applications: list[RuleApplication], steps: list[PlannedStep], line: dict[str, Any],
               owing: set[RuleModule]) -> None:
    """Each module's judgement of one event, in module order (the loop of every event: kept to
    one call per judging module, and none for a closer of a module that owes nothing)."""
    for module, step, kind in steps:
        if kind == TELLS:
            owing.add(module)
        elif kind == CLOSES:
            if module not in owing:
                continue
            owing.discard(module)
        try:
            found = step(line)
            if found:
                applications.extend(found)
        except Exception as exc:  # noqa: BLE001 - any defect of a rule module, reported, not raised
            applications.append(_failed(module, line, exc))


def _judge(applications: list[RuleApplication], module: RuleModule,
           step: Callable[[dict[str, Any]], Iterable[RuleApplication]], line: dict[str, Any]) -> None:
    """One module's judgement of one event. A module that fails on an event the log format
    allows is a defect of the auditor: the report says so at that event (unverifiable, naming
    the module) and the audit goes on, instead of the whole audit failing with it."""
    try:
        applications.extend(step(line) or ())
    except Exception as exc:  # noqa: BLE001 - any defect of a rule module, reported, not raised
        applications.append(_failed(module, line, exc))


def _failed(module: RuleModule, line: dict[str, Any], exc: Exception) -> RuleApplication:
    return AUDIT_FAILED.unverifiable(
        line["seq"], f"{type(module).__name__} could not judge this event ({type(exc).__name__}: {exc}); "
        "its rules are not judged here (a defect of the auditor: please report it)")


def _rejected_options(line: dict[str, Any], interpretations: Interpretations) -> list[RuleApplication]:
    """A game that chooses a reading the auditor does not know is told so, not silently ignored."""
    rule = Rule("LOG.OPTIONS", "game log format, GameStarted.options", "Umpire game log")
    return [rule.unverifiable(line["seq"], f"option interpretation:{choice} names no known interpretation "
                              "and reading (see `umpire rules interpretations`); it was not applied",
                              recorded=choice) for choice in interpretations.rejected]


def _house_rules(lines: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """The readings house-rule rulings chose, (seq, "NAME=READING"), in log order."""
    return [(line["seq"], pair) for line in lines
            if line["type"] == "RulingIssued" and line["data"].get("decision") == "house-rule"
            for pair in line["data"].get("interpretations") or () if isinstance(pair, str)]


def _rejected_rulings(unknown: list[tuple[int, str]]) -> list[RuleApplication]:
    rule = Rule("LOG.RULINGS", "game log format, RulingIssued.interpretations", "Umpire game log")
    return [rule.unverifiable(seq, f"the house rule's interpretation {pair} names no known interpretation and reading "
                              "(see `umpire rules interpretations`); it was not applied", recorded=pair)
            for seq, pair in unknown]


def iter_findings(report: AuditReport) -> Iterator[str]:
    """The report for people: one finding a line, with its citation."""
    for f in report.findings:
        yield f"seq {f.seq:>5}  {f.verdict.value:<12} {f.rule}: {f.message} [{f.citation}]"
