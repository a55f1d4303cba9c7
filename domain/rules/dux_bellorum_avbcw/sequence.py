"""Judging the Dux Bellorum AVBCW turn on the log (dux-bellorum-avbcw.txt, Turn sequence and
Movement sequence; game-log-tabletop.md, Dux Bellorum, Phases): the five steps in their order
(AVBCW.TURN), what happens in which of them, and the eight steps units move in (AVBCW.MOVE.ORDER).
Leadership points, bravery tests and their placement in the turn are leadership.py's and
bravery.py's."""
from __future__ import annotations

from typing import Iterable, Optional

from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedModule
from domain.rules.dux_bellorum_avbcw.kinds import move_step, roles_of, step_name, type_of
from domain.rules.engine import RuleApplication

TURN = RULEBOOK.rule("AVBCW.TURN")
ORDER = RULEBOOK.rule("AVBCW.MOVE.ORDER")

# "1. Alternately place LPs (Repeller goes first) 2. Missile fire (...) 3. Move units (...)
# 4. Close combat (...) 5. Check morale & victory (...)" (game-log-tabletop.md names the phases).
STEPS = ("leadership", "missile-fire", "move", "close-combat", "morale-and-victory")
STEP_WORDS = {
    "leadership": "1. Alternately place LPs (Repeller goes first)",
    "missile-fire": "2. Missile fire",
    "move": "3. Move units (Only if unit did not shoot: In sequence. Test Bravery for each unit)",
    "close-combat": "4. Close combat",
    "morale-and-victory": "5. Check morale & victory (Reduce LPs if necessary, and return all unused LPs to players)",
}
# ' in "<a step's words>"': how an act in its step is judged (most lines of a game are such acts)
IN_WORDS = {step: f" in \"{words}\"" for step, words in STEP_WORDS.items()}
STEP_INDEX = {step: index for index, step in enumerate(STEPS)}
PLACED_IN_STEP = "LPs placed" + IN_WORDS["leadership"]
# "<step> follows <step before it, or the start of the turn>": the few words every phase start of a
# game is judged with, by (index of the step in force, -1 at the turn's start; index of the new step).
FOLLOWS = {(before, index): f"{STEP_WORDS[STEPS[index]]} follows "
           f"{STEP_WORDS[STEPS[before]] if before >= 0 else 'the start of the turn'}"
           for before in range(-1, len(STEPS)) for index in range(before + 1, len(STEPS))}
# What each step holds: the event that is the step's own act.
STEP_OF = {"LeadershipPointsPlaced": "leadership", "ShotFired": "missile-fire",
           "CloseCombatFought": "close-combat", "LeadershipPointsReturned": "morale-and-victory"}
# A unit's own moves of step 3 (movement.py OWN_MOVES), and an Ambush unit's deployment "on
# your first turn, as its move".
OWN_MOVES = (None, "normal", "second", "charge")


