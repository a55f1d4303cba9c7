"""Dux Bellorum: A Very British Civil War's event schemas: the Dux Bellorum table of
game-log-tabletop.md, beside the core events (domain/events.py) and the tabletop ones both
miniatures rulesets share (domain/tabletop/events.py)."""
from __future__ import annotations

from functools import partial
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, Field, model_validator

from domain import events as core
from domain.events import STRICT, Data
from domain.tabletop import events as tabletop
from domain.tabletop.events import Angle, Count, Inches, Offset, Point, TabletopData, Waypoint

# AVBCW.TURN, "Turn sequence"; "start" is the TurnStarted phase (game-log.md).
PHASES = ("setup", "start", "leadership", "missile-fire", "move", "close-combat", "morale-and-victory")

# Names and weapons: "lower-case, every run of characters other than a-z0-9 ... turned into one
# -, with no - at either end"; a vehicle's row is `vehicle:<row>`.
UNIT_TYPE = r"^(vehicle:)?[a-z0-9]+(-[a-z0-9]+)*$"
ARCS = Literal["F", "R", "B", "L"]  # "vehicle arcs F, R, B, L on 0, 90, 180, 270"
RATING = Literal["soft", "hard"]


class Weapon(BaseModel):
    model_config = STRICT
    weapon: str
    shoot: str            # its own `shoot` rating, as printed without spaces
    arcs: list[ARCS]
    crewed: bool
    at: Optional[Offset] = None  # in the hull's frame; default the centre of its front edge


class ListedUnit(BaseModel):
    model_config = STRICT
    unit: str
    type: str = Field(pattern=UNIT_TYPE)
    # Listed without `?`, yet the page's own example lists a vehicle (`s-car`) without it, its
    # men being its `crew`: required of every unit that is not a vehicle.
    figures: Optional[Count] = None
    crew: Optional[Count] = None
    stats: dict[str, str]  # as printed: "4(1)", "8(1): 12"
    # Listed without `?`; the page's example vehicle has none: no list is no special rules.
    special: list[str] = Field(default_factory=list)
    options: Optional[list[str]] = None
    weapons: Optional[list[Weapon]] = None
    drive: Optional[Literal["wheeled", "tracked"]] = None
    # The page gives no form: a Tank Commander designation (VEH.TANKCMDR, "can be designated a
    # Commander unit") or the id of the commander a unit is under; both are taken.
    commander: Optional[Union[bool, str]] = None
    pts: int

    @model_validator(mode="after")
    def _figures(self):
        if self.figures is None and not self.type.startswith("vehicle:"):
            raise ValueError(f"unit {self.unit!r} ({self.type}) lists no `figures`")
        return self


class ArmyRule(BaseModel):
    model_config = STRICT
    rule: str
    pts: int
    shots: Optional[Count] = None


class ArmyListed(TabletopData):
    side: str
    units: list[ListedUnit]
    army_rules: list[ArmyRule]
    total: int


class ArmyRuleUsed(TabletopData):
    rule: str
    unit: Optional[str] = None
    target: Optional[str] = None


class LeadershipPointsPlaced(TabletopData):
    from_: str = Field(alias="from")  # a commander or a demagogue
    to: str
    points: Count


class LeadershipPointsUsed(TabletopData):
    unit: str
    points: Count
    use: str
    about: Annotated[int, Field(ge=1)]  # a seq


class LeadershipPointsReturned(TabletopData):
    side: str
    points: Count


class BraveryTested(TabletopData):
    unit: str
    why: Literal["move", "run-over", "bog", "break", "other"]
    brv: int                     # the BRV used, modified
    brv_from: Optional[str] = None  # the commander whose BRV an Inspiring commander lends
    modifiers: list[Any]
    passed: bool


# UnitStatusChanged: "here also" these, beside game-log.md's statuses (PRONE reads `prone`:
# "suppressed (prone too unless SUPP.NOPRONE)").
STATUSES = tabletop.CORE_STATUSES + (
    "suppressed", "unsuppressed", "suppression-ignored", "bogged", "crew-shaken", "impetuous",
    "destroyed", "not-arrived",
)
UnitStatusChanged = tabletop.status_event(STATUSES)


class ShotFired(tabletop.ShotFired):
    rating: RATING
    modifiers: list[Any]
    indirect: Optional[bool] = None
    spotter: Optional[str] = None
    # The page names these without a form: the off-table support tier ("@ 1, 2, 3, or 4 points",
    # or its smoke row), and the passengers using an un-crewed weapon (a flag or their unit ids).
    off_table: Optional[Union[int, str]] = None
    passengers: Optional[Union[bool, str, list[str]]] = None


class ShotResolved(tabletop.ShotResolved):
    ones: Count


COHESION_CAUSES = Literal["shooting", "melee", "bravery", "run-over", "brew-up", "subterfuge"]


class CohesionLost(TabletopData):
    unit: str
    points: Count
    cause: COHESION_CAUSES
    attack: Optional[str] = None


class CohesionRestored(TabletopData):
    unit: str
    points: Count
    by: str  # "CohesionLost / CohesionRestored | ..., cause, attack? / by"


