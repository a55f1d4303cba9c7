"""What one step of a move costs in Infernal Machines, and what forbids it.

The base Landships! costs and allowances are not in the text: they come from the table pack
(`MOVEMENT`: movement class -> terrain -> MP, with `road`, `wire`, `railway`, `hexside-<feature>`
keys; `ALLOWANCE`: unit class -> MP). A pack without the value makes the cost unknown (`lacks`),
and the auditor reports `unverifiable`. Everything the text states is code here: the mud and
snow table, roads in mud or snow, bad weather, deep snow, stone walls, high wire, roadblocks,
Level-2 rubble, cavalry and multi-storey buildings, the impact-zone movement limits of the
destruction and interdiction missions, boats on rivers and trains on rails.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from domain.board.state import UnitState
from domain.board.terrain import Board
from domain.rulebook import beside
from domain.rules.interpretations import Interpretation, Interpretations, declare
from domain.rules.tables import TablePack

RULEBOOK = beside(__file__)

# rule id -> the rulebook passage it comes from (rulebook.json; "movement": this module's words where
# the entry's section is another module's)
SECTIONS = RULEBOOK.sections((
    "IM.ENV.TSTATE.TYPES", "IM.ENV.WEATHER.BAD.MOVE", "IM.ENV.MUDSNOW.COST", "IM.ENV.MUDSNOW.ROAD",
    "IM.ENV.DEEPSNOW.FOOT", "IM.ENV.DEEPSNOW.CAV", "IM.ENV.DEEPSNOW.ROAD", "IM.SHELL.HALVE",
    "IM.SHELL.STACK_WEATHER", "IM.TER.WALL.CROSS", "IM.TER.STOREY.COST", "IM.TER.MS.CAV", "IM.TER.RUBBLE.L2",
    "IM.TER.RIDGE.MOVE", "IM.OBS.WIRE.HIGH", "IM.OBS.WIRE.LOW", "IM.OBS.ROADBLOCK.LIMIT",
    "IM.OBS.ROADBLOCK.TANKCLEAR", "IM.ART.EFF.DEST.HE.INF", "IM.ART.EFF.DEST.HE.CAV", "IM.ART.EFF.DEST.HE.VEH",
    "IM.ART.EFF.DEST.SHR.INF", "IM.ART.EFF.DEST.SHR.CAV", "IM.ART.EFF.DEST.SHR.VEH", "IM.ART.EFF.INT.HE.INF",
    "IM.ART.EFF.INT.HE.CAV", "IM.ART.EFF.INT.HE.VEH", "IM.NAV.MOVE", "IM.TRAIN.MOVE.RAIL", "IM.CORE.MINMOVE",
    "IM.ART.AMMO.GAS.EFFECTS.ENTER", "IM.OBS.TRENCH.EXTRAWIDE", "IM.OBS.TRENCH.HASTY.CROSS",
    "IM.OBS.TRENCH.COMM.CROSS", "IM.VEH.BRIDGELAYER.DEPLOY",
), "movement")
GASSED_CLASSES = {"foot", "cavalry", "light"}   # Gas: not tanks or armoured cars; light vehicles as cavalry


def enemy_gas(board: Board, mover: "Mover", loc: str) -> bool:
    """A gas marker at `loc` placed by the mover's enemy (the marker's side is the side that fired).
    Only the marker hex is read: the rest of the zone depends on IM.ART.MISSION.GAS.AREA."""
    if mover.mclass not in GASSED_CLASSES or not mover.side:
        return False
    return any(side != mover.side for side in board.gas_sides(loc))

MUDSNOW = {  # Movement point costs in mud and snow (Clear / Wood)
    "mud": {"tracked": {"clear": 2, "wood": 6}, "wheeled": {"clear": 4, "wood": 8},
            "cavalry": {"clear": 2, "wood": 6}},
    "snow": {"tracked": {"clear": 3, "wood": 5}, "wheeled": {"clear": 5, "wood": 9},
             "cavalry": {"clear": 3, "wood": 5}},
}
VEHICLES = {"tracked", "wheeled", "light", "train", "boat"}
FOOT_CLASSES = {"infantry-platoon", "infantry-squad", "mg-platoon", "crew", "forward-observer",
                "liaison-officer", "infantry-leader", "support-weapon", "mortar", "artillery-gun"}
MOVEMENT_CLASS = {**{c: "foot" for c in FOOT_CLASSES}, "cavalry-platoon": "cavalry", "tank": "tracked",
                  "armoured-car": "wheeled", "light-vehicle": "light", "armoured-train": "train",
                  "boat": "boat", "aircraft": "air", "balloon": "static"}
BOAT_ALLOWANCE = {"steamboat": 7, "gunboat": 10}   # Movement of naval units
ROAD_RATE = 0.5   # "the cost of 1/2 movement point per hexagon" on road (General Weather Rules)

ROAD_WEATHER = declare(Interpretation(
    "IM.ENV.MUDSNOW.ROAD.WEATHER", ("IM.ENV.MUDSNOW.ROAD", "IM.ENV.WEATHER.BAD.MOVE"),
    "Does bad weather double the 1 MP a vehicle pays on a road through mud or snow?",
    {"no-doubling": "1 MP: the weather rule itself turns the road's 1/2 into 1, no further doubling",
     "doubled": "2 MP: bad weather doubles every vehicle cost"}, default="no-doubling"))
MUDSNOW_OTHER = declare(Interpretation(
    "IM.ENV.MUDSNOW.OTHER_TERRAIN", ("IM.ENV.MUDSNOW.COST",),
    "The mud and snow table gives clear and wood only: what do other terrains cost in mud or snow?",
    {"base-cost": "the normal Landships! cost of that terrain (from the MOVEMENT table)",
     "unknown": "no cost can be checked (unverifiable)"}, default="base-cost"))


@dataclass(frozen=True)
class Conditions:
    weather: Optional[str] = None
    terrain_state: Optional[str] = None

    @property
    def bad(self) -> bool:
        return self.weather == "bad"

    @property
    def mud_snow(self) -> Optional[str]:
        return self.terrain_state if self.terrain_state in ("mud", "snow") else None

    @property
    def deep_snow(self) -> bool:
        return self.terrain_state == "deep-snow"


@dataclass(frozen=True)
class Mover:
    unit: str
    unit_class: str
    mclass: str                  # foot | cavalry | tracked | wheeled | light | train | boat | air | static
    allowance: Optional[float]   # printed allowance (counter, text or ALLOWANCE table)
    allowance_source: str
    side: Optional[str] = None
    sturm: bool = False
    skis: bool = False
    vest: bool = False
    poor_crossing: bool = False   # Landships! 6.22's "=" trench-crossers
    wide_exempt: bool = False     # the British Mk V and Mk VIII cross extra-wide trenches

    @property
    def vehicle(self) -> bool:
        return self.mclass in VEHICLES

    @property
    def tank(self) -> bool:
        return self.unit_class == "tank"


def mover_for(board: Board, unit: UnitState, tables: TablePack) -> Mover:
    """Who moves: the unit's movement class and printed allowance."""
    mclass = unit.attrs.get("movement_class") or MOVEMENT_CLASS.get(unit.unit_class, "foot")
    if mclass == "cavalry" and "dismounted" in unit.status:
        mclass = "foot"
    allowance, source = None, ""
    if unit.unit_class == "boat" and unit.attrs.get("kind") in BOAT_ALLOWANCE:
        allowance, source = BOAT_ALLOWANCE[unit.attrs["kind"]], "IM.NAV.MOVE"
    elif unit.movement is not None:
        allowance, source = float(unit.movement), "counter"
    elif tables.get("ALLOWANCE", unit.unit_class) is not None:
        allowance, source = float(tables.get("ALLOWANCE", unit.unit_class)), "ALLOWANCE"
    nation = (board.state.sides.get(unit.side or "", {}) or {}).get("nation", "")
    # Skis are inherent to Finnish and Russian troops in snow, deep snow or ice (IM.ENV.SKI.INHERENT).
    inherent = nation in ("finnish", "russian") and board.state.terrain_state in ("snow", "deep-snow", "ice")
    ski_user = unit.unit_class in ("forward-observer", "infantry-leader", "infantry-platoon", "mg-platoon")
    return Mover(unit.unit, unit.unit_class, mclass, allowance, source, unit.side,
                 sturm=bool(unit.attrs.get("sturmtruppen")),
                 skis=ski_user and (bool(unit.attrs.get("skis")) or inherent),
                 vest=bool(unit.attrs.get("vest")),
                 poor_crossing=str(unit.attrs.get("trench_crossing", "")).lower() in ("poor", "="),
                 wide_exempt=_model(unit) in WIDE_EXEMPT)


