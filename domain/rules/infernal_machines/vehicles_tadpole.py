"""The British Mk. IV "Tadpole" (1918): its rear mortar, the exposed mortar crew and the leash.

"A Lt. MTR (light mortar) counter and a Crew counter are placed under the tank's counter. The mortar may
only fire at spotted targets located in front of the tank, in the direction the tank faces (use rule 8.12
...) and within range. The mortar unit may only fire when the tank does not move, and the fire
automatically scatters one hexagon from the targeted hexagon. A light mortar may fire a total of six times
per turn ..., as long as the crew is not pinned ... enough for 20 shots." "the crew counter has an inherent
forward observer, but one that can spot only for the mortar. The firepower of the mortar applies only
against infantry-type or cavalry-type units. If mortar fire scatters onto a tank or armoured car, the
result is automatically 'no effect'." "enemy units conducting small arms fire on the tank from the side or
rear automatically target the crew ... directly from the rear ... -2 ... from the rear only ... a result of
1 or 2 disables the tank and destroys the 'mortar' and 'crew' counters. Small arms fire originating from
the front half of the tank has no impact on the mortar crew". "a Tadpole tank in play may never end its
Vehicle Movement Phase more than two hexagons away from the nearest friendly infantry or machine gun
platoon."

In the log: the mortar and the crew are units whose `attrs.vehicle` names the Tadpole (or the Tadpole
fires with `weapons` naming "mortar"); a mortar shot's direction die is `IM.VEH.TADPOLE.SCATTER` (no
scatter test), its `SmallArmsResolved` may give the hex it fell on as `location`; the ammunition die after
fire from behind is `IM.VEH.TADPOLE.AMMO_HIT` (a d6 about the Tadpole or the attack).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from domain.board.hexes import distance
from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.infernal_machines.direct_fire import Shot, Term, fire_facts
from domain.rules.infernal_machines.tanks import MISSES, RULEBOOK
from domain.rules.infernal_machines.vehicles import ARMOURED, PhaseEnd, facings, in_arc, off_facing, spec_of
from domain.rules.interpretations import Interpretation, declare

SECTIONS = RULEBOOK.sections((
    "IM.VEH.TADPOLE.FIRE_ARC", "IM.VEH.TADPOLE.NOMOVE", "IM.VEH.TADPOLE.SCATTER", "IM.VEH.TADPOLE.ROF",
    "IM.VEH.TADPOLE.AMMO", "IM.VEH.TADPOLE.FO", "IM.VEH.TADPOLE.TARGETS", "IM.VEH.TADPOLE.CREW_EXPOSED",
    "IM.VEH.TADPOLE.AMMO_HIT", "IM.VEH.TADPOLE.LEASH",
))
LEASHED_TO = ("infantry-platoon", "mg-platoon")
FROM_THE_REAR = declare(Interpretation(
    "IM.VEH.TADPOLE.REAR", ("IM.VEH.TADPOLE.AMMO_HIT",),
    "Tadpole: the ammunition may be hit when small arms fire is \"directed against the crew from the rear only\", "
    "after \"directly from the rear of the tank\" gets -2: does fire from the rear half (not directly behind) "
    "count?", {"rear-half": "any fire from behind the flank line", "directly-behind": "only fire from directly "
               "behind (the rear hexside)"}, default=None))


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def is_tadpole(unit) -> bool:
    spec = spec_of(unit)
    return spec is not None and spec.model == "mk-iv-tadpole"


def tadpole_of(board, unit) -> Optional[str]:
    """The Tadpole a unit belongs to: the tank itself, or the mortar or crew under it (`attrs.vehicle`)."""
    if unit is None:
        return None
    if is_tadpole(unit):
        return unit.unit
    owner = board.units.get(str(unit.attrs.get("vehicle", "")))
    return owner.unit if is_tadpole(owner) else None


def mortar_shot(shot: Shot, board) -> Optional[str]:
    """The Tadpole whose mortar fires this shot, or None."""
    for firer in shot.firers:
        unit = board.units.get(firer)
        tadpole = tadpole_of(board, unit)
        if tadpole is None:
            continue
        if unit.unit != tadpole and unit.unit_class in ("mortar", "support-weapon"):
            return tadpole
        if unit.unit == tadpole and "mortar" in [str(w).lower() for w in shot.weapons]:
            return tadpole
    return None


def crew_of(board, tadpole: str) -> Optional[str]:
    return next((u.unit for u in board.units.values() if u.unit_class == "crew" and u.attrs.get("vehicle") == tadpole),
                None)


def behind(ctx, tank, shot: Shot) -> tuple[bool, bool, bool]:
    """(all firers in the front half, all in the rear half, all directly behind) of the tank."""
    offs = [off_facing(ctx, tank, loc) for loc in shot.origins.values() if loc]
    if not offs or None in offs:
        return False, False, False
    return all(o < 90 for o in offs), all(o > 90 for o in offs), all(o >= 150 - 1e-6 for o in offs)


def exposed_terms(shot: Shot, ctx) -> list[Term]:
    """"If enemy small arms fire is made directly from the rear of the tank, apply a -2 modifier"."""
    if shot.kind != "small-arms":
        return []
    tank = next((u for u in ctx.board.units_at(shot.target) if is_tadpole(u) and u.side != shot.side), None)
    if tank is None or not behind(ctx, tank, shot)[2]:
        return []
    return [Term("IM.VEH.TADPOLE.CREW_EXPOSED", -2, f"small arms fire directly from the rear of the Tadpole {tank.unit}")]


DIRECT_FIRE_TERMS = (exposed_terms,)


@dataclass
class Mortar:
    shots: int = 0
    per_turn: dict[int, int] = field(default_factory=dict)
    moved: dict[int, int] = field(default_factory=dict)       # turn -> seq of a move
    fired: dict[int, int] = field(default_factory=dict)       # turn -> seq of a shot


class TadpoleChecks(PhaseEnd, RuleModule):
    """The Tadpole's mortar, its exposed crew and its leash."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.facts = fire_facts(ctx)
        self.mortars: dict[str, Mortar] = {}
        self.owed: list[tuple[int, str, str, int]] = []      # (seq, tadpole, attack, resolved seq): ammunition die
        facings(ctx)                                         # a fold: made now, so that it sees every line
        self.tadpoles: set[str] = set()

    # not a `closer`: its close also judges each tadpole's leash at the end of a vehicle movement phase, told or not
    def on_PhaseStarted(self, line):
        return self.close(line["seq"])

    def on_TurnStarted(self, line):
        return self.close(line["seq"])

    def after_UnitDeployed(self, line):
        if is_tadpole(self.ctx.board.units.get(self.ctx.typed(line).unit)):
            self.tadpoles.add(self.ctx.typed(line).unit)

    def _mortar(self, tadpole: str) -> Mortar:
        return self.mortars.setdefault(tadpole, Mortar())

    # -- the mortar --------------------------------------------------------------------------------
    def on_SmallArmsFired(self, line):
        shot, board = self.facts.open(line), self.ctx.board
        tadpole = mortar_shot(shot, board)
        if tadpole is None:
            return []
        tank, m, seq, turn = board.units[tadpole], self._mortar(tadpole), line["seq"], line["turn"]
        m.shots += 1
        m.per_turn[turn] = m.per_turn.get(turn, 0) + 1
        m.fired.setdefault(turn, seq)
        out = [rule("IM.VEH.TADPOLE.AMMO").judge(seq, m.shots <= 20, f"shot {m.shots} of 20",
                                                 f"the mortar's ammunition is \"only enough for 20 shots\": shot {m.shots}",
                                                 expected=20, recorded=m.shots),
               rule("IM.VEH.TADPOLE.ROF").judge(seq, m.per_turn[turn] <= 6, f"shot {m.per_turn[turn]} of 6 this turn",
                                                f"\"A light mortar may fire a total of six times per turn\": shot "
                                                f"{m.per_turn[turn]} in turn {turn}", expected=6, recorded=m.per_turn[turn])]
        moved = m.moved.get(turn)
        out.append(rule("IM.VEH.TADPOLE.NOMOVE").judge(
            seq, moved is None, "the tank has not moved this turn",
            f"the mortar \"may only fire when the tank does not move\": {tadpole} moved this turn (seq {moved})",
            related=[moved] if moved else []))
        crew = board.units.get(crew_of(board, tadpole) or "")
        if crew is not None:
            out.append(rule("IM.VEH.TADPOLE.NOMOVE").judge(
                seq, not board_view(self.ctx).pinned(crew) and not crew.eliminated, "the mortar crew is not pinned",
                f"\"A pinned crew cannot fire the mortar\": {crew.unit} is pinned", recorded=crew.unit))
        bears = in_arc("8.12", off_facing(self.ctx, tank, shot.target))
        r = rule("IM.VEH.TADPOLE.FIRE_ARC")
        out.append(r.unverifiable(seq, f"{shot.target} is off the front hexside: whether it is in front of the tank is "
                                  "Landships! 8.12's arc") if bears == "maybe" else
                   r.judge(seq, bears == "yes", f"{shot.target} lies in front of the tank",
                           f"the mortar fires only at targets in front of the tank, in the direction it faces; "
                           f"{shot.target} is not", recorded=shot.target))
        return out

    def on_UnitMoved(self, line):
        d = self.ctx.typed(line)
        unit = self.ctx.board.units.get(d.unit)
        if not is_tadpole(unit) or len(d.path) < 2:
            return []
        m = self._mortar(d.unit)
        m.moved.setdefault(line["turn"], line["seq"])
        shot = m.fired.get(line["turn"])
        return [rule("IM.VEH.TADPOLE.NOMOVE").violation(
            line["seq"], f"its mortar fired this turn (seq {shot}): the mortar may only fire when the tank does not move",
            related=[shot])] if shot else []

    def on_SmallArmsResolved(self, line):
        resolved, board = self.ctx.typed(line), self.ctx.board
        shot = self.facts.shot(resolved.attack)
        if shot is None:
            return []
        tadpole = mortar_shot(shot, board)
        if tadpole is not None:
            return self._scatter(line, shot, resolved) + self._targets(line, resolved)
        return self._crew_exposed(line, shot, resolved)

    def _scatter(self, line, shot: Shot, resolved) -> list[RuleApplication]:
        r, out = rule("IM.VEH.TADPOLE.SCATTER"), []
        tests = [x for x in shot.rolls if x["data"].get("purpose") == "IM.SW.MORTAR.SCATTER"]
        if tests:
            out.append(r.violation(tests[0]["seq"], "the Tadpole's mortar fire \"automatically scatters one hexagon\": "
                                   "no scatter roll is made, only the direction is rolled"))
        if not [x for x in shot.rolls if x["data"].get("purpose") == "IM.VEH.TADPOLE.SCATTER"]:
            out.append(r.missing_roll(line["seq"], "the direction of the automatic one-hexagon scatter is rolled "
                                      "(DieRolled IM.VEH.TADPOLE.SCATTER about the attack)", related=[shot.seq]))
        given = (resolved.model_extra or {}).get("location")
        places = {self.ctx.board.units[x.unit].location for x in resolved.results if x.unit in self.ctx.board.units}
        final = given if isinstance(given, str) else (places.pop() if len(places) == 1 else None)
        if final is not None:
            hexes = distance(shot.target, final, board_view(self.ctx).placement)
            out.append(r.judge(line["seq"], hexes == 1, f"the shot falls on {final}, one hexagon from {shot.target}",
                               f"the shot scatters one hexagon from {shot.target}, yet it is resolved against {final}",
                               Verdict.MISMATCH, recorded=final))
        return out

    def _targets(self, line, resolved) -> list[RuleApplication]:
        out = []
        for x in resolved.results:
            unit = self.ctx.board.units.get(x.unit)
            if unit is not None and unit.unit_class in ARMOURED:
                out.append(rule("IM.VEH.TADPOLE.TARGETS").judge(
                    line["seq"], x.result in MISSES, f"{x.unit}: no effect",
                    f"the mortar's firepower applies only against infantry-type or cavalry-type units: {x.unit} "
                    f"({unit.unit_class}) takes {x.result}", expected="no-effect", recorded=x.result))
        return out

    # -- the exposed crew --------------------------------------------------------------------------
    def _crew_exposed(self, line, shot: Shot, resolved) -> list[RuleApplication]:
        board, out = self.ctx.board, []
        tank = next((u for u in board.units_at(shot.target) if is_tadpole(u) and u.side != shot.side), None)
        if tank is None:
            return []
        front, rear_half, directly = behind(self.ctx, tank, shot)
        crew = crew_of(board, tank.unit)
        hit = [x for x in resolved.results if x.unit == crew and x.result not in MISSES]
        if front:
            out += [rule("IM.VEH.TADPOLE.CREW_EXPOSED").violation(
                line["seq"], "small arms fire from the front half of the tank \"has no impact on the mortar crew, which "
                f"cannot be hit\": {x.result} is recorded", expected="no-effect", recorded=x.result) for x in hit]
        reading = self.ctx.interpretations.reading(FROM_THE_REAR.name) if rear_half and not directly else None
        if directly or reading == "rear-half":
            self.owed.append((line["seq"], tank.unit, shot.attack, line["seq"]))
        elif rear_half:
            out.append(rule("IM.VEH.TADPOLE.AMMO_HIT").ambiguous(
                line["seq"], f"small arms fire at the Tadpole {tank.unit} from its rear half, not directly behind. "
                f"{FROM_THE_REAR.describe()}", interpretation=self.ctx.interpretations.label(FROM_THE_REAR.name)))
        return out

    def close(self, seq: int) -> list[RuleApplication]:
        if not self.tadpoles:
            return []
        out, used = [], set()
        for at, tadpole, attack, _ in self.owed:
            rolls = [x for x in self.ctx.rolls("IM.VEH.TADPOLE.AMMO_HIT", after=at, before=seq + 1)
                     if x["data"].get("subject") in (tadpole, attack) and x["seq"] not in used][:1]
            used.update(x["seq"] for x in rolls)
            r = rule("IM.VEH.TADPOLE.AMMO_HIT")
            if not rolls:
                out.append(r.missing_roll(at, f"fire at the Tadpole {tadpole}'s crew from the rear: \"there is also a "
                                          "chance that the ammunition is hit\" (a d6, IM.VEH.TADPOLE.AMMO_HIT)"))
                continue
            result = self.ctx.typed(rolls[0]).result
            if result > 2:
                out.append(r.ok(rolls[0]["seq"], f"{result}: the ammunition is not hit"))
                continue
            board = self.ctx.board
            left = [u.unit for u in board.units.values() if u.attrs.get("vehicle") == tadpole
                    and u.unit_class in ("mortar", "crew", "support-weapon") and not u.eliminated]
            out.append(r.judge(rolls[0]["seq"], not left, f"{result}: the tank is disabled, mortar and crew destroyed",
                               f"{result}: \"disables the tank and destroys the 'mortar' and 'crew' counters\"; "
                               f"{', '.join(left)} remain", recorded=left))
        self.owed = []
        ending = self.ctx.lines[-1] if self.ctx.lines else {}
        starts = ending.get("seq") == seq and ending.get("type") in ("PhaseStarted", "TurnStarted")
        return out + self._leash(seq - 1 if starts else seq)

    # -- the leash -----------------------------------------------------------------------------------
    def _leash(self, last: int) -> list[RuleApplication]:
        """At the end of its side's Vehicle Movement Phase (`last`: the phase's last line)."""
        board = self.ctx.board
        if board.phase != "vehicle-movement" or not board.active:
            return []
        view, out = board_view(self.ctx), []
        for tank in (board.units[t] for t in self.tadpoles if t in board.units):
            if tank.side != board.active or tank.eliminated or tank.location is None:
                continue
            near = [distance(tank.location, u.location, view.placement) for u in board.units.values()
                    if u.side == tank.side and u.unit_class in LEASHED_TO and u.location and not u.eliminated]
            nearest = min(near) if near else None
            out.append(rule("IM.VEH.TADPOLE.LEASH").judge(
                last, nearest is not None and nearest <= 2,
                f"{tank.unit} ends its Vehicle Movement Phase {nearest} hexagon(s) from a friendly platoon",
                f"a Tadpole \"may never end its Vehicle Movement Phase more than two hexagons away from the nearest "
                f"friendly infantry or machine gun platoon\": {tank.unit} is {nearest if nearest is not None else 'far'}"
                " hexagons away", expected=2, recorded=nearest))
        return out

    # -- the inherent observer ----------------------------------------------------------------------
    def on_HexObserved(self, line):
        return self._observer(line, self.ctx.typed(line).observer)

    def on_BarrageDeclared(self, line):
        return self._observer(line, self.ctx.typed(line).observer)

    def _observer(self, line, observer: Optional[str]) -> list[RuleApplication]:
        unit = self.ctx.board.units.get(observer or "")
        if tadpole_of(self.ctx.board, unit) is None:
            return []
        return [rule("IM.VEH.TADPOLE.FO").violation(
            line["seq"], f"{observer}, the Tadpole's crew, is a forward observer \"that can spot only for the mortar\", "
            "not for off-map artillery", recorded=observer)]


