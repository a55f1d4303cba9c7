"""Landships of Mogdonazia, fire at vehicles and close combat with them (landships-of-mogdonazia.txt,
D. 1, E. Weapons, F. Close Combat): the target of fire at an open-topped vehicle, a weapon's mount
and arc measured on the table (sponson "180 degrees" about its bearing, turret 360; forward "following
the same rules as TSATF"), and close combat's steps, crew and Charging +3. Who wins a combat, and
the TSATF fire and melee dice, are core procedures (`TSATF.FIRE`, `TSATF.MELEE`): `unverifiable`
unless the table pack holds them.
"""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.engine import RuleApplication, RuleModule, Verdict
from domain.rules.landships_of_mogdonazia.common import RULEBOOK, carded, this_turn, vehicle_of
from domain.tabletop.geometry import in_arc, unit_extent

TARGET = RULEBOOK.rule("MOG.FIRE.TARGET")
MOUNTS = RULEBOOK.rule("MOG.WEAP.MOUNTS")
OPEN, CLOSED = RULEBOOK.rule("MOG.CC.OPEN"), RULEBOOK.rule("MOG.CC.CLOSED")
VEH_ATTACK = RULEBOOK.rule("MOG.CC.VEH_ATTACK")
STEPS = ("latch", "hatch", "crew")   # "a) The attacker latches onto the vehicle. b) ... opens the hatch. c) ... the crew"
CHARGING = 3                         # "Vehicle Close Combat modifiers Charging +3"
WOUNDED_PA = -2                      # E. Steam-Powered Armour: wounded, "a -2 modifier in close combat"
PA = RULEBOOK.rule("MOG.PA")
VEHICLE_KINDS = frozenset({"landship", "airship", "airplane"})


def modifier_values(modifiers: list[Any]) -> list[float]:
    """The numbers of a result's `modifiers` ({"value": 3, ...}, 3 or "+3")."""
    out = []
    for m in modifiers:
        value = m.get("value") if isinstance(m, dict) else m
        try:
            out.append(float(value))
        except (TypeError, ValueError):
            continue
    return out


