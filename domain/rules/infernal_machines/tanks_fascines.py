"""Tanks and Fascines (new): dropping a fascine into an extra-wide trench, jams, unjamming, and crossing.

"This rule applies only if the scenario states that certain trenches are extra wide ... When a tank falls
into an extra wide trench, the tank pauses during the Vehicle Movement Phase and attempts to drop the
fascine into the trench. On a result of 3 to 6 with a six-sided die, the fascine drops into the trench
... and any other tank may cross the extra wide trench at that point. On a result of 1 to 2, the fascine
is jammed. If it is jammed, the tank cannot cross the trench but may continue to move. The following turn,
the crew may attempt to unjam the fascine during the Vehicle Movement Phase by not moving and rolling a
six-sided die instead. On a result of 1 to 4, the crew succeeds and may attempt again to drop it the
following turn ... Otherwise, it remains jammed for the rest of the scenario. Once the fascine has
dropped, it cannot be picked up again ... fascines cannot be destroyed by enemy fire."
"EXCEPTION: the British Mk. V and Mk. VIII tanks may cross extra wide trenches without using a fascine."

In the log (docs/game-log-extensions.md): the drop is a `DieRolled` with purpose `IM.TANK.FASCINE.DROP`
(a d6 about the tank, beside or in the extra-wide trench hex), the unjamming one with
`IM.TANK.FASCINE.UNJAM`; the drop roll of 3-6 lays the fascine in the trench hex, which a `MarkerPlaced`
`fascine` there may show (the crossing point the moves of poor crossers read). A tank carries a fascine when it is British or its `attrs.fascine` is
true (false: it carries none).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from domain.board.hexes import distance
from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.infernal_machines.movement_costs import extra_wide, mover_for
from domain.rules.infernal_machines.tanks import RULEBOOK
from domain.rules.infernal_machines.vehicles import is_tank

SECTIONS = RULEBOOK.sections((
    "IM.TANK.FASCINE.SCOPE", "IM.TANK.FASCINE.DROP", "IM.TANK.FASCINE.UNJAM", "IM.TANK.FASCINE.ONCE",
    "IM.TANK.FASCINE.EXEMPT", "IM.CORE.DICE",
))
PURPOSES = ("IM.TANK.FASCINE.DROP", "IM.TANK.FASCINE.UNJAM")


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


@dataclass
class Fascine:
    """One tank's fascine: carried, jammed (turn), unjammed (turn), dropped or jammed for good."""
    tank: str
    state: str = "carried"
    turn: int = 0
    seq: int = 0
    trench: Optional[str] = None     # the extra-wide hex of the drop attempt
    phase: Optional[tuple[int, str]] = None


