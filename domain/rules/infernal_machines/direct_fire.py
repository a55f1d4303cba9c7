"""Direct fire: the facts of every shot, folded once per audit, and the checks every shot gets.

A shot is a `SmallArmsFired` (rifles, machine guns, support weapons, mortars, on-map guns at light
targets, blast power) or an `AntiTankFired` (docs/game-log-extensions.md). `FireFacts` (one per
audit: `fire_facts(ctx)`) keeps each shot as a `Shot`: who fired, from where, at what hex, in
which phase, the range counted in hexes per firer, the recorded firepower and range, the rolls
about it and its resolution. The rules that change a shot's firepower, its range or its die are
*terms* (`Term`: rule id, value, why): a module of this package that has some declares them in
`DIRECT_FIRE_TERMS`, a tuple of functions `(shot, ctx) -> iterable of Term`, and `terms_of`
gathers them once per shot (docs/rules/im-direct-fire.md). `DirectFireChecks` then judges what
every shot must respect: its phase and side (Landships!' sequence of play, as the text uses it),
its range, its firepower against the terms, its SACRT roll and the roll's modifiers, and the
SACRT cell when the game's table pack holds the chart (`LS.SACRT`, else `unverifiable`).
"""
from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Callable, Iterable, Optional

from domain.board.hexes import distance
from domain.board.state import UnitState
from domain.rulebook import beside
from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.infernal_machines.infantry_facts import infantry_facts

RULEBOOK = beside(__file__)
SMALL_ARMS_PHASES = ("defensive-small-arms-fire", "offensive-small-arms-fire")
ANTI_TANK_PHASES = ("defensive-anti-tank-fire", "offensive-anti-tank-fire")
FIRE_PHASES = SMALL_ARMS_PHASES + ANTI_TANK_PHASES
DEFENSIVE = ("defensive-small-arms-fire", "defensive-anti-tank-fire")
MORTAR_KINDS = ("light", "medium", "heavy")
# the chart rolls of a shot, by the kind of shot they resolve
SHOT_ROLLS = {"LS.SACRT": "small-arms", "IM.OPTCBT.SACRT": "small-arms", "LS.ATCRT": "anti-tank"}
# The base game's charts and procedures the text relies on but does not hold (game-log.md, Dice:
# "base Landships! tables that the catalogue does not cover use LS.<TABLE>"): their cells are
# table-pack data, checked only when the game's pack holds them.
LS_BOOK = "Landships! (base game; the chart is on the table sheet, not in the Infernal Machines text)"
LS = {
    "LS.SACRT": Rule("LS.SACRT", "Small Arms Combat Resolution Table (SACRT)", LS_BOOK),
    "LS.ATCRT": Rule("LS.ATCRT", "Anti-Tank Combat Resolution Table (ATCRT)", LS_BOOK),
    "LS.CACRT": Rule("LS.CACRT", "Close Assault Combat Resolution Table (CACRT)", LS_BOOK),
    "LS.MORALE": Rule("LS.MORALE", "morale check", LS_BOOK),
}


@cache
def rule(rule_id: str) -> Rule:
    """The rule a check judges with (made once per id: every shot asks for several)."""
    return LS[rule_id] if rule_id in LS else Rule(rule_id, RULEBOOK.section(rule_id), RULEBOOK.book)


# -- what changes a shot -------------------------------------------------------------------------
@dataclass(frozen=True)
class Term:
    """One rule's effect on a shot. `kind`:
    - "die": a modifier of the SACRT (ATCRT) roll; positive helps the defender (IM.CORE.MODSIGN);
    - "firepower": added to the shot's firepower (`unit`: the firer it comes with, or None);
    - "firepower-set": the firer `unit` fires at `value` instead of its printed firepower;
    - "range": the firer `unit` reaches `value` hexes instead of its printed range.
    `value` None: the rule applies but its number is on a counter or chart the log does not give
    (the check it feeds is `unverifiable`). `tag` and `exclusive`: an exclusive term removes the
    other terms of its tag ("the other terrain modifiers are not cumulative")."""

    rule: str
    value: Optional[float]
    why: str
    kind: str = "die"
    unit: Optional[str] = None
    tag: Optional[str] = None
    exclusive: bool = False