# Extra-wide trenches (optional rule): "The British Mk V and Mk VIII are exempt" (IM.TANK.FASCINE.EXEMPT)
WIDE_EXEMPT = {"mkv", "mkv*", "mkv**", "mkviii", "markv", "markv*", "markviii"}


def _model(unit: UnitState) -> str:
    return "".join(str(unit.attrs.get("model") or "").lower().replace(".", " ").split()).replace("-", "")


@dataclass
class Step:
    frm: str
    to: str
    cost: Optional[float] = None
    rules: list[str] = field(default_factory=list)   # rules that set or changed the cost
    prohibited: Optional[str] = None                  # rule id that forbids the step
    why: str = ""
    obstacle: bool = False      # a module-2.0 obstacle: the minimum-move note may concern it
    stop: Optional[str] = None  # rule that makes the unit stop on entering `to`
    lacks: Optional[str] = None  # table the pack lacks for this cost
    interpretations: list[str] = field(default_factory=list)

    def forbid(self, rule: str, why: str, *, obstacle: bool = False) -> "Step":
        if self.prohibited is None:
            self.prohibited, self.why, self.obstacle = rule, why, obstacle
        return self


def _table_cost(tables: TablePack, mclass: str, key: str) -> tuple[Optional[float], bool, bool]:
    """(cost, known, passable) of MOVEMENT[mclass][key]."""
    row = tables.tables.get("MOVEMENT", {}).get(mclass)
    if not isinstance(row, dict) or key not in row:
        return None, False, True
    value = row[key]
    return (None, True, False) if value is None else (float(value), True, True)


