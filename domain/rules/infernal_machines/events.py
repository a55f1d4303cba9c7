"""Infernal Machines' event schemas: the hex game's events of game-log.md, beside the core ones
of domain/events.py (game, turns, phases, dice, disputes and rulings)."""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import AfterValidator, BaseModel, Field, WrapValidator, field_validator, model_validator

from domain.events import STRICT, Data
from domain.locations import HexLocation, HexPath, MapHex, check_hexes

PHASES = (  # game-log.md, Phases (Infernal Machines); "start" is the TurnStarted phase
    "setup", "start", "pin-removal", "barrage", "air-combat", "vehicle-movement",
    "first-foot-movement", "second-foot-movement", "defensive-anti-tank-fire",
    "defensive-small-arms-fire", "offensive-anti-tank-fire", "offensive-small-arms-fire",
    "close-combat", "end",
)
UNIT_CLASSES = (
    "infantry-platoon", "infantry-squad", "mg-platoon", "cavalry-platoon", "crew",
    "forward-observer", "liaison-officer", "infantry-leader", "support-weapon",
    "artillery-gun", "mortar", "tank", "armoured-car", "light-vehicle", "armoured-train",
    "boat", "aircraft", "balloon",
)
MISSIONS = (
    "destruction", "counter-battery", "neutralisation", "suppression", "interdiction",
    "simple-creeping", "double-creeping", "gas",
)
UNIT_STATUSES = (
    "pinned", "unpinned", "eliminated", "retreated", "dismounted", "prone", "standing",
    "fatigued", "broken-down", "repaired", "mounted",
)


def _as_written(value: Any, handler: Any) -> Any:
    """Checked as a number, kept as the log wrote it: 40 stays 40, not 40.0 (the typed event holds
    what is stored, and a rule that prints or records it shows the log's number)."""
    handler(value)
    return value


Number = Annotated[float, WrapValidator(_as_written)]


class HexSpec(BaseModel):
    model_config = STRICT
    terrain: str = "clear"
    features: list[str] = Field(default_factory=list)
    elevation: int = 0


class Hexside(BaseModel):
    model_config = STRICT
    between: Annotated[list[MapHex], Field(min_length=2, max_length=2), AfterValidator(check_hexes)]
    feature: str


class MapDefined(Data):
    maps: list[Any]
    hexes: Annotated[dict[MapHex, HexSpec], AfterValidator(check_hexes)] = Field(default_factory=dict)
    hexsides: list[Hexside] = Field(default_factory=list)


class WeatherSet(Data):
    weather: Literal["fair", "bad"]
    terrain_state: Literal["good", "difficult", "mud", "snow", "deep-snow"]


class ArtilleryMissionSet(Data):
    side: str
    mission: str


class BarrageTypesSet(Data):
    side: str
    allowed: list[str]


class UnitDeployed(Data):
    unit: str
    class_: str = Field(alias="class")
    name: Optional[str] = None
    location: Optional[HexLocation] = None
    facing: Optional[int] = None
    morale: Optional[int] = None
    firepower: Optional[Number] = None
    range: Optional[int] = None
    movement: Optional[Number] = None
    attrs: dict[str, Any] = Field(default_factory=dict)

    @field_validator("class_")
    @classmethod
    def _class(cls, v):
        if v not in UNIT_CLASSES:
            raise ValueError(f"unknown unit class {v!r}; one of {', '.join(UNIT_CLASSES)}")
        return v


class ArtilleryElementAssigned(Data):
    element: str
    side: str
    firepower: int = Field(ge=0)  # 5..40 is a rule (IM.ART.GEN.FP), judged by the auditor
    artillery_points: Optional[int] = None


class MarkerPlaced(Data):
    marker: str
    location: Optional[HexLocation] = None
    unit: Optional[str] = None
    turns: Optional[int] = None


class MarkerRemoved(MarkerPlaced):
    pass