TermSource = Callable[["Shot", Any], Iterable[Term]]


@cache
@cache
def term_sources() -> tuple[TermSource, ...]:
    """Every `DIRECT_FIRE_TERMS` of the rule system's modules, in module name order (read once).
    Only the modules the audit runs are read: importing the whole package would load the
    benchmark's board and networkx with it, a quarter of a second at the first shot."""
    from domain.rules.infernal_machines.ruleset import rule_modules
    modules = {sys.modules[cls.__module__] for cls in rule_modules()}
    found: list[TermSource] = []
    for module in sorted(modules, key=lambda m: m.__name__):
        found.extend(getattr(module, "DIRECT_FIRE_TERMS", ()))
    return tuple(found)


# -- the facts of a shot ---------------------------------------------------------------------------
@dataclass
class Shot:
    attack: str
    seq: int
    turn: int
    phase: str
    side: Optional[str]
    active: Optional[str]
    kind: str                                  # "small-arms" or "anti-tank"
    event: Any                                 # the typed SmallArmsFired / AntiTankFired
    firers: tuple[str, ...]
    target: str
    origins: dict[str, Optional[str]]          # firer -> the hex it fired from
    ranges: dict[str, Optional[int]]           # firer -> hexes to the target
    classes: dict[str, str]                    # firer -> unit class ("" when unknown)
    rolls: list[dict[str, Any]] = field(default_factory=list)   # DieRolled lines about the attack
    resolved: Any = None                       # the typed SmallArmsResolved / AntiTankResolved
    resolved_seq: Optional[int] = None
    terms: Optional[list[Term]] = None         # terms_of(): computed once
    _weapons: Optional[tuple[str, ...]] = None

    @property
    def firepower(self) -> Optional[float]:
        return self.event.firepower if self.kind == "small-arms" else None

    @property
    def recorded_range(self) -> Optional[int]:
        return self.event.range

    @property
    def weapons(self) -> tuple[str, ...]:
        """The support weapons the line says fired (`weapons`, a field beside the schema's), else ()."""
        if self._weapons is None:
            named = self.given("weapons")
            self._weapons = tuple(named) if isinstance(named, list) else (named,) if isinstance(named, str) else ()
        return self._weapons

    @property
    def defensive(self) -> bool:
        return self.phase in DEFENSIVE

    def hexes(self, firer: Optional[str] = None) -> Optional[int]:
        """The range in hexes: of one firer, or the farthest firer's."""
        if firer is not None:
            return self.ranges.get(firer)
        known = [r for r in self.ranges.values() if r is not None]
        return max(known) if known else None

    def given(self, name: str) -> Any:
        """A field the line gives beside the schema's (`ammunition`, `weapons`, ...), else None."""
        return (self.event.model_extra or {}).get(name)

    def sacrt_rolls(self) -> list[dict[str, Any]]:
        return [r for r in self.rolls if r["data"].get("purpose") in ("LS.SACRT", "IM.OPTCBT.SACRT")]


# Firers whose firepower is their printed one unless a rule of the text changes it (no MG bonus).
PLAIN_FIRERS = ("infantry-platoon", "infantry-squad", "cavalry-platoon", "crew")
VEHICLES = ("tank", "armoured-car", "light-vehicle", "armoured-train", "boat")


def printed_range(unit: Optional[UnitState], kind: str) -> Optional[float]:
    """The range a firer's counter gives for this kind of fire: a vehicle's gun range is its
    `attrs.gun_range` (its `range` is its machine guns'), an AT gun's or rifle's its `range`."""
    if unit is None:
        return None
    if kind == "anti-tank":
        gun = unit.attrs.get("gun_range", unit.attrs.get("at_range"))
        return gun if isinstance(gun, (int, float)) else (None if unit.unit_class in VEHICLES else unit.range)
    return unit.range