def _zone_rule(mission_kind: str, ammunition: str, target: str) -> str:
    ammo = "SHR" if ammunition == "shrapnel" and mission_kind == "DEST" else "HE"
    return f"IM.ART.EFF.{mission_kind}.{ammo}.{target}"


def _prohibitions(board: Board, mover: Mover, u: str, v: str, step: Step) -> None:
    # `obstacle=True` marks what the minimum-move note may concern: "regardless of any obstacles
    # introduced below in module 2.0" names obstacles, i.e. the markers of "Obstacles (new)" (wire,
    # roadblocks); AP-16 probes exactly those. Terrain prohibitions of "Additional Terrain Types
    # (new)" (Level-2 rubble, stone walls for wheeled vehicles, mounted cavalry in multi-storey
    # buildings) are not obstacles and stand (EC-43: "Any unit ordered to enter the Level-2 hex ->
    # REJECT").
    mc = mover.mclass
    if board.rubble(v) == 2 and mc != "air":
        step.forbid("IM.TER.RUBBLE.L2", f"{v} is Level-2 rubble: no unit may enter")
    if mc in ("foot", "cavalry") and board.wire(v) == 2:
        step.forbid("IM.OBS.WIRE.HIGH", f"foot and cavalry may not move through the high wire in {v}",
                    obstacle=True)
    if mover.vehicle and board.roadblock(v) and not mover.tank:
        step.forbid("IM.OBS.ROADBLOCK.LIMIT", f"the roadblock in {v} stops every vehicle but a tank",
                    obstacle=True)
    if mc in ("wheeled", "light") and "stone-wall" in board.hexside_features(u, v):
        step.forbid("IM.TER.WALL.CROSS", f"wheeled vehicles may not cross the stone wall {u}|{v}")
    if mover.tank and extra_wide(board, v) and mover.poor_crossing and not mover.wide_exempt \
            and not board.markers(v)["fascine"] and not laid_bridge(board, mover, v):
        step.forbid("IM.OBS.TRENCH.EXTRAWIDE", f"the extra-wide trench in {v} completely prevents crossing by tanks "
                    f"with poor trench-crossing capability")
    if mc == "cavalry" and board.multi_storey(v):
        step.forbid("IM.TER.MS.CAV", f"mounted cavalry may not enter the multi-storey building {v}")
    if mc == "train" and not board.railway(v):
        step.forbid("IM.TRAIN.MOVE.RAIL", f"{v} is not a railway hex")
    if mc == "boat" and not board.river(v):
        step.forbid("IM.NAV.MOVE", f"boats move only along rivers; {v} is not a river hex")
    if mc in ("cavalry", "light"):
        target = "CAV" if mc == "cavalry" else "VEH"
        for loc, verb in ((u, "out of"), (v, "into")):
            for z in board.zones(loc, "destruction"):
                step.forbid(_zone_rule("DEST", z.ammunition, target),
                            f"no {'cavalry' if mc == 'cavalry' else 'light-vehicle'} movement {verb} the "
                            f"active destruction impact zone at {loc} (barrage {z.barrage})")


