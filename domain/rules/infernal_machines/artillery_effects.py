"""Off-map artillery effects by mission x ammunition x target class x impact zone (IM.ART section J).

After each `BarrageResolved` the auditor opens a window: the `UnitStatusChanged`, `UnitMoved`,
`MoraleChecked`, sub-rolls and obstacle removals recorded before the next step of any barrage (or
the next phase) are that resolution's effects. For every unit in a listed hex the text gives the
effect (`barrage_effect`), and the recorded effects must be it. The lasting state (impact zones
active until the firer's next barrage phase, suppression's half firepower) is exposed as pure
helpers over the log's lines; the lifetimes of smoke and gas markers are `domain.board.lifetimes`
(the board view needs them), and `board_extras` hands a rule module the view's state with the
game's reading of the gas duration.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from domain.board.terrain import Board, Extras
from domain.rules.infernal_machines.artillery_legality import CREEPING
from domain.rules.infernal_machines.artillery_resolution import is_hit
from domain.rules.interpretations import Interpretation, declare
from domain.rulebook import beside

RULEBOOK = beside(__file__)
R_MC_SINGLE = RULEBOOK.rule("IM.ART.EFF.MC_SINGLE")
R_CAV_MODS = RULEBOOK.rule("IM.ART.EFF.CAV_MODS")
R_CB = RULEBOOK.rule("IM.ART.EFF.CB")
R_SMOKE = RULEBOOK.rule("IM.ART.EFF.SMOKE")
R_SMOKE_EFFECT = RULEBOOK.rule("IM.ART.AMMO.SMOKE.EFFECT")
R_GAS = RULEBOOK.rule("IM.ART.EFF.GAS")
R_GAS_EFFECTS = RULEBOOK.rule("IM.ART.AMMO.GAS.EFFECTS")
R_GAS_DOUBLE = RULEBOOK.rule("IM.ART.AMMO.GAS.DOUBLE")
R_GAS_FRIENDLY = RULEBOOK.rule("IM.ART.SCATTER.GAS_FRIENDLY")
R_GAS_AREA = RULEBOOK.rule("IM.ART.MISSION.GAS.AREA")
R_GAS_DURATION = RULEBOOK.rule("IM.ART.MISSION.GAS.DURATION")
R_PERSIST = RULEBOOK.rule("IM.ART.EFF.PERSIST")
R_STOP = RULEBOOK.rule("IM.ART.BAT.HURRICANE.STOP")

INFANTRY_LIKE = {"infantry-platoon", "infantry-squad", "mg-platoon", "crew", "forward-observer",
                 "liaison-officer", "infantry-leader"}
OBSTACLES = {"wire", "wire-high", "roadblock", "strongpoint", "minefield"}
GAS_IMMUNE = {"tank", "armoured-car", "boat", "support-weapon", "mortar", "armoured-train"}
BOUNDARIES = {"BarrageResolved", "BarrageDeclared", "ScatterTested", "PhaseStarted", "TurnStarted",
              "HexObserved", "CommunicationTested", "FireOrderChecked", "BarrageCancelled", "SmallArmsFired"}
MISSION_CODE = {"destruction": "DEST", "counter-battery": "DEST", "neutralisation": "NEUT",
                "suppression": "SUPP", "interdiction": "INT", "simple-creeping": "SUPP", "double-creeping": "SUPP"}
CLASS_CODE = {"inf": "INF", "cav": "CAV", "sw": "SW", "tank": "VEH", "light": "VEH"}

NEUT_PRIMARY = declare(Interpretation(
    "im-neutralisation-primary", ("IM.ART.EFF.NEUT.HE.INF",),
    "Neutralisation HE, primary zone: 'automatically pinned ... for two full turns' on an H, then "
    "'If it is not pinned, it must take a morale check ... If it [TRUNCATED]'.",
    {"auto-pin": "every infantry unit is pinned for two full turns on an H; no morale check",
     "morale-check": "a unit not already pinned takes a morale check (the truncated sentence)"},
    default="auto-pin"))
NEUT_SECONDARY_DURATION = declare(Interpretation(
    "im-neutralisation-secondary-pin", ("IM.ART.EFF.NEUT.HE.INF",),
    "Neutralisation HE, secondary zone: a unit that fails its morale check 'becomes pinned': for how long? (AP-13)",
    {"two-turns": "two full turns, as in the primary zone", "normal": "an ordinary pin"},
    default=None))
CAV_DISMOUNT_PRIMARY = declare(Interpretation(
    "im-destruction-cavalry-dismount-primary", ("IM.ART.EFF.DEST.HE.CAV",),
    "Destruction HE against cavalry: the dismount d6 is printed under the secondary zone but says 'if a "
    "cavalry unit is not directly eliminated as a result of this barrage'. Does it apply in the primary zone?",
    {"secondary-only": "only in the secondary zone", "both-zones": "also to cavalry surviving in the primary zone"},
    default=None))
INTERDICTION_BRIDGE = declare(Interpretation(
    "im-interdiction-bridge-needs-hit", ("IM.ART.EFF.INT.HE.OBST",),
    "Interdiction HE: 'bridge hexagons in primary impact zones (only) are destroyed on a result of 1 to 3': "
    "does this need an H result? (AP-14)",
    {"hit-required": "only after an H result", "always": "whatever the BCRT result"}, default=None))
INTERDICTION_MISS_PIN = declare(Interpretation(
    "im-interdiction-miss-pin", ("IM.ART.EFF.INT.HE.VEH",),
    "Interdiction HE against vehicles: 'On a miss result, the inherent crew and vehicle are automatically pinned' "
    "follows the light-vehicle sentence: which vehicles?",
    {"light-vehicles": "light vehicles (they have an inherent crew counter)", "all-vehicles": "every vehicle"},
    default="light-vehicles"))
OBSTACLE_REMOVAL = declare(Interpretation(
    "im-obstacle-removal", ("IM.ART.EFF.DEST.HE.OBST", "IM.OBS.ROADBLOCK.ART"),
    "Removing wire or a roadblock by barrage: an 'asterisk' result on the bombardment table, or a "
    "destruction mission of 31+ firepower and a natural 1? (AP-11)",
    {"asterisk": "an asterisk BCRT result removes it", "31-and-natural-1": "only 31+ firepower and a natural 1"},
    default=None))
HURRICANE_RETREAT_IN_ZONE = declare(Interpretation(
    "im-hurricane-retreat-in-zone", ("IM.ART.BAT.HURRICANE.STOP",),
    "Hurricane: a unit that retreats to another hex still inside the impact zone: do the later elements attack it?",
    {"attacked-again": "yes, the later attacks hit every occupied hex of the zone",
     "ignored": "no, its later attacks are ignored"}, default=None))
GAS_AREA = declare(Interpretation(
    "im-gas-area", ("IM.ART.MISSION.GAS.AREA", "IM.ART.AMMO.GAS.PERMIT_PROC"),
    "The gassed area: every hex within three hexes of one marker on the final impact hex (Gas missions), or "
    "the impact zone of each element with one marker per element (Gas ammunition)? (AP-03)",
    {"radius-3": "one marker on the final impact hex; radius 3", "impact-zone": "one marker per element; its impact zone"},
    default=None))
GAS_DURATION = declare(Interpretation(
    "im-gas-duration", ("IM.ART.MISSION.GAS.DURATION",),
    "Gas 'remains effective for two turns; remove the marker at the end of the last phase of the opposing "
    "player's turn': two game turns, or the end of the opponent's next turn? (AP-03)",
    {"two-turns": "removed at the end of the opponent's turn two game turns after it was fired",
     "opponent-turn": "removed at the end of the opponent's turn that follows the barrage"}, default=None))


# -- pure functions ----------------------------------------------------------------------------
def board_extras(ctx) -> Extras:
    """The board view's running state for one audit, one fold shared by every module that needs
    it: smoke and gas markers lapse per `domain.board.lifetimes`, gas by the game's reading of
    im-gas-duration (asked only when the readings disagree about a marker)."""
    return ctx.shared("im-board-extras",
                      lambda: Extras(gas_reading=lambda: ctx.interpretations.reading(GAS_DURATION.name)))


def board_view(ctx) -> Board:
    """The terrain view of the audit's board as it stands (before or after the event being
    judged), shared by every module and built again only when its terrain may have changed
    (Extras.version): units moving, rolling and firing read the board through the same view."""
    extras = board_extras(ctx)
    return ctx.at_moment("im-board-view", lambda: Board(ctx.board, extras), version=extras.version)


def target_class(unit) -> Optional[str]:
    cls = unit.unit_class
    if cls == "cavalry-platoon":
        return "inf" if "dismounted" in unit.status else "cav"
    if cls in INFANTRY_LIKE and not unit.attrs.get("tank_leader"):
        return "inf"
    return {"support-weapon": "sw", "mortar": "sw", "tank": "tank", "armoured-car": "tank",
            "light-vehicle": "light"}.get(cls)


@dataclass
class Effect:
    """What a result does to one unit: `outcome` directly, or by a morale check, or by a sub-roll."""
    rule: str
    outcome: str = "none"                      # none, eliminated, pinned, pinned-2, pinned-more, retreat, hold
    on_pass: Optional[str] = None              # with a morale check
    on_fail: Optional[str] = None
    subroll: Optional[set[int]] = None         # d6 faces that destroy
    notes: list[str] = field(default_factory=list)

    @property
    def morale_check(self) -> bool:
        return self.on_pass is not None


def barrage_effect(mission: str, ammunition: str, cls: str, zone: str, result: str, pinned: bool = False,
                   on_bridge: bool = False, neut_primary: str = "auto-pin",
                   miss_pin: str = "light-vehicles") -> Optional[Effect]:
    """Section J: the effect of a BCRT result on one unit of class cls ('inf', 'cav', 'sw', 'tank',
    'light') in zone ('primary' | 'secondary'). None for smoke and gas (no BCRT result)."""
    if ammunition in ("smoke", "gas"):
        return None
    if mission in CREEPING:
        mission, ammunition = "suppression", "he"
    code = MISSION_CODE.get(mission)
    if code is None:
        return None
    rule = f"IM.ART.EFF.{code}.{'SHR' if ammunition == 'shrapnel' else 'HE'}.{CLASS_CODE[cls]}"
    hit, primary = is_hit(result), zone == "primary"
    if cls in ("inf", "cav"):
        again = "retreat" if pinned else "pinned"     # "If a unit already pinned suffers another pinned result"
        if code == "DEST":
            if primary:
                return Effect(rule, "eliminated" if hit else again)
            return Effect(rule, on_pass=again, on_fail="eliminated") if hit else Effect(rule)
        if code == "NEUT":
            if not hit:
                return Effect(rule)
            if primary:
                if neut_primary == "morale-check" and not pinned:
                    return Effect(rule, on_pass="none", on_fail="pinned-2")
                return Effect(rule, "pinned-more" if pinned else "pinned-2")
            return Effect(rule, on_pass="none", on_fail="pinned-more" if pinned else "pinned-neut")
        if code == "SUPP":
            if not hit:
                return Effect(rule)
            return Effect(rule, again) if primary else Effect(rule, on_pass="none", on_fail=again)
        if code == "INT":
            if not (hit and primary):
                return Effect(rule)
            return Effect(rule, "pinned" if on_bridge else ("hold" if pinned else "none"))
    if cls == "sw":
        if code == "DEST" and ammunition == "he" and hit:
            return Effect(rule, "eliminated") if primary else Effect(rule, subroll={1, 2})
        return Effect(rule)
    if cls == "tank":
        if ammunition == "he" and hit and primary and code in ("DEST", "INT"):
            return Effect(rule, subroll={1} if code == "DEST" else {1, 2, 3})
        if code == "INT" and primary and not hit and miss_pin == "all-vehicles":
            return Effect(rule, "pinned")
        return Effect(rule)
    if cls == "light":
        if code == "INT":
            if not primary:
                return Effect(rule)
            return Effect(rule, "eliminated") if hit else Effect(rule, "pinned")
        if not hit:
            return Effect(rule)
        return Effect(rule, on_pass="pinned-2" if code == "NEUT" else "pinned", on_fail="eliminated")
    return None


def allowed_statuses(outcome: str) -> tuple[set[str], set[str]]:
    """(statuses that must be recorded, statuses that may be recorded) for an outcome."""
    return {
        "none": (set(), set()),
        "hold": (set(), {"pinned"}),
        "eliminated": ({"eliminated"}, {"eliminated"}),
        "pinned": ({"pinned"}, {"pinned"}),
        "pinned-2": ({"pinned"}, {"pinned"}),
        "pinned-neut": ({"pinned"}, {"pinned"}),
        "pinned-more": (set(), {"pinned"}),
        "retreat": ({"retreated"}, {"retreated", "pinned"}),
    }[outcome]


def morale_passed(natural: int, modifiers: Iterable[int], morale: int) -> bool:
    """A unit passes when the modified roll is at most its morale value (H+X adds X)."""
    return natural + sum(modifiers) <= morale


def active_impact_zones(lines: Iterable[dict[str, Any]], upto_seq: Optional[int] = None) -> list[dict[str, Any]]:
    """Impact zones in force after `upto_seq`, one entry per barrage: each lasts from its
    BarrageResolved until the firer's next barrage phase (IM.ART.GEN.PHASE, IM.ART.EFF.PERSIST).
    The lifetime is the board view's (`Extras`), so movement and effects agree on it."""
    lines = [l for l in lines if upto_seq is None or l["seq"] <= upto_seq]
    by_seq = {l["seq"]: l for l in lines}
    declared = {l["data"]["barrage"]: l["data"] for l in lines if l["type"] == "BarrageDeclared"}
    zones: dict[str, dict[str, Any]] = {}
    for z in Extras.from_lines(lines).zones:
        if z.barrage not in declared:
            continue
        resolved = by_seq[z.seq]
        entry = zones.setdefault(z.barrage, {
            "barrage": z.barrage, "side": z.side, "mission": z.mission, "ammunition": z.ammunition,
            "barrage_type": declared[z.barrage]["barrage_type"], "seq": z.seq, "turn": resolved["turn"],
            "primary": set(), "secondary": set(), "hit": set()})
        entry[z.zone].add(z.location)
        entry["hit"].update(r["location"] for r in resolved["data"].get("results", [])
                            if r["location"] == z.location and is_hit(r["result"]))
    return [{**e, "primary": sorted(e["primary"]), "secondary": sorted(e["secondary"]), "hit": sorted(e["hit"])}
            for e in zones.values()]


