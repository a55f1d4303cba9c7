"""Resistance turns per hex, the Fire Order Table's column (Infernal Machines, Indirect Barrage
Fire Procedure, "Finally, before resolving the barrage ...").

The count of a hex is the number of *turns* in which it was subjected to small arms fire by
units other than artillery without an elimination or a retreat ("count the number of turns, not
the number of times per turn"). A "pinned" result does not stop the count. An elimination or a
retreat caused by small arms fire is a success: the marker is removed and the fire of that turn
and of the turns before it is erased (column "0"). A turn without small arms fire changes
nothing, and barrages never count.

The liaison officer's emergency is a different counter (IM.ART.LNO.EMERGENCY): *attacks*, not
turns, and there a "pinned" or "eliminated" result is the success.

Everything here is a pure fold of log lines; the dashboard and analytics call
`resistance_by_hex` and `resistance_history`, the auditor feeds the trackers line by line. A
tracker reads the lines it needs as their typed events: through the audit's `AuditContext.typed`
when the auditor feeds it, else through `typed_event`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional

from domain.events import CORE_EVENTS, Data
from domain.rules.infernal_machines.events import EVENTS
from domain.rules.interpretations import Interpretation, declare

# On-map artillery guns firing small arms are "artillery" (IM.ART.RESIST.ARTY_EXCLUDED).
ARTILLERY_CLASSES = {"artillery-gun"}
SUCCESS_RESULTS = {"eliminated", "retreated"}          # IM.ART.RESIST.RESET
EMERGENCY_SUCCESS = {"pinned", "eliminated"}            # IM.ART.LNO.EMERGENCY

MORTAR_RESISTANCE = declare(Interpretation(
    name="mortar-small-arms-resistance",
    rules=("IM.ART.RESIST.ARTY_EXCLUDED",),
    question="Does mortar fire count toward a hex's resistance turns? The text excludes small arms "
             "fire 'by units other than artillery' without saying whether mortars are artillery.",
    readings={"counts": "mortars fire small arms (the mortar fire procedure resolves it as small arms "
                        "fire), so their fire counts like any other",
              "excluded": "mortars are artillery: their fire does not count"},
    default="counts"))

EMERGENCY_COUNT = declare(Interpretation(
    name="lno-emergency-count",
    rules=("IM.ART.LNO.EMERGENCY",),
    question="The emergency counts 'attacked ... three or more times' (attacks) while the resistance "
             "marker counts turns; which does the emergency count?",
    readings={"attacks": "attacks, as written ('three or more times'); success = pinned or eliminated",
              "turns": "turns, like the resistance marker"},
    default="attacks"))


def typed_event(line: dict[str, Any]) -> Data:
    """A line's data as its typed event (the schemas of domain/events.py and of Infernal Machines)."""
    schema = EVENTS.get(line["type"]) or CORE_EVENTS[line["type"]]
    return schema.__pydantic_validator__.validate_python(line["data"])


RESISTANCE_EVENTS = ("UnitDeployed", "SmallArmsFired", "SmallArmsResolved", "FireOrderChecked", "BarrageResolved")
EMERGENCY_EVENTS = ("UnitDeployed", "SmallArmsFired", "SmallArmsResolved", "BarrageResolved", "UnitStatusChanged")


@dataclass
class HexResistance:
    count: int = 0
    counted_turns: set[int] = field(default_factory=set)   # turns already in the count
    reset_turns: set[int] = field(default_factory=set)     # turns with a success: never count
    related: list[int] = field(default_factory=list)       # seqs of the fire that made the count