def is_mortar(unit: Optional[UnitState]) -> bool:
    """A trench mortar: a `mortar` counter, or a support weapon whose weapon, type or name says mortar."""
    if unit is None or unit.unit_class in VEHICLES:
        return False   # a vehicle's mortar (the Tadpole) follows its vehicle's rules
    if unit.unit_class == "mortar":
        return True
    named = " ".join(str(unit.attrs.get(k, "")) for k in ("weapon", "type", "kind")).lower()
    return "mortar" in named or (unit.unit_class == "support-weapon" and "mortar" in str(unit.name or "").lower())


class FireFacts:
    """Every shot of the game so far, by attack id (a fold: `update` takes each line once)."""

    reads = frozenset({"SmallArmsFired", "AntiTankFired", "DieRolled", "SmallArmsResolved", "AntiTankResolved"})   # the event types its `update` reads (the auditor hands it no other)

    def __init__(self, ctx):
        self.ctx = ctx
        self.shots: dict[str, Shot] = {}
        self.by_phase: dict[tuple[int, str], list[Shot]] = {}     # (turn, phase) -> shots, in order
        self.last: Optional[Shot] = None                          # the latest shot fired

    def open(self, line: dict[str, Any]) -> Shot:
        """The shot a SmallArmsFired or AntiTankFired line fires (made on first ask, then kept)."""
        event = self.ctx.typed(line)
        found = self.shots.get(event.attack)
        if found is not None and found.seq == line["seq"]:
            return found
        board = self.ctx.board
        placement = board_view(self.ctx).placement
        origins, ranges, classes = {}, {}, {}
        for firer in event.firers:
            unit = board.units.get(firer)
            origins[firer] = unit.location if unit else None
            classes[firer] = unit.unit_class if unit else ""
            ranges[firer] = distance(unit.location, event.target, placement) if unit and unit.location else None
        shot = Shot(event.attack, line["seq"], line["turn"], line["phase"], line.get("side"), board.active,
                    "small-arms" if line["type"] == "SmallArmsFired" else "anti-tank", event,
                    tuple(event.firers), event.target, origins, ranges, classes)
        self.shots[shot.attack] = shot
        self.last = shot
        self.by_phase.setdefault((shot.turn, shot.phase), []).append(shot)
        return shot

    def shot(self, attack: Optional[str]) -> Optional[Shot]:
        return self.shots.get(attack) if attack else None

    def update(self, line: dict[str, Any], board) -> None:
        kind = line["type"]
        if kind in ("SmallArmsFired", "AntiTankFired"):
            self.open(line)
        elif kind == "DieRolled":
            data = line["data"]
            found = self.shots.get(data.get("subject"))
            if found is None and data.get("purpose") in SHOT_ROLLS and self.last is not None \
                    and self.last.resolved is None and self.last.kind == SHOT_ROLLS[data["purpose"]]:
                found = self.last   # a chart roll about a unit of the hex (one per unit) or about nothing
            if found is not None:
                found.rolls.append(line)
        elif kind in ("SmallArmsResolved", "AntiTankResolved"):
            found = self.shots.get(line["data"].get("attack"))
            if found is not None:
                found.resolved, found.resolved_seq = self.ctx.typed(line), line["seq"]


def fire_facts(ctx) -> FireFacts:
    """The audit's one FireFacts."""
    return ctx.shared("im-direct-fire", lambda: FireFacts(ctx))


def terms_of(ctx, shot: Shot) -> list[Term]:
    """Every rule's terms for this shot, gathered once: exclusive terms drop the others of their tag."""
    if shot.terms is None:
        terms = [t for source in term_sources() for t in source(shot, ctx)]
        exclusive = {t.tag for t in terms if t.exclusive and t.tag}
        shot.terms = [t for t in terms if t.exclusive or t.tag not in exclusive]
    return shot.terms


