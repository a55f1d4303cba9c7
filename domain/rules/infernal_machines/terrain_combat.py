"""Judging the new terrain in combat (IM.TER; Additional Terrain Types (new)): multi-storey buildings,
storeys and roofs, rubble, ridgelines, stone walls, ditches.

Fire inside buildings: no small arms fire between two units on the same level of one building with
a building hex between them, nor through a ceiling or roof (the same hex, another level); two
adjacent units in one building on one level fire with the town's +2; from a roof toward lower
ground -1. Across a stone wall +2 on the SACRT (and a column left on the CACRT); across a ridgeline
only at units adjacent to it that fired first. Rubble: a barrage's hit on a map-10 town hex makes
it rubble (Level 1, then Level 2: its units eliminated); small arms never do; a Level-1 hex keeps
the town's +2. A building's hexes are the multi-storey hexes joined to each other.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Optional

from domain.board.hexes import distance, line as hex_line, neighbours
from domain.board.state import UnitState
from domain.board.terrain import Board
from domain.rules.engine import Rule, RuleApplication, RuleModule
from domain.rules.infernal_machines.vehicles import calibre, gun_of
from domain.rules.infernal_machines.artillery_effects import board_view
from domain.rules.infernal_machines.artillery_resolution import is_hit
from domain.rules.infernal_machines.movement_costs import RULEBOOK
from domain.rules.interpretations import Interpretation, declare

SECTIONS = RULEBOOK.sections((
    "IM.TER.MS.INTERVENING", "IM.TER.MS.ADJ_SAME_BLDG", "IM.TER.STOREY.CEILING", "IM.TER.STOREY.CC",
    "IM.TER.STOREY.SPOT", "IM.TER.ROOF.MARKER", "IM.TER.ROOF.CC", "IM.TER.ROOF.FIREDOWN", "IM.TER.ROOF.SPOT",
    "IM.TER.RUBBLE.L1_TRIGGER", "IM.TER.RUBBLE.L2", "IM.TER.RUBBLE.IMMUNE", "IM.TER.RUBBLE.L1_DEF",
    "IM.TER.RIDGE.TARGET", "IM.TER.WALL.SAF", "IM.TER.ROOF.AIR",
), "combat")
ROOF = 3
SPOT_OPTION = "16.23"

RUBBLE_CALIBRE = 47   # mm: "vehicle guns of 47 mm or more" (Rubble markers)

SCATTERED_RUBBLE = declare(Interpretation(
    "IM.TER.RUBBLE.SCATTERED", ("IM.TER.RUBBLE.L1_TRIGGER",),
    "Rubble: 'an off-map artillery barrage against the hexagon with a \"hit\" result ... (even if the off-map "
    "artillery fire may scatter outside the hexagon)': does the aimed-at hex become rubble when the barrage "
    "scattered away and hit elsewhere?",
    {"aimed-hex": "yes: the hex the barrage was declared against", "hit-hex": "no: only a hex the hit falls on"},
    default=None))


@lru_cache(maxsize=4096)
def fire_line(a: str, b: str, placement) -> tuple[str, ...]:
    """The hexes from `a` to `b` (hexes.line), kept: the same pairs fire and spot again and again."""
    return tuple(hex_line(a, b, placement))


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, SECTIONS[rule_id])


def building(view: Board, loc: str) -> frozenset[str]:
    """The multi-storey hexes joined to `loc` (one massive building), or nothing."""
    if not view.multi_storey(loc):
        return frozenset()
    seen, todo = {loc}, [loc]
    while todo:
        for n in neighbours(todo.pop(), view.placement):
            if n not in seen and view.multi_storey(n):
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


def stone_town(view: Board, loc: str) -> bool:
    """Rubble markers: "all town hexagons ... on map 10 are made of stone or concrete"."""
    return view.terrain(loc) == "town" and (loc.split(":")[0] == "10" or bool({"stone", "concrete"} & view.features(loc)))


def wall_crossed(view: Board, frm: str, to: str) -> bool:
    """The line of fire enters the target hex across a stone wall."""
    path = fire_line(frm, to, view.placement)
    return len(path) >= 2 and "stone-wall" in view.hexside_features(path[-2], path[-1])


def enemies_at(board, loc: str, side: Optional[str]) -> list[UnitState]:
    return [u for u in board.units_at(loc) if u.side and u.side != side]


# -- direct-fire terms ---------------------------------------------------------------------------
def terrain_terms(shot, ctx) -> list:
    """Town +2 for adjacent units in one building and in Level-1 rubble, a roof's -1, a wall's +2."""
    from domain.rules.infernal_machines.direct_fire import Term
    if shot.kind != "small-arms":
        return []
    board, view, out = ctx.board, board_view(ctx), []
    targets = enemies_at(board, shot.target, shot.side)
    firers = [board.units[f] for f in shot.firers if f in board.units and board.units[f].location]
    if not targets or not firers:
        return []
    if view.rubble(shot.target) == 1:
        out.append(Term("IM.TER.RUBBLE.L1_DEF", 2, f"town modifier in Level-1 rubble at {shot.target}", tag="terrain"))
    elif view.multi_storey(shot.target) and _same_building_level(view, firers, targets, shot.target):
        out.append(Term("IM.TER.MS.ADJ_SAME_BLDG", 2, "town modifier: adjacent in one building, one level",
                        tag="terrain"))
    if all(view.multi_storey(f.location) and view.unit_level(f) == ROOF for f in firers) and all(
            view.elevation(shot.target) + view.unit_level(u) < view.elevation(f.location) + ROOF
            for f in firers for u in targets):
        out.append(Term("IM.TER.ROOF.FIREDOWN", -1, "fire from a roof toward lower elevations"))
    if has_hexside(view, "stone-wall") and all(
            f.location != shot.target and wall_crossed(view, f.location, shot.target) for f in firers):
        out.append(Term("IM.TER.WALL.SAF", 2, "small arms fire across a stone wall"))
    return out


def _same_building_level(view: Board, firers, targets, target: str) -> bool:
    levels = {view.unit_level(u) for u in targets}
    return all(distance(f.location, target, view.placement) == 1 and target in building(view, f.location)
               and {view.unit_level(f)} == levels for f in firers)


def has_hexside(view: Board, feature: str) -> bool:
    """Whether any hexside of the board has `feature` (so that a shot's line is traced only where it may matter)."""
    return any(side.get("feature") == feature for side in view.state.hexsides)


DIRECT_FIRE_TERMS = (terrain_terms,)


class TerrainCombat(RuleModule):
    """Fire in buildings, across ridgelines; rubble; close combat between storeys; spotting from above."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.fired: dict[str, list[tuple[int, int]]] = {}     # hex -> (turn, seq) of fire from it
        self.arrived: dict[str, int] = {}                      # unit -> turn it last entered its hex
        self.rubble_due: list[tuple[str, int, int]] = []       # (hex, level due, seq of the hit)
        self.cleared: list[tuple[str, int, list[str]]] = []    # (Level-2 hex, seq, the units then in it)
        self.aimed: dict[str, Optional[str]] = {}              # barrage -> the hex it was declared against
        self.air_hits: dict[str, int] = {}                     # roof unit -> seq of an air attack's hit on it

    # -- fire -----------------------------------------------------------------------------------
    def on_SmallArmsFired(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        view, out = board_view(self.ctx), []
        targets = enemies_at(board, d.target, line.get("side"))
        for firer in (board.units.get(f) for f in d.firers):
            if firer is None or firer.location is None or firer.unit_class in ("aircraft", "balloon"):
                continue
            out.extend(self._inside(seq, view, firer, d.target, targets))
            out.extend(self._ridge(line, view, firer, d.target))
        for firer in (board.units.get(f) for f in d.firers):
            if firer is not None and firer.location:
                self.fired.setdefault(firer.location, []).append((line["turn"], seq))
        return out

    def _inside(self, seq, view: Board, firer: UnitState, target: str, targets) -> list[RuleApplication]:
        if not view.multi_storey(firer.location):
            return []
        level = view.unit_level(firer)
        if target == firer.location:
            others = {view.unit_level(u) for u in targets} - {level}
            if not others or not view.multi_storey(target):
                return []
            roof = ROOF in others or level == ROOF
            return [rule("IM.TER.ROOF.MARKER" if roof else "IM.TER.STOREY.CEILING").violation(
                seq, f"{firer.unit} (level {level}) may not fire through the {'roof' if roof else 'ceiling'} at "
                f"units on level {', '.join(map(str, sorted(others)))} of {target}")]
        same = building(view, firer.location)
        if target not in same or not any(view.unit_level(u) == level for u in targets):
            return []
        between = fire_line(firer.location, target, view.placement)[1:-1]
        inside = [h for h in between if h in same]
        return [rule("IM.TER.MS.INTERVENING").judge(
            seq, not inside, "no building hex between them",
            f"{firer.unit} and its target are on the same level of one building with the building hex "
            f"{inside[0] if inside else ''} between them: no small arms fire", recorded=inside)]

    def _ridge(self, line, view: Board, firer: UnitState, target: str) -> list[RuleApplication]:
        """"Enemy units behind a ridgeline may not be the target of fire across the ridgeline unless they are
        themselves adjacent to the ridgeline and become spotted themselves by firing first"."""
        if not has_hexside(view, "ridgeline"):
            return []
        path = fire_line(firer.location, target, view.placement)
        crossed = [(a, b) for a, b in zip(path, path[1:]) if "ridgeline" in view.hexside_features(a, b)]
        if not crossed:
            return []
        adjacent = any(b == target for _, b in crossed)
        first = any(turn == line["turn"] for turn, _ in self.fired.get(target, []))
        return [rule("IM.TER.RIDGE.TARGET").judge(
            line["seq"], adjacent and first, "the target is adjacent to the ridgeline and fired first",
            f"units behind the ridgeline {crossed[0][0]}|{crossed[0][1]} may be fired on across it only when "
            f"adjacent to it and after firing first ({'not adjacent' if not adjacent else 'they have not fired'})",
            recorded=list(path))]

    # -- roofs under air attack -----------------------------------------------------------------
    def on_SmallArmsResolved(self, line):
        from domain.rules.infernal_machines.direct_fire import fire_facts
        d, board, view = self.ctx.typed(line), self.ctx.board, board_view(self.ctx)
        shot = fire_facts(self.ctx).shot(d.attack)
        if shot is None or "aircraft" not in shot.classes.values():
            return []
        for r in d.results:
            unit = board.units.get(r.unit)
            if r.result == "hit" and unit is not None and view.unit_level(unit) == ROOF:
                self.air_hits[unit.unit] = line["seq"]
        return []

    def on_MoraleChecked(self, line):
        """"Units on a roof under air attack have their morale value reduced by 1 if they are hit (Hit) during
        that attack only (so add +1 to the result of the morale check)"."""
        d, seq, out = self.ctx.typed(line), line["seq"], []
        for unit in d.units:
            since = self.air_hits.pop(unit, None)
            if since is None:
                continue
            rolls = [r for r in self.ctx.rolls("LS.MORALE", after=since, before=seq)]
            if rolls:
                values = [m.value for m in self.ctx.typed(rolls[-1]).modifiers]
                out.append(rule("IM.TER.ROOF.AIR").judge(
                    seq, 1 in values, f"{unit} hit on a roof by an air attack: +1 to the morale check",
                    f"{unit} was hit on a roof by an air attack: its morale check adds +1 (modifiers {values})",
                    related=[since, rolls[-1]["seq"]]))
        return out

    def after_UnitMoved(self, line):
        self.arrived[self.ctx.typed(line).unit] = line["turn"]
        return []

    # -- close combat between storeys -----------------------------------------------------------
    def on_CloseCombatFought(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        view = board_view(self.ctx)
        defenders = [board.units[u] for u in d.defenders if u in board.units]
        attackers = [board.units[u] for u in d.attackers if u in board.units]
        if not defenders or not view.multi_storey(d.location):
            return []
        lowest = min(view.unit_level(u) for u in defenders)
        out = []
        for unit in defenders:
            level = view.unit_level(unit)
            rule_id = "IM.TER.ROOF.CC" if level == ROOF else "IM.TER.STOREY.CC"
            if level > lowest:
                out.append(rule(rule_id).violation(
                    seq, f"{unit.unit} on level {level} is immune to close combat launched against the friendly "
                    f"units beneath it"))
            elif level > 1:
                placed = [a for a in attackers if a.location == d.location and abs(view.unit_level(a) - level) == 1
                          and self.arrived.get(a.unit, -1) < line["turn"]]
                out.append(rule(rule_id).judge(
                    seq, len(placed) == len(attackers), f"{unit.unit} attacked from the level beside it",
                    f"{unit.unit} on level {level} may be attacked in close combat only in a later turn by enemy "
                    f"units placed directly above or below it"))
        return out

    # -- spotting from above --------------------------------------------------------------------
    def on_Spotted(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        unit = board.units.get(d.spotter)
        view = board_view(self.ctx)
        if unit is None or unit.location is None or not view.multi_storey(unit.location):
            return []
        level = view.unit_level(unit)
        if level < 2:
            return []
        rule_id = "IM.TER.ROOF.SPOT" if level == ROOF else "IM.TER.STOREY.SPOT"
        if any(SPOT_OPTION in str(o) for o in board.options):
            return [rule(rule_id).unverifiable(
                seq, f"{unit.unit} spots from level {level} with the hill spotting bonus of optional Landships! rule "
                f"16.23, which the text does not hold")]
        rolls = self.ctx.rolls("IM.SPOT.ROLL", after=max(unit.last_seq, 0), before=seq)
        hill = [m for r in rolls for m in self.ctx.typed(r).modifiers if "hill" in str(getattr(m, "why", "")).lower()]
        if not hill:
            return []
        return [rule(rule_id).violation(seq, f"{unit.unit} claims the hill spotting bonus from level {level}, but "
                                             f"optional Landships! rule 16.23 is not in use")]

    # -- rubble ---------------------------------------------------------------------------------
    def on_BarrageDeclared(self, line):
        d = self.ctx.typed(line)
        self.aimed[d.barrage] = d.target
        return []

    def on_BarrageResolved(self, line):
        d, seq, view = self.ctx.typed(line), line["seq"], board_view(self.ctx)
        hits = [r.location for r in d.results if is_hit(r.result)]
        for loc in hits:
            if stone_town(view, loc):
                self.rubble_due.append((loc, view.rubble(loc) + 1, seq))
        aimed = self.aimed.get(d.barrage)
        if not hits or aimed is None or aimed in hits or not stone_town(view, aimed):
            return []
        reading = self.ctx.interpretations.reading(SCATTERED_RUBBLE.name)
        label = self.ctx.interpretations.label(SCATTERED_RUBBLE.name)
        if reading is None:
            return [rule("IM.TER.RUBBLE.L1_TRIGGER").ambiguous(
                seq, f"barrage {d.barrage} was aimed at the stone town hex {aimed} and hit elsewhere. "
                f"{SCATTERED_RUBBLE.describe()}", interpretation=label)]
        if reading == "aimed-hex":
            self.rubble_due.append((aimed, view.rubble(aimed) + 1, seq))
        return []

    def on_MarkerPlaced(self, line):
        d, seq = self.ctx.typed(line), line["seq"]
        if d.marker not in ("rubble-1", "rubble-2") or not d.location:
            return []
        due = [x for x in self.rubble_due if x[0] == d.location]
        self.rubble_due = [x for x in self.rubble_due if x[0] != d.location]
        if d.marker == "rubble-2":
            self.cleared.append((d.location, seq, [u.unit for u in self.ctx.board.units_at(d.location)]))
        if due:
            return []
        fired = [l for l in self.ctx.of_type("SmallArmsFired", after=self._turn_start(line), before=seq)
                 if self.ctx.typed(l).target == d.location]
        if not fired:
            return []
        guns = [l for l in fired if any(self._rubble_gun(f) for f in self.ctx.typed(l).firers)]
        if guns:
            # "two successive attacks ... by vehicle guns of 47 mm or more, or by direct-fire artillery
            # guns": "successive" is undefined (successive turns, or attacks with none between?), and
            # how many more reach Level 2 is not said (the catalogue's warnings): not decided here
            level = "IM.TER.RUBBLE.L2" if d.marker == "rubble-2" else "IM.TER.RUBBLE.L1_TRIGGER"
            return [rule(level).ambiguous(
                seq, f"a {d.marker} marker in {d.location} after gun fire at it this turn: the text's gun route "
                f"needs \"two successive attacks\" with hits, and does not say what \"successive\" means or how "
                f"many more make Level 2", related=[l["seq"] for l in guns])]
        return [rule("IM.TER.RUBBLE.IMMUNE").violation(
            seq, f"only small arms fired at {d.location} this turn: anti-tank rifles, infantry small arms and machine "
            f"guns never reduce a building to rubble", related=[l["seq"] for l in fired])]

    def _rubble_gun(self, firer: str) -> bool:
        """A firer that may reduce a building to rubble by direct fire: a direct-fire artillery gun, or a
        vehicle gun of 47 mm or more."""
        unit = self.ctx.board.units.get(firer)
        if unit is None:
            return False
        size = calibre(gun_of(unit))
        return unit.unit_class == "artillery-gun" or (size is not None and size >= RUBBLE_CALIBRE)

    def _turn_start(self, line) -> int:
        return self.ctx.turn_began(line["seq"])

    def on_TurnStarted(self, line):
        return self._judge_rubble()

    def finish(self):
        return self._judge_rubble()

    def _judge_rubble(self) -> list[RuleApplication]:
        """A barrage's hit on a stone town hex makes rubble that turn; a Level-2 hex's units are eliminated."""
        out, board = [], self.ctx.board
        for loc, level, seq in self.rubble_due:
            out.append(rule("IM.TER.RUBBLE.L1_TRIGGER" if level == 1 else "IM.TER.RUBBLE.L2").violation(
                seq, f"the barrage's hit on the stone town hex {loc} makes Level {min(level, 2)} rubble: no "
                f"rubble-{min(level, 2)} marker was placed"))
        for loc, seq, there in self.cleared:
            left = [u for u in there if u in board.units and not board.units[u].eliminated]
            if left:
                out.append(rule("IM.TER.RUBBLE.L2").violation(
                    seq, f"all units in the Level 2 rubble hex {loc} are eliminated; {', '.join(left)} were not"))
        self.rubble_due, self.cleared = [], []
        return out


T = "tests/unit/test_im_terrain.py::"
COVERAGE: dict[str, Any] = {
    "IM.TER.MS.INTERVENING": ("implemented", T + "test_no_fire_with_a_building_hex_between_two_units_on_one_level",
                              "a building: the multi-storey hexes joined to each other"),
    "IM.TER.MS.ADJ_SAME_BLDG": ("implemented", T + "test_adjacent_units_in_one_building_get_the_town_modifier",
                                "+2 on the SACRT as a terrain term"),
    "IM.TER.STOREY.CEILING": ("implemented", T + "test_no_fire_through_the_ceiling_or_the_roof"),
    "IM.TER.STOREY.CC": ("implemented", T + "test_upper_floors_and_roofs_are_immune_to_close_combat_against_the_units_beneath"),
    "IM.TER.STOREY.SPOT": ("needs a chart", T + "test_the_hill_spotting_bonus_from_above_only_with_landships_16_23",
                           "a hill bonus claimed without option 16.23 is a violation; with it the bonus is Landships! "
                           "16.23's (unverifiable)"),
    "IM.TER.ROOF.MARKER": ("implemented", T + "test_no_fire_through_the_ceiling_or_the_roof"),
    "IM.TER.ROOF.CC": ("implemented", T + "test_upper_floors_and_roofs_are_immune_to_close_combat_against_the_units_beneath"),
    "IM.TER.ROOF.FIREDOWN": ("implemented", T + "test_fire_from_a_roof_toward_lower_ground_takes_minus_one"),
    "IM.TER.ROOF.AIR": ("implemented", T + "test_a_roof_unit_hit_from_the_air_adds_one_to_its_morale_check"),
    "IM.TER.ROOF.SPOT": ("needs a chart", T + "test_the_hill_spotting_bonus_from_above_only_with_landships_16_23"),
    "IM.TER.RUBBLE.L1_TRIGGER": ("ambiguous", T + "test_ec_43_a_barrage_hit_on_a_map_10_town_makes_rubble_then_level_2_eliminates; "
                                 + T + "test_a_barrage_aimed_at_a_stone_town_that_scattered_is_a_named_reading; "
                                 + T + "test_rubble_after_gun_fire_is_ambiguous_not_a_small_arms_breach",
                                 "a barrage's hit on a map-10 (stone) town hex needs its rubble marker that turn; a "
                                 "scattered barrage is IM.TER.RUBBLE.SCATTERED; a marker after fire by a gun of 47 mm "
                                 "or more or an artillery gun at the hex: ambiguous ('successive' is undefined); "
                                 "air bombing is not judged"),
    "IM.TER.RUBBLE.L2": ("ambiguous", T + "test_ec_43_a_barrage_hit_on_a_map_10_town_makes_rubble_then_level_2_eliminates; "
                         + T + "test_rubble_after_gun_fire_is_ambiguous_not_a_small_arms_breach",
                         "a hit on Level 1 makes Level 2 and every unit in it is eliminated by the end of the turn; "
                         "a Level-2 marker after gun fire: ambiguous (how many more gun hits is not said)"),
    "IM.TER.RUBBLE.IMMUNE": ("implemented", T + "test_small_arms_never_make_rubble",
                             "a rubble marker after only small arms fire at the hex that turn"),
    "IM.TER.RUBBLE.L1_DEF": ("partial", T + "test_level_1_rubble_keeps_the_town_modifier",
                             "+2 on the SACRT (a term) and on the BCRT (IM.ART.FP.TERRAIN); the close combat's "
                             "column and +2 are not judged"),
    "IM.TER.RIDGE.TARGET": ("implemented", T + "test_fire_across_a_ridgeline_only_at_adjacent_units_that_fired_first"),
    "IM.TER.WALL.SAF": ("partial", T + "test_fire_across_a_stone_wall_gives_plus_two",
                        "+2 on the SACRT when the line of fire enters the target hex across a wall; the CACRT's column "
                        "shift is not judged"),
    "IM.TER.WALL.NOART": ("implemented", "tests/unit/test_im_obstacles.py::test_stone_walls_give_no_benefit_against_barrages",
                          "the BCRT modifiers of the text hold no wall (IM.ART.FP.TERRAIN)"),
    "IM.TER.DITCH": ("needs a chart", T + "test_ditches_are_landships_depressions",
                     "Landships! depressions are not in the text: a ditch's cost is the pack's MOVEMENT"),
}
