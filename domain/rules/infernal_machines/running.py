"""Running (optional, Advanced Infantry Movement Rules): fire by and at running units.

"While running, units may not conduct small arms fire or have support weapons fire. When firing at enemy
units that are running, the player may conduct fire against any hexagon within firing range traversed by
the enemy units ... If fired upon during a defensive fire phase, running units suffer a -1 penalty modifier
on the SACRT in addition to all other applicable die modifiers."

- IM.OPTMOVE.RUN.FIRE: a support weapon counter carried by a unit that ran this turn (`attrs.carrier`, or
  `vehicle`/`aboard` naming it) fires in that turn: a violation. The runner's own fire in the turn of its run
  is IM.OPTMOVE.RUN.AFTER's (the Running EXAMPLE: "It may not conduct small arms fire that turn"; EX-IM-21
  gives that id), judged by movement.py, so that one breach makes one finding.
- IM.OPTMOVE.RUN.TARGET: small arms fire in the defensive fire phase of the run's turn at a hexagon of an
  enemy's run (any it traversed, its start and end included) is a term of the shot: -1 on the SACRT roll,
  judged with the roll's other modifiers by direct_fire.py; the SACRT's cell is the chart's (`LS.SACRT`).
  A `UnitMoved` of the runner in that small arms phase to the hexagon fired at is the text's "move them back to
  the targeted hexagon" (movement.py does not count it as a move outside the movement phases); pinning it there
  after a passed morale check is not judged.

Runs are noted by the module's `UnitMoved` handler (moves whose `mode` is "run"), read by the term source;
nothing runs on other events.
"""
from __future__ import annotations

from typing import Any

from domain.rules.engine import Rule, RuleModule
from domain.rules.infernal_machines.direct_fire import Shot, Term
from domain.rules.infernal_machines.movement_costs import RULEBOOK

SECTIONS = RULEBOOK.sections(("IM.OPTMOVE.RUN.FIRE", "IM.OPTMOVE.RUN.TARGET"))
DEFENSIVE_SMALL_ARMS = "defensive-small-arms-fire"
CARRIER_FIELDS = ("carrier", "vehicle", "aboard")


class Runs:
    """The runs of the game so far: unit -> (turn, side, the hexes of its run, seq of the move)."""

    def __init__(self):
        self.made: dict[str, tuple[int, Any, tuple[str, ...], int]] = {}

    def this_turn(self, turn: int) -> dict[str, tuple[int, Any, tuple[str, ...], int]]:
        return {unit: run for unit, run in self.made.items() if run[0] == turn}


def runs(ctx) -> Runs:
    return ctx.shared("im-runs", Runs)


def running_target_terms(shot: Shot, ctx) -> list[Term]:
    """IM.OPTMOVE.RUN.TARGET: -1 on the SACRT of defensive fire at a hexagon an enemy ran through this turn."""
    made = runs(ctx).made
    if not made or shot.kind != "small-arms" or shot.phase != DEFENSIVE_SMALL_ARMS:
        return []
    for unit, (turn, side, path, _) in made.items():
        if turn == shot.turn and shot.target in path and side != shot.side:
            return [Term("IM.OPTMOVE.RUN.TARGET", -1, f"{unit} is running (fired on in a defensive fire phase)")]
    return []


DIRECT_FIRE_TERMS = (running_target_terms,)
FIRE_PHASES = ("defensive-small-arms-fire", "offensive-small-arms-fire")


def moved_back(ctx, line: dict[str, Any]) -> bool:
    """A runner's move in a small arms phase of its run's turn to a hexagon of its run where it was fired at: "move
    them back to the targeted hexagon" (IM.OPTMOVE.RUN.TARGET), not a move outside the movement phases."""
    run = runs(ctx).made.get(line["data"].get("unit"))
    path = line["data"].get("path") or []
    if run is None or run[0] != line["turn"] or line["phase"] not in FIRE_PHASES or not path or path[-1] not in run[2]:
        return False
    return any(shot["data"].get("target") == path[-1] and shot["turn"] == line["turn"]
               for shot in ctx.of_type("SmallArmsFired", after=run[3], before=line["seq"]))


class RunningFire(RuleModule):
    """Notes each run; judges the fire of the support weapons a runner carries in the turn of its run."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.runs = runs(ctx)

    def on_UnitMoved(self, line):
        if line["data"].get("mode") != "run":
            return self._back(line)
        move = self.ctx.typed(line)
        unit = self.ctx.board.units.get(move.unit)
        self.runs.made[move.unit] = (line["turn"], unit.side if unit else line.get("side"), tuple(move.path),
                                     line["seq"])
        return ()

    def _back(self, line):
        """A runner moved back to the hexagon fired at, in the fire phase (judged only for a unit that ran this turn)."""
        unit = line["data"].get("unit")
        run = self.runs.made.get(unit)
        if run is None or run[0] != line["turn"] or line["phase"] not in FIRE_PHASES:
            return ()
        r = Rule("IM.OPTMOVE.RUN.TARGET", SECTIONS["IM.OPTMOVE.RUN.TARGET"])
        where = (line["data"].get("path") or [None])[-1]
        return [r.judge(line["seq"], moved_back(self.ctx, line), f"{unit} is moved back to {where}, which it ran "
                        "through and where it was fired at", f"{unit} ran this turn: it is moved back only to a "
                        f"hexagon of its run that was fired at, not to {where}", recorded=where, related=[run[3]])]

    def _fire(self, line):
        if not self.runs.made:
            return ()
        ran = self.runs.this_turn(line["turn"])
        if not ran:
            return ()
        board, out = self.ctx.board, []
        r = Rule("IM.OPTMOVE.RUN.FIRE", SECTIONS["IM.OPTMOVE.RUN.FIRE"])
        for firer in self.ctx.typed(line).firers:
            unit = board.units.get(firer)
            carrier = next((unit.attrs.get(k) for k in CARRIER_FIELDS if unit and unit.attrs.get(k)), None)
            if carrier in ran:
                out.append(r.violation(line["seq"], f"{firer} is a support weapon of {carrier}, which ran this turn "
                                       f"(seq {ran[carrier][3]}): while running, units may not have support weapons "
                                       "fire", recorded=firer, related=[ran[carrier][3]]))
        return out

    on_SmallArmsFired = on_AntiTankFired = _fire


T = "tests/unit/test_im_running_fire.py::"
ACCEPTANCE = "tests/acceptance/test_cases_im_env.py::test_case_gives_expected_findings"
COVERAGE = {
    "IM.OPTMOVE.RUN.FIRE": ("implemented", f"{T}test_the_support_weapons_of_a_runner_may_not_fire_that_turn; {ACCEPTANCE}",
                            "a support weapon counter of a runner firing in the turn of the run; the runner's own fire "
                            "that turn is IM.OPTMOVE.RUN.AFTER's (EX-IM-21, movement.py)"),
    "IM.OPTMOVE.RUN.TARGET": ("needs a chart", f"{T}test_defensive_fire_at_a_hex_a_runner_crossed_takes_minus_one; "
                              f"{T}test_a_runner_is_moved_back_to_the_hexagon_fired_at; {ACCEPTANCE}",
                              "-1 on the SACRT roll of defensive fire at a hexagon of an enemy's run that turn (with the "
                              "roll's other modifiers, direct_fire.py); the SACRT cell is the chart's; the runner moved back "
                              "to the hexagon fired at, in that phase; its pin there after a passed morale check is not "
                              "judged"),
}