class VehicleCombat(RuleModule):
    """ShotFired at and from vehicles; CloseCombatFought and CloseCombatResolved with vehicles."""

    ruleset = "landships-of-mogdonazia"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.steps: dict[tuple[str, str], list[str]] = {}   # (attacker, vehicle) -> steps fought
        self.fights: dict[str, Any] = {}                     # combat -> its CloseCombatFought
        self.owed: list[tuple[str, int, list[str]]] = []     # (combat, seq, the two vehicles): a loser's critical

    # -- fire ----------------------------------------------------------------------------------
    def on_ShotFired(self, line):
        shot, seq = self.ctx.typed(line), line["seq"]
        out = []
        target = vehicle_of(self.ctx, shot.target)
        if target is not None and shot.target_part == "crew" and not target.get("open_topped"):
            out.append(TARGET.violation(seq, f"{shot.target} is closed: only \"if the vehicle is opentopped, it must be "
                                        "specified if the target is the vehicle or the crew\"", recorded="crew"))
        elif target is not None:
            out.append(TARGET.ok(seq, f"at the {shot.target_part} of {shot.target}"))
        arc = self._arc(shot, seq)
        return out + ([arc] if arc else [])

    def _arc(self, shot, seq: int) -> Optional[RuleApplication]:
        mount = self._mount(shot.shooter, shot.weapon)
        units = self.ctx.board.units
        if mount is None or shot.shooter not in units or shot.target not in units:
            return None
        hull, target = units[shot.shooter], unit_extent(units[shot.target])
        facing = float(hull.facing or 0)
        if mount.mount == "turret":
            return MOUNTS.ok(seq, f"{mount.weapon} on a turret fires 360 degrees")
        if mount.mount == "sponson":
            inside = in_arc(hull.position, facing + (mount.bearing or 0), target, 0, 90)
            return MOUNTS.judge(seq, inside, f"{shot.target} in the sponson's 180 degrees about {mount.bearing}",
                                f"{shot.target} is outside {mount.weapon}'s 180 degrees about its bearing {mount.bearing} "
                                "(\"Sponson: This is a weapon that may fire 180 degrees\")")
        # "Forward: ... can only fire forward, following the same rules as TSATF": behind the hull's
        # front is never forward; how wide forward is, is TSATF's
        if not in_arc(hull.position, facing, target, 0, 90):
            return MOUNTS.violation(seq, f"{shot.target} is behind {shot.shooter}'s front: {mount.weapon} \"can only "
                                    "fire forward\"")
        return MOUNTS.unverifiable(seq, f"{mount.weapon} fires forward \"following the same rules as TSATF\": the arc's "
                                   "width is TSATF's (core, not in the text)")

    def _mount(self, unit: str, weapon: Optional[str]):
        for built in map(self.ctx.typed, self.ctx.of_type("VehicleBuilt")):
            if built.unit == unit:
                return next((w for w in built.weapons if w.weapon == weapon), None)
        return None

    # -- close combat --------------------------------------------------------------------------
    def on_CloseCombatFought(self, line):
        fight, seq = self.ctx.typed(line), line["seq"]
        self.fights[fight.combat] = fight
        units = [u for side in fight.sides for u in side.units]
        vehicles = [u for u in units if self._machine(u)]
        figures = [u for u in units if u not in vehicles]
        out = []
        charging = {u for side in fight.sides if side.charged for u in side.units}
        for vehicle in vehicles:
            built = vehicle_of(self.ctx, vehicle)
            if vehicle in charging and not charging & set(figures):
                # F. 3: "Vehicles can attack infantry, cavalry, artillery and other vehicles without any
                # restrictions": the steps of F. 1 and 2 are for "infantry or cavalry attack[ing]" a vehicle.
                continue
            if figures and built.get("open_topped"):
                out.append(OPEN.judge(seq, fight.crew_as == "cavalry" and fight.step in (None, "crew"),
                                      f"the crew of open-topped {vehicle} fights as cavalry",
                                      f"against open-topped {vehicle} the attackers \"engage the crew in close combat. "
                                      "The crew is treated as cavalry\" (crew_as cavalry, no latch or hatch)",
                                      recorded={"crew_as": fight.crew_as, "step": fight.step}))
            elif figures:
                out.extend(self._closed(vehicle, figures, fight.step, seq))
        if len(vehicles) >= 2:
            self.owed.append((fight.combat, seq, vehicles))
        return out

    def _machine(self, unit: str) -> bool:
        """A vehicle of F. Close Combat: a landship, or an airship or airplane ("must follow the landship close
        combat rules"). Powered Armour and Clockworks are figures in close combat: a PA is "a suit of armour" worn
        by a soldier (-2 when wounded), a Clockwork "will fight as Zulus"; there is no hatch to open on them."""
        return (vehicle_of(self.ctx, unit) or {}).get("kind") in VEHICLE_KINDS

    def _closed(self, vehicle: str, attackers: list[str], step: Optional[str], seq: int) -> list[RuleApplication]:
        """F. 2: "the combat is in three steps", in their order, each attacker's own."""
        if step is None:
            return [CLOSED.violation(seq, f"{vehicle} is closed: the combat is in three steps (latch, hatch, crew): "
                                     "the step is not recorded")]
        out = []
        for attacker in attackers:
            done = self.steps.setdefault((attacker, vehicle), [])
            wanted = next((s for s in STEPS if s not in done), "crew")
            good = all(s in done for s in STEPS[:STEPS.index(step)])
            out.append(CLOSED.judge(seq, good, f"{attacker}: step {step} after {done or 'none'}",
                                    f"{attacker} fights step {step} on {vehicle} before {wanted} (\"a) The attacker "
                                    "latches onto the vehicle. b) The attacker tries to open the hatch. c) The attacker "
                                    "engages the crew\")", expected=wanted, recorded=step))
            if step not in done:
                done.append(step)
        return out

    def on_CloseCombatResolved(self, line):
        result, seq = self.ctx.typed(line), line["seq"]
        fight = self.fights.get(result.combat)
        if fight is None:
            return ()
        out = []
        if fight.step in ("latch", "hatch"):
            # "In the first two steps, the attacker does not wound anything, but can be wounded."
            attackers = [u for side in fight.sides for u in side.units if not self._machine(u)]
            wounding = [r.unit for r in result.results if r.unit in attackers and r.hits > 0]
            out.append(CLOSED.judge(seq, not wounding, f"step {fight.step}: the attacker wounds nothing",
                                    f"in step {fight.step} {', '.join(wounding)} scores hits: \"the attacker does not "
                                    "wound anything\"", recorded=wounding))
        charged = {u for side in fight.sides if side.charged for u in side.units}
        units = self.ctx.board.units
        for r in result.results:
            if (vehicle_of(self.ctx, r.unit) or {}).get("kind") == "powered-armour" and r.unit in units \
                    and carded(self.ctx, units[r.unit], "wound", seq):
                # E. Steam-Powered Armour: wounded, "they suffer a -2 modifier in close combat"
                out.append(PA.judge(seq, WOUNDED_PA in modifier_values(r.modifiers), f"{r.unit} wounded: -2",
                                    f"{r.unit} is a wounded PA: \"they suffer a -2 modifier in close combat\" is not "
                                    f"among its modifiers {r.modifiers}", expected="-2", recorded=r.modifiers))
        for r in result.results:
            if r.unit in charged and self._machine(r.unit):
                mods = modifier_values(r.modifiers)
                out.append(VEH_ATTACK.judge(seq, CHARGING in mods, f"{r.unit} charging: +3",
                                            f"{r.unit} charged: \"Vehicle Close Combat modifiers Charging +3\" is not "
                                            f"among its modifiers {r.modifiers}", expected="+3", recorded=r.modifiers))
        return out

    def on_TurnStarted(self, line):
        return self._loser_critical(line["seq"] - 1)

    def finish(self):
        return self._loser_critical(len(self.ctx.lines))

    def _loser_critical(self, last: int) -> list[RuleApplication]:
        """F. 4: "the victor of the combat causes damage on the loser. Consult the critical chart": a
        CriticalHit on one of the two vehicles after their combat, that turn (who won is TSATF's)."""
        out = []
        for combat, seq, vehicles in self.owed:
            hits = [l for l in self.ctx.of_type("CriticalHit", after=seq, before=last + 1)
                    if self.ctx.typed(l).unit in vehicles]
            out.append(VEH_ATTACK.judge(seq, bool(hits), f"the loser of {combat} takes a critical",
                                        f"{combat} between {', '.join(vehicles)}: no CriticalHit on the loser "
                                        "(\"Consult the critical chart\")", verdict=Verdict.MISSING_ROLL,
                                        related=[l["seq"] for l in hits]))
        self.owed = []
        return out

