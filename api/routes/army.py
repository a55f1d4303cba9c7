"""An army list checked and costed against the rulebook before a game (`umpire army check`)."""
from __future__ import annotations

from typing import Any, Optional, Union

from fastapi import APIRouter
from pydantic import BaseModel, Field

from api.deps import Viewer
from api.problems import ProblemError, responses
from domain.army_lists import DEFAULT_RULESET, ArmyError, ArmyListError, check_list
from domain.rules.interpretations import InterpretationError
from domain.rulesets import UnknownRuleSet

router = APIRouter(prefix="/api", tags=["army"])


class ArmyCheckRequest(BaseModel):
    army: dict[str, Any] = Field(description="what an ArmyListed event's data holds")
    ruleset: str = DEFAULT_RULESET
    interpretations: list[str] = Field(default=[], description="NAME=READING, e.g. avbcw-heavy-mortar-pts=4")


class ArmyCheckAnswer(BaseModel):
    legal: bool
    errors: list[ArmyError]
    costs: dict[str, Union[int, list[int], None]]
    total: Optional[int]


@router.post("/army/check", response_model=ArmyCheckAnswer, responses=responses(400, 401, 403, 413, 422))
def check_army_list(body: ArmyCheckRequest, _: Viewer) -> dict:
    """Check an army list: legal or not, each error with its rule id and the rulebook's words."""
    try:
        return check_list(body.army, body.ruleset, body.interpretations)
    except (UnknownRuleSet, InterpretationError) as err:
        raise ProblemError(422, "invalid-army-check", str(err)) from None
    except ArmyListError as err:
        raise ProblemError(422, "invalid-army-list", f"army.{err.field}: {err.message}", field=f"army.{err.field}")
