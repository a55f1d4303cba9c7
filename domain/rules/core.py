"""Generic checks every game gets: dice, references, the acting side, unknown event types.

Ids sit under the ruleset's CORE section (`IM.CORE.DICE`, ...); for rulesets without one the
prefix is the ruleset's (`MOG.CORE.*`, `AVBCW.CORE.*`).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterable, Optional

from domain.events import given, schema_of
from domain.rules.engine import RuleApplication, RuleModule, Rule
from domain.rulesets import find, named_at

# Where the Infernal Machines text names the die for a roll (IM.CORE.DICE); purposes are
# matched by prefix, the longest first. Rolls the text leaves as "roll a die" are not listed.
NAMED_DIE_IM = {
    "IM.SPOT.ROLL": ("d10", "Spotting: the Spotting Table is read with a d10"),
    "IM.ART.SCATTER": ("d6", "Scatter test: a d6"),
    "IM.ART.BCRT": ("d6", "Barrage Combat Results Table: a d6"),
    "IM.ART.LNO.FLARE": ("d6", "Flares: 1-2 on a d6"),
    "IM.ENV.WEATHER": ("d10", "Weather: a d10"),
    "IM.SW.MORTAR.SCATTER": ("d6", "Mortar fire procedure: scatter on a 5 or 6 (using a six-sided die)"),
    "IM.SW.MORTAR.ROF_OPT": ("d6", "Trench Mortars, optional rule: a six-sided die each turn, times two"),
    "IM.SPOT.BUTTONED.CMDR_HIT": ("d6", "Buttoned-Up Hatches: a second result of 1 or 2 on a six-sided die"),
    "IM.OPTCBT.PINREMOVAL": ("d6", "Non-Automatic Removal of Pinned Markers: a six-sided die"),
    "IM.OPTCBT.REDARMY": ("d6", "Unpredictability of the Red Army: another six-sided die"),
    "IM.OPTCBT.CCSHIFT": ("d6", "Additional Column Shifts in Close Combat: a six-sided die"),
}
MOVEMENT_PHASES = {"vehicle-movement", "first-foot-movement", "second-foot-movement"}
SMALL_ARMS_PHASES = {"defensive-small-arms-fire", "offensive-small-arms-fire"}
ANTI_TANK_PHASES = {"defensive-anti-tank-fire", "offensive-anti-tank-fire"}
DIE_RE = re.compile(r"^(\d*)d(\d+)$")

# Events whose `data.barrage` must name a barrage declared before them.
BARRAGE_STEPS = ("ArtilleryPointsSpent", "CommunicationTested", "FireOrderChecked", "ScatterTested",
                 "BarrageResolved", "BarrageCancelled")
# Events whose acting side must own the unit(s) named.
ACTORS = {"UnitMoved": "unit", "Spotted": "spotter", "SmallArmsFired": "firers"}
# The fields that introduce a subject a later roll may be about, in any event (`id`: a tabletop
# marker's, game-log-tabletop.md; a smoke marker's drift d6 is about it).
SUBJECT_FIELDS = frozenset({"unit", "element", "barrage", "attack", "dispute", "id"})


DICE_SECTION = "Global conventions: the die of each roll"


@lru_cache(maxsize=256)
def _die_of(die: str) -> tuple[int, int]:
    """(count, faces) of a die's name ("2d6"), read once per name: a game rolls a few kinds of die
    thousands of times."""
    count, faces = (int(x or 1) for x in DIE_RE.match(die).groups())
    return count, faces


# the prefixes the longest first (sorted once, not at every roll)
_NAMED_PREFIXES = tuple(sorted(NAMED_DIE_IM, key=len, reverse=True))


@lru_cache(maxsize=512)
def named_die(ruleset: str, purpose: str, phase: str) -> Optional[tuple[str, str]]:
    """The die the text names for a roll, and where: worked out once per purpose and phase (a game
    rolls the same few purposes thousands of times)."""
    if ruleset != "infernal-machines":
        return None
    if purpose == "LS.SACRT":
        if phase in SMALL_ARMS_PHASES:
            return "d6", "Main Gun Blast Power: the SACRT in a small-arms phase uses a d6"
        if phase in ANTI_TANK_PHASES:
            return "d10", "Main Gun Blast Power: the SACRT inside an anti-tank phase uses the same d10"
        return None
    for prefix in _NAMED_PREFIXES:
        if purpose == prefix or purpose.startswith(prefix + "."):
            return NAMED_DIE_IM[prefix]
    return None


class CoreChecks(RuleModule):
    """Dice, references to things that exist, the acting side, unknown event types."""

    ruleset = "*"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.prefix = "IM"
        self.book = "Infernal Machines"
        self.barrages: dict[str, int] = {}
        self.subjects: set[str] = set()
        self.rules = None
        self.ruleset_name = ""     # the game's, once it starts

    def rule(self, suffix: str, section: str) -> Rule:
        return Rule(f"{self.prefix}.CORE.{suffix}", section, self.book)

    def on_GameStarted(self, line):
        ruleset = self.ctx.typed(line).ruleset
        self.ruleset_name = ruleset
        self.rules = find(ruleset)
        self.prefix = self.rules.prefix if self.rules else "CORE"
        self.book = self.rules.book if self.rules else (ruleset or "")

    def before(self, line: dict[str, Any]) -> Iterable[RuleApplication]:
        if schema_of(line["type"], self.rules) is None:
            return [Rule("LOG.UNKNOWN_TYPE", "game log format, Core event types", "Umpire game log").unverifiable(
                line["seq"], f"event type {line['type']!r} is not in the log format; stored, not judged",
                recorded=line["type"])]
        out = list(super().before(line) or ())
        out.extend(self._acting_side(line))
        self._remember_subjects(line)
        return out

    def steps_for(self, kind: str):
        """An event of an unknown type goes through `before`; one it checks (dice, references), one
        with an acting side or one the rule system declares subjects in, through the same steps
        bound for its type (`_checked`); any other (a phase, a turn) only has the subject fields its
        line gives noted."""
        if schema_of(kind, self.rules) is None:
            return self.before, None
        own, acts = self.own_handlers(kind)[0], kind in ACTORS
        if own is None and not acts and not (self.rules is not None and self.rules.declares.get(kind)):
            return self._subjects_given, None
        return self._checked(own, acts), None

    def _checked(self, own, acts: bool):
        """`before` of a known type, its handler and whether it has an acting side found once: the
        dice and the moves are most of a game's lines."""
        acting_side, remember = self._acting_side, self._remember_subjects

        def step(line):
            out = own(line) if own is not None else ()   # made before the line's subjects are noted
            if acts:
                out = [*(out or ()), *acting_side(line)]
            remember(line)
            return out
        return step

    def _subjects_given(self, line):
        if not SUBJECT_FIELDS.isdisjoint(line["data"]):
            self._note_subjects(line)
        return ()

    def _remember_subjects(self, line):
        # The units the rule system declares where they come into the game (an AVBCW army list
        # names its units before they deploy, and Subterfuge's d6 is about one: RuleSet.declares),
        # and an event's own subject fields.
        data = line["data"]
        for path in (self.rules.declares.get(line["type"], ()) if self.rules is not None else ()):
            self.subjects.update(ref for _, ref in named_at(data, path))
        # The data's keys are the fields the line gives: a line giving none of these (most lines:
        # phases, turns) introduces no subject, and its typed event is not built for nothing.
        if not SUBJECT_FIELDS.isdisjoint(data):
            self._note_subjects(line)

    def _note_subjects(self, line):
        """The subject fields a line gives (its data names one of SUBJECT_FIELDS)."""
        event, subjects = self.ctx.typed(line), self.subjects
        for key in SUBJECT_FIELDS.intersection(event.model_fields_set):
            value = getattr(event, key)
            if isinstance(value, str):
                subjects.add(value)
        if line["type"] == "BarrageDeclared":
            self.barrages.setdefault(event.barrage, line["seq"])

    # -- dice ------------------------------------------------------------------------------
    def on_DieRolled(self, line):
        d, seq = self.ctx.typed(line), line["seq"]
        count, faces = _die_of(d.die)
        given = d.results
        # the results' count, range and sum (one result: `result` alone), without a list made
        if not (len(given) == count and 1 <= min(given) and max(given) <= faces and sum(given) == d.result
                if given else count == 1 and 1 <= d.result <= faces):
            results = given or [d.result]
            out = [Rule(f"{self.prefix}.CORE.DICE.RANGE", DICE_SECTION, self.book).violation(
                seq, f"a {d.die} cannot give {results if given else d.result}",
                expected=f"{count} result(s) of 1-{faces} summing to result", recorded=given or d.result)]
        else:
            out = []
        named = named_die(self.ruleset_name, d.purpose, line["phase"])
        if named:
            die, why = named
            out.append(Rule(f"{self.prefix}.CORE.DICE", why, self.book).judge(
                seq, d.die == die, f"{d.purpose} rolled with a {die}",
                f"{d.purpose} must be rolled with a {die}, not a {d.die}",
                expected=die, recorded=d.die))
        subject = d.subject
        # a set-up roll on a chart (AFMT, BTT, creeping-barrage eligibility) is about a side, which
        # GameStarted introduces
        if subject is not None and subject not in self.subjects:
            board = self.ctx.board
            if subject not in board.units and subject not in board.elements and subject not in (board.sides or {}):
                out.append(self.rule("REF", "game log format, Dice: a roll follows the event that introduces its subject")
                           .violation(seq, f"roll about {subject!r}, which no earlier event introduces", recorded=subject))
        return out

    # -- references ------------------------------------------------------------------------
    def _barrage_ref(self, line):
        barrage = self.ctx.typed(line).barrage
        if barrage is None:
            return ()
        rule = self.rule("REF", "Indirect Barrage Fire Procedure: each step follows the barrage's declaration")
        if barrage in self.barrages:
            return ()
        return [rule.violation(line["seq"], f"{line['type']} names barrage {barrage!r}, which was never declared",
                               recorded=barrage)]

    on_ArtilleryPointsSpent = on_CommunicationTested = on_FireOrderChecked = _barrage_ref
    on_ScatterTested = on_BarrageResolved = on_BarrageCancelled = _barrage_ref

    def on_BarrageDeclared(self, line):
        d = self.ctx.typed(line)
        out = []
        rule = self.rule("REF", "Indirect Barrage Fire Procedure: the elements named fire")
        for element in d.elements:
            state = self.ctx.board.elements.get(element)
            if state and state.eliminated:
                out.append(rule.violation(line["seq"], f"element {element!r} was eliminated before this barrage",
                                          recorded=element))
            if state and state.side != d.side:
                out.append(self.rule("SIDE", "Indirect Barrage Fire Procedure: a player fires his own artillery")
                           .violation(line["seq"], f"element {element!r} belongs to {state.side}, not {d.side}",
                                      recorded=element))
        # A second declaration of a known barrage id is judged by IM.ART.DECLARE (declarations are
        # immutable), one finding for one fault.
        return out

    # -- the acting side -------------------------------------------------------------------
    def _acting_side(self, line) -> list[RuleApplication]:
        key = ACTORS.get(line["type"])
        if key is None:
            return []
        board, side, event = self.ctx.board, line.get("side"), self.ctx.typed(line)
        # `retreat`: a field beside the schema's
        if line["type"] == "UnitMoved" and (line["phase"] not in MOVEMENT_PHASES or given(event, "retreat")):
            side = None  # a forced move (a retreat) may be recorded by either player
        names = given(event, key)
        names = names if isinstance(names, list) else [names]
        out = []
        for name in names:
            unit = board.units.get(name)
            if unit is None:
                continue
            if unit.eliminated:
                out.append(self.rule("REF", "the board: an eliminated unit no longer acts").violation(
                    line["seq"], f"{unit.unit} was eliminated at or before seq {unit.last_seq}",
                    related=[unit.last_seq], recorded=name))
            if side is not None and unit.side is not None and unit.side != side:
                out.append(self.rule("SIDE", "the acting side moves and fires only its own units").violation(
                    line["seq"], f"{side} cannot act with {unit.side} unit {name}", expected=unit.side,
                    recorded=side))
        return out
