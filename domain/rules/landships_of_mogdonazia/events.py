"""Landships of Mogdonazia's event schemas: the Landships of Mogdonazia table of
game-log-tabletop.md, beside the core events (domain/events.py) and the tabletop ones both
miniatures rulesets share (domain/tabletop/events.py)."""
from __future__ import annotations

from functools import partial
from typing import Annotated, Literal, Optional, Union

from pydantic import BaseModel, Field, model_validator

from domain.events import STRICT, Data
from domain.tabletop import events as tabletop
from domain.tabletop.events import Angle, Count, Inches, Point, TabletopData

# "Phases: setup, movement, shooting, close-combat, end (Umpire's, for the per-turn rolls)";
# "start" is the TurnStarted phase (game-log.md).
PHASES = ("setup", "start", "movement", "shooting", "close-combat", "end")

Face = Annotated[int, Field(ge=1, le=6)]  # a d6's face (a D3 is "a d6 read as ceil(face/2)")
WEAPON_CLASS = Literal["gun", "artillery", "machine-gun", "small-arms"]


class KeyFigure(BaseModel):
    model_config = STRICT
    figure: str
    carries: Literal["tesla-rifle", "flame-rifle", "congreve", "jump-pack"]


class UnitDeployed(tabletop.UnitDeployed):
    """Tabletop form, with `class`: vehicle|figures; figures: `type` (TSATF), `figures`,
    `key_figures`. Here `figures` is the count the page's example gives (`"figures": 20`), or the
    figures' points of the tabletop form."""

    class_: Literal["vehicle", "figures"] = Field(alias="class")
    figures: Optional[Union[Annotated[int, Field(ge=1)], list[Point]]] = None
    # Listed without `?`, yet the page's example deploys a figures unit (`r-1`) without it: a
    # unit carrying none of the key weapons lists none.
    key_figures: Optional[list[KeyFigure]] = None

    @model_validator(mode="after")
    def _figures_unit(self):
        if self.class_ == "figures" and (self.type is None or self.figures is None):
            raise ValueError(f"unit {self.unit!r} of class figures gives its `type` and `figures`")
        return self


class BuiltWeapon(BaseModel):
    model_config = STRICT
    weapon: str
    type: str
    mount: Literal["forward", "sponson", "turret"]
    # "bearing (from the hull front)": the page's example omits it for a turret ("turret 360°");
    # a sponson turns "180° about bearing", so it has one.
    bearing: Optional[Angle] = None
    crew: Count

    @model_validator(mode="after")
    def _sponson_bearing(self):
        if self.mount == "sponson" and self.bearing is None:
            raise ValueError(f"sponson weapon {self.weapon!r} gives its `bearing` (it fires 180° about it)")
        return self


class VehicleBuilt(TabletopData):
    unit: str
    kind: Literal["landship", "airship", "airplane", "powered-armour", "clockwork"]
    looks: Literal["armoured", "unarmoured", "neither"]
    open_topped: bool
    speed_dice: Count  # "roll a D6. This is the number of dice" (VEH.SPEED judges it)
    target_class: Annotated[int, Field(ge=1, le=4)]
    crew: Count
    weapons: list[BuiltWeapon]
    operator: Optional[str] = None  # a Clockwork's


class BreakdownTested(TabletopData):
    unit: str
    kind: Literal["breakdown", "restart"]
    terrain: Literal["road", "off-road", "rough"]
    broke_down: Optional[bool] = None  # kind breakdown
    restarted: Optional[bool] = None   # kind restart

    @model_validator(mode="after")
    def _outcome(self):
        outcome = "broke_down" if self.kind == "breakdown" else "restarted"
        if getattr(self, outcome) is None:
            raise ValueError(f"a {self.kind} test records `{outcome}`")
        return self


class RepairAttempted(TabletopData):
    unit: str
    system: str
    repaired: bool
    operator: Optional[str] = None


class ShotFired(tabletop.ShotFired):
    target_part: Literal["vehicle", "crew"]
    weapon_class: WEAPON_CLASS
    fires_as: Optional[str] = None  # a TSATF column
    moved: Optional[bool] = None


