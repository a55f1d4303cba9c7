"""The off-map artillery element (OBM): its firepower, its artillery points and what it spent.

What it refuses is what the log format refuses: a negative firepower or spend (game-log.md
`ArtilleryElementAssigned.firepower`, `ArtilleryPointsSpent.points`: whole numbers, never
below 0) and a change out of seq order.

What it does not refuse, because the log records illegal play and the auditor judges it:
- a spend beyond the element's points. "Reject any spend that would take an OBM's cumulative
  total above 25" (rules-catalogue.md, IM.ART.AMMOCON.COST) is a rule of play: the auditor
  reports it as a violation of IM.ART.AMMOCON.COST.CAP, so the log must hold it. The element
  keeps the count: `points_left` goes below 0 and `overspent` says so;
- a spend in a game without the ammunition option, or by an element with no points recorded
  (IM.ART.AMMOCON.ENABLE: "Points are tracked on paper"; the auditor reports the spend):
  `points_left` is then None, there being no budget to count against;
- a spend or a second elimination after the element was eliminated (recorded, and marked
  `after_elimination` in its history).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, Optional

from eventsourcing.domain import event

from domain.model.base import LedgerAggregate, LedgerInvariantError, check_order
from domain.model.ids import element_uuid


class NegativeSpendError(LedgerInvariantError):
    """A spend of fewer than 0 points: artillery points are spent, never given back
    (IM.ART.AMMOCON.SEQUENCE: "Spent points are not refunded on scatter")."""

    def __init__(self, element: str, points: Any):
        self.points = points
        super().__init__(f"element {element!r}: a spend is 0 points or more, not {points!r}")


class NegativeFirepowerError(LedgerInvariantError):
    """An element assigned a firepower below 0. Only the sign is the format's: 5..40
    (IM.ART.GEN.FP) is a rule the auditor judges, so 0..4 and above 40 are kept."""

    def __init__(self, element: str, firepower: Any):
        super().__init__(f"element {element!r}: firepower is 0 or more, not {firepower!r}")


def _whole(value: Any) -> bool:
    return type(value) is int  # bool is an int subclass, and no count of points is true or false


class OffMapArtilleryElement(LedgerAggregate):
    @staticmethod
    def create_id(game: str, element: str, side: str, firepower: int,
                  artillery_points: Optional[int], seq: int):
        return element_uuid(game, element)

    class Assigned(LedgerAggregate.Created):
        """The class the `@event("Assigned")` decorator made before, with the same topic and
        fields, so that stored elements load as they are."""

        game: str
        element: str
        side: str
        firepower: int
        artillery_points: Optional[int]
        seq: int

        def change(self, aggregate: "OffMapArtilleryElement") -> dict[str, Any]:
            return {"change": "assigned", "side": self.side, "firepower": self.firepower,
                    "artillery_points": self.artillery_points}

    @event(Assigned)
    def __init__(self, game: str, element: str, side: str, firepower: int,
                 artillery_points: Optional[int], seq: int):
        # A stored Assigned passed this check when it was stored: replaying it never raises.
        if not _whole(firepower) or firepower < 0:
            raise NegativeFirepowerError(element, firepower)
        self.game = game
        self.element = element
        self.side = side
        self.firepower = firepower
        self.artillery_points = artillery_points
        self.points_spent = 0
        self.eliminated = False
        self.eliminated_seq: Optional[int] = None
        self.last_seq = seq

    class PointsSpent(LedgerAggregate.Event):
        points: int
        seq: int

        def apply(self, aggregate: "OffMapArtilleryElement") -> None:
            aggregate.points_spent += self.points
            aggregate.last_seq = self.seq

        def change(self, aggregate: "OffMapArtilleryElement") -> dict[str, Any]:
            return {"change": "points-spent", "points": self.points, "points_spent": aggregate.points_spent,
                    "points_left": aggregate.points_left, "after_elimination": aggregate.eliminated}

    class Eliminated(LedgerAggregate.Event):
        seq: int

        def apply(self, aggregate: "OffMapArtilleryElement") -> None:
            if not aggregate.eliminated:
                aggregate.eliminated_seq = self.seq
            aggregate.eliminated = True
            aggregate.last_seq = self.seq

        def change(self, aggregate: "OffMapArtilleryElement") -> dict[str, Any]:
            return {"change": "eliminated", "after_elimination": aggregate.eliminated_seq != self.seq}

    @property
    def points_left(self) -> Optional[int]:
        """The recorded points less those spent (below 0 when overspent); None when the log
        gave the element no points."""
        if self.artillery_points is None:
            return None
        return self.artillery_points - self.points_spent

    @property
    def overspent(self) -> bool:
        """Whether the element spent more points than it was given (recorded, not refused)."""
        left = self.points_left
        return left is not None and left < 0

    def spend(self, points: int, seq: int, timestamp: Optional[datetime] = None) -> None:
        check_order(f"element {self.element!r}", seq, self.last_seq)
        if not _whole(points) or points < 0:
            raise NegativeSpendError(self.element, points)
        self.trigger_event(self.PointsSpent, points=points, seq=seq, timestamp=timestamp)

    def eliminate(self, seq: int, timestamp: Optional[datetime] = None) -> None:
        check_order(f"element {self.element!r}", seq, self.last_seq)
        self.trigger_event(self.Eliminated, seq=seq, timestamp=timestamp)