class AmmoStateChanged(TabletopData):
    unit: str
    weapon: Optional[str] = None  # vehicles
    state: Literal["low", "exhausted", "normal"]
    # "cause, attack? / by (Supply)": a change has its cause, or the Supply unit that made it.
    cause: Optional[str] = None
    attack: Optional[str] = None
    by: Optional[str] = None

    @model_validator(mode="after")
    def _cause_or_by(self):
        if self.cause is None and self.by is None:
            raise ValueError("an ammunition state changes by a `cause` or `by` a Supply unit")
        return self


class VehicleDamaged(TabletopData):
    vehicle: str
    cause: Literal["hit", "ram", "bravery", "brew-up"]
    result: Literal["traction-damage", "traction-wrecked", "weapon-damaged", "crew-shaken", "wrecked",
                    "brews-up"]
    weapon: Optional[str] = None
    repeat: bool  # "Each result only applies once"


class VehicleRammed(TabletopData):
    vehicles: list[str] = Field(min_length=2)
    # "both inflict damage on each other equal to their Protection rating": one PRO, or one per
    # vehicle in the order of `vehicles` (the page gives no form).
    pro: Union[Count, list[Count]]


class UnitRunOver(TabletopData):
    vehicle: str
    unit: str


class VehicleAssaulted(TabletopData):
    unit: str
    vehicle: str
    # "the PRO of the facing attacked": an arc (PRO "Front / Sides / Rear ... correspond to the
    # vehicle shooting arcs") or a bearing in whole degrees; the page gives no form.
    facing: Union[ARCS, Angle]
    rating: RATING  # "using their soft or hard target MELEE rating"


class MarkerPlaced(TabletopData):
    marker: Literal["smoke"]
    id: str
    position: Point
    radius: Inches  # "no size in the seed"


class MarkerMoved(TabletopData):
    id: str
    from_: Waypoint = Field(alias="from")  # a drift from one point to the other: its route
    to: Waypoint


class MarkerRemoved(TabletopData):
    id: str


EVENTS: dict[str, type[Data]] = {
    **tabletop.SHARED_EVENTS,
    "UnitStatusChanged": UnitStatusChanged,
    "CloseCombatFought": tabletop.CloseCombatFought,
    "CloseCombatResolved": tabletop.CloseCombatResolved,
    **{cls.__name__: cls for cls in (
        ArmyListed, ArmyRuleUsed, LeadershipPointsPlaced, LeadershipPointsUsed, LeadershipPointsReturned,
        BraveryTested, ShotFired, ShotResolved, CohesionLost, CohesionRestored, AmmoStateChanged,
        VehicleDamaged, VehicleRammed, UnitRunOver, VehicleAssaulted, MarkerPlaced, MarkerMoved,
        MarkerRemoved)},
}

# Data fields naming units, in the shape of domain/log.py's UNIT_REFS (a unit id or a list).
REFERENCES: dict[str, tuple[str, ...]] = {
    "UnitMoved": ("unit",), "UnitEmbarked": ("unit", "vehicle"), "UnitDisembarked": ("unit", "vehicle"),
    "UnitStatusChanged": ("unit",), "ArmyRuleUsed": ("unit", "target"),
    "LeadershipPointsPlaced": ("from", "to"), "LeadershipPointsUsed": ("unit",),
    "BraveryTested": ("unit", "brv_from"), "ShotFired": ("shooter", "target", "spotter", "passengers"),
    "CohesionLost": ("unit",), "CohesionRestored": ("unit", "by"), "AmmoStateChanged": ("unit", "by"),
    "CloseCombatResolved": ("fall_back", "pursue"), "VehicleDamaged": ("vehicle",),
    "VehicleRammed": ("vehicles",), "UnitRunOver": ("vehicle", "unit"),
    "VehicleAssaulted": ("unit", "vehicle"),
}
# Unit ids one level down, for tabletop.references_in.
NESTED_REFERENCES: dict[str, tuple[str, ...]] = {
    "CloseCombatFought": ("sides[].units",), "CloseCombatResolved": ("results[].unit",),
}
# Where units come into the game: listed before they deploy (ARMY.SUBTERFUGE targets a unit
# "Before either army deploys"; an Ambush unit deploys in its first turn's move).
DECLARES: dict[str, tuple[str, ...]] = {"ArmyListed": ("units[].unit",), "UnitDeployed": ("unit",)}

ROLES = ("aggressor", "repeller")


class Side(core.Side):
    """"`GameStarted.sides.<side>.role` (`aggressor` | `repeller`) is required"."""

    role: Literal[ROLES]  # type: ignore[valid-type]


class GameStarted(core.GameStarted):
    sides: dict[str, Side]


START = GameStarted  # what a game of this rule system starts with (RuleSet.start_schema)


def start_problem(event_type: str, data: dict) -> tabletop.Problem:
    """"`GameStarted.sides.<side>.role` (`aggressor` | `repeller`) is required"."""
    if event_type != "GameStarted":
        return None
    for side, spec in data.get("sides", {}).items():
        role = spec.get("role") if isinstance(spec, dict) else None
        if role not in ROLES:
            return f"data.sides.{side}.role", f"{role!r}: each side's role is {' or '.join(ROLES)}"
    return None


geometry_problem = partial(tabletop.geometry_problem, events=EVENTS)
check_line, advance_line = tabletop.line_checks(EVENTS, start_problem)