class UnitMoved(Data):
    unit: str
    path: HexPath
    mode: Optional[Literal["normal", "run", "trot", "gallop", "ski", "crawl"]] = None


class UnitStatusChanged(Data):
    unit: str
    status: str
    turns: Optional[int] = None
    cause: Optional[str] = None

    @field_validator("status")
    @classmethod
    def _status(cls, v):
        if v not in UNIT_STATUSES:
            raise ValueError(f"unknown status {v!r}; one of {', '.join(UNIT_STATUSES)}")
        return v


class MoraleChecked(Data):
    units: list[str]
    morale: Optional[int] = None
    passed: bool



class Spotted(Data):
    spotter: str
    target: HexLocation
    spotted: bool


class SmallArmsFired(Data):
    attack: str
    firers: list[str] = Field(min_length=1)
    target: HexLocation
    firepower: Optional[Number] = None
    range: Optional[int] = None


class AttackResult(BaseModel):
    model_config = STRICT
    unit: str
    result: Literal["no-effect", "hit", "pinned", "eliminated", "retreated"]


class SmallArmsResolved(Data):
    attack: str
    results: list[AttackResult] = Field(default_factory=list)


class HexObserved(Data):
    observer: Optional[str] = None
    target: HexLocation
    via: Literal["forward-observer", "liaison-officer", "aircraft", "balloon", "automatic"]


class BarrageDeclared(Data):
    barrage: str
    side: str
    target: Optional[HexLocation] = None
    elements: list[str] = Field(min_length=1)
    mission: str
    # Left out only by a destruction mission against an objective under the ammunition-consumption
    # option ("barrage type need not be specified for this action": docs/game-log-extensions.md)
    barrage_type: Optional[Literal["drumfire", "hurricane"]] = None
    ammunition: Literal["he", "shrapnel", "smoke", "gas"]
    observer: Optional[str] = None
    sustained: bool = False
    objective: Optional[Literal["strongpoint", "wire", "gun"]] = None
    target_element: Optional[str] = None

    @field_validator("mission")
    @classmethod
    def _mission(cls, v):
        if v not in MISSIONS:
            raise ValueError(f"unknown mission {v!r}; one of {', '.join(MISSIONS)}")
        return v

    @model_validator(mode="after")
    def _barrage_type_given(self):
        if self.barrage_type is None and not (self.mission == "destruction" and self.objective is not None):
            raise ValueError("barrage_type is required (drumfire or hurricane); only a destruction mission "
                             "against an `objective` may leave it out")
        return self


class ArtilleryPointsSpent(Data):
    element: str
    points: int = Field(ge=0)
    reason: Optional[str] = None
    barrage: Optional[str] = None


class CommunicationTested(Data):
    barrage: str
    link: Literal["fo-artillery", "lno-fo"]
    in_communication: bool


class FireOrderChecked(Data):
    barrage: str
    # The resistance column as a number, or as the text of one ("1", as BCRT columns are
    # written): both are the same JSON value to the auditor, which reads either.
    column: Union[Annotated[int, Field(ge=0)], Annotated[str, Field(pattern=r"^[0-9]{1,4}$")]]
    modifiers: list[Any] = Field(default_factory=list)
    granted: bool
    result: Optional[str] = None


class ScatterTested(Data):
    barrage: str
    element: Optional[str] = None
    scattered: bool
    new_target: Optional[HexLocation] = None


class ZoneResult(BaseModel):
    model_config = STRICT
    location: HexLocation
    zone: Literal["primary", "secondary"]
    result: str


class BarrageResolved(Data):
    barrage: str
    element: Optional[str] = None
    firepower: int
    column: str

    @field_validator("column", mode="before")
    @classmethod
    def _column(cls, v):
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v
    results: list[ZoneResult] = Field(default_factory=list)


class BarrageCancelled(Data):
    barrage: str
    reason: Literal["no-communication", "fire-order-refused", "sustained-ended", "other"]


