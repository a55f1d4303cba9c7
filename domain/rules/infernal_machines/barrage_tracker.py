"""What the off-map barrage procedure has to remember: observations, each barrage's route and
steps, and the readings of the procedure's ambiguous passages (Infernal Machines, Indirect
Barrage Fire Procedure and the sections after it, up to Sustained fire option).

A barrage's *route* is how its target came to be observed (forward observer, liaison officer,
aircraft, balloon, automatic observation), or a mission that needs no observation (creeping
barrages, counter-battery, flares). The route and the shortcuts (first turn, sustained fire,
smoke, flares) decide which steps the procedure needs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple, Optional

from domain.board import hexes
from domain.board.hexes import Placement, PlacementError
from domain.board.state import BoardState
from domain.events import DieRolled
from domain.rules.infernal_machines.events import BarrageDeclared
from domain.rules.interpretations import Interpretation, declare

FO_VIA = ("forward-observer", "liaison-officer")
CREEPING = ("simple-creeping", "double-creeping")
OBSERVER_CLASS = {"forward-observer": "forward-observer", "liaison-officer": "liaison-officer",
                  "aircraft": "aircraft", "balloon": "balloon"}

# -- readings of the ⚠ passages of sections A-E -------------------------------------------------
COMM_DIE = declare(Interpretation(
    name="communication-die",
    rules=("IM.ART.COMM.TEST", "IM.ART.LNO.COMM"),
    question="The communication tests (FO to artillery, LNO to FO) say 'roll a die' and '1 to 3' "
             "fails, without naming the die (a d6 fails half the time, a d10 three times in ten).",
    readings={"d6": "a d6, like the other artillery rolls; any other die is a violation",
              "any": "any die; 1-3 fails on whatever die was rolled"},
    default=None))
LNO_CHAIN = declare(Interpretation(
    name="lno-chain",
    rules=("IM.ART.LNO.COMM",),
    question="'Normally' both tests (LNO to FO, FO to artillery) must pass: is the LNO-to-FO test "
             "required when the liaison officer observed the target?",
    readings={"both": "when the LNO observed the hex, both tests are required",
              "fo-only": "the LNO-to-FO test is optional; only the FO-to-artillery test is required"},
    default=None))
FOT_AIRCRAFT = declare(Interpretation(
    name="fot-aircraft-modifier",
    rules=("IM.ART.FOT.MOD", "IM.ART.AIR.FO"),
    question="The aircraft's FOT modifier is called 'unfavourable' and shown as -1 in the worked "
             "example, yet the note says aircraft have 'a greater chance of a favourable result'.",
    readings={"minus-one": "-1 on the FOT roll, as in the worked example (turn 2, column 1, -1)",
              "plus-one": "+1: the note's 'favourable' wins and the example's sign is a slip"},
    default="minus-one"))
FOT_DIE = declare(Interpretation(
    name="fot-die",
    rules=("IM.ART.FOT.ROLL",),
    question="The FOT's die and its number of columns are on the separate chart, not in the text.",
    readings={"chart": "the table pack's FOT decides: a roll or column it does not hold is "
                       "unverifiable, a count beyond its last column reads the last column",
              "d6": "a d6, like the other artillery rolls"},
    default="chart"))
AIRCRAFT_TIMING = declare(Interpretation(
    name="aircraft-barrage-timing",
    rules=("IM.ART.AIR.FO",),
    question="An aircraft-observed barrage 'will be resolved during the barrage phase of the owning "
             "player's next turn', but the FOT example observes by aircraft and fires on the same turn 2.",
    readings={"next-turn": "the barrage fires in the turn after the aircraft observed",
              "same-turn": "the barrage fires in the turn the aircraft observed, as in the example"},
    default=None))
FLARE_DISTANCE = declare(Interpretation(
    name="flare-distance",
    rules=("IM.ART.LNO.FLARE",),
    question="A flare barrage falls 'into any hexagon at a distance of 4 hexagons from the liaison "
             "officer': exactly 4, or up to 4?",
    readings={"exactly-4": "exactly 4 hexes away", "up-to-4": "1 to 4 hexes away"},
    default=None))
SUSTAINED_SCATTER = declare(Interpretation(
    name="sustained-scatter",
    rules=("IM.ART.SUSTAINED",),
    question="Is scatter tested again on a sustained-fire turn? The option skips 'the elaborate "
             "artillery procedures' but 'all barrages' are subject to a scatter test.",
    readings={"retest": "scatter is tested every sustained turn", "no-retest": "no scatter test"},
    default=None))
SUSTAINED_PAUSE = declare(Interpretation(
    name="sustained-pause",
    rules=("IM.ART.SUSTAINED",),
    question="Is a failed sustained-fire roll (6) a 'pause' that forces the full procedure again?",
    readings={"pause": "yes: after a 6 the next barrage on the hex needs the full procedure",
              "continue": "no: sustained fire may be declared again next turn"},
    default=None))
COUNTER_BATTERY_PROCEDURE = declare(Interpretation(
    name="counter-battery-procedure",
    rules=("IM.ART.MISSION.CB.ELIG", "IM.ART.COMM.TEST", "IM.ART.FOT.ROLL"),
    question="Counter-battery follows 'the normal barrage procedure' yet is 'simplified' and has no "
             "target hex: does it need the communication test and the FOT?",
    readings={"full": "communication test and FOT (column 0: no hex has resisted)",
              "simplified": "only the scatter test"},
    default=None))


# -- hexes ------------------------------------------------------------------------------------
def placement(board: BoardState) -> Placement:
    try:
        return Placement.from_maps(board.maps)
    except (PlacementError, ValueError, TypeError):
        return Placement.from_maps([])


def hex_distance(board: BoardState, a: Optional[str], b: Optional[str]) -> Optional[int]:
    """Hexes between two locations on the game's board, or None when one is unknown."""
    if not a or not b:
        return None
    try:
        return hexes.distance(a, b, placement(board))
    except (PlacementError, ValueError, KeyError):
        return None


