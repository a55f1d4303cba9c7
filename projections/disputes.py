"""Disputes and what bears on them: the rule applications, dice and board around the disputed event."""
from __future__ import annotations

from typing import Any, Callable, Iterator

from domain.board.state import BoardState
from domain.rules.engine import AuditReport


def referenced_ids(value: Any) -> set[str]:
    """Every string in an event's data: the units, elements, barrages, attacks and hexes it names."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(referenced_ids(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(referenced_ids(v) for v in value)) if value else set()
    return set()


def bearing(board: dict[str, Any], ids: set[str]) -> dict[str, Any]:
    """The board narrowed to the units, elements and markers the disputed event names (by id or
    hex); the whole board when it names none of them."""
    units = {k: u for k, u in board["units"].items() if k in ids or u.get("location") in ids}
    # a tabletop board has no off-map artillery elements, and its markers go by id at a point
    elements = {k: e for k, e in board.get("elements", {}).items() if k in ids}
    markers = [m for m in board["markers"] if m.get("location") in ids or m.get("unit") in ids
               or m.get("id") in ids]
    if not (units or elements or markers):
        return board
    narrowed = {**board, "units": units, "markers": markers}
    if "elements" in board:
        narrowed["elements"] = elements
    return narrowed


def _applications(report: AuditReport, about: int) -> list[dict[str, Any]]:
    return [a.to_json() for a in sorted(report.applications, key=lambda a: (a.seq, a.rule))
            if a.seq == about or about in a.related]


def dispute_views(lines: list[dict[str, Any]], report: AuditReport,
                  board_at: Callable[[int], BoardState]) -> Iterator[dict[str, Any]]:
    """Each `DisputeRaised` of a game with its rulings and the evidence around the disputed event."""
    by_seq = {line["seq"]: line for line in lines}
    rulings: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        if line["type"] == "RulingIssued":
            rulings.setdefault(line["data"].get("dispute"), []).append(line)
    for line in lines:
        if line["type"] != "DisputeRaised":
            continue
        data, about = line["data"], line["data"]["about"]
        event = by_seq.get(about)
        applications = _applications(report, about)
        seqs = {about} | {s for a in applications for s in [a["seq"], *a["related"]]}
        ids = referenced_ids(event["data"]) if event else set()
        dice = [d for d in lines if d["type"] == "DieRolled" and d["seq"] < line["seq"]
                and (d["seq"] in seqs or (d["data"].get("subject") is not None and d["data"]["subject"] in ids))]
        ruled = rulings.get(data["dispute"], [])
        yield {"dispute": data["dispute"], "seq": line["seq"], "about": about, "by": data.get("by"),
               "side": line.get("side"), "claim": data["claim"], "status": "ruled" if ruled else "open",
               "event": event, "rulings": ruled, "applications": applications, "dice": dice,
               "board": {"before": bearing(board_at(about - 1).public(), ids),
                         "after": bearing(board_at(about).public(), ids)}}