def expected_firepower(shot: Shot, terms: list[Term], board) -> tuple[Optional[float], list[str]]:
    """Printed firepower of each firer (or the value a rule sets), plus what rules add; None when a
    value is not in the log. The second item says how the sum was made."""
    total, parts = 0.0, []
    for firer in shot.firers:
        unit = board.units.get(firer)
        sets = [t for t in terms if t.kind == "firepower-set" and t.unit == firer]
        base = sets[-1].value if sets else (unit.firepower if unit else None)
        if base is None:
            return None, [f"{firer}: no firepower in the log"]
        total += base
        parts.append(f"{firer} {base:g}" + (f" ({sets[-1].rule})" if sets else ""))
    for t in terms:
        if t.kind == "firepower":
            if t.value is None:
                return None, [f"{t.why} ({t.rule}): its value is on the counter, not in the log"]
            total += t.value
            parts.append(f"{t.value:+g} {t.why} ({t.rule})")
    return total, parts


def gun_terms(shot: Shot, ctx) -> Iterable[Term]:
    """"All artillery guns operating in direct fire mode have a small arms firepower value of 10"
    (Direct Fire by Artillery Guns): each gun fires small arms at 10, not its barrage firepower."""
    if shot.kind != "small-arms":
        return ()
    return [Term("IM.ART.DIRECT.AT_VS_SAF", 10, "an on-map gun's small arms firepower", "firepower-set", firer)
            for firer, cls in shot.classes.items() if cls == "artillery-gun"]


DIRECT_FIRE_TERMS = (gun_terms,)


