"""Judging whom a Dux Bellorum AVBCW unit may shoot at (dux-bellorum-avbcw.txt, Target priority,
Sniper, Sneaky, Vehicles: Shooting; game-log-tabletop.md, Dux Bellorum, ShotFired): "A unit must
shoot at the closest enemy unit within 12” (or choose where two or more are equally close).
Otherwise a unit may shoot at any visible enemy target within arc and range. A unit may not shoot
at Medical or Supply team units if it has another enemy unit as a viable target." Every enemy on
the table is weighed as the shot itself is (shooting.Aim): in arc, in sight, in range, each range
measured by `avbcw-range`; a Sniper is not compelled to the closest, a vehicle may take the
closest visible enemy vehicle instead, and a Sneaky unit cannot be seen beyond 18”."""
from __future__ import annotations

import math
from functools import cached_property
from typing import Callable, Iterable, Optional

from domain.rules.dux_bellorum_avbcw.facts import RULEBOOK, ListedModule, has_rule, is_vehicle, on_table, unit_extent
from domain.rules.dux_bellorum_avbcw.kinds import LOGISTICS, type_of
from domain.rules.dux_bellorum_avbcw.shooting import MIXED_RANGE, Aim, aim_at, weapon_rating
from domain.rules.engine import RuleApplication
from domain.tabletop import geometry as geo

PRIORITY = RULEBOOK.rule("AVBCW.SHOOT.PRIORITY")
SNIPER = RULEBOOK.rule("AVBCW.AB.SNIPER")
SNEAKY = RULEBOOK.rule("AVBCW.AB.SNEAKY")

CLOSE = 12.0          # "the closest enemy unit within 12”"
SNEAKY_RANGE = 18.0   # Sneaky: "cannot be seen or shot at beyond 18”, except by a sniper or an indirect weapon"
# a box this much beyond a range is beyond it once measured and rounded half-up to 0.1" (0.05"),
# far more than GEOS's rounding on a table of inches
BEYOND_MARGIN = 0.1


class Candidate:
    """An enemy the shot could have taken. Its viability and distance are worked out when the
    priority first asks for them: a sight to an enemy beyond 12” matters only to a Medical or
    Supply target or a vehicle's choice, so most shots never draw it, and an enemy whose box lies
    beyond 12” (`beyond_close`) is not measured unless the vehicle's choice or the target asks."""

    def __init__(self, unit: str, vehicle: bool, logistics: bool, beyond_close: bool,
                 judge: Callable[[], Optional[bool]], measure: Callable[[], float]):
        self.unit, self.vehicle, self.logistics, self.beyond_close = unit, vehicle, logistics, beyond_close
        self._judge, self._measure = judge, measure

    @cached_property
    def viable(self) -> Optional[bool]:
        """In arc, sight and range; None: the sight is not settled."""
        return self._judge()

    @cached_property
    def distance(self) -> float:
        """The shot's range to it (`avbcw-range`)."""
        return self._measure()


