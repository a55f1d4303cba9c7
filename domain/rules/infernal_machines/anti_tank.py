"""Anti-tank fire (`AntiTankFired`, docs/game-log-extensions.md): the to-hit roll on the Landships!
ATCRT (a table-pack chart: checked when the game's pack holds `ATCRT`, else `unverifiable`), and the
anti-tank rifle's critical hits (IM.SW.ATR.CRIT, "Anti-Tank Rifles (changed)"):

- after a "hit", a second six-sided die: 1 nothing; 2-3 the driver is hit (the tank stops and stays
  in its hexagon for one turn; a third die of 1-2 kills him: half the movement allowance from then
  on, at least one hexagon a turn); 4-5 the engine is hit (a third die of 1-2 halts the tank until
  repaired: a repair die each of the next two turns, 1-3 repairs it, after the second failure the
  engine is broken for good); 6 the tank is destroyed;
- ⚠ an engine hit whose third die is 3-6 has no stated effect: the tank is judged as unharmed, and
  the roll says so (`ambiguous` under IM.SW.ATR.ENGINE_THIRD unless a reading is chosen).

The rolls are DieRolled with purpose `IM.SW.ATR.CRIT` (the second die, then the third), and
`IM.SW.ATR.CRIT.REPAIR` for the repair dice, about the attack or the tank.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from domain.rules.engine import RuleApplication, RuleModule, Verdict, closer
from domain.rules.infernal_machines.direct_fire import Shot, fire_facts, rule
from domain.rules.infernal_machines.support_weapons import weapon_kind
from domain.rules.interpretations import Interpretation, declare

ATR_NAMES = ("atr", "anti-tank-rifle", "at-rifle", "tankgewehr", "mauser-t-gewehr")
HIT_RESULTS = ("hit", "destroyed", "driver-hit", "engine-hit", "driver-killed", "engine-halted")
ENGINE_THIRD = declare(Interpretation(
    "IM.SW.ATR.ENGINE_THIRD", ("IM.SW.ATR.CRIT",),
    "Anti-tank rifle, engine hit: \"a third die result of 1 or 2 indicates a permanent halt until repaired\"; the "
    "text gives no effect for 3-6. Does the tank run on?",
    {"runs-on": "no effect: the tank moves and fires as before", "halt-this-turn": "it stops for the rest of this turn"},
    default=None))


def is_atr(shot: Shot, board) -> bool:
    named = str(shot.event.weapon or "").lower().replace("_", "-").replace(" ", "-")
    if named in ATR_NAMES:
        return True
    units = [board.units.get(f) for f in shot.firers]
    return any(u is not None and str(u.attrs.get("weapon", "")).lower().replace("_", "-") in ATR_NAMES for u in units)


def is_elephant(unit) -> bool:
    return unit is not None and "elephant" in f"{unit.attrs.get('model', '')} {unit.name or ''}".lower()


@dataclass
class Wounded:
    """What a critical left on one tank."""
    tank: str
    seq: int
    turn: int
    held_until: int = -1            # the tank may not move up to this turn (driver hit)
    half_speed: bool = False        # the driver was killed
    halted: bool = False            # the engine halted (until repaired)
    repairs: list[int] = field(default_factory=list)
    broken: bool = False
    destroyed: bool = False


class AntiTankChecks(RuleModule):
    """The ATCRT roll of every anti-tank shot, and the anti-tank rifle's critical chain."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.facts = fire_facts(ctx)
        self.wounded: dict[str, Wounded] = {}
        self.pending: list[tuple[Shot, str, int]] = []     # ATR hits whose rolls are judged at the phase's end

    # -- the to-hit roll --------------------------------------------------------------------------------
    def on_AntiTankResolved(self, line):
        resolved = self.ctx.typed(line)
        shot = self.facts.shot(resolved.attack)
        if shot is None:
            return []
        out = [*self._atcrt(line, shot, resolved)]
        if is_atr(shot, self.ctx.board):
            for result in resolved.results:
                if result.result in HIT_RESULTS:
                    self.pending.append((shot, result.unit, line["seq"]))
        return out

    def _atcrt(self, line, shot: Shot, resolved) -> list[RuleApplication]:
        rolls = [r for r in shot.rolls if r["data"].get("purpose") == "LS.ATCRT"]
        if not rolls:
            return [rule("LS.ATCRT").missing_roll(line["seq"], f"anti-tank attack {shot.attack} is resolved without "
                                                  "its to-hit roll (DieRolled LS.ATCRT about the attack)",
                                                  related=[shot.seq])]
        tables, roll = self.ctx.tables, self.ctx.typed(rolls[0])
        column = shot.event.column or shot.event.weapon
        modified = roll.result + sum(m.value for m in roll.modifiers)
        if not tables.has("ATCRT") or column is None or tables.get("ATCRT", column) is None:
            return [rule("LS.ATCRT").unverifiable(line["seq"], tables.lacks("Anti-Tank Combat Results Table (ATCRT)")
                                                  + (f" (column {column!r})" if column else ""),
                                                  related=[rolls[0]["seq"]], inputs={"column": column, "roll": modified})]
        cell = tables.get("ATCRT", column, modified)
        target = shot.event.target_unit
        recorded = next((r.result for r in resolved.results if r.unit == target), None) if target else \
            (resolved.results[0].result if resolved.results else None)
        hit = str(cell).lower() not in ("miss", "-", "no-effect", "none")
        got = recorded is not None and recorded not in ("miss", "no-effect")
        return [rule("LS.ATCRT").judge(line["seq"], hit == got, f"ATCRT {column} on {modified}: {cell}",
                                       f"the ATCRT reads {cell} in column {column} on {modified}; the log has {recorded}",
                                       Verdict.MISMATCH, expected=cell, recorded=recorded, related=[rolls[0]["seq"]])]

    # -- the critical chain ---------------------------------------------------------------------------------
    @closer
    def on_PhaseStarted(self, line):
        return self._judge_pending(line["seq"])

    @closer
    def on_TurnStarted(self, line):
        return self._judge_pending(line["seq"])

    def finish(self):
        return self._judge_pending(len(self.ctx.lines) + 1)

    def _judge_pending(self, before: int) -> list[RuleApplication]:
        out = []
        for shot, tank, seq in self.pending:
            out += self._critical(shot, tank, seq, before)
        self.pending = []
        return out

    def _crit_rolls(self, shot: Shot, tank: str, after: int, before: int) -> list[dict[str, Any]]:
        return [r for r in self.ctx.rolls("IM.SW.ATR.CRIT", after=after, before=before)
                if r["data"].get("subject") in (shot.attack, tank) and "REPAIR" not in r["data"]["purpose"]]

    def _critical(self, shot: Shot, tank: str, seq: int, before: int) -> list[RuleApplication]:
        r, unit = rule("IM.SW.ATR.CRIT"), self.ctx.board.units.get(tank)
        rolls = self._crit_rolls(shot, tank, shot.seq, before)
        if is_elephant(unit):
            return [r.judge(seq, not rolls, "the Elephant is immune to anti-tank rifles",
                            "the Elephant is immune to anti-tank rifles: no critical roll", related=[x["seq"] for x in rolls])]
        if not rolls:
            return [r.missing_roll(seq, f"an anti-tank rifle hit on {tank} needs its second d6 (IM.SW.ATR.CRIT)",
                                   related=[shot.seq])]
        second = self.ctx.typed(rolls[0])
        wound = Wounded(tank, seq, shot.turn)
        out = [rule("IM.CORE.DICE").judge(rolls[0]["seq"], second.die == "d6", "the second die is a d6",
                                          f"\"roll a second six-sided die\", not a {second.die}", expected="d6",
                                          recorded=second.die)]
        if second.result == 6:
            wound.destroyed = True
            out.append(r.ok(rolls[0]["seq"], "6: the tank is destroyed (lucky shot)"))
        elif second.result >= 2:
            if len(rolls) < 2:
                out.append(r.missing_roll(rolls[0]["seq"], f"{'driver' if second.result <= 3 else 'engine'} hit "
                                          f"({second.result}): the third die is not in the log"))
            else:
                out += self._third(wound, second.result, rolls[1])
            if second.result <= 3:
                wound.held_until = shot.turn + 1
        self.wounded[tank] = wound
        return out

    def _third(self, wound: Wounded, second: int, roll_line) -> list[RuleApplication]:
        third = self.ctx.typed(roll_line).result
        if second <= 3:
            wound.half_speed = third <= 2
            return [rule("IM.SW.ATR.CRIT").ok(roll_line["seq"], f"driver hit; third die {third}: "
                                              + ("the driver is killed" if third <= 2 else "he survives"))]
        if third <= 2:
            wound.halted = True
            return [rule("IM.SW.ATR.CRIT").ok(roll_line["seq"], f"engine hit; third die {third}: halted until repaired")]
        reading = self.ctx.interpretations.reading(ENGINE_THIRD.name)
        label = self.ctx.interpretations.label(ENGINE_THIRD.name)
        if reading is None:
            return [rule("IM.SW.ATR.CRIT").ambiguous(roll_line["seq"], f"engine hit, third die {third}: "
                                                     f"{ENGINE_THIRD.describe()}", interpretation=label)]
        if reading == "halt-this-turn":
            wound.held_until = wound.turn
        return [rule("IM.SW.ATR.CRIT").ok(roll_line["seq"], f"engine hit, third die {third} ({reading})",
                                          interpretation=label)]

    def on_DieRolled(self, line):
        d = self.ctx.typed(line)
        if not d.purpose.startswith("IM.SW.ATR.CRIT.REPAIR"):
            return []
        wound = self.wounded.get(d.subject or "")
        if wound is None or not wound.halted:
            return [rule("IM.SW.ATR.CRIT").violation(line["seq"], f"a repair roll for {d.subject}, whose engine is not "
                                                     "halted by an anti-tank rifle")]
        turns = line["turn"] - wound.turn
        wound.repairs.append(d.result)
        if turns > 2 or len(wound.repairs) > 2:
            wound.broken = True
            return [rule("IM.SW.ATR.CRIT").violation(line["seq"], "the crew has two consecutive turns to repair; after "
                                                     "the second turn without effect the engine is permanently broken")]
        if d.result <= 3:
            wound.halted = False
        elif len(wound.repairs) == 2:
            wound.broken = True
        return [rule("IM.SW.ATR.CRIT").ok(line["seq"], f"repair die {d.result}: "
                                          + ("repaired" if d.result <= 3 else "no effect"))]

    # -- what a critical forbids -----------------------------------------------------------------------------
    def on_UnitMoved(self, line):
        d = self.ctx.typed(line)
        wound = self.wounded.get(d.unit)
        if wound is None or len(d.path) < 2 or line["phase"] != "vehicle-movement" and not wound.destroyed:
            return []
        r, hexes = rule("IM.SW.ATR.CRIT"), len(d.path) - 1
        if wound.destroyed:
            return [r.mismatch(line["seq"], f"{d.unit} was destroyed by an anti-tank rifle (seq {wound.seq}) and moves",
                               related=[wound.seq])]
        if line["turn"] <= wound.held_until:
            return [r.violation(line["seq"], f"{d.unit}'s driver was hit (seq {wound.seq}): it stays in its hexagon "
                                "for one turn", related=[wound.seq])]
        if wound.halted or wound.broken:
            return [r.violation(line["seq"], f"{d.unit}'s engine is halted (seq {wound.seq}) "
                                + ("for good" if wound.broken else "until repaired"), related=[wound.seq])]
        unit = self.ctx.board.units.get(d.unit)
        if wound.half_speed and unit is not None and unit.movement:
            most = max(1, int(unit.movement // 2))
            return [r.judge(line["seq"], hexes <= most, f"{hexes} hexes at half speed",
                            f"{d.unit}'s driver was killed: half its movement allowance ({most} of {unit.movement:g}), "
                            f"at least one hexagon; it moves {hexes}", expected=most, recorded=hexes, related=[wound.seq])]
        return []


COVERAGE = {
    "IM.SW.ATR.CRIT": ("ambiguous", "tests/unit/test_im_anti_tank.py::test_a_hit_asks_for_the_second_die; "
                       "tests/unit/test_im_anti_tank.py::test_six_destroys_the_tank; "
                       "tests/unit/test_im_anti_tank.py::test_a_driver_hit_holds_the_tank_for_a_turn_and_a_killed_driver_halves_it; "
                       "tests/unit/test_im_anti_tank.py::test_an_engine_hit_halts_until_repaired_in_two_turns; "
                       "tests/unit/test_im_anti_tank.py::test_an_engine_hit_with_a_high_third_die_is_ambiguous; "
                       "tests/unit/test_im_anti_tank.py::test_the_elephant_ignores_anti_tank_rifles",
                       "the second and third dice, the tank held, halved, halted, repaired or destroyed; an engine hit "
                       "with a third die of 3-6 follows IM.SW.ATR.ENGINE_THIRD"),
}