def neighbours(board: BoardState, loc: str) -> list[str]:
    try:
        return hexes.neighbours(loc, placement(board))
    except (PlacementError, ValueError, KeyError):
        return []


def _trench_owner(board: BoardState, loc: str) -> tuple[bool, Optional[str]]:
    """(is a trench hex, its side if the log says whose it is)."""
    spec = board.hexes.get(loc, {})
    features = [str(f) for f in spec.get("features", [])] + [str(spec.get("terrain", ""))]
    markers = [m for m in board.markers_at(loc) if str(m["marker"]).startswith("trench")]
    if not markers and not any(f.startswith("trench") for f in features):
        return False, None
    for m in markers:
        owner = m.get("owner") or m.get("side")
        if owner:
            return True, owner
    return True, spec.get("trench_side") or spec.get("owner")


def automatic_observation(board: BoardState, side: Optional[str], loc: str) -> tuple[str, str]:
    """Whether `loc` is automatically observed for `side` (IM.ART.AUTOOBS.HEXES):
    ("yes", kind), ("unknown", why) when it depends on the trench lines' geometry, or ("no", why)."""
    spec = board.hexes.get(loc, {})
    features = {str(f) for f in spec.get("features", [])}
    if spec.get("terrain") == "town" or "town" in features:
        return "yes", "a town hex"
    if "bridge" in features:
        return "yes", "a bridge hex"
    if features & {"road-junction", "junction", "crossroads"}:
        return "yes", "a road-junction hex"
    roads = [n for n in neighbours(board, loc) if "road" in {str(f) for f in board.hexes.get(n, {}).get("features", [])}]
    if "road" in features and len(roads) >= 3:
        # game-log.md's hex features name roads, not junctions: three or more neighbouring road
        # hexes may be roads meeting here, or a road passing beside another.
        return "unknown", ("a road hex with road hexes on three or more sides: the log does not say whether "
                           "roads meet here (a road junction)")
    trench, owner = _trench_owner(board, loc)
    if trench and owner == side:
        return "yes", "a hex of the side's own trenches"
    if trench:
        return "unknown", ("an enemy trench hex: only the first enemy line nearest the side's starting "
                           "positions is observed, and the log does not hold the lines")
    for near in neighbours(board, loc):
        is_trench, near_owner = _trench_owner(board, near)
        if is_trench and near_owner in (side, None):
            return "unknown", ("next to the side's trenches: only the first row in front of the trench "
                               "line, toward the enemy, is observed, and the log does not say which way that is")
    return "no", "not a town, bridge, road-junction or trench hex, nor next to a trench"


def renew_barrage(key: str, turn: int, declared: dict[str, Any], *per_barrage: dict[str, Any]) -> bool:
    """Whether a BarrageDeclared of barrage `key` in `turn` starts a barrage to record under its id.
    A known id declared again in a later turn names a new barrage: sustained fire targets "the same
    hexagon(s) in each consecutive turn", and a log may well keep the barrage's id for it. The earlier
    barrage's records (declaration and per-barrage state) move to the key '<id>@<its seq>'. The same id
    declared again in the same turn is the same barrage (IM.ART.DECLARE judges the change). A record
    is a `Declared`, a `Barrage` or a mapping with its `seq` and `turn`."""
    known = declared.get(key)
    if known is None:
        return True
    if (known.get("turn", turn) if isinstance(known, dict) else known.turn) == turn:
        return False
    old = f"{key}@{known['seq'] if isinstance(known, dict) else known.seq}"
    declared[old] = declared.pop(key)
    for records in per_barrage:
        if key in records:
            records[old] = records.pop(key)
    return True