class AVBCWPriority(ListedModule):
    def on_ShotFired(self, line) -> Iterable[RuleApplication]:
        data, seq = self.ctx.typed(line), line["seq"]
        board = self.ctx.board
        shooter, target = board.units.get(data.shooter), board.units.get(data.target)
        if data.off_table is not None or not (on_table(shooter) and on_table(target)):
            return ()
        entry = self.lists.get(data.shooter)
        sniper = type_of(shooter, entry) == "sniper" or has_rule(entry, SNIPER.id)
        out = [*self._sneaky(seq, data, shooter, target, sniper)]
        if data.indirect:
            return out + [self._indirect(seq, data, shooter, entry)]
        candidates = [self._weigh(data, shooter, entry, uid, unit, sniper)
                      for uid, unit in board.units.items() if unit.side != shooter.side and on_table(unit)]
        chosen = next((c for c in candidates if c.unit == data.target), None)
        if chosen is None:
            return out
        out.append(self._closest(seq, data, shooter, entry, candidates, chosen, sniper))
        if chosen.logistics:
            out.append(self._logistics(seq, data, candidates))
        return out

    def _weigh(self, data, shooter, entry, uid: str, unit, sniper: bool) -> Candidate:
        target_entry = self.lists.get(uid)
        kind = type_of(unit, target_entry)

        def aimed() -> Aim:
            """The shot's Aim at this enemy, made when first asked (`aim_at` keeps it for the line)."""
            return aim_at(self, data, shooter, unit, entry, target_id=uid)

        def measured() -> float:
            return aimed()._distance()[0]

        def viable() -> Optional[bool]:
            aim, distance = aimed(), measured()
            if not (aim.origins and self._in_range(aim, distance)):
                return False
            if has_rule(target_entry, SNEAKY.id) and distance > SNEAKY_RANGE and not sniper:
                return False
            status = aim._best_sight[1].status
            return True if status == "clear" else False if status == "blocked" else None
        return Candidate(uid, is_vehicle(unit, target_entry), kind in LOGISTICS,
                         self._beyond(shooter, entry, unit, CLOSE), viable, measured)

    def _beyond(self, shooter, entry, unit, inches: float) -> bool:
        """Whether the shot's range to `unit` (`avbcw-range`) is surely more than `inches`, found
        from boxes: a unit's range is from its leader (its position, whether the enemy is in arc
        or not) or its extent, and no point of the enemy's extent lies nearer than its core's box
        less its bases' radius. A vehicle's origins are its weapons' (edges, turret): measured."""
        if is_vehicle(shooter, entry):
            return False
        there = unit_extent(unit)
        x0, y0, x1, y1 = geo.core_box(there)
        if self.ctx.interpretations.reading("avbcw-range") == "closest":
            here = unit_extent(shooter)
            a0, b0, a1, b1 = geo.core_box(here)
            reach = there.radius + here.radius
        else:
            (a0, b0), reach = geo.xy(shooter.position), there.radius
            a1, b1 = a0, b0
        # an empty shape's NaN box puts the first of each max at NaN: never beyond
        gap = math.hypot(max(x0 - a1, a0 - x1, 0.0), max(y0 - b1, b0 - y1, 0.0)) - reach
        return gap > inches + BEYOND_MARGIN

    def _in_range(self, aim: Aim, distance: float) -> bool:
        rating = weapon_rating(aim.data.weapon, aim.entry)[1]
        if rating is None:
            return True
        if rating.max_range is not None and distance > rating.max_range:
            return False
        if has_rule(aim.entry, "AVBCW.EQ.MIXED") and distance > MIXED_RANGE:
            return False
        return rating.min_range is None or distance > rating.min_range

    def _closest(self, seq, data, shooter, entry, candidates, chosen: Candidate, sniper: bool) -> RuleApplication:
        """"A unit must shoot at the closest enemy unit within 12”", among the units it may shoot: "A
        unit may not shoot at Medical or Supply team units if it has another enemy unit as a viable
        target", so while another is viable a closer Medical or Supply team does not bind it."""
        others = []   # whether another enemy is viable, asked only of a Medical or Supply team

        def others_viable() -> bool:
            if not others:
                others.append(any(c.viable and not c.logistics for c in candidates))
            return others[0]
        near = [c for c in candidates if not c.beyond_close and c.distance <= CLOSE and c.viable is not False
                and not (c.logistics and others_viable())]
        sure = [c for c in near if c.viable]
        if not near:
            return PRIORITY.ok(seq, f"no enemy unit within 12” is a viable target: {data.shooter} \"may shoot at any "
                               "visible enemy target within arc and range\"")
        closest = min(c.distance for c in near)
        if chosen.distance <= closest:
            return PRIORITY.ok(seq, f"{data.target} at {chosen.distance}\" is the closest enemy unit within 12”")
        if sniper:
            return SNIPER.ok(seq, f"a sniper \"is not compelled to shoot at the closest within 12”\" ({data.target} at "
                             f"{chosen.distance}\", closest {closest}\")")
        if is_vehicle(shooter, entry):
            vehicles = [c for c in candidates if c.vehicle and c.viable]
            if chosen.vehicle and chosen.distance <= min(c.distance for c in vehicles):
                return PRIORITY.ok(seq, f"{data.target} is the closest visible enemy vehicle: \"A vehicle may always "
                                   "choose to shoot at the closes visible enemy vehicle\"")
            if not chosen.vehicle:
                return PRIORITY.ambiguous(seq, f"{data.shooter} shoots {data.target} past closer enemies: a vehicle "
                                          "\"may choose to ignore closer infantry to target ... [a] clear anti-vehicle "
                                          "threat\", which the text does not define")
        closer = [c.unit for c in near if c.distance < chosen.distance]
        if not [c for c in sure if c.distance < chosen.distance]:
            return PRIORITY.ambiguous(seq, f"{data.target} at {chosen.distance}\" while {', '.join(closer)} are closer, "
                                      "each with a line of sight the text does not settle")
        return PRIORITY.violation(seq, f"{data.shooter} shoots {data.target} at {chosen.distance}\", yet "
                                  f"{', '.join(closer)} within 12” are closer ({closest}\"): \"A unit must shoot at the "
                                  "closest enemy unit within 12”\"", expected=closest, recorded=chosen.distance,
                                  inputs={"closer": closer})

    def _logistics(self, seq, data, candidates) -> RuleApplication:
        other = [c.unit for c in candidates if c.viable and not c.logistics]
        return PRIORITY.judge(seq, not other, f"{data.target} (Medical or Supply) is the only viable target",
                              f"{data.shooter} shoots Medical or Supply {data.target} while {', '.join(other)} are viable: "
                              "\"A unit may not shoot at Medical or Supply team units if it has another enemy unit as a "
                              "viable target\"", inputs={"viable": other})

    def _sneaky(self, seq, data, shooter, target, sniper: bool) -> list[RuleApplication]:
        entry = self.lists.get(data.target)
        if not has_rule(entry, SNEAKY.id):
            return []
        aim = aim_at(self, data, shooter, target, self.lists.get(data.shooter))
        distance = aim._distance()[0]
        good = distance <= SNEAKY_RANGE or sniper or bool(data.indirect)
        return [SNEAKY.judge(seq, good, f"Sneaky {data.target} at {distance}\": within 18”, or the shooter is a sniper "
                             "or indirect", f"Sneaky {data.target} at {distance}\": it \"cannot be seen or shot at beyond "
                             "18”, except by a sniper or an indirect weapon\"", expected=SNEAKY_RANGE, recorded=distance)]

    def _indirect(self, seq, data, shooter, entry) -> RuleApplication:
        rating = weapon_rating(data.weapon, entry)[1]
        if rating is not None and rating.min_range is not None and rating.min_range >= CLOSE:
            return PRIORITY.ok(seq, f"an indirect weapon with a {rating.min_range:g}” minimum range has no viable target "
                               "within 12”")
        return PRIORITY.unverifiable(seq, f"{data.shooter}'s indirect shot: whom it may see (itself or a spotter) is "
                                     "not judged here")