def extra_wide(board: Board, loc: str) -> bool:
    """An extra-wide trench (the optional rule of Prepared trenches): a `trench-extra-wide` marker or feature."""
    return bool(board.markers(loc)["trench-extra-wide"]) or bool({"trench-extra-wide", "extra-wide"} & board.features(loc))


def laid_bridge(board: Board, mover: Mover, loc: str) -> bool:
    """The Bridge Layer's bridge (a `bridge` marker) in `loc`, laid by the mover's side (or by no side named):
    "Friendly units and vehicles may cross the bridge, treating the hexagon as clear terrain" (IM.VEH.BRIDGELAYER.DEPLOY)."""
    if not board.markers(loc)["bridge"]:
        return False
    return any(m.get("marker") == "bridge" and m.get("location") == loc and m.get("unit") is None
               and m.get("side") in (None, mover.side) for m in board.live_markers())


def _trench_crossing(board: Board, mover: Mover, v: str, step: Step) -> None:
    """Hasty and communication trenches: "Vehicles with poor trench-crossing capability do not suffer
    this penalty"; an extra-wide trench treats every tank but the Mk V and Mk VIII as a poor crosser
    (Landships! 6.22, not in the text: the crossing itself is not costed here)."""
    if not mover.vehicle:
        return
    kind = board.trench(v)
    if mover.poor_crossing and kind == "trench-hasty":
        step.rules.append("IM.OBS.TRENCH.HASTY.CROSS")
    elif mover.poor_crossing and kind == "trench-communication":
        step.rules.append("IM.OBS.TRENCH.COMM.CROSS")
    if mover.tank and extra_wide(board, v) and step.prohibited is None:
        step.rules.append("IM.OBS.TRENCH.EXTRAWIDE")


def _terrain_cost(board: Board, mover: Mover, u: str, v: str, cond: Conditions, tables: TablePack,
                  interp: Interpretations, step: Step) -> Optional[float]:
    mc = mover.mclass
    if mc == "boat":
        step.rules.append("IM.NAV.MOVE")
        return 1.0
    if mc == "train":
        cost, known, _ = _table_cost(tables, "train", "railway")
        if not known:
            step.lacks = "MOVEMENT"
        step.rules.append("IM.TRAIN.MOVE.RAIL")
        return cost
    road = board.road(u) and board.road(v)
    if road and cond.deep_snow:
        road = False
        step.rules.append("IM.ENV.DEEPSNOW.ROAD")
    if road and cond.mud_snow:
        step.rules.append("IM.ENV.MUDSNOW.ROAD")
        if mover.vehicle and cond.bad:
            reading = interp.reading(ROAD_WEATHER.name)
            step.interpretations.append(interp.label(ROAD_WEATHER.name))
            return 2.0 if reading == "doubled" else 1.0
        return 1.0
    if road:
        cost, known, _ = _table_cost(tables, mc, "road")
        cost = cost if known and cost is not None else ROAD_RATE
        step.rules.append("IM.ENV.TSTATE.TYPES")
    else:
        terrain = board.terrain(v)
        if terrain != "clear" and laid_bridge(board, mover, v):
            terrain = "clear"
            step.rules.append("IM.VEH.BRIDGELAYER.DEPLOY")
        table_class = "wheeled" if mc == "light" else mc
        state = cond.mud_snow
        if state and table_class in MUDSNOW[state] and terrain in ("clear", "wood"):
            cost = float(MUDSNOW[state][table_class][terrain])
            step.rules.append("IM.ENV.MUDSNOW.COST")
        else:
            if state and table_class in MUDSNOW[state]:
                step.rules.append("IM.ENV.MUDSNOW.COST")
                if interp.reading(MUDSNOW_OTHER.name) == "unknown":
                    step.interpretations.append(interp.label(MUDSNOW_OTHER.name))
                    step.lacks = "MOVEMENT"
                    return None
                step.interpretations.append(interp.label(MUDSNOW_OTHER.name))
            cost, known, passable = _table_cost(tables, mc, terrain)
            if "IM.ENV.MUDSNOW.COST" not in step.rules:
                step.rules.append("IM.ENV.TSTATE.TYPES")
            if not known:
                step.lacks = "MOVEMENT"
                return None
            if not passable:
                step.forbid("IM.ENV.TSTATE.TYPES", f"the {tables.name} pack gives {mc} units no way into {terrain}")
                return None
    if mover.vehicle and cond.bad:
        step.rules.append("IM.ENV.WEATHER.BAD.MOVE")
        cost = cost * 2
    return cost