TESTS = "tests/unit/test_mog_combat.py::"
# rule id -> (status, tests, what is judged and what is not yet): docs/rules/landships-of-mogdonazia.md
COVERAGE = {
    "MOG.FIRE.TARGET": ("implemented", TESTS + "test_only_an_open_topped_vehicle_has_its_crew_shot_at",
                        "`VehicleCombat`: the crew is a target only of an open-topped vehicle; the fire itself is "
                        "TSATF's"),
    "MOG.WEAP.MOUNTS": ("implemented", TESTS + "test_weapon_arcs_are_measured_on_the_table",
                        "`VehicleCombat`: sponson 180 degrees about its bearing, turret 360; forward never behind the "
                        "front, its width TSATF's (`unverifiable`)"),
    "MOG.CC.OPEN": ("needs a chart", TESTS + "test_the_crew_of_an_open_topped_vehicle_fights_as_cavalry",
                    "`VehicleCombat`: the crew, as cavalry, without latch or hatch; the melee is TSATF.MELEE"),
    "MOG.CC.CLOSED": ("needs a chart", TESTS + "test_a_closed_vehicle_is_fought_in_three_steps; " + TESTS +
                      "test_a_vehicle_charging_infantry_fights_without_latch_or_hatch",
                      "`VehicleCombat`: latch, hatch, crew in order, no wounds by the attacker before the crew (not "
                      "when the vehicle charges the figures: F. 3 \"without any restrictions\"); each step's pass "
                      "condition is not given (TSATF.MELEE)"),
    "MOG.CC.VEH_ATTACK": ("needs a chart", TESTS + "test_vehicles_charging_get_3_and_the_loser_a_critical",
                          "`VehicleCombat`: Charging +3 for a charging vehicle, a critical on the loser of a vehicle "
                          "combat that turn; who wins is TSATF.MELEE"),
}
