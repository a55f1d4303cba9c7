"""The board of a tabletop game (game-log-tabletop.md): its table, each unit's base where it
stands and faces, markers, decks and what the rule system keeps beside them. One handler per
event type, as the hex board's (domain/board/state.py); a rule system adds its own to these."""
from __future__ import annotations

import copy
from typing import Any, Callable

from domain.board.state import BoardState, UnitState
from domain.tabletop.events import deck_cards

Handler = Callable[[BoardState, dict[str, Any]], None]

# Statuses that lift another ("unsuppressed" ends "suppressed", ...), on both tabletop rulesets.
LIFTS = {"unsuppressed": "suppressed", "restarted": "broken-down", "rallied": "shaken",
         "suppression-ignored": "suppressed"}


def _table(s: BoardState, line: dict[str, Any]) -> None:
    s.table = copy.deepcopy(line["data"])


def _deployed(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    s.units[d["unit"]] = UnitState(
        unit=d["unit"], side=line.get("side"), unit_class=d.get("class") or "", type=d.get("type"),
        position=_point(d["position"]), facing=d.get("facing"), footprint=dict(d["footprint"]),
        figures=copy.deepcopy(d.get("figures")), figure_base=d.get("figure_base"),
        turret=copy.deepcopy(d.get("turret")), attrs=copy.deepcopy(d.get("attrs", {})),
        status=list(s.extra.get("statuses_before_deployment", {}).get(d["unit"], [])),
        deployed_seq=line["seq"], last_seq=line["seq"])


def _moved(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    unit = s.units[d["unit"]]
    for point in d["path"]:  # "a point may carry f, the facing on arrival (omitted: unchanged)"
        if point.get("f") is not None:
            unit.facing = point["f"]
    unit.position = _point(d["path"][-1])
    if d.get("figures") is not None:
        unit.figures = copy.deepcopy(d["figures"])
    unit.last_seq = line["seq"]


def _status(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    status = d["status"]
    unit = s.units.get(d["unit"])
    if unit is None:  # listed, not yet deployed (AVBCW "not-arrived"): it carries it when it deploys
        s.extra.setdefault("statuses_before_deployment", {}).setdefault(d["unit"], []).append(status)
        return
    unit.last_seq = line["seq"]
    lifted = LIFTS.get(status)
    if lifted is not None:
        unit.status = [st for st in unit.status if st != lifted]
        return
    if status not in unit.status:
        unit.status.append(status)


def _embarked(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    s.units[d["unit"]].attrs["aboard"] = d["vehicle"]


def _disembarked(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    unit = s.units[d["unit"]]
    unit.attrs.pop("aboard", None)
    if d.get("figures"):
        unit.figures = copy.deepcopy(d["figures"])


def _deck_defined(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    s.extra.setdefault("decks", {})[d["deck"]] = {"cards": len(deck_cards(d)), "drawn": []}


def _deck_shuffled(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    deck = s.extra.setdefault("decks", {}).setdefault(d["deck"], {"cards": 0, "drawn": []})
    returned = d.get("returned")
    deck["drawn"] = [] if returned == "all" else [c for c in deck["drawn"] if c not in (returned or [])]


def _card_drawn(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    s.extra.setdefault("decks", {}).setdefault(d["deck"], {"cards": 0, "drawn": []})["drawn"].append(d["card"])


def _marker_placed(s: BoardState, line: dict[str, Any]) -> None:
    marker = {k: copy.deepcopy(v) for k, v in line["data"].items() if v is not None}
    s.markers.append(marker | {"seq": line["seq"], "turn": line["turn"], "side": line.get("side")})


def _marker_removed(s: BoardState, line: dict[str, Any]) -> None:
    d = line["data"]
    key = ("id", d["id"]) if "id" in d else ("marker", d.get("marker"))
    s.markers = [m for m in s.markers if m.get(key[0]) != key[1]]


def _point(value: dict[str, Any]) -> dict[str, float]:
    return {"x": value["x"], "y": value["y"]}


HANDLERS: dict[str, Handler] = {
    "TableDefined": _table, "UnitDeployed": _deployed, "UnitMoved": _moved, "UnitStatusChanged": _status,
    "UnitEmbarked": _embarked, "UnitDisembarked": _disembarked, "DeckDefined": _deck_defined,
    "DeckShuffled": _deck_shuffled, "CardDrawn": _card_drawn, "MarkerPlaced": _marker_placed,
    "MarkerRemoved": _marker_removed,
}