# -- the checks every shot gets ----------------------------------------------------------------------
class DirectFireChecks(RuleModule):
    """Phase, side, range, firepower, the SACRT roll and its modifiers of every shot."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.facts = fire_facts(ctx)

    def on_SmallArmsFired(self, line):
        shot = self.facts.open(line)
        terms = terms_of(self.ctx, shot)
        return [*self._phase(shot), *self._side(shot), *self._range(shot, terms), *self._firepower(shot, terms)]

    def on_AntiTankFired(self, line):
        shot = self.facts.open(line)
        return [*self._phase(shot), *self._side(shot), *self._range(shot, terms_of(self.ctx, shot))]

    def _phase(self, shot: Shot) -> list[RuleApplication]:
        board = self.ctx.board
        units = [board.units.get(f) for f in shot.firers]
        if shot.phase == "barrage" and all(u and (u.unit_class == "artillery-gun" or is_mortar(u)) for u in units):
            return []   # on-map guns (IM.ART.DIRECT.REQS) and mortars (IM.SW.MORTAR.DIRECT) are judged there
        if shot.phase == "air-combat" and all(u and u.unit_class == "aircraft" for u in units):
            return []
        allowed = SMALL_ARMS_PHASES + ANTI_TANK_PHASES if shot.kind == "small-arms" else ANTI_TANK_PHASES
        what = "small arms fire" if shot.kind == "small-arms" else "anti-tank fire"
        return [rule("IM.CORE.PHASE.FIRE").judge(
            shot.seq, shot.phase in allowed, f"{what} in the {shot.phase} phase",
            f"{what} is made in the {' or '.join(allowed)} phases, not in the {shot.phase} phase",
            expected=list(allowed), recorded=shot.phase)]

    def _side(self, shot: Shot) -> list[RuleApplication]:
        if shot.phase not in FIRE_PHASES or not shot.side or not shot.active:
            return []
        good = (shot.side != shot.active) if shot.defensive else (shot.side == shot.active)
        who = "the other player (not " + shot.active + ")" if shot.defensive else shot.active
        return [rule("IM.CORE.SIDE.FIRE").judge(
            shot.seq, good, f"{shot.side} fires in the {shot.phase} phase of {shot.active}'s player turn",
            f"in the {shot.phase} phase of {shot.active}'s player turn {who} fires, not {shot.side}",
            recorded=shot.side)]

    def _range(self, shot: Shot, terms: list[Term]) -> list[RuleApplication]:
        out, board = [], self.ctx.board
        known = {f: r for f, r in shot.ranges.items() if r is not None}
        recorded = shot.recorded_range
        if recorded is not None and known:
            out.append(rule("IM.CORE.RANGE.COUNT").judge(
                shot.seq, recorded in known.values(), f"range {recorded} hexes",
                f"the range is {recorded} in the log; counted in hexes it is "
                + ", ".join(f"{r} from {f}" for f, r in known.items()),
                Verdict.MISMATCH, expected=max(known.values()), recorded=recorded))
        for firer, hexes in known.items():
            unit = board.units.get(firer)
            reach = [t for t in terms if t.kind == "range" and t.unit == firer]
            limit = reach[-1].value if reach else printed_range(unit, shot.kind)
            if limit is None:
                continue
            cited = reach[-1].rule if reach else "IM.CORE.RANGE"
            out.append(rule(cited).judge(
                shot.seq, hexes <= limit, f"{firer} fires {hexes} hexes, within its range {limit:g}",
                f"{firer} fires at {shot.target}, {hexes} hexes away, beyond its range of {limit:g}"
                + (f" ({reach[-1].why})" if reach else ""), expected=limit, recorded=hexes))
        return out

    def _firepower(self, shot: Shot, terms: list[Term]) -> list[RuleApplication]:
        if shot.firepower is None or all(c == "artillery-gun" for c in shot.classes.values()):
            return []   # guns alone: judged by IM.ART.DIRECT.AT_VS_SAF (artillery_resolution_direct.py)
        expected, parts = expected_firepower(shot, terms, self.ctx.board)
        cited = sorted({t.rule for t in terms if t.kind in ("firepower", "firepower-set")}) or ["IM.CORE.FIREPOWER"]
        if expected is None:
            return [rule(cited[0]).unverifiable(shot.seq, f"firepower {shot.firepower:g} not checked: {parts[0]}",
                                                recorded=shot.firepower)]
        if shot.firepower > expected:
            open_ = self._open_bonus(shot, terms)
            if open_:
                return [rule(cited[0]).unverifiable(
                    shot.seq, f"firepower {shot.firepower:g} against {expected:g} ({' '.join(parts)}): {open_}",
                    expected=expected, recorded=shot.firepower)]
        good = shot.firepower <= expected
        return [rule(r).judge(shot.seq, good, f"firepower {shot.firepower:g} within {expected:g}: {' '.join(parts)}",
                              f"firepower {shot.firepower:g} is more than the rules give: {' '.join(parts)} = "
                              f"{expected:g}", expected=expected, recorded=shot.firepower, inputs={"terms": parts})
                for r in cited]

    def _open_bonus(self, shot: Shot, terms: list[Term]) -> Optional[str]:
        """Why more firepower than the terms give may still be right: a bonus of the base game the
        text names without its value (the MG bonus of machine-gun platoons, vehicles and MMG crews),
        or a firer whose firepower rules no term source judges (Sturmtruppen, until one does)."""
        board, named = self.ctx.board, {t.unit for t in terms if t.kind == "firepower-set"}
        for firer in shot.firers:
            unit = board.units.get(firer)
            if unit is None or firer in named:
                continue
            if unit.unit_class not in PLAIN_FIRERS or any(t.rule == "IM.SW.MMG" and t.unit == firer for t in terms):
                return (f"{firer} ({unit.unit_class}) may claim the machine gun bonus or a firepower of its own "
                        "that the text does not give (Landships!)")
            if unit.attrs.get("sturmtruppen"):
                return f"{firer} is Sturmtruppen, whose firepower by distance no term source gives here"
        return None

    def on_SmallArmsResolved(self, line):
        shot = self.facts.shot(self.ctx.typed(line).attack)
        if shot is None or shot.kind != "small-arms":
            return []
        return [*self._sacrt_roll(line, shot), *self._modifiers(line, shot)]

    def _sacrt_roll(self, line, shot: Shot) -> list[RuleApplication]:
        # In an anti-tank phase the SACRT reuses the AT roll's d10 (Main Gun Blast Power): no roll of its own.
        if shot.sacrt_rolls() or shot.phase in ANTI_TANK_PHASES or self._jammed_away(shot, line["seq"]):
            return []
        return [rule("LS.SACRT").missing_roll(line["seq"], f"attack {shot.attack} is resolved without its SACRT "
                                              "roll (DieRolled LS.SACRT about the attack)", related=[shot.seq])]

    def _jammed_away(self, shot: Shot, before: int) -> bool:
        """A squad whose machine gun jams on the roll before this SACRT, at 7-9 hexes, does not make the
        attack (IM.INF.SQUAD.JAM, EC-31: "The 8-hex attack cannot be made"): it has no SACRT roll."""
        jammed = infantry_facts(self.ctx).jammed
        return any(shot.seq < jammed.get(f, 0) < before and (shot.hexes(f) or 0) > 6 for f in shot.firers)

    def _modifiers(self, line, shot: Shot) -> list[RuleApplication]:
        """Each die term of the shot must be among the modifiers recorded on its SACRT roll(s)."""
        terms = [t for t in terms_of(self.ctx, shot) if t.kind == "die"]
        out = []
        for roll in shot.sacrt_rolls():
            recorded = Counter(m.value for m in self.ctx.typed(roll).modifiers)
            for t in terms:
                if t.value is None:
                    out.append(rule(t.rule).unverifiable(line["seq"], f"{t.why}: its modifier is on a chart the "
                                                         "log does not give", related=[roll["seq"]]))
                    continue
                present = recorded[int(t.value)] > 0
                if present:
                    recorded[int(t.value)] -= 1
                elif t.value and recorded[-int(t.value)] > 0:
                    out.append(rule("IM.CORE.MODSIGN").mismatch(
                        line["seq"], f"{t.why}: {t.value:+g} ({t.rule}) is recorded as {-t.value:+g}: a positive "
                        "modifier helps the defender, a negative one the attacker", expected=t.value,
                        recorded=-t.value, related=[shot.seq, roll["seq"]]))
                    recorded[-int(t.value)] -= 1
                    continue
                out.append(rule(t.rule).judge(
                    line["seq"], present, f"the SACRT roll carries {t.value:+g} ({t.why})",
                    f"the SACRT roll (seq {roll['seq']}) should carry {t.value:+g} ({t.why}); its modifiers are "
                    f"{[m.value for m in self.ctx.typed(roll).modifiers]}", Verdict.MISMATCH,
                    expected=t.value, recorded=[m.value for m in self.ctx.typed(roll).modifiers],
                    related=[shot.seq, roll["seq"]]))
        return out


# rule id -> (status, the tests that cover it[, what is judged])
COVERAGE = {
    "IM.CORE.PHASE.FIRE": ("implemented", "tests/unit/test_im_direct_fire.py::test_small_arms_fire_is_made_in_the_fire_phases"),
    "IM.CORE.SIDE.FIRE": ("implemented", "tests/unit/test_im_direct_fire.py::test_defensive_fire_is_the_other_players_and_offensive_fire_the_active_players"),
    "IM.CORE.RANGE": ("implemented", "tests/unit/test_im_direct_fire.py::test_the_range_is_counted_in_hexes_and_within_the_printed_range"),
    "IM.CORE.RANGE.COUNT": ("implemented", "tests/unit/test_im_direct_fire.py::test_the_range_is_counted_in_hexes_and_within_the_printed_range"),
    "IM.CORE.MODSIGN": ("implemented", "tests/unit/test_im_core.py::test_a_modifier_recorded_with_the_wrong_sign",
                        "a rule's SACRT modifier recorded with the other sign"),
    "IM.CORE.FIREPOWER": ("implemented", "tests/unit/test_im_direct_fire.py::test_a_rifle_platoon_fires_at_most_its_printed_firepower; tests/unit/test_im_direct_fire.py::test_terms_of_other_modules_feed_the_checks",
                          "printed firepower plus the terms of every rule module (DIRECT_FIRE_TERMS); the machine gun bonus of the base game is unverifiable"),
}
