"""Judging `UnitMoved`: adjacency, phase, side, pins, prohibitions and the MP cost of every step.

Costs come from `movement_costs` (the text's rules as code, the base costs from the table
pack). This module adds what depends on the course of the game: MP already spent in the phase,
shell holes met in an earlier move of the phase, runs and fatigue, crawling, deep snow and
destruction zones (one hex per turn), and the minimum-move note (IM.CORE.MINMOVE).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

from domain.board.hexes import distance
from domain.board.terrain import LEVEL_MARKERS, Board
from domain.events import given
from domain.rules.engine import Rule, RuleApplication, RuleModule
from domain.rules.infernal_machines.artillery_effects import board_extras, board_view
from domain.rules.interpretations import Interpretation, declare
from domain.rules.infernal_machines.running import moved_back
from domain.rules.infernal_machines.movement_costs import (
    RULEBOOK, SECTIONS, SHELL_SPENT, Conditions, Mover, PathEval, destruction_zone, evaluate_path, mover_for,
    shell_readings)

MOVE_SECTIONS = {**SECTIONS, **RULEBOOK.sections((
    "IM.CORE.REF", "IM.CORE.SIDE.ACTIVE", "IM.CORE.PHASE.MOVE", "IM.CORE.PATH.START", "IM.CORE.PATH.ADJACENT",
    "IM.CORE.PINNED.MOVE", "IM.ART.BALLOON.STATIC", "IM.INF.ST.MOVE", "IM.INF.ST.RUN", "IM.INF.SKI",
    "IM.INF.VEST", "IM.OPTMOVE.AGREE", "IM.OPTMOVE.RUN.ELIG", "IM.OPTMOVE.RUN.AFTER", "IM.OPTMOVE.RUN.TERRAIN",
    "IM.OPTMOVE.PRONE.CRAWL", "IM.OPTMOVE.PRONE.ELIG", "IM.CAV.TROT", "IM.LV.CAUTION", "IM.TER.MS.COOCCUPY",
    "IM.INF.ST.INFILTRATE",
), "movement")}
INDIVIDUALS = {"forward-observer", "liaison-officer", "infantry-leader"}
VEHICLE_PHASES = ("vehicle-movement",)
FOOT_PHASES = ("first-foot-movement", "second-foot-movement")
BEFORE_FOOT = ("start", "pin-removal", "barrage", "air-combat", "vehicle-movement")
RUN_BLOCKERS = {"trench-hasty", "trench-prepared", "trench-communication", "wire", "wire-high", "minefield"}

MINMOVE = declare(Interpretation(
    "IM.CORE.MINMOVE", ("IM.CORE.MINMOVE",),
    "The note guarantees one hex per VMP (vehicles) or per turn (foot, cavalry) 'regardless of any "
    "obstacles ... whatever happens': does it lift the absolute prohibitions of the obstacles of module "
    "2.0 (high wire for foot and cavalry, roadblocks for vehicles)?",
    {"costs-only": "the guarantee relaxes MP costs only; the prohibitions stand",
     "overrides": "one hex is always allowed, even into or across a prohibited obstacle"},
    default=None))
PRONE_STAND = declare(Interpretation(
    "IM.OPTMOVE.PRONE.STAND", ("IM.OPTMOVE.PRONE.CRAWL",),
    "Going Prone: 'If it is before the first foot movement phase, the unit crawls and may only move a maximum "
    "of one hexagon this turn' against 'Units that begin the first foot movement phase prone may choose to "
    "stand up by removing the marker before moving the unit': a unit that went prone before the first foot "
    "phase and stands up in it, is it still held to one hex that turn?",
    {"held-to-one-hex": "yes: the crawl limit is for the whole turn; standing up lifts the prone marker only "
                        "(the catalogue's reading of IM.OPTMOVE.PRONE.CRAWL, and the only one that leaves the "
                        "crawl sentence an effect)",
     "stands-free": "no: a unit that stands up moves normally; the crawl limit binds only a unit that stays prone"},
    default="held-to-one-hex"))
RUN_SQUADS = declare(Interpretation(
    "IM.OPTMOVE.RUN.SQUADS", ("IM.OPTMOVE.RUN.ELIG",),
    "'Only infantry platoons (not machine gun platoons) may run': may infantry squads run?",
    {"platoons-only": "read literally: squads may not run", "squads-too": "squads are infantry and may run"},
    default="platoons-only"))


def rule(rule_id: str) -> Rule:
    return Rule(rule_id, MOVE_SECTIONS[rule_id])


@dataclass
class PhaseRecord:
    """What a unit has done in the current phase."""

    spent: Optional[float] = 0.0
    hexes: int = 0
    shell: bool = False
    trigger_spent: Optional[float] = None
    cleared: Optional[int] = None   # seq of the removal of a roadblock this tank cleared in the phase


@dataclass
class TurnRecord:
    turn: int
    moves: list[tuple[str, int, str]] = field(default_factory=list)   # (phase, hexes, mode)

    @property
    def hexes(self) -> int:
        return sum(h for _, h, _ in self.moves)


class MovementChecks(RuleModule):
    """Every `UnitMoved`: where, when, who, and at what cost."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.extras = board_extras(ctx)
        self.phase: dict[str, PhaseRecord] = {}
        self.turns: dict[str, TurnRecord] = {}
        self.ran: dict[str, tuple[int, str]] = {}
        self.crawl: dict[str, int] = {}
        self.stood: dict[str, int] = {}     # unit -> turn it stood up after going prone before foot phase 1
        self.pending: list[tuple[dict[str, Any], tuple[str, ...]]] = []
        self.stopped: dict[str, tuple[int, str, int]] = {}   # unit -> (turn, rule, seq) of a forced stop
        self.among_enemy: list[tuple[dict[str, Any], list[str], bool]] = []
        self.cooccupy: set[int] = set()
        self.gassed: dict[str, tuple[str, int]] = {}   # unit -> (enemy gas hex it entered, seq)
        self.attacked: dict[str, tuple[str, set[str]]] = {}   # light vehicle -> (side, attacks on it)
        self.caution: dict[str, set[str]] = {}                # light vehicle -> attacks counted this VMP
        self.barrage_side: dict[Any, Optional[str]] = {}

    # -- bookkeeping ----------------------------------------------------------------------

    def after_PhaseStarted(self, line):
        # the board holding the phase: its active side (the phase is the envelope's)
        self.phase, self.caution = {}, {}
        active = self.ctx.board.active
        if line["phase"] in VEHICLE_PHASES and active:
            # Light vehicles: the 5 MP lost per attack count in "its next movement phase"
            for unit_id in [u for u, (side, _) in self.attacked.items() if side == active]:
                self.caution[unit_id] = self.attacked.pop(unit_id)[1]

    def _attacked(self, loc: Optional[str], by_side: Optional[str], attack: str) -> None:
        """Light vehicles (changed): "A light vehicle loses 5 movement points during its next movement
        phase each time small arms or barrage fire is directed against it, whether or not a 'hit'
        result is obtained" (IM.LV.CAUTION): count the attacks on the light vehicles in `loc`."""
        for u in self.ctx.board.units_at(loc) if loc else []:
            if u.unit_class == "light-vehicle" and u.side and u.side != by_side:
                side, attacks = self.attacked.get(u.unit, (u.side, set()))
                self.attacked[u.unit] = (side, attacks | {attack})

    def on_BarrageDeclared(self, line):
        declared = self.ctx.typed(line)
        self.barrage_side[declared.barrage] = declared.side or line.get("side")

    def on_BarrageResolved(self, line):
        d = self.ctx.typed(line)
        for r in d.results:
            self._attacked(r.location, self.barrage_side.get(d.barrage), f"barrage:{d.barrage}")

    def on_MarkerPlaced(self, line):
        d, seq = self.ctx.typed(line), line["seq"]
        if d.marker == "prone" and d.unit:
            return self._prone(line, d.unit)
        if d.marker != "roadblock" or not d.location:
            return []
        view = board_view(self.ctx)
        loc = d.location
        out = [rule("IM.OBS.ROADBLOCK.LIMIT").judge(
            seq, not view.roadblock(loc), f"the first roadblock in {loc}",
            f"only one roadblock may be placed in a road hex; {loc} already has one")]
        if not view.road(loc):
            out.append(rule("IM.OBS.ROADBLOCK.LIMIT").violation(seq, f"a roadblock goes in a road hex; {loc} has no road"))
        return out

    def _stood_up(self, line, unit_id: Optional[str]) -> None:
        """A crawling unit that stands up (removes its prone marker) that turn: see PRONE_STAND."""
        if unit_id and self.crawl.get(unit_id) == line["turn"]:
            self.stood[unit_id] = line["turn"]

    def on_MarkerRemoved(self, line):
        removed = self.ctx.typed(line)
        if removed.marker == "prone":
            self._stood_up(line, removed.unit)
        return self._roadblock_cleared(line)

    def _roadblock_cleared(self, line):
        """Roadblocks: "Tanks (and only tanks) may destroy a roadblock by entering the hexagon and then
        spending 5 movement points in the hexagon (or all their movement points during a single Vehicle
        Movement Phase if they have fewer than 5)". A log records the clearing as the removal of the
        marker after the tank's move into the hex: the tank that entered it this phase pays then."""
        d = self.ctx.typed(line)
        if d.marker != "roadblock" or not d.location or line["phase"] not in VEHICLE_PHASES:
            return []
        for unit in self.ctx.board.units_at(d.location):
            rec = self.phase.get(unit.unit)
            if unit.unit_class != "tank" or rec is None or rec.hexes == 0:
                continue
            allowance = mover_for(board_view(self.ctx), unit, self.ctx.tables).allowance
            if rec.spent is not None and allowance is not None:
                rec.spent = allowance if allowance < 5 else rec.spent + 5.0
            rec.cleared = line["seq"]
            break   # one tank clears it
        return []

    def on_UnitStatusChanged(self, line):
        d = self.ctx.typed(line)
        if d.status == "standing":
            self._stood_up(line, d.unit)
        if d.status != "prone":
            return []
        return self._prone(line, d.unit)

    def _prone(self, line, unit_id: str) -> list[RuleApplication]:
        """Going Prone: infantry only (not cavalry, not MG platoons), not pinned, not in a trench or
        strongpoint hex; before the first foot phase, or after moving in the second (or after a run,
        "even if this takes place during the first movement phase")."""
        seq, board = line["seq"], self.ctx.board
        unit = board.units.get(unit_id)
        if unit is None:
            return []
        if line["phase"] in BEFORE_FOOT:
            self.crawl[unit_id] = line["turn"]
        view, why = board_view(self.ctx), []
        mclass = mover_for(view, unit, self.ctx.tables).mclass
        if unit.unit_class == "mg-platoon" or mclass != "foot":
            why.append(f"a {unit.unit_class} may not go prone (infantry only; not cavalry or MG platoons)")
        if view.pinned(unit):
            why.append(f"{unit_id} is pinned")
        if unit.location and (view.trench(unit.location) or view.markers(unit.location)["strongpoint"]
                              or "strongpoint" in view.features(unit.location)):
            why.append(f"{unit.location} is a trench or strongpoint hex")
        ran = self.ran.get(unit_id)
        if line["phase"] == "first-foot-movement" and not (ran and ran == (line["turn"], line["phase"])):
            why.append("going prone happens before the first foot movement phase, after moving in the second, "
                       "or after a run")
        return [rule("IM.OPTMOVE.PRONE.ELIG").judge(seq, not why, f"{unit_id} may go prone", "; ".join(why))]

    def on_SmallArmsFired(self, line):
        """Running: "It may not conduct small arms fire that turn" (the turn of the run)."""
        d = self.ctx.typed(line)
        self._attacked(d.target, line.get("side"), f"attack:{d.attack or line['seq']}")
        out = []
        for firer in d.firers:
            ran = self.ran.get(firer)
            if ran and ran[0] == line["turn"]:
                out.append(rule("IM.OPTMOVE.RUN.AFTER").violation(
                    line["seq"], f"{firer} ran in the {ran[1]} phase of turn {ran[0]} and may not fire that turn",
                    recorded=firer))
        return out

    def _turn(self, unit: str, turn: int) -> TurnRecord:
        rec = self.turns.get(unit)
        if rec is None or rec.turn != turn:
            rec = self.turns[unit] = TurnRecord(turn)
        return rec

    # -- the judgement --------------------------------------------------------------------
    def on_UnitMoved(self, line):
        d, seq, board = self.ctx.typed(line), line["seq"], self.ctx.board
        unit = board.units.get(d.unit)
        if unit is None:
            return [rule("IM.CORE.REF").violation(seq, f"no unit {d.unit!r} was deployed", recorded=d.unit)]
        view = board_view(self.ctx)
        mover = mover_for(view, unit, self.ctx.tables)
        if mover.mclass == "air":
            return []   # aircraft fly in the air combat phase; their moves are not hex movement
        if mover.mclass == "static":
            return [rule("IM.ART.BALLOON.STATIC").violation(seq, f"balloon {unit.unit} may not move once deployed")]
        path = d.path
        out: list[RuleApplication] = []
        bad = [f"{a}->{b}" for a, b in zip(path, path[1:]) if distance(a, b, view.placement) != 1]
        out.append(rule("IM.CORE.PATH.ADJACENT").judge(
            seq, not bad, "each step enters an adjacent hex", f"steps between non-adjacent hexes: {', '.join(bad)}",
            recorded=path))
        if unit.location and path[0] != unit.location:
            out.append(rule("IM.CORE.PATH.START").violation(
                seq, f"{unit.unit} stands in {unit.location}, the path starts in {path[0]}",
                expected=unit.location, recorded=path[0]))
        expected = VEHICLE_PHASES if mover.vehicle else FOOT_PHASES
        if line["phase"] not in VEHICLE_PHASES + FOOT_PHASES:
            self.pending.append((line, expected))   # a retreat is judged at the end
            return out
        out.extend(self._who_when(line, unit, expected))
        if bad:
            return out
        out.extend(self._stopped(line, unit))
        out.extend(self._infiltration(line, unit, mover))
        out.extend(self._mode(line, unit, mover, view))
        out.extend(self._path(line, unit, mover, view))
        return out

    def _stopped(self, line, unit) -> list[RuleApplication]:
        """Interdiction: infantry (cavalry and vehicles in a town hex) that entered an impact-zone hex
        "must stop their movement ... and may not move further that turn" (also in a later phase).
        Gas: a unit that entered an enemy gas hex is pinned there, and "gassed units may not fire or
        move until the gas marker is removed"."""
        gas = self.gassed.get(unit.unit)
        if gas and any(m.get("marker") == "gas" and m.get("location") == gas[0] and m.get("unit") is None
                       for m in board_view(self.ctx).live_markers()):
            return [rule("IM.ART.AMMO.GAS.EFFECTS.ENTER").violation(
                line["seq"], f"{unit.unit} entered the enemy gas in {gas[0]} at seq {gas[1]} and is pinned there "
                f"until the gas marker is removed", related=[gas[1]])]
        stop = self.stopped.get(unit.unit)
        if not stop or stop[0] != line["turn"]:
            return []
        return [rule(stop[1]).violation(
            line["seq"], f"{unit.unit} entered an interdiction impact zone hex at seq {stop[2]} and may not move "
            f"further this turn", related=[stop[2]])]

    def _infiltration(self, line, unit, mover: Mover) -> list[RuleApplication]:
        """Only Sturmtruppen squads pass through enemy-occupied hexes; ending among enemy units (other
        than individuals) is allowed only to make close combat (judged at the end: the close combat
        comes later in the turn)."""
        if mover.mclass not in ("foot", "cavalry"):
            return []
        path, out = self.ctx.typed(line).path, []
        squad = mover.sturm and unit.unit_class == "infantry-squad"
        for loc in path[1:-1]:
            if self._enemy_at(loc, unit) and not squad:
                out.append(rule("IM.INF.ST.INFILTRATE").violation(
                    line["seq"], f"{unit.unit} passes through the enemy-occupied hex {loc}: only Sturmtruppen squads "
                    f"infiltrate (platoon-sized units do not)", recorded=loc))
        enemies = self._same_storey(line, self._enemy_at(path[-1], unit))
        if enemies and len(path) > 1:
            if self.ctx.board.hexes.get(path[-1], {}).get("terrain") == "town":
                self.cooccupy.add(line["seq"])   # IM.TER.MS.COOCCUPY: the town-hex case of the rule
            self.among_enemy.append((line, enemies, squad))
        return out

    def _enemy_at(self, loc: str, unit) -> list[str]:
        return [u.unit for u in self.ctx.board.units_at(loc) if u.side and unit.side and u.side != unit.side
                and u.unit_class not in INDIVIDUALS]

    def _same_storey(self, line, enemies: list[str]) -> list[str]:
        """Multi-storey buildings: "enemy units may not occupy the same storey of the same town hexagon
        after movement": an enemy on another level of the building hex is not co-occupied. The mover
        enters at ground level unless the move names a level or a level marker is put on it later in
        the turn (a "2nd Story" / "RoofTop" marker)."""
        d, view = self.ctx.typed(line), board_view(self.ctx)
        if not view.multi_storey(d.path[-1]):
            return enemies
        level = int(given(d, "level") or 1)   # `level`: a field beside the schema's
        for later in self._rest_of_turn(line):
            if later["type"] != "MarkerPlaced":
                continue
            m = self.ctx.typed(later)
            if m.unit == d.unit and m.marker in LEVEL_MARKERS:
                level = LEVEL_MARKERS[m.marker]
        return [e for e in enemies if view.unit_level(self.ctx.board.units[e]) == level]

    def _who_when(self, line, unit, expected) -> list[RuleApplication]:
        seq, board, out = line["seq"], self.ctx.board, []
        side = line.get("side")
        if side is not None and board.active is not None:
            out.append(rule("IM.CORE.SIDE.ACTIVE").judge(
                seq, side == board.active, f"{side} is the active side",
                f"{side} moved in {board.active}'s player turn", expected=board.active, recorded=side))
        out.append(rule("IM.CORE.PHASE.MOVE").judge(
            seq, line["phase"] in expected, f"{unit.unit_class} moves in the {line['phase']} phase",
            f"a {unit.unit_class} moves in {' or '.join(expected)}, not in {line['phase']}",
            expected=list(expected), recorded=line["phase"]))
        if board_view(self.ctx).pinned(unit):
            out.append(rule("IM.CORE.PINNED.MOVE").violation(
                seq, f"{unit.unit} is pinned (since turn {unit.pinned_at_turn})", related=[unit.last_seq]))
        return out

    def _mode(self, line, unit, mover: Mover, view: Board) -> list[RuleApplication]:
        seq, turn, phase, d = line["seq"], line["turn"], line["phase"], self.ctx.typed(line)
        mode, path, out = d.mode or "normal", d.path, []
        ran = self.ran.get(unit.unit)
        if ran and ran[0] == turn and ran[1] != phase:
            out.append(rule("IM.OPTMOVE.RUN.ELIG").violation(
                seq, f"{unit.unit} ran in the {ran[1]} phase and may not move in the other foot phase"))
        elif ran and ran[0] == turn - 1:
            out.append(rule("IM.OPTMOVE.RUN.AFTER").violation(
                seq, f"{unit.unit} ran in turn {ran[0]}: no movement until a complete turn has passed"))
        if mode == "run":
            out.extend(self._run(line, unit, mover, view))
        if mode == "trot":
            hexes = self.phase.get(unit.unit, PhaseRecord()).hexes + len(path) - 1
            out.append(rule("IM.CAV.TROT").judge(
                seq, mover.mclass == "cavalry" and hexes <= 5, f"a trot of {hexes} hexes",
                f"a trot is cavalry moving at most five hexes; this is {hexes} hexes by a {unit.unit_class}",
                expected=5, recorded=hexes))
        if mode == "ski":
            hexes = self.phase.get(unit.unit, PhaseRecord()).hexes + len(path) - 1
            out.append(rule("IM.INF.SKI").judge(
                seq, mover.skis and hexes <= 3, f"{hexes} hexes on skis",
                f"skis: three hexes per foot phase, for units that have skis ({unit.unit_class}, {hexes} hexes)",
                expected=3, recorded=hexes))
        if mode == "gallop" and mover.mclass != "cavalry":
            out.append(rule("IM.ENV.DEEPSNOW.CAV").violation(seq, f"only cavalry gallop, not a {unit.unit_class}"))
        return out

    def _run(self, line, unit, mover: Mover, view: Board) -> list[RuleApplication]:
        seq, path, out = line["seq"], self.ctx.typed(line).path, []
        options = [str(o) for o in self.ctx.board.options]
        # the log names agreed options by rule id; plain names for the optional rules are accepted too
        agreed = any("OPTMOVE" in o.upper() or o.lower() in ("running", "run", "prone", "going-prone",
                                                               "advanced-infantry-movement") for o in options)
        out.append(rule("IM.OPTMOVE.AGREE").judge(
            seq, agreed, "the running rule was agreed", "running is optional and GameStarted.options does not "
            "list it (IM.OPTMOVE.RUN.ELIG)", recorded=options))
        eligible, label = unit.unit_class == "infantry-platoon" and mover.mclass == "foot", None
        if unit.unit_class == "infantry-squad":
            reading = self.ctx.interpretations.reading(RUN_SQUADS.name)
            label = self.ctx.interpretations.label(RUN_SQUADS.name)
            eligible = reading == "squads-too"
        out.append(rule("IM.OPTMOVE.RUN.ELIG").judge(
            seq, eligible, f"a {unit.unit_class} may run",
            f"only infantry platoons may run, not a {unit.unit_class}", interpretation=label))
        if mover.vest:
            out.append(rule("IM.INF.VEST").violation(seq, f"{unit.unit} wears vests and may not run"))
        crossed = [loc for loc in path[1:-1]
                   if not (view.terrain(loc) == "clear" or view.road(loc))
                   or RUN_BLOCKERS & set(view.markers(loc)) or view.trench(loc)]
        out.append(rule("IM.OPTMOVE.RUN.TERRAIN").judge(
            seq, not crossed, "the run crosses only clear and road hexes",
            f"a run may pass only through clear and road hexes, not {', '.join(crossed)}", recorded=crossed))
        return out

    # -- the path and its cost ------------------------------------------------------------
    def _path(self, line, unit, mover: Mover, view: Board) -> list[RuleApplication]:
        seq, d, ctx = line["seq"], self.ctx.typed(line), self.ctx
        path, mode = d.path, d.mode or "normal"
        rec = self.phase.setdefault(unit.unit, PhaseRecord())
        turn_rec = self._turn(unit.unit, line["turn"])
        first = rec.hexes == 0 if mover.vehicle else turn_rec.hexes == 0
        single = len(path) == 2 and first
        cond = Conditions(ctx.board.weather, ctx.board.terrain_state)
        pe = evaluate_path(view, mover, path, cond, ctx.tables, ctx.interpretations,
                           prev_shell=rec.shell, spent_before=rec.spent or 0.0)
        out = self._prohibited(seq, pe, single)
        if pe.stop_broken:
            s = pe.stop_broken
            out.append(rule(s.stop).violation(seq, f"the unit must stop on entering {s.to}, yet moves on",
                                              recorded=path))
        out.extend(self._hex_limits(line, unit, mover, view, turn_rec))
        storey = self._storey(line, unit, view, out)
        if mode != "ski":
            out.extend(self._cost(line, unit, mover, view, pe, rec, single, storey))
        hexes = len(path) - 1
        rec.hexes += hexes
        rec.spent = None if rec.spent is None or pe.total is None else rec.spent + pe.total + storey
        if pe.shell_trigger is not None and rec.trigger_spent is None:
            rec.trigger_spent = pe.spent_at_trigger
        rec.shell = pe.ends_on_shell
        last = pe.steps[-1] if pe.steps else None
        if last is not None and last.stop and last.stop.startswith("IM.ART.EFF.INT"):
            self.stopped[unit.unit] = (line["turn"], last.stop, seq)
        if last is not None and last.stop == "IM.ART.AMMO.GAS.EFFECTS.ENTER":
            self.gassed[unit.unit] = (last.to, seq)
        turn_rec.moves.append((line["phase"], hexes, mode))
        if mode == "run":
            self.ran[unit.unit] = (line["turn"], line["phase"])
        return out

    def _prohibited(self, seq: int, pe: PathEval, single: bool) -> list[RuleApplication]:
        s = pe.prohibited
        if s is None:
            return []
        if not (s.obstacle and single):
            return [rule(s.prohibited).violation(seq, s.why, recorded=[s.frm, s.to])]
        interp = self.ctx.interpretations
        reading, label = interp.reading(MINMOVE.name), interp.label(MINMOVE.name)
        if reading is None:
            readings = "; ".join(f"{k}: {v}" for k, v in MINMOVE.readings.items())
            return [rule("IM.CORE.MINMOVE").ambiguous(
                seq, f"a one-hex move against {s.prohibited} ({s.why}); the minimum-move note says one hex "
                f"is always allowed. Readings: {readings}", inputs={"prohibition": s.prohibited}, interpretation=label)]
        if reading == "overrides":
            return [rule("IM.CORE.MINMOVE").ok(seq, f"one hex is always allowed ({s.why})", interpretation=label)]
        return [rule(s.prohibited).violation(seq, s.why, recorded=[s.frm, s.to], interpretation=label)]

    def _hex_limits(self, line, unit, mover: Mover, view: Board, turn_rec: TurnRecord) -> list[RuleApplication]:
        seq, turn, phase, d = line["seq"], line["turn"], line["phase"], self.ctx.typed(line)
        path, mode, out = d.path, d.mode or "normal", []
        total = turn_rec.hexes + len(path) - 1
        limits = []
        if mover.mclass == "foot" and self.ctx.board.terrain_state == "deep-snow" and not (mover.skis or mode == "ski"):
            limits.append(("IM.ENV.DEEPSNOW.FOOT", "in deep snow, foot units without skis"))
        zone_rule = destruction_zone(view, path[0]) if mover.mclass == "foot" else None
        if zone_rule:
            limits.append((zone_rule, f"infantry starting in the destruction impact zone at {path[0]}"))
        if self.crawl.get(unit.unit) == turn and mover.mclass == "foot":
            limits.append(("IM.OPTMOVE.PRONE.CRAWL", "a unit that went prone before the first foot phase"))
        for rule_id, who in limits:
            good = total <= 1 and phase == "second-foot-movement"
            label = None
            if rule_id == "IM.OPTMOVE.PRONE.CRAWL" and self.stood.get(unit.unit) == turn and not good:
                # it stood up: whether the crawl limit still binds is IM.OPTMOVE.PRONE.STAND
                reading = self.ctx.interpretations.reading(PRONE_STAND.name)
                label = self.ctx.interpretations.label(PRONE_STAND.name)
                if reading is None:
                    out.append(rule(rule_id).ambiguous(
                        seq, f"{unit.unit} went prone before the first foot phase and stood up; it moves {total} "
                        f"hexes (phase {phase}). {PRONE_STAND.describe()}", interpretation=label))
                    continue
                good = reading == "stands-free"
            out.append(rule(rule_id).judge(
                seq, good, f"{who}: one hex, in the second foot phase" if label is None else
                f"{who} stood up and moves normally", f"{who} move one hex per turn, in the second foot movement "
                f"phase only ({total} hexes this turn, phase {phase})", expected=1, recorded=total,
                interpretation=label))
        return out

    def _storey(self, line, unit, view: Board, out: list[RuleApplication]) -> float:
        move = self.ctx.typed(line)
        level = given(move, "level")   # a field beside the schema's
        if level is None:
            return 0.0
        change = abs(int(level) - view.unit_level(unit))
        where = move.path[-1]
        out.append(rule("IM.TER.STOREY.COST").judge(
            line["seq"], change == 0 or view.multi_storey(where), f"{change} level(s), +{change} MP",
            f"{where} is not a multi-storey building: there is no level {level}", recorded=level))
        return float(change)

    def _allowance(self, line, unit, mover: Mover, pe: PathEval, view: Board) -> tuple[Optional[float], str]:
        mode, phase = self.ctx.typed(line).mode or "normal", line["phase"]
        deep = self.ctx.board.terrain_state == "deep-snow"
        if mover.mclass == "cavalry" and mode == "gallop":
            return (6.0, "IM.ENV.DEEPSNOW.CAV") if deep else (10.0, "IM.ENV.DEEPSNOW.CAV")
        if mode == "run":
            return (3.0, "IM.INF.ST.RUN") if mover.sturm else (4.0, "IM.OPTMOVE.RUN.ELIG")
        if mover.sturm and mover.mclass == "foot":
            # Exception: through road or trench hexes they move like any other unit
            if not all(view.road(s.to) or view.trench(s.to) for s in pe.steps):
                return (2.0 if phase == "first-foot-movement" else 1.0), "IM.INF.ST.MOVE"
        lost = 5.0 * len(self.caution.get(unit.unit, ()))
        if lost and mover.allowance is not None:
            return max(0.0, mover.allowance - lost), "IM.LV.CAUTION"
        return mover.allowance, pe.cost_rule

    def _cost(self, line, unit, mover: Mover, view: Board, pe: PathEval, rec: PhaseRecord, single: bool,
              storey: float) -> list[RuleApplication]:
        seq, tables = line["seq"], self.ctx.tables
        allowance, judged = self._allowance(line, unit, mover, pe, view)
        if rec.cleared is not None:
            judged = "IM.OBS.ROADBLOCK.TANKCLEAR"
            if allowance is not None and allowance < 5:
                return [rule(judged).violation(
                    seq, f"{unit.unit} ({allowance:g} MP) spent all its movement points clearing the roadblock "
                    f"(seq {rec.cleared}) and may not move further this phase", related=[rec.cleared])]
        inputs = {"rules": pe.rules, "allowance": allowance, "tables": tables.name}
        labels = ", ".join(pe.interpretations) or None
        if pe.total is None or rec.spent is None:
            return [rule(judged).unverifiable(seq, tables.lacks("MOVEMENT") + " (base Landships! terrain costs)",
                                              inputs=inputs, interpretation=labels)]
        if allowance is None:
            return [rule(judged).unverifiable(seq, tables.lacks("ALLOWANCE") + f" (no printed allowance for "
                                              f"{unit.unit})", inputs=inputs)]
        total = rec.spent + pe.total + storey
        inputs["spent"] = total
        out = [rule(r).ok(seq, "applied to this move's cost") for r in pe.rules if r != judged
               and r in MOVE_SECTIONS and r != "IM.SHELL.HALVE"]
        if total > allowance:
            if single and pe.prohibited is None:
                out.append(rule("IM.CORE.MINMOVE").ok(
                    seq, f"{total:g} MP is over the allowance of {allowance:g}, but one hex is always allowed",
                    inputs=inputs))
            else:
                out.append(rule(judged).violation(
                    seq, f"the move costs {total:g} MP this phase; the allowance is {allowance:g}",
                    expected=allowance, recorded=total, inputs=inputs, interpretation=labels))
            return out
        out.append(rule(judged).ok(seq, f"{total:g} MP of {allowance:g}", expected=allowance, recorded=total,
                                   inputs=inputs, interpretation=labels))
        trigger = rec.trigger_spent if rec.trigger_spent is not None else pe.spent_at_trigger
        if mover.vehicle and trigger is not None:
            out.append(self._shell(seq, allowance, trigger, total))
        return out

    def _shell(self, seq: int, allowance: float, trigger: float, total: float) -> RuleApplication:
        results = shell_readings(allowance, trigger, total)
        half = int(allowance // 2)
        inputs = {"allowance": allowance, "halved": half, "spent_at_halving": trigger, "spent": total}
        if all(results.values()):
            return rule("IM.SHELL.HALVE").ok(seq, f"within the halved allowance ({half} MP)", inputs=inputs)
        if not any(results.values()):
            return rule("IM.SHELL.HALVE").violation(
                seq, f"two consecutive shell-hole hexes halve the allowance to {half} MP for the rest of the "
                f"phase; {total:g} MP spent", expected=half, recorded=total, inputs=inputs)
        interp = self.ctx.interpretations
        reading, label = interp.reading(SHELL_SPENT.name), interp.label(SHELL_SPENT.name)
        if reading is None:
            readings = "; ".join(f"{k}: {v}" for k, v in SHELL_SPENT.readings.items())
            return rule("IM.SHELL.HALVE").ambiguous(
                seq, f"{trigger:g} MP were spent when the allowance was halved to {half}: the text does not say "
                f"how they count. Readings: {readings}", inputs=inputs, interpretation=label)
        return rule("IM.SHELL.HALVE").judge(
            seq, results[reading], f"within the halved allowance ({reading})",
            f"over the halved allowance ({reading})", inputs=inputs, interpretation=label)

    # -- retreats and close combat ----------------------------------------------------------
    def _rest_of_turn(self, line) -> Iterator[dict[str, Any]]:
        """The lines after `line` in its turn, as far as the audit has read (walked in place: a
        copy of the rest of the game for every move made it quadratic)."""
        lines = self.ctx.lines
        for i in range(line["seq"], len(lines)):
            if lines[i]["turn"] != line["turn"]:
                return
            yield lines[i]

    def _close_combat_follows(self, line, names: list[str]) -> bool:
        """A close combat recorded later in the turn about the mover, the hex or the enemy there."""
        move = self.ctx.typed(line)
        if given(move, "close_combat"):   # a field beside the schema's
            return True
        wanted = {move.unit, move.path[-1], *names}
        for later in self._rest_of_turn(line):
            if later["phase"] != "close-combat":
                continue
            values, purpose = self._stated(later)
            mentioned = {v for v in values if isinstance(v, str)}
            mentioned |= {x for v in values if isinstance(v, list) for x in v if isinstance(x, str)}
            if wanted & mentioned or str(purpose or "").startswith("LS.CACRT"):
                return True
        return False

    def _stated(self, line) -> tuple[list[Any], Any]:
        """The values a line gives (any field) and its `purpose`; a line of a type no schema knows
        (a log read with unknown types allowed) as its data stands."""
        event = self.ctx.typed(line)
        if event is None:
            return list(line["data"].values()), line["data"].get("purpose")
        return [getattr(event, k) for k in event.model_fields_set], given(event, "purpose")

    def finish(self):
        out = []
        for line, enemies, squad in self.among_enemy:
            move = self.ctx.typed(line)
            if not self._close_combat_follows(line, enemies) and line["seq"] in self.cooccupy:
                out.append(rule("IM.TER.MS.COOCCUPY").violation(
                    line["seq"], f"{move.unit} ends its move on the same storey of the town hex "
                    f"{move.path[-1]} as enemy units ({', '.join(enemies)}) and no close combat "
                    f"follows", recorded=move.path[-1]))
            elif not self._close_combat_follows(line, enemies):
                out.append(rule("IM.INF.ST.INFILTRATE").violation(
                    line["seq"], f"{move.unit} ends its move among enemy units ({', '.join(enemies)}) in "
                    f"{move.path[-1]} and no close combat follows", recorded=move.path[-1]))
        for line, expected in self.pending:
            move = self.ctx.typed(line)
            unit = move.unit
            # `retreat`: a field beside the schema's; or the unit's retreated status in the same phase
            retreat = given(move, "retreat") or any(
                change.unit == unit and change.status == "retreated" and l["turn"] == line["turn"]
                and l["phase"] == line["phase"]
                for l, change in ((l, self.ctx.typed(l)) for l in self.ctx.of_type("UnitStatusChanged")))
            if not retreat and not moved_back(self.ctx, line):   # a runner put back where it was fired at
                out.append(rule("IM.CORE.PHASE.MOVE").violation(
                    line["seq"], f"{unit} moves in the {line['phase']} phase, which is no movement phase, and no "
                    f"retreat is recorded", expected=list(expected), recorded=line["phase"]))
        return out


# rule id -> (implemented | needs a chart | ambiguous, the tests that cover it)
COVERAGE = {
    "IM.INF.VEST": ("ambiguous", "tests/unit/test_movement_rules.py::test_running_eligibility_terrain_and_agreement"),
    "IM.OBS.WIRE.LOW": ("needs a chart", "tests/unit/test_movement.py::test_low_wire_costs_what_the_base_game_chart_says"),
    "IM.TRAIN.MOVE.RAIL": ("implemented", "tests/unit/test_movement.py::test_a_train_never_leaves_the_rails"),
    "IM.CORE.MINMOVE": ("ambiguous", "tests/unit/test_movement.py::test_ap_16_minimum_move_against_a_prohibition_is_ambiguous; tests/unit/test_movement.py::test_minimum_move_lets_one_hex_exceed_the_allowance"),
    "IM.ENV.WEATHER.BAD.MOVE": ("implemented", "tests/unit/test_movement.py::test_bad_weather_doubles_vehicle_costs_and_a_road_costs_1; tests/unit/test_movement.py::test_bad_weather_does_not_touch_foot_units"),
    "IM.ENV.TSTATE.TYPES": ("needs a chart", "tests/unit/test_movement_rules.py::test_without_a_pack_costs_are_unverifiable_but_prohibitions_are_judged"),
    "IM.ENV.MUDSNOW.COST": ("implemented", "tests/unit/test_movement.py::test_ex_im_01_tracked_vehicle_in_clear_snow_pays_3; tests/unit/test_movement.py::test_ex_im_01_other_cells_of_the_mud_and_snow_table"),
    "IM.ENV.MUDSNOW.ROAD": ("implemented", "tests/unit/test_movement.py::test_ex_im_01_roads_through_mud_cost_1_for_everyone; tests/unit/test_movement.py::test_a_road_in_mud_under_bad_weather_is_a_named_reading"),
    "IM.ENV.DEEPSNOW.FOOT": ("implemented", "tests/unit/test_movement.py::test_deep_snow_foot_one_hex_in_the_second_phase_only"),
    "IM.ENV.DEEPSNOW.CAV": ("implemented", "tests/unit/test_movement.py::test_deep_snow_gallop_is_6_mp_and_roads_vanish"),
    "IM.ENV.DEEPSNOW.ROAD": ("implemented", "tests/unit/test_movement.py::test_deep_snow_gallop_is_6_mp_and_roads_vanish"),
    "IM.SHELL.HALVE": ("ambiguous", "tests/unit/test_movement.py::test_ex_im_02_shell_holes_halve_the_allowance_with_bad_weather_doubling; tests/unit/test_movement.py::test_ex_im_02_halving_also_applies_on_road_hexes; tests/unit/test_movement.py::test_ap_06_spent_mp_against_the_halved_allowance_is_ambiguous"),
    "IM.SHELL.STACK_WEATHER": ("implemented", "tests/unit/test_movement.py::test_ex_im_02_shell_holes_halve_the_allowance_with_bad_weather_doubling"),
    "IM.TER.WALL.CROSS": ("implemented", "tests/unit/test_movement.py::test_stone_walls"),
    "IM.TER.STOREY.COST": ("implemented", "tests/unit/test_movement.py::test_storeys_cost_one_mp_a_level"),
    "IM.TER.MS.CAV": ("implemented", "tests/unit/test_movement.py::test_level_2_rubble_and_multi_storey_cavalry"),
    "IM.TER.RUBBLE.L2": ("implemented", "tests/unit/test_movement.py::test_level_2_rubble_and_multi_storey_cavalry"),
    "IM.TER.RIDGE.MOVE": ("implemented", "tests/unit/test_movement_rules.py::test_ridgelines_do_not_change_movement"),
    "IM.OBS.WIRE.HIGH": ("implemented", "tests/unit/test_movement.py::test_high_wire_stops_foot_and_cavalry_not_tanks"),
    "IM.OBS.ROADBLOCK.LIMIT": ("implemented", "tests/unit/test_movement.py::test_roadblocks"),
    "IM.OBS.ROADBLOCK.TANKCLEAR": ("implemented", "tests/unit/test_movement.py::test_roadblocks; tests/acceptance/test_cases_movement.py::test_case_gives_expected_findings"),
    "IM.ART.AMMO.GAS.EFFECTS.ENTER": ("implemented", "tests/acceptance/test_cases_movement.py::test_case_gives_expected_findings"),
    "IM.LV.CAUTION": ("implemented", "tests/acceptance/test_cases_movement.py::test_case_gives_expected_findings"),
    "IM.TER.MS.COOCCUPY": ("implemented", "tests/acceptance/test_cases_movement.py::test_case_gives_expected_findings"),
    "IM.ART.EFF.DEST.HE.INF": ("implemented", "tests/unit/test_movement_rules.py::test_destruction_zone_infantry_one_hex_in_the_second_phase"),
    "IM.ART.EFF.DEST.HE.CAV": ("implemented", "tests/unit/test_movement_rules.py::test_destruction_zone_cavalry_and_light_vehicles_may_not_move_in_or_out"),
    "IM.ART.EFF.DEST.HE.VEH": ("implemented", "tests/unit/test_movement_rules.py::test_destruction_zone_cavalry_and_light_vehicles_may_not_move_in_or_out"),
    "IM.ART.EFF.INT.HE.INF": ("implemented", "tests/unit/test_movement_rules.py::test_interdiction_zone_stops_infantry_and_costs_vehicles_one_more"),
    "IM.ART.EFF.INT.HE.CAV": ("implemented", "tests/unit/test_movement_rules.py::test_interdiction_costs_cavalry_two_more"),
    "IM.ART.EFF.INT.HE.VEH": ("implemented", "tests/unit/test_movement_rules.py::test_interdiction_zone_stops_infantry_and_costs_vehicles_one_more"),
    "IM.ART.EFF.PERSIST": ("implemented", "tests/unit/test_movement_rules.py::test_the_zone_ends_at_the_firers_next_barrage_phase"),
    "IM.ART.BALLOON.STATIC": ("implemented", "tests/unit/test_movement_rules.py::test_balloons_never_move_and_boats_keep_to_rivers"),
    "IM.NAV.MOVE": ("implemented", "tests/unit/test_movement_rules.py::test_balloons_never_move_and_boats_keep_to_rivers"),
    "IM.INF.ST.MOVE": ("implemented", "tests/unit/test_movement_rules.py::test_sturmtruppen_move_2_then_1"),
    "IM.INF.ST.RUN": ("implemented", "tests/unit/test_movement_rules.py::test_sturmtruppen_run_instead_of_the_bonus_and_no_more"),
    "IM.INF.SKI": ("partial", "tests/unit/test_movement_rules.py::test_skis_three_hexes_a_foot_phase_for_ski_users_only"),
    "IM.OPTMOVE.AGREE": ("implemented", "tests/unit/test_movement_rules.py::test_running_eligibility_terrain_and_agreement"),
    "IM.OPTMOVE.RUN.ELIG": ("implemented", "tests/unit/test_movement_rules.py::test_running_eligibility_terrain_and_agreement; tests/unit/test_movement_rules.py::test_ex_im_21_run_then_rest_a_whole_turn"),
    "IM.OPTMOVE.RUN.AFTER": ("implemented", "tests/unit/test_movement_rules.py::test_ex_im_21_run_then_rest_a_whole_turn"),
    "IM.OPTMOVE.RUN.TERRAIN": ("implemented", "tests/unit/test_movement_rules.py::test_running_eligibility_terrain_and_agreement"),
    "IM.OPTMOVE.PRONE.CRAWL": ("ambiguous", "tests/unit/test_movement_rules.py::test_crawling_and_cavalry_trot; tests/unit/test_marker_lifetimes.py::test_a_crawling_unit_that_stands_up_is_held_by_the_named_reading"),
    "IM.CAV.TROT": ("implemented", "tests/unit/test_movement_rules.py::test_crawling_and_cavalry_trot"),
    "IM.INF.ST.INFILTRATE": ("implemented", "tests/acceptance/test_cases_movement.py::test_case_gives_expected_findings"),
    "IM.OPTMOVE.PRONE.ELIG": ("implemented", "tests/acceptance/test_cases_movement.py::test_case_gives_expected_findings"),
}