def step_cost(board: Board, mover: Mover, u: str, v: str, cond: Conditions, tables: TablePack,
              interp: Interpretations) -> Step:
    """The MP to enter `v` from the adjacent `u`, with the rules that set it and any prohibition."""
    step = Step(u, v)
    _prohibitions(board, mover, u, v, step)
    cost = _terrain_cost(board, mover, u, v, cond, tables, interp, step)
    _trench_crossing(board, mover, v, step)
    extra = 0.0
    sides = board.hexside_features(u, v)
    mc = mover.mclass
    if "stone-wall" in sides:
        # tanks +1 MP (and the wall is gone), cavalry +2 MP, infantry nothing
        extra += 1.0 if mc == "tracked" else 2.0 if mc == "cavalry" else 0.0
        step.rules.append("IM.TER.WALL.CROSS")
    if "ridgeline" in sides:
        step.rules.append("IM.TER.RIDGE.MOVE")
    for feature in sorted(sides - {"stone-wall", "ridgeline"}):
        add, known, passable = _table_cost(tables, mc, f"hexside-{feature}")
        if not known:
            step.lacks = step.lacks or "MOVEMENT"
        elif not passable:
            step.forbid("IM.ENV.TSTATE.TYPES", f"the {tables.name} pack gives {mc} units no way across {feature}")
        else:
            extra += add or 0.0
    if board.wire(v) == 1 and mc not in ("air", "boat", "train"):
        add, known, _ = _table_cost(tables, mc, "wire")
        step.rules.append("IM.OBS.WIRE.LOW")
        if not known:
            step.lacks = step.lacks or "MOVEMENT"
        else:
            extra += add or 0.0
    if mover.tank and board.roadblock(u):
        if mover.allowance is not None and mover.allowance < 5:
            step.forbid("IM.OBS.ROADBLOCK.TANKCLEAR",
                        f"a tank with fewer than 5 MP spends all of them clearing the roadblock in {u}")
        extra += 5.0
        step.rules.append("IM.OBS.ROADBLOCK.TANKCLEAR")
    if mc == "foot" and board.zones(v, "destruction") and not board.zones(u, "destruction"):
        # entering a destruction zone cuts infantry to one hex per turn: the hex entered is it
        step.stop = destruction_zone(board, v)
        step.rules.append(step.stop)
    if enemy_gas(board, mover, v):
        # "Gas effects also apply to enemy units that enter a gas zone, which become pinned there."
        step.stop = step.stop or "IM.ART.AMMO.GAS.EFFECTS.ENTER"
        step.rules.append("IM.ART.AMMO.GAS.EFFECTS.ENTER")
    extra += _interdiction(board, mover, v, step)
    step.cost = None if cost is None else cost + extra
    return step


def _interdiction(board: Board, mover: Mover, v: str, step: Step) -> float:
    zones = board.zones(v, "interdiction")
    if not zones:
        return 0.0
    mc, town = mover.mclass, board.terrain(v) == "town"
    if mc == "foot":
        step.stop = step.stop or "IM.ART.EFF.INT.HE.INF"
        step.rules.append(step.stop)
        return 0.0
    if mc == "cavalry" or mover.vehicle:
        rule = "IM.ART.EFF.INT.HE.CAV" if mc == "cavalry" else "IM.ART.EFF.INT.HE.VEH"
        step.rules.append(rule)
        if town:
            step.stop = rule
        return 2.0 if mc == "cavalry" else 1.0
    return 0.0


def destruction_zone(board: Board, loc: str) -> Optional[str]:
    """The rule limiting infantry in an active destruction zone at `loc`, if there is one."""
    for z in board.zones(loc, "destruction"):
        return _zone_rule("DEST", z.ammunition, "INF")
    return None