T = "tests/unit/test_im_tadpole.py::"
COVERAGE = {
    "IM.VEH.TADPOLE.FIRE_ARC": ("needs a chart", f"{T}test_the_mortar_fires_ahead_only_with_the_tank_still",
                                "ahead (the front hexside) yes, behind the flank line no, between: Landships! 8.12"),
    "IM.VEH.TADPOLE.NOMOVE": ("implemented", f"{T}test_the_mortar_fires_ahead_only_with_the_tank_still"),
    "IM.VEH.TADPOLE.SCATTER": ("needs a chart", f"{T}test_the_mortar_scatters_one_hexagon_without_a_test",
                               "no scatter test, a direction die, the shot resolved one hexagon away; the direction "
                               "is the scatter diagram's"),
    "IM.VEH.TADPOLE.ROF": ("implemented", f"{T}test_ex_im_05_twenty_shots_at_most_six_a_turn"),
    "IM.VEH.TADPOLE.AMMO": ("implemented", f"{T}test_ex_im_05_twenty_shots_at_most_six_a_turn"),
    "IM.VEH.TADPOLE.FO": ("implemented", f"{T}test_the_crew_observes_for_the_mortar_only"),
    "IM.VEH.TADPOLE.TARGETS": ("implemented", f"{T}test_the_mortar_scatters_one_hexagon_without_a_test"),
    "IM.VEH.TADPOLE.CREW_EXPOSED": ("implemented", f"{T}test_the_exposed_crew_and_the_ammunition"),
    "IM.VEH.TADPOLE.AMMO_HIT": ("ambiguous", f"{T}test_the_exposed_crew_and_the_ammunition",
                                "a d6 after fire directly from behind (1-2: mortar and crew destroyed); the rear half is "
                                "IM.VEH.TADPOLE.REAR"),
    "IM.VEH.TADPOLE.LEASH": ("implemented", f"{T}test_the_tadpole_stays_near_its_infantry"),
}
