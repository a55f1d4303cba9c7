"""Request and response bodies of the API (the OpenAPI schema is made from these)."""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from api.limits import MAX_BATCH


class Health(BaseModel):
    status: str
    store: Literal["sqlite", "postgresql"]


class EventBatch(BaseModel):
    """Lines of the log format (objects, or JSON strings), `seq` included, `prev` optional on
    the first; `by` and `at` are stamped by the service."""

    model_config = ConfigDict(extra="forbid")
    # Any item is taken here and refused by the log's reader with its line (an event must be
    # an object, or a JSON string of one), so that the error names the line, not a union member.
    events: list[Annotated[Any, WithJsonSchema({"anyOf": [{"type": "object"}, {"type": "string"}]})]] = Field(
        max_length=MAX_BATCH, description="events in order; the first continues the game at its next seq")


class AppendAnswer(BaseModel):
    game: str
    appended: int
    first_seq: int
    last_seq: int
    status: Literal["created", "appended"]
    head: str = Field(description="the hash of the last stored line: the `prev` of the game's next event")


class ImportAnswer(BaseModel):
    game: str
    appended: int
    last_seq: int
    status: Literal["created", "appended", "unchanged"]


class EventsPage(BaseModel):
    events: list[dict[str, Any]]
    next: Optional[int] = Field(description="the `from` of the next page, or null at the end")


class EventAnswer(BaseModel):
    """The event the service appended, as stored."""

    event: dict[str, Any]


class RollRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    purpose: str = Field(min_length=1, max_length=200, description="the rule id whose procedure asks for the roll")
    die: str = Field(description="d6, d10, d20 or kdN (several dice summed)")
    subject: Optional[str] = Field(default=None, max_length=200)
    side: Optional[str] = Field(default=None, description="referee or admin only: the side that rolls")
    modifiers: list[dict[str, Any]] = []


class DiceInfo(BaseModel):
    game: str
    commitment: str = Field(description="SHA-256 (hex) of the secret seed, published when the game was created")
    revealed: Optional[str] = Field(description="the seed (hex) once revealed, else null")
    revealed_at: Optional[str]


class DisputeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    about: int = Field(ge=1, description="the seq of the disputed event")
    claim: str = Field(min_length=1, max_length=5000)
    dispute: Optional[str] = Field(default=None, min_length=1, max_length=100,
                                   description="an id for the dispute (default dispute-SEQ)")


class RulingRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    dispute: str = Field(min_length=1, max_length=100)
    decision: Literal["upheld", "overturned", "house-rule"]
    rule: Optional[str] = Field(default=None, max_length=200)
    note: Optional[str] = Field(default=None, max_length=5000)
    corrections: list[dict[str, Any]] = Field(default=[], description="events that replace the disputed one's effect")
    interpretations: Optional[list[str]] = Field(
        default=None, description="a house rule's readings, NAME=READING, which the audit applies to the whole game")


class DisputeView(BaseModel):
    dispute: str
    seq: int
    about: int
    by: Optional[str]
    side: Optional[str]
    claim: str
    status: Literal["open", "ruled"]
    event: Optional[dict[str, Any]]
    rulings: list[dict[str, Any]]
    applications: list[dict[str, Any]]
    dice: list[dict[str, Any]]
    board: dict[str, Any]


class DisputeList(BaseModel):
    disputes: list[DisputeView]


# A hex location ("1:1210") or a tabletop point in inches ({"x", "y", "f"?}).
Place = Union[str, dict[str, Any]]


class UnitChange(BaseModel):
    """One change of a unit, from the log line `seq`."""

    seq: int
    change: Literal["deployed", "moved", "status-changed"]
    at: Optional[Place] = Field(default=None, description="deployed at, or moved to (the path's last point)")
    path: Optional[list[Place]] = Field(default=None, description="moved along (the first is the start)")
    status: Optional[str] = Field(default=None, description="the status it changed to")
    mode: Optional[str] = Field(default=None, description="how it moved (the log's mode; normal when the log gives "
                                "none); null for a move stored before moves kept their mode (docs/schema-evolution.md)")


class UnitView(BaseModel):
    """A unit as its aggregate holds it, and every change, read from its own stored events."""

    model_config = ConfigDict(populate_by_name=True)
    game: str
    unit: str
    side: Optional[str]
    class_: str = Field(alias="class")
    location: Optional[str] = Field(description="the hex it stands in (a hex game), else null")
    position: Optional[dict[str, Any]] = Field(description="the centre of its base in inches (a tabletop), else null")
    statuses: list[str] = Field(
        description="every status the log gave it, in order (the board says which are in force)")
    deployed_seq: int
    last_seq: int
    history: list[UnitChange]


class ElementChange(BaseModel):
    """One change of an off-map element, from the log line `seq`."""

    seq: int
    change: Literal["assigned", "points-spent", "eliminated"]
    side: Optional[str] = None
    firepower: Optional[int] = None
    artillery_points: Optional[int] = None
    points: Optional[int] = Field(default=None, description="the points this spend took")
    points_spent: Optional[int] = Field(default=None, description="spent so far, this spend included")
    points_left: Optional[int] = Field(default=None, description="left after this spend (below 0: overspent)")
    after_elimination: Optional[bool] = Field(default=None, description="recorded after the element was eliminated")


class ElementView(BaseModel):
    """An off-map element as its aggregate holds it, and every change, read from its own stored events."""

    game: str
    element: str
    side: str
    firepower: int
    artillery_points: Optional[int] = Field(description="the points the log gave it, or null")
    points_spent: int
    points_left: Optional[int] = Field(
        description="artillery_points less points_spent (below 0 when overspent), null without artillery_points")
    overspent: bool = Field(description="spent more than it was given: recorded, and judged by the auditor "
                                        "(IM.ART.AMMOCON.COST.CAP)")
    eliminated: bool
    eliminated_seq: Optional[int]
    last_seq: int
    history: list[ElementChange]