class ArtilleryElementEliminated(Data):
    element: str
    by: Optional[str] = None


# -- Optional extensions of game-log.md (docs/game-log-extensions.md): the ground war --------------
class CloseCombatFought(Data):
    """A close combat (Landships! CACRT): `attackers` enter or assault `location`, the hex of the
    `defenders`; `column` is the CACRT column the players read, `shifts` the column shifts they
    applied ({value, why}: +1 toward the attacker), and its `DieRolled` (purpose `LS.CACRT`,
    subject `combat`) follows."""
    combat: str
    location: HexLocation
    attackers: list[str] = Field(min_length=1)
    defenders: list[str] = Field(default_factory=list)
    column: Optional[Union[int, str]] = None
    shifts: list[Any] = Field(default_factory=list)


class CloseCombatResult(BaseModel):
    model_config = STRICT
    unit: str
    result: Literal["no-effect", "pinned", "eliminated", "retreated", "captured"]


class CloseCombatResolved(Data):
    combat: str
    results: list[CloseCombatResult] = Field(default_factory=list)


class PlatoonBrokenUp(Data):
    """Breaking up Sturmtruppen platoons: the platoon leaves the board and `squads` (four new
    infantry squads, Sturmtruppen, in its hex) take its place."""
    platoon: str
    squads: list[str] = Field(min_length=1)


class PlatoonReformed(Data):
    """The four squads of a broken-up Sturmtruppen platoon leave the board; the platoon returns in
    their hex."""
    platoon: str
    squads: list[str] = Field(min_length=1)


# -- optional extensions of game-log.md (docs/game-log-extensions.md): the ground war's events ------
class AntiTankFired(Data):
    """Anti-tank fire (an AT gun or rifle, a vehicle's gun, the 37 mm) at one vehicle; its to-hit roll
    (`LS.ATCRT`) and the rolls that follow a hit (`IM.SW.ATR.CRIT`, ...) are DieRolled about `attack`."""
    attack: str
    firers: list[str] = Field(min_length=1)
    target: HexLocation
    target_unit: Optional[str] = None
    weapon: Optional[str] = None
    range: Optional[int] = None
    column: Optional[str] = None


class ShotResult(BaseModel):
    model_config = STRICT
    unit: str
    result: str


class AntiTankResolved(Data):
    attack: str
    results: list[ShotResult] = Field(default_factory=list)

# -- optional extensions of game-log.md (docs/game-log-extensions.md): the machines' passengers -------
class Embarked(Data):
    """Units board a `carrier` (a truck, motorcycles, a Mk V* or IX, the Benz, a train, a boat); a train's
    `car` is its place behind the locomotive (1, 2, ...). Aboard, they move with the carrier."""
    carrier: str
    units: list[str] = Field(min_length=1)
    car: Optional[int] = None


class Disembarked(Data):
    """Units leave their `carrier`, in its hex or at `location` (next to a boat)."""
    carrier: str
    units: list[str] = Field(min_length=1)
    location: Optional[HexLocation] = None


EVENTS: dict[str, type[Data]] = {
    cls.__name__: cls
    for cls in (
        MapDefined, WeatherSet, ArtilleryMissionSet, BarrageTypesSet, UnitDeployed,
        ArtilleryElementAssigned, MarkerPlaced, MarkerRemoved, UnitMoved, UnitStatusChanged,
        MoraleChecked, Spotted, SmallArmsFired, SmallArmsResolved, HexObserved, BarrageDeclared,
        ArtilleryPointsSpent, CommunicationTested, FireOrderChecked, ScatterTested, BarrageResolved,
        BarrageCancelled, ArtilleryElementEliminated, CloseCombatFought, CloseCombatResolved,
        PlatoonBrokenUp, PlatoonReformed, AntiTankFired, AntiTankResolved, Embarked, Disembarked,
    )
}
