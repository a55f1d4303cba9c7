"""The board's fold of the machines' extensions of the log (docs/game-log-extensions.md).

- `Embarked`: the units go aboard the carrier (`attrs.aboard`, and `attrs.car` on a train) and stand
  in its hex; `Disembarked`: they leave it, in its hex or at the `location` given; while aboard they
  move with it (a `UnitMoved` of the carrier moves them too).
- A catalogue vehicle that the text says moves as another class (the 47 mm armoured car "as a truck",
  the Benz "as a tank for movement") moves in that class unless its counter says otherwise
  (`attrs.movement_class`, read by the movement checks).
The fold only says where things are; whether boarding was allowed is judged by vehicles_carrying.py.
"""
from __future__ import annotations

from typing import Any

from domain.board.state import HANDLERS as CORE, BoardState
from domain.rules.infernal_machines.vehicles import spec_of


def deployed(s: BoardState, line: dict[str, Any]) -> None:
    CORE["UnitDeployed"](s, line)
    unit = s.units[line["data"]["unit"]]
    if unit.attrs.get("aboard"):      # set up aboard (a train's crew, a boat's guns): it moves with its carrier
        s.extra.setdefault("aboard", {}).setdefault(str(unit.attrs["aboard"]), []).append(unit.unit)
    spec = spec_of(unit)
    if spec is not None and spec.get("moves_as") and "movement_class" not in unit.attrs:
        unit.attrs["movement_class"] = spec.get("moves_as")


def moved(s: BoardState, line: dict[str, Any]) -> None:
    CORE["UnitMoved"](s, line)
    aboard = s.extra.get("aboard")
    if aboard and line["data"]["unit"] in aboard:
        carrier = s.units[line["data"]["unit"]]
        for name in aboard[carrier.unit]:
            s.units[name].location = carrier.location


def embarked(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    carrier = s.units[d["carrier"]]
    aboard = s.extra.setdefault("aboard", {})    # carrier -> its passengers, for the moves
    for name in d["units"]:
        unit = s.units[name]
        if unit.attrs.get("aboard") in aboard:
            aboard[unit.attrs["aboard"]].remove(name)
        aboard.setdefault(carrier.unit, []).append(name)
        unit.attrs["aboard"] = carrier.unit
        if d.get("car") is not None:
            unit.attrs["car"] = d["car"]
        unit.location = carrier.location
        unit.last_seq = line["seq"]


def disembarked(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    carrier = s.units[d["carrier"]]
    aboard = s.extra.setdefault("aboard", {})
    for name in d["units"]:
        unit = s.units[name]
        if name in aboard.get(unit.attrs.get("aboard"), ()):
            aboard[unit.attrs["aboard"]].remove(name)
        unit.attrs.pop("aboard", None)
        unit.attrs.pop("car", None)
        unit.location = d.get("location") or carrier.location
        unit.last_seq = line["seq"]


HANDLERS = {"UnitDeployed": deployed, "UnitMoved": moved, "Embarked": embarked, "Disembarked": disembarked}