TESTS = "tests/unit/test_avbcw_priority.py::"
# rule id -> (status, tests, what is judged): docs/rules/dux-bellorum-avbcw.md
COVERAGE = {
    "AVBCW.SHOOT.PRIORITY": ("implemented", f"{TESTS}test_the_closest_within_12; {TESTS}test_medical_and_supply_last; "
                             f"{TESTS}test_vehicles_may_take_the_closest_vehicle; {TESTS}test_a_farther_team_past_a_closer_medical_team",
                             "every enemy on the table weighed as the shot (in arc, in a clear line of sight, in range, "
                             "`avbcw-range`): the target is the closest viable one within 12” (ties either; a Medical or "
                             "Supply team counts only when no other unit is viable, EC-AV-08); none within 12”: any; an unsettled sight of a closer one: `ambiguous`; Medical or Supply only when no "
                             "other is viable; a vehicle may take the closest viable enemy vehicle, a farther non-vehicle "
                             "(\"clear anti-vehicle threat\", undefined): `ambiguous`; indirect shots with a ≥12” minimum "
                             "have none within 12”"),
    "AVBCW.AB.SNIPER": ("implemented", TESTS + "test_a_sniper_is_not_compelled",
                        "a Sniper (the unit type, or listing it) may shoot past closer enemies within 12”"),
    "AVBCW.AB.SNEAKY": ("implemented", TESTS + "test_a_sneaky_unit_beyond_18",
                        "a Sneaky target measured (`avbcw-range`) beyond 18” only by a sniper or an indirect shot; "
                        "beyond 18” it is no viable target for priority; its cost: the army list's"),
}