def suppression_penalties(lines: Iterable[dict[str, Any]], units_at) -> dict[str, dict[str, Any]]:
    """Suppression HE, whatever the result: non-pinned infantry in the zones fire at half firepower
    (round up) and crews may not fire during the next complete turn. `units_at(location, seq)` gives
    the units there when the barrage fell. Returns unit -> {turn, fire: 'half' | 'none'}."""
    out: dict[str, dict[str, Any]] = {}
    declared: dict[str, dict[str, Any]] = {}
    for line in lines:
        d = line["data"]
        if line["type"] == "BarrageDeclared":
            declared.setdefault(d["barrage"], d)
        elif line["type"] == "BarrageResolved" and declared.get(d["barrage"], {}).get("mission") in (
                "suppression", "simple-creeping", "double-creeping"):
            for r in d.get("results", []):
                for unit in units_at(r["location"], line["seq"]):
                    if unit.unit_class == "crew":
                        out[unit.unit] = {"turn": line["turn"] + 1, "fire": "none"}
                    elif unit.unit_class in INFANTRY_LIKE and "pinned" not in unit.status:
                        out[unit.unit] = {"turn": line["turn"] + 1, "fire": "half"}
    return out


def half_firepower(firepower: float) -> int:
    """'half their firepower (round fractions up)': 5 -> 3."""
    return int(-(-firepower // 2))


def pinned_until(turn: int, turns: Optional[int]) -> Optional[int]:
    """The last turn a unit pinned in `turn` for `turns` full turns stays pinned (None: until removed)."""
    return None if turns is None else turn + turns