class ShotResolved(tabletop.ShotResolved):
    # Listed without `?`, yet the page's example resolves a shot without it: the 20s can be read
    # off the TSATF.FIRE roll's faces.
    twenties: Optional[Count] = None


class HitCardResolved(TabletopData):
    attack: str
    target: str
    weapon_class: WEAPON_CLASS
    card: str
    outcome: Literal["none", "critical", "destroyed", "wound", "killed", "shut-down", "critical-each-turn"]


class CriticalHit(TabletopData):
    unit: str
    chart: Literal["vehicle", "airship", "clockwork"]
    result: Face
    sub_roll: Optional[Face] = None
    effect: str


class ExplosionFigure(BaseModel):
    model_config = STRICT
    unit: str
    distance: Inches
    survived: bool


class ExplosionResolved(TabletopData):
    unit: str
    figures: list[ExplosionFigure]


class CasualtiesTaken(TabletopData):
    unit: str
    killed: Count
    wounded: Count
    cause: str
    attack: Optional[str] = None


class JumpPackTested(TabletopData):
    unit: str
    figure: Union[str, Count]  # a key figure's name, or its index (the page gives no form)
    result: Face


class BombDropped(TabletopData):
    plane: str
    results: Annotated[list[Face], Field(min_length=2, max_length=2)]  # [dark, light]
    direction: Angle  # "bearing measured at the table"
    point: Point
    hit: bool


class VehicleCombat(BaseModel):
    """Close combat "as AVBCW, plus step?: latch|hatch|crew, crew_as?: cavalry" (on both events)."""

    model_config = STRICT
    step: Optional[Literal["latch", "hatch", "crew"]] = None
    crew_as: Optional[Literal["cavalry"]] = None


class CloseCombatFought(tabletop.CloseCombatFought, VehicleCombat):
    pass


class CloseCombatResolved(tabletop.CloseCombatResolved, VehicleCombat):
    pass


# UnitStatusChanged: "statuses here": these only.
STATUSES = ("broken-down", "restarted", "immobilized", "half-speed", "shaken", "rallied", "aboard",
            "abandoned", "destroyed", "wounded", "shut-down", "crashing", "bomb-in-cockpit")
UnitStatusChanged = tabletop.status_event(STATUSES)

EVENTS: dict[str, type[Data]] = {
    **tabletop.SHARED_EVENTS,
    "UnitStatusChanged": UnitStatusChanged,
    **{cls.__name__: cls for cls in (
        UnitDeployed, VehicleBuilt, BreakdownTested, RepairAttempted, ShotFired, ShotResolved,
        HitCardResolved, CriticalHit, ExplosionResolved, CasualtiesTaken, JumpPackTested, BombDropped,
        CloseCombatFought, CloseCombatResolved)},
}

# Data fields naming units, in the shape of domain/log.py's UNIT_REFS (a unit id or a list).
# A Clockwork's `operator` is left out: the seed's operator is a figure ("an operator can be
# removed instead"), not necessarily a unit of its own.
REFERENCES: dict[str, tuple[str, ...]] = {
    "UnitMoved": ("unit",), "UnitEmbarked": ("unit", "vehicle"), "UnitDisembarked": ("unit", "vehicle"),
    "UnitStatusChanged": ("unit",), "VehicleBuilt": ("unit",), "BreakdownTested": ("unit",),
    "RepairAttempted": ("unit",), "ShotFired": ("shooter", "target"), "HitCardResolved": ("target",),
    "CriticalHit": ("unit",), "ExplosionResolved": ("unit",), "CasualtiesTaken": ("unit",),
    "JumpPackTested": ("unit",), "BombDropped": ("plane",), "CloseCombatResolved": ("fall_back", "pursue"),
}
NESTED_REFERENCES: dict[str, tuple[str, ...]] = {
    "CloseCombatFought": ("sides[].units",), "CloseCombatResolved": ("results[].unit",),
    "ExplosionResolved": ("figures[].unit",),
}
DECLARES: dict[str, tuple[str, ...]] = {"UnitDeployed": ("unit",)}

geometry_problem = partial(tabletop.geometry_problem, events=EVENTS)
check_line, advance_line = tabletop.line_checks(EVENTS)