class AVBCWSequence(ListedModule):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.roles: dict[str, str] = {}
        self.step = -1                                  # index in STEPS of the turn's current step
        self.moved: Optional[tuple[int, int]] = None   # (highest movement step so far, its seq)
        self._test_words: dict[str, str] = {}          # unit -> "<unit> tests Bravery to move in ...": once per unit

    def on_GameStarted(self, line):
        self.roles = roles_of(line["data"].get("sides", {}))

    def on_TurnStarted(self, line):
        self.step, self.moved = -1, None

    # ------------------------------------------------------------ AVBCW.TURN

    def on_PhaseStarted(self, line) -> Iterable[RuleApplication]:
        """"Each proceeds as follows. 1. ... 5.": a step after the one in force, never before it
        or again (a step with nothing to do may go unrecorded)."""
        index = STEP_INDEX.get(line["data"]["phase"])
        if index is None:
            return ()
        phase, before = STEPS[index], self.step
        if index > before:
            self.step = index
            return [TURN.ok(line["seq"], FOLLOWS[before, index])]
        return [TURN.violation(line["seq"], f"\"{STEP_WORDS[phase]}\" starts after \"{STEP_WORDS[STEPS[before]]}\" "
                               f"in turn {line['turn']}: the turn \"proceeds as follows\" in that order",
                               expected=STEPS[before + 1:] or None, recorded=phase)]

    def _in_step(self, line, step: str, what: str) -> list[RuleApplication]:
        if line["phase"] == step:
            return [TURN.ok(line["seq"], what + IN_WORDS[step])]
        return [TURN.violation(line["seq"], f"{what} in phase {line['phase']}: it belongs to \"{STEP_WORDS[step]}\"",
                               expected=step, recorded=line["phase"])]

    def on_LeadershipPointsPlaced(self, line):
        if line["phase"] == "leadership":   # most placings: their words kept
            return [TURN.ok(line["seq"], PLACED_IN_STEP)]
        return self._in_step(line, "leadership", "LPs placed")

    def on_ShotFired(self, line):
        return self._in_step(line, "missile-fire", f"{self.ctx.typed(line).shooter} shoots")

    def on_CloseCombatFought(self, line):
        return self._in_step(line, "close-combat", f"combat {self.ctx.typed(line).combat} is fought")

    def on_LeadershipPointsReturned(self, line):
        return self._in_step(line, "morale-and-victory", "unused LPs are returned")

    def on_BraveryTested(self, line):
        """"3. Move units (Only if unit did not shoot: In sequence. Test Bravery for each unit)": a
        test to move is step 3's; tests for other reasons (run over, break) are not placed by it."""
        data = self.ctx.typed(line)
        if data.why != "move":
            return ()
        if line["phase"] != "move":
            return self._in_step(line, "move", f"{data.unit} tests Bravery to move")
        words = self._test_words.get(data.unit)
        if words is None:   # its words in step 3 (most tests): the same for each of the unit's tests
            words = self._test_words[data.unit] = f"{data.unit} tests Bravery to move" + IN_WORDS["move"]
        return [TURN.ok(line["seq"], words)]

    # ------------------------------------------------------------ AVBCW.MOVE.ORDER

    def on_UnitMoved(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        if data.mode not in OWN_MOVES:
            return ()   # falling back, pursuing, retreating: moves other rules command
        return [*self._in_step(line, "move", f"{data.unit} moves"), *self._order(line, data.unit)]

    def on_UnitDeployed(self, line) -> Iterable[RuleApplication]:
        data = self.ctx.typed(line)
        if line["turn"] == 0 or not data.attrs.get("ambush"):
            return ()
        # Ambush: "on your first turn, as its move, the unit is deployed"
        return [*self._in_step(line, "move", f"{data.unit} deploys from ambush as its move"),
                *self._order(line, data.unit, side=line.get("side"), kind=type_of(None, self.lists.get(data.unit)))]

    def _order(self, line, unit_id: str, side: Optional[str] = None, kind: Optional[str] = None) -> list[RuleApplication]:
        """"Movement sequence; Units move in the following sequence. 1. Aggressor's Vehicles ...
        8. Repeller's Teams": no unit moves in a step before one that has moved this phase."""
        if line["phase"] != "move":
            return []
        unit = self.ctx.board.units.get(unit_id)
        side = side or (unit.side if unit is not None else None)
        kind = kind or type_of(unit, self.lists.get(unit_id))
        step = move_step(kind, self.roles.get(side or ""))
        seq = line["seq"]
        if step is None:
            return [ORDER.unverifiable(seq, f"{unit_id} ({kind or 'no type'}, side {side}): its step of the movement "
                                       "sequence is not known (no unit-table row or no side role)")]
        if self.moved is None or step >= self.moved[0]:
            earlier = self.moved
            self.moved = (step, seq) if earlier is None or step > earlier[0] else earlier
            return [ORDER.ok(seq, f"{unit_id} moves in step {step_name(step)}")]
        return [ORDER.violation(seq, f"{unit_id} moves in step {step_name(step)} after a unit of step "
                                f"{step_name(self.moved[0])} moved at seq {self.moved[1]}: \"Units move in the "
                                "following sequence\"", expected=f">= {self.moved[0]}", recorded=step,
                                related=[self.moved[1]])]


TESTS = "tests/unit/test_avbcw_sequence.py::"
# rule id -> (status, tests, what is judged): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.TURN": ("partial", f"{TESTS}test_the_steps_come_in_order; {TESTS}test_each_act_in_its_step; "
                   f"{TESTS}test_a_bravery_test_to_move_is_step_3s",
                   "the five steps in order (none before one already started); LPs placed in step 1, shots in "
                   "step 2, own moves, bravery tests to move and ambush deployments in step 3, combats in step 4, "
                   "LPs returned in step 5. "
                   "A bravery test per moving unit: suppression.py; alternate placing and the unused LPs returned: "
                   "leadership.py"),
    "AVBCW.MOVE.ORDER": ("implemented", f"{TESTS}test_units_move_in_the_eight_steps",
                         "each own move and ambush deployment in the move phase in a step no earlier than one that "
                         "has moved: vehicles (and tank commanders), cavalry (and mounted commanders), infantry (and "
                         "commanders, the Demagogue), teams; Aggressor before Repeller in each; a type the table "
                         "does not hold or a side with no role: `unverifiable`. \"No group moves\": one unit a "
                         "UnitMoved by the format"),
}