class FascineChecks(RuleModule):
    """The fascine dice, the fascine markers and tanks entering extra-wide trench hexes."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.fascines: dict[str, Fascine] = {}
        self.drops: list[tuple[str, int, tuple[int, str]]] = []   # (trench hex, seq of the roll, phase) of the phase
        self.crossings: dict[str, int] = {}                       # trench hex -> seq of the drop that bridged it
        self.moved: dict[str, tuple[int, str, int]] = {}          # tank -> (turn, phase, seq) of its last move

    def _fascine(self, tank: str) -> Fascine:
        return self.fascines.setdefault(tank, Fascine(tank))

    # -- the dice ---------------------------------------------------------------------------------
    def on_DieRolled(self, line):
        d = self.ctx.typed(line)
        if d.purpose not in PURPOSES:
            return []
        out = [rule("IM.CORE.DICE").judge(line["seq"], d.die == "d6", "a six-sided die",
                                          f"the fascine rolls are made \"with a six-sided die\", not a {d.die}",
                                          expected="d6", recorded=d.die)]
        unit = self.ctx.board.units.get(d.subject or "")
        if not is_tank(unit):
            return out + [rule("IM.TANK.FASCINE.SCOPE").violation(
                line["seq"], f"a fascine roll about {d.subject}, which is not a tank", recorded=d.subject)]
        out += self._scope(line, unit)
        if line["phase"] != "vehicle-movement":
            out.append(rule(d.purpose).violation(line["seq"], "fascines are dropped and unjammed during the Vehicle "
                                                 f"Movement Phase, not the {line['phase']} phase", recorded=line["phase"]))
        fascine = self._fascine(unit.unit)
        if d.purpose == "IM.TANK.FASCINE.DROP":
            return out + self._drop(line, unit, fascine, d.result)
        return out + self._unjam(line, unit, fascine, d.result)

    def _scope(self, line, unit) -> list[RuleApplication]:
        board, seq = self.ctx.board, line["seq"]
        view = board_view(self.ctx)
        agreed = "extra-wide-trenches" in board.permissions or any(
            "EXTRAWIDE" in str(o).upper() or "extra-wide" in str(o).lower() for o in board.options) or any(
            extra_wide(view, loc) for loc in board.hexes) or any(
            m.get("marker") == "trench-extra-wide" for m in view.live_markers())
        nation = str((board.sides.get(unit.side or "") or {}).get("nation", "")).lower()
        carries = unit.attrs.get("fascine", nation in ("british", "britain", "uk"))
        out = [rule("IM.TANK.FASCINE.SCOPE").judge(
            seq, agreed, "the scenario has extra-wide trenches",
            "\"This rule applies only if the scenario states that certain trenches are extra wide\": the scenario has "
            "none (no extra-wide trench on the map, no permission extra-wide-trenches)")]
        if not carries:
            out.append(rule("IM.TANK.FASCINE.SCOPE").violation(
                seq, f"{unit.unit} carries no fascine (fascines are carried on top of British tanks; attrs.fascine)",
                recorded=unit.attrs.get("fascine", nation)))
        return out

    def _trench_beside(self, unit) -> Optional[str]:
        """The extra-wide trench hex the tank is in or beside, or None."""
        view = board_view(self.ctx)
        if unit.location is None:
            return None
        if extra_wide(view, unit.location):
            return unit.location
        for loc in sorted({m.get("location") for m in view.live_markers() if m.get("location")}
                          | set(self.ctx.board.hexes)):
            if extra_wide(view, loc) and distance(unit.location, loc, view.placement) == 1:
                return loc
        return None

    def _drop(self, line, unit, f: Fascine, result: int) -> list[RuleApplication]:
        seq, turn = line["seq"], line["turn"]
        if f.state == "dropped":
            return [rule("IM.TANK.FASCINE.ONCE").violation(seq, f"{unit.unit} dropped its fascine at seq {f.seq}: "
                                                           "it cannot be picked up again", related=[f.seq])]
        if f.state == "jammed-for-good":
            return [rule("IM.TANK.FASCINE.UNJAM").violation(seq, f"{unit.unit}'s fascine remains jammed for the rest "
                                                            f"of the scenario (seq {f.seq})", related=[f.seq])]
        if f.state == "jammed":
            return [rule("IM.TANK.FASCINE.UNJAM").violation(seq, f"{unit.unit}'s fascine is jammed (seq {f.seq}): the "
                                                            "crew must unjam it first", related=[f.seq])]
        if f.state == "unjammed" and turn <= f.turn:
            return [rule("IM.TANK.FASCINE.UNJAM").violation(seq, f"{unit.unit}'s crew unjammed the fascine in turn "
                                                            f"{f.turn}: it \"may attempt again to drop it the following "
                                                            "turn\"", related=[f.seq])]
        trench = self._trench_beside(unit)
        out = [rule("IM.TANK.FASCINE.DROP").judge(
            seq, trench is not None, f"{unit.unit} drops its fascine into the extra-wide trench in {trench}",
            f"{unit.unit} in {unit.location} is neither in nor beside an extra-wide trench: a tank drops its fascine "
            "when it falls into one", recorded=unit.location)]
        f.seq, f.turn, f.trench, f.phase = seq, turn, trench, (turn, line["phase"])
        if result >= 3:
            f.state = "dropped"
            if trench is not None:
                self.drops.append((trench, seq, f.phase))
                self.crossings.setdefault(trench, seq)
            out.append(rule("IM.TANK.FASCINE.DROP").ok(seq, f"{result}: the fascine drops into the trench"))
        else:
            f.state = "jammed"
            out.append(rule("IM.TANK.FASCINE.DROP").ok(seq, f"{result}: the fascine is jammed; the tank cannot cross"))
        return out

    def _unjam(self, line, unit, f: Fascine, result: int) -> list[RuleApplication]:
        seq, turn = line["seq"], line["turn"]
        r = rule("IM.TANK.FASCINE.UNJAM")
        if f.state != "jammed":
            why = "jammed for the rest of the scenario" if f.state == "jammed-for-good" else f"not jammed ({f.state})"
            return [r.violation(seq, f"an unjamming roll for {unit.unit}, whose fascine is {why}",
                                related=[f.seq] if f.seq else [])]
        if turn <= f.turn:
            return [r.violation(seq, f"the fascine jammed in turn {f.turn}: the crew may try to unjam it \"the "
                                "following turn\"", related=[f.seq])]
        out = []
        moved = self.moved.get(unit.unit)
        if moved and moved[:2] == (turn, line["phase"]):
            out.append(r.violation(seq, f"{unit.unit} moved in this Vehicle Movement Phase (seq {moved[2]}): the crew "
                                   "unjams the fascine \"by not moving\"", related=[moved[2]]))
        f.seq, f.turn, f.phase = seq, turn, (turn, line["phase"])
        f.state = "unjammed" if result <= 4 else "jammed-for-good"
        out.append(r.ok(seq, f"{result}: " + ("unjammed; it may drop the fascine next turn" if result <= 4
                                             else "jammed for the rest of the scenario")))
        return out

    # -- markers ----------------------------------------------------------------------------------
    def on_MarkerPlaced(self, line):
        d = self.ctx.typed(line)
        if d.marker != "fascine" or d.unit is not None or line["turn"] == 0:
            return []
        self.drops = [x for x in self.drops if x[2] == (line["turn"], line["phase"])]    # a marker comes in its phase
        found = next((x for x in self.drops if x[0] == d.location), None)
        if found is not None:
            self.drops.remove(found)
            return [rule("IM.TANK.FASCINE.DROP").ok(line["seq"], f"the fascine lies in {d.location}",
                                                    related=[found[1]])]
        return [rule("IM.TANK.FASCINE.DROP").violation(
            line["seq"], f"a fascine placed in {d.location} with no drop roll of 3-6 for it in this phase",
            recorded=d.location)]

    def on_MarkerRemoved(self, line):
        d = self.ctx.typed(line)
        if d.marker != "fascine" or d.unit is not None:
            return []
        return [rule("IM.TANK.FASCINE.ONCE").violation(
            line["seq"], f"the fascine in {d.location} is removed: once dropped it cannot be picked up again, and "
            "fascines cannot be destroyed by enemy fire", recorded=d.location)]

    # -- crossing ---------------------------------------------------------------------------------
    def on_UnitMoved(self, line):
        d, board = self.ctx.typed(line), self.ctx.board
        unit = board.units.get(d.unit)
        if not is_tank(unit) or len(d.path) < 2:
            return []
        self.moved[d.unit] = (line["turn"], line["phase"], line["seq"])
        out = []
        f = self.fascines.get(d.unit)
        if f is not None and f.state == "unjammed" and f.turn == line["turn"] and f.phase == (line["turn"], line["phase"]):
            out.append(rule("IM.TANK.FASCINE.UNJAM").violation(
                line["seq"], f"{d.unit}'s crew tried to unjam the fascine this phase (seq {f.seq}), \"by not moving\"",
                related=[f.seq]))
        view = board_view(self.ctx)
        mover = mover_for(view, unit, self.ctx.tables)
        for loc in d.path[1:]:
            if not extra_wide(view, loc) or view.markers(loc)["fascine"] or loc in self.crossings:
                continue
            if f is not None and f.state in ("jammed", "jammed-for-good") and f.trench == loc:
                out.append(rule("IM.TANK.FASCINE.DROP").violation(
                    line["seq"], f"{d.unit}'s fascine jammed (seq {f.seq}): \"the tank cannot cross the trench\" in "
                    f"{loc}", related=[f.seq], recorded=loc))
            elif mover.poor_crossing and not mover.wide_exempt:
                continue    # a poor crosser never crosses an extra-wide trench: IM.OBS.TRENCH.EXTRAWIDE (movement)
            else:
                out.append(rule("IM.TANK.FASCINE.EXEMPT").judge(
                    line["seq"], mover.wide_exempt, f"{d.unit} (a Mk V or Mk VIII) crosses the extra-wide trench in "
                    f"{loc} without a fascine",
                    f"{d.unit} enters the extra-wide trench in {loc} where no fascine lies: only the British Mk V and "
                    "Mk VIII cross extra-wide trenches without using a fascine", recorded=loc))
            break
        return out


T = "tests/unit/test_im_tanks_fascines.py::"
COVERAGE = {
    "IM.TANK.FASCINE.SCOPE": ("implemented", f"{T}test_fascines_need_extra_wide_trenches_and_a_british_tank"),
    "IM.TANK.FASCINE.DROP": ("implemented", f"{T}test_ec_38_a_jam_then_an_unjam_then_a_drop; "
                             f"{T}test_a_drop_places_the_fascine_where_other_tanks_cross",
                             "the d6 beside an extra-wide trench: 3-6 the crossing point (a fascine marker only after "
                             "one), 1-2 jammed (the tank may not enter that trench hex)"),
    "IM.TANK.FASCINE.UNJAM": ("implemented", f"{T}test_ec_38_a_jam_then_an_unjam_then_a_drop; "
                              f"{T}test_ec_38_a_failed_unjam_jams_it_for_good_and_unjamming_means_not_moving"),
    "IM.TANK.FASCINE.ONCE": ("implemented", f"{T}test_a_fascine_drops_once_and_stays"),
    "IM.TANK.FASCINE.EXEMPT": ("implemented", f"{T}test_ec_38_the_mk_v_crosses_without_a_fascine_the_mk_iv_does_not"),
}