@dataclass
class ResistanceTracker:
    """Feed it every line in order; `count(hex)` is the resistance at that point."""

    mortars_count: bool = True
    unit_class: dict[str, str] = field(default_factory=dict)
    hexes: dict[str, HexResistance] = field(default_factory=dict)
    attacks: dict[str, dict[str, Any]] = field(default_factory=dict)  # attack id -> fire
    history: list[dict[str, Any]] = field(default_factory=list)

    def count(self, loc: Optional[str]) -> int:
        state = self.hexes.get(loc) if loc else None
        return state.count if state else 0

    def related(self, loc: Optional[str]) -> list[int]:
        state = self.hexes.get(loc) if loc else None
        return list(state.related) if state else []

    def counts_as_small_arms(self, firers: Iterable[str]) -> bool:
        """True when at least one firer is not artillery (IM.ART.RESIST.ARTY_EXCLUDED)."""
        excluded = set(ARTILLERY_CLASSES)
        if not self.mortars_count:
            excluded.add("mortar")
        return any(self.unit_class.get(f) not in excluded for f in firers)

    def feed(self, line: dict[str, Any], typed: Callable[[dict[str, Any]], Data] = typed_event) -> None:
        """Take one line (`typed` gives the typed event of a line it reads)."""
        kind = line["type"]
        if kind not in RESISTANCE_EVENTS:
            return
        e = typed(line)
        if kind == "UnitDeployed":
            self.unit_class[e.unit] = e.class_
        elif kind == "SmallArmsFired":
            self._fired(line, e)
        elif kind == "SmallArmsResolved":
            self._resolved(line, e)
        elif kind == "FireOrderChecked":
            self._note_barrage(line, e, "granted" if e.granted else "refused")
        else:
            self._note_barrage(line, e, "fell")

    def _fired(self, line: dict[str, Any], fire: Data) -> None:
        counts = self.counts_as_small_arms(fire.firers)
        self.attacks[fire.attack] = {"target": fire.target, "turn": line["turn"], "counts": counts}
        if counts:
            self._resisted(fire.target, line)

    def _resolved(self, line: dict[str, Any], resolved: Data) -> None:
        fire = self.attacks.get(resolved.attack)
        if fire is None:
            return
        if any(r.result in SUCCESS_RESULTS for r in resolved.results):
            self._reset(fire["target"], fire["turn"], line)

    def _resisted(self, loc: str, line: dict[str, Any]) -> None:
        state = self.hexes.setdefault(loc, HexResistance())
        turn = line["turn"]
        if turn in state.counted_turns or turn in state.reset_turns:
            return
        state.counted_turns.add(turn)
        state.count += 1
        state.related.append(line["seq"])
        self._record(loc, line, "resisted", state.count)

    def _reset(self, loc: str, turn: int, line: dict[str, Any]) -> None:
        state = self.hexes.setdefault(loc, HexResistance())
        # The success erases the fire of that turn and of every turn before it.
        state.count = 0
        state.counted_turns = {t for t in state.counted_turns if t > turn}
        state.count = len(state.counted_turns)
        state.reset_turns.add(turn)
        state.related = [line["seq"]]
        self._record(loc, line, "reset", state.count)

    def _note_barrage(self, line: dict[str, Any], step: Data, event: str) -> None:
        loc = getattr(step, "_target", None)   # the barrage's target, when the caller attached it
        if loc:
            self._record(loc, line, event, self.count(loc))

    def _record(self, loc: str, line: dict[str, Any], event: str, count: int) -> None:
        self.history.append({"hex": loc, "turn": line["turn"], "seq": line["seq"], "count": count,
                             "event": event})