def specific_rule(rules: list[str]) -> str:
    """The most specific cost rule among those applied (the one a total is judged under)."""
    order = ("IM.SHELL.HALVE", "IM.ENV.MUDSNOW.ROAD", "IM.ENV.MUDSNOW.COST", "IM.ENV.WEATHER.BAD.MOVE",
             "IM.OBS.ROADBLOCK.TANKCLEAR", "IM.ART.EFF.INT.HE.CAV", "IM.ART.EFF.INT.HE.VEH",
             "IM.TER.WALL.CROSS", "IM.TER.STOREY.COST", "IM.NAV.MOVE", "IM.TRAIN.MOVE.RAIL",
             "IM.VEH.BRIDGELAYER.DEPLOY", "IM.ENV.DEEPSNOW.ROAD", "IM.OBS.WIRE.LOW")
    for rule in order:
        if rule in rules:
            return rule
    return "IM.ENV.TSTATE.TYPES"


@dataclass
class PathEval:
    steps: list[Step]
    total: Optional[float]            # None when a step's cost is unknown
    lacks: set[str]
    rules: list[str]
    interpretations: list[str]
    prohibited: Optional[Step] = None
    stop_broken: Optional[Step] = None   # entered a hex that stops the unit, then went on
    shell_trigger: Optional[int] = None  # steps[i] entered the second consecutive shell-hole hex
    spent_at_trigger: Optional[float] = None
    ends_on_shell: bool = False

    @property
    def cost_rule(self) -> str:
        return specific_rule(self.rules)


def evaluate_path(board: Board, mover: Mover, path: list[str], cond: Conditions, tables: TablePack,
                  interp: Interpretations, *, prev_shell: bool = False, spent_before: float = 0.0) -> PathEval:
    """Cost every step of an adjacent path and note what the text says about the whole of it."""
    steps = [step_cost(board, mover, a, b, cond, tables, interp) for a, b in zip(path, path[1:])]
    out = PathEval(steps, 0.0, {s.lacks for s in steps if s.lacks}, [], [])
    running = spent_before
    shell = prev_shell
    for i, s in enumerate(steps):
        for r in s.rules:
            if r not in out.rules:
                out.rules.append(r)
        out.interpretations.extend(x for x in s.interpretations if x not in out.interpretations)
        if s.prohibited and out.prohibited is None:
            out.prohibited = s
        if s.stop and i < len(steps) - 1 and out.stop_broken is None:
            out.stop_broken = s
        running = running + s.cost if (s.cost is not None and running is not None) else None
        here = board.shell_holes(s.to)
        if mover.vehicle and here and shell and out.shell_trigger is None:
            out.shell_trigger, out.spent_at_trigger = i, running
            out.rules.insert(0, "IM.SHELL.HALVE")
            if cond.bad:
                out.rules.append("IM.SHELL.STACK_WEATHER")
        shell = here
    out.ends_on_shell = shell
    out.total = None if out.lacks or any(s.cost is None for s in steps) else sum(s.cost for s in steps)
    return out


SHELL_SPENT = declare(Interpretation(
    "IM.SHELL.HALVE.SPENT", ("IM.SHELL.HALVE",),
    "After two consecutive shell-hole hexes the vehicle's allowance is halved: how do the MP it "
    "already spent count against the halved allowance?",
    {"spent-counts": "the allowance becomes floor(MA/2) and MP already spent this phase count against it",
     "remaining-halved": "the MP still unspent when the halving happens are halved, rounding down"},
    default=None))


def shell_readings(allowance: float, spent_at_trigger: float, total: float) -> dict[str, bool]:
    """Whether a phase's total MP is within the halved allowance, under each reading."""
    if total <= spent_at_trigger:          # nothing entered after the halving
        return {"spent-counts": True, "remaining-halved": True}
    return {"spent-counts": total <= allowance // 2,
            "remaining-halved": total - spent_at_trigger <= (allowance - spent_at_trigger) // 2}


# What this module's costs judge beside movement.py's checks (rule id -> status, tests, what is judged)
COVERAGE = {
    "IM.ENV.WEATHER.FAIR": ("implemented", "tests/unit/test_im_environment.py::test_fair_weather_has_no_effect_on_play",
                            "fair weather (or none recorded) changes no cost: IM.ENV.WEATHER.BAD.MOVE only in bad weather"),
    "IM.ENV.SKI.INHERENT": ("implemented", "tests/unit/test_im_environment.py::test_finnish_and_russian_troops_have_skis_in_snow; "
                            "tests/acceptance/test_cases_im_env.py::test_case_gives_expected_findings",
                            "Finnish and Russian ski users move on skis in snow, deep snow or ice without a skis attribute"),
}