class Rolled(NamedTuple):
    """A DieRolled a barrage's step reads: where it is in the log, and the typed roll."""

    seq: int
    roll: DieRolled


@dataclass
class Declared:
    """A barrage as its BarrageDeclared gives it (the typed event), and where it was declared."""

    event: BarrageDeclared
    seq: int
    turn: int


def observer_unit(observer: Optional[str]) -> Optional[str]:
    """The unit id of an observer named `unit`, `aircraft:<id>` or `balloon:<id>`."""
    if not observer:
        return None
    for prefix in ("aircraft:", "balloon:"):
        if observer.startswith(prefix):
            return observer[len(prefix):]
    return observer


# -- state -------------------------------------------------------------------------------------
@dataclass
class Observation:
    seq: int
    turn: int
    side: Optional[str]
    target: str
    via: str
    observer: Optional[str]


@dataclass
class Barrage:
    id: str
    seq: int
    turn: int
    side: Optional[str]
    declared: BarrageDeclared
    route: str = "forward-observer"
    observer: Optional[str] = None
    related: list[int] = field(default_factory=list)
    first_turn: bool = False
    flare_roll: Optional[Rolled] = None             # the IM.ART.LNO.FLARE roll, when a flare called it
    flare_checked: bool = False
    comm_failed_seq: Optional[int] = None           # a binding failed communication test
    last_comm_seq: Optional[int] = None             # the barrage's latest CommunicationTested
    fot: Optional[tuple[int, bool]] = None          # (seq, granted) of the FireOrderChecked
    fot_refused_seq: Optional[int] = None           # a binding refused fire order
    failure_reported: bool = False                  # a step after the failure was reported once
    sustained_roll: Optional[Rolled] = None
    fired_seq: Optional[int] = None                 # first ScatterTested / BarrageResolved
    scatter_seq: Optional[int] = None
    cancelled: Optional[str] = None

    @property
    def target(self) -> Optional[str]:
        return self.declared.target

    @property
    def mission(self) -> str:
        return self.declared.mission

    @property
    def sustained(self) -> bool:
        return self.declared.sustained

    @property
    def creeping(self) -> bool:
        return self.mission in CREEPING

    @property
    def counter_battery(self) -> bool:
        return self.mission == "counter-battery"

    @property
    def smoke(self) -> bool:
        return self.declared.ammunition == "smoke"

    @property
    def flare(self) -> bool:
        """Called by a flare: the flare's roll names it, or the declaration says `"flare": true`
        (a field the log format allows beside the schema's)."""
        return bool(getattr(self.declared, "flare", None)) or self.flare_roll is not None

    @property
    def failed_seq(self) -> Optional[int]:
        """The step after which the barrage may no longer fire this turn, if any."""
        if self.comm_failed_seq is not None and not self.flare_fires:
            return self.comm_failed_seq
        return self.fot_refused_seq

    @property
    def flare_fires(self) -> bool:
        return self.flare_roll is not None and 1 <= self.flare_roll.roll.result <= 2

    def shortcut(self) -> Optional[str]:
        """The rule that lets this barrage skip the communication test and the FOT, if any."""
        if self.creeping:
            return "IM.ART.MISSION.SCB.RUN"
        if self.flare:
            return "IM.ART.LNO.FLARE"
        if self.sustained:
            return "IM.ART.SUSTAINED"
        if self.first_turn:
            return "IM.ART.FIRSTTURN"
        return None

    def needs_comm(self) -> Optional[bool]:
        """Whether an FO-to-artillery test is required (None: the reading decides)."""
        if self.shortcut():
            return False
        if self.counter_battery:
            return None
        return self.route in FO_VIA

    def needs_fot(self) -> Optional[bool]:
        if self.shortcut() or self.smoke:
            return False
        if self.counter_battery:
            return None
        return True

    def why_fot(self) -> str:
        return {"automatic": "automatic observation skips the communication test, not the FOT "
                             "(IM.ART.AUTOOBS.PROC)",
                "aircraft": "an aircraft observer is always in communication but the FOT is still "
                            "rolled (IM.ART.AIR.FO)",
                "balloon": "a balloon observer is always in communication but the FOT is still rolled "
                           "(IM.ART.BALLOON.FO)"}.get(
            self.route, "the forward observer's procedure rolls the FOT before the barrage "
                        "(IM.ART.FOT.ROLL); only turn 1 and sustained fire skip it")
