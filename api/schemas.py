"""Request and response bodies of the API (the OpenAPI schema is made from these)."""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

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