def _with_barrage_targets(lines: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    """Lines with the barrage's declared target attached to its FOT and resolution lines."""
    targets: dict[str, Optional[str]] = {}
    for line in lines:
        if line["type"] == "BarrageDeclared":
            declared = typed_event(line)
            targets.setdefault(declared.barrage, declared.target)
        elif line["type"] in ("FireOrderChecked", "BarrageResolved"):
            line = {**line, "data": {**line["data"], "_target": targets.get(typed_event(line).barrage)}}
        yield line


def _tracker(lines: Iterable[dict[str, Any]], mortars_count: bool) -> ResistanceTracker:
    tracker = ResistanceTracker(mortars_count=mortars_count)
    for line in _with_barrage_targets(lines):
        tracker.feed(line)
    return tracker


def resistance_by_hex(lines: Iterable[dict[str, Any]], *, mortars_count: bool = True) -> dict[str, int]:
    """The resistance-turn count of every hex that has one, after `lines` (the FOT column)."""
    tracker = _tracker(lines, mortars_count)
    return {loc: s.count for loc, s in sorted(tracker.hexes.items()) if s.count}


def resistance_history(lines: Iterable[dict[str, Any]], *, mortars_count: bool = True) -> list[dict[str, Any]]:
    """What happened to each hex's count, in log order: one row per event, with `hex`, `turn`,
    `seq`, `count` (after the event) and `event`: resisted (a turn was added), reset (a small-arms
    elimination or retreat), granted / refused (a fire order on the hex), fell (a barrage hit it)."""
    return _tracker(lines, mortars_count).history


@dataclass
class EmergencyTracker:
    """Attacks on a hex since its last "pinned" or "eliminated" result (IM.ART.LNO.EMERGENCY),
    per attacking side."""

    by_turns: bool = False
    unit_side: dict[str, Optional[str]] = field(default_factory=dict)
    attacks: dict[str, tuple[str, Optional[str]]] = field(default_factory=dict)
    counts: dict[tuple[Optional[str], str], list[int]] = field(default_factory=dict)  # -> seqs or turns

    def count(self, side: Optional[str], loc: str) -> int:
        return len(self.counts.get((side, loc), []))

    def related(self, side: Optional[str], loc: str) -> list[int]:
        return [] if self.by_turns else list(self.counts.get((side, loc), []))

    def feed(self, line: dict[str, Any], unit_location: dict[str, Optional[str]],
             typed: Callable[[dict[str, Any]], Data] = typed_event) -> None:
        """Take one line (`typed` gives the typed event of a line it reads)."""
        kind = line["type"]
        if kind not in EMERGENCY_EVENTS:
            return
        e = typed(line)
        if kind == "UnitDeployed":
            self.unit_side[e.unit] = line.get("side")
        elif kind == "SmallArmsFired":
            side = line.get("side") or next((self.unit_side.get(f) for f in e.firers), None)
            self.attacks[e.attack] = (e.target, side)
            self._attacked(side, e.target, line)
        elif kind == "SmallArmsResolved" and e.attack in self.attacks:
            loc, side = self.attacks[e.attack]
            if any(r.result in EMERGENCY_SUCCESS for r in e.results):
                self.counts[(side, loc)] = []
        elif kind == "BarrageResolved":
            for loc in {r.location for r in e.results}:
                self._attacked(line.get("side"), loc, line)
        elif kind == "UnitStatusChanged" and e.status in EMERGENCY_SUCCESS:
            loc = unit_location.get(e.unit)
            for key in [k for k in self.counts if k[1] == loc]:
                self.counts[key] = []

    def _attacked(self, side: Optional[str], loc: str, line: dict[str, Any]) -> None:
        marks = self.counts.setdefault((side, loc), [])
        mark = line["turn"] if self.by_turns else line["seq"]
        if not (self.by_turns and mark in marks):
            marks.append(mark)


COVERAGE = {
    "IM.ART.RESIST.COUNT": ("implemented", "tests/unit/test_resistance.py::test_example_turn_one_fire_gives_column_one"),
    "IM.ART.RESIST.PINNED_COUNTS": ("implemented", "tests/unit/test_resistance.py::test_pinned_result_still_counts"),
    "IM.ART.RESIST.RESET": ("implemented", "tests/unit/test_resistance.py::test_retreat_resets_to_zero"),
    "IM.ART.RESIST.NO_SAF_TURN": ("implemented", "tests/unit/test_resistance.py::test_turn_without_fire_changes_nothing"),
    "IM.ART.RESIST.ARTY_EXCLUDED": ("implemented", "tests/unit/test_resistance.py::test_artillery_gun_fire_does_not_count"),
    "IM.ART.LNO.EMERGENCY": ("implemented", "tests/unit/test_resistance.py::test_emergency_counts_attacks_not_turns"),
}
