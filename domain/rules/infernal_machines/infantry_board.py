"""The board's fold of the infantry extensions of the log (docs/game-log-extensions.md).

Breaking up Sturmtruppen platoons: "Simply remove the Sturmtruppen platoon and replace it with
four Sturmtruppen squads" (`PlatoonBrokenUp`), and "To be reconstituted as a platoon, the four
Sturmtruppen squads must be non-pinned and be in the same hexagon" (`PlatoonReformed`). The fold
only says where things are; whether the break-up or the re-forming was allowed is judged by
`infantry.py`.
"""
from __future__ import annotations

import copy
from typing import Any

from domain.board.state import BoardState, UnitState

SQUAD_CLASS = "infantry-squad"


def broken_up(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    platoon = s.units[d["platoon"]]
    for squad in d["squads"]:
        attrs = {**copy.deepcopy(platoon.attrs), "platoon": platoon.unit}
        attrs.pop("broken_up", None)
        # "these Sturmtruppen squads behave as ordinary squads (see rule 7.11 of IM)": squads have a
        # firepower of 1 and a range of 9 with their inherent light machine gun (Infantry squads)
        s.units[squad] = UnitState(unit=squad, side=platoon.side, unit_class=SQUAD_CLASS, name=squad,
                                   location=platoon.location, facing=platoon.facing, firepower=1, range=9,
                                   movement=platoon.movement, attrs=attrs, deployed_seq=line["seq"],
                                   last_seq=line["seq"])
    platoon.attrs["broken_up"] = True
    platoon.location = None
    platoon.last_seq = line["seq"]


def reformed(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    platoon = s.units[d["platoon"]]
    squads = [s.units[q] for q in d["squads"]]
    platoon.location = next((q.location for q in squads if q.location), platoon.location)
    platoon.attrs.pop("broken_up", None)
    platoon.last_seq = line["seq"]
    for squad in squads:
        squad.location = None
        squad.attrs["reformed"] = True
        squad.last_seq = line["seq"]


HANDLERS = {"PlatoonBrokenUp": broken_up, "PlatoonReformed": reformed}
