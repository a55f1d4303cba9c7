"""The tabletop analytics' answers, from the rows the rule systems' folds keep (AVBCW:
domain/rules/dux_bellorum_avbcw/analytics.py; Mogdonazia: domain/rules/landships_of_mogdonazia/analytics.py).

Each answer is a pure function of the stored rows of one or more kinds (`NEEDS`), ordered by game
and seq; projections/analytics.py reads the rows and calls it. The folds carry what the text says
into the rows (the low-on-ammo verdict, a roll's odds), so nothing here knows a rule system.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Iterable, Optional

Row = dict[str, Any]


def _grouped(rows: Iterable[Row], *keys: str) -> dict[tuple, list[Row]]:
    groups: dict[tuple, list[Row]] = defaultdict(list)
    for row in rows:
        groups[tuple(row.get(k) for k in keys)].append(row)
    return groups


def _order(value: Any) -> tuple:
    return (value is None, "" if value is None else value)


def _sorted_groups(groups: dict[tuple, list[Row]]) -> list[tuple[tuple, list[Row]]]:
    return sorted(groups.items(), key=lambda item: tuple(_order(v) for v in item[0]))


def _share(part: int, whole: int) -> Optional[float]:
    return round(part / whole, 4) if whole else None


# -- Dux Bellorum AVBCW -------------------------------------------------------------------------
LOWS = ("low", "exhausted")


def low_ammo(shots: list[Row], ammo: list[Row]) -> list[Row]:
    """How often units go low, by unit type, weapon and turn: attacks resolved, those the text makes
    low ("more '1's' than successful hits", AVBCW.AMMO.LOW) and the low or exhausted changes recorded."""
    recorded = _grouped([a for a in ammo if a["state"] in LOWS], "type", "weapon", "turn")
    out = []
    for (kind, weapon, turn), group in _sorted_groups(_grouped(shots, "type", "weapon", "turn")):
        low = sum(1 for s in group if s["low_by_text"])
        out.append({"type": kind, "weapon": weapon, "turn": turn, "attacks": len(group), "low_by_text": low,
                    "share_low": _share(low, len(group)), "recorded_low": len(recorded.get((kind, weapon, turn), []))})
    return out


def first_low(shots: list[Row], ammo: list[Row]) -> list[Row]:
    """How soon: per unit (a vehicle: per weapon) of each game, the turn and the attack it first went
    low on, and when it was exhausted; a unit that never did has none."""
    changes = _grouped(ammo, "game", "unit", "weapon")
    out = []
    for (game, unit, weapon), group in _sorted_groups(_grouped(shots, "game", "unit", "weapon")):
        mine = changes.get((game, unit, weapon), [])
        first = next((a for a in mine if a["first"]), None)
        exhausted = next((a for a in mine if a["state"] == "exhausted"), None)
        out.append({"game": game, "unit": unit, "type": group[0]["type"], "weapon": weapon, "attacks": len(group),
                    "first_low_turn": first["turn"] if first else None,
                    "attacks_to_low": first["attacks"] if first else None,
                    "exhausted_turn": exhausted["turn"] if exhausted else None})
    return out


def supply(ammo: list[Row]) -> list[Row]:
    """Supply used: each return to normal ammunition and the Supply unit that gave it (AVBCW.AB.SUPPLY)."""
    return [{k: a.get(k) for k in ("game", "seq", "turn", "by", "unit", "type", "weapon", "cause")}
            for a in ammo if a["state"] == "normal"]


def leadership(lp: list[Row]) -> list[Row]:
    """Leadership points by side and use: placed, used (by the use recorded) and returned unused."""
    out = []
    for (side, event, use), group in _sorted_groups(_grouped(lp, "side", "event", "use")):
        out.append({"side": side, "event": event, "use": use, "times": len(group),
                    "points": sum(r["points"] for r in group), "games": len({r["game"] for r in group})})
    return out


def suppression(supp: list[Row]) -> list[Row]:
    """Each stretch a unit was suppressed: from the turn it was suppressed to the turn it was
    unsuppressed (or gone); `ended_by` None while still suppressed at the end of the log."""
    out: list[Row] = []
    open_: dict[tuple, Row] = {}
    for row in supp:
        key = (row["game"], row["unit"])
        if row["status"] == "suppressed":
            open_[key] = {"game": row["game"], "unit": row["unit"], "type": row["type"], "from_turn": row["turn"],
                          "to_turn": None, "turns": None, "ended_by": None, "seq": row["seq"]}
            out.append(open_[key])
        elif key in open_:
            stretch = open_.pop(key)
            stretch.update(to_turn=row["turn"], turns=row["turn"] - stretch["from_turn"], ended_by=row["status"])
    return out


# -- Landships of Mogdonazia -------------------------------------------------------------------
def breakdowns(tests: list[Row]) -> list[Row]:
    """Breakdown, restart and repair rolls per vehicle and terrain against the text's odds: the
    count, the successes (broke down, restarted, repaired), their share and the share expected."""
    out = []
    for (game, unit, vehicle, test, terrain), group in _sorted_groups(
            _grouped(tests, "game", "unit", "vehicle", "test", "terrain")):
        hits, odds = sum(1 for t in group if t["success"]), group[0]["odds"]
        out.append({"game": game, "unit": unit, "vehicle": vehicle, "test": test, "terrain": terrain,
                    "rolls": len(group), "successes": hits, "share": _share(hits, len(group)),
                    "odds": None if odds is None else round(odds, 4),
                    "expected": None if odds is None else round(odds * len(group), 4)})
    return out


def lost_turns(lost: list[Row]) -> list[Row]:
    """Turns each vehicle lost: begun broken down (until the turn of its restart) and spent repairing."""
    out = []
    for (game, unit), group in _sorted_groups(_grouped(lost, "game", "unit")):
        broke = sorted({r["turn"] for r in group if r["cause"] == "breakdown"})
        repair = sorted({r["turn"] for r in group if r["cause"] == "repair"})
        out.append({"game": game, "unit": unit, "vehicle": group[0]["vehicle"], "breakdown_turns": broke,
                    "repair_turns": repair, "lost_to_breakdown": len(broke), "lost_to_repair": len(repair),
                    "lost": len(set(broke) | set(repair))})
    return out


def criticals(cards: list[Row], crits: list[Row]) -> list[Row]:
    """Hit cards by card, weapon class and outcome, with the critical-hit chart results they brought
    (a critical without a card, e.g. a close combat's, under card None)."""
    results = _grouped(crits, "card")
    out = []
    for (card, weapon_class, outcome), group in _sorted_groups(_grouped(cards, "card", "weapon_class", "outcome")):
        brought = [c["result"] for c in results.get((card,), []) if (c["game"], c["attack"]) in
                   {(g["game"], g["attack"]) for g in group}]
        out.append({"card": card, "weapon_class": weapon_class, "outcome": outcome, "draws": len(group),
                    "critical_results": brought})
    unmatched = [c for c in crits if c["card"] is None]
    if unmatched:
        out.append({"card": None, "weapon_class": None, "outcome": "critical", "draws": 0,
                    "critical_results": [c["result"] for c in unmatched]})
    return out


# kind of answer -> (the row kinds it reads, the function, its columns in order)
ANSWERS: dict[str, tuple[tuple[str, ...], Callable[..., list[Row]], tuple[str, ...]]] = {
    "avbcw-low-ammo": (("avbcw-shot", "avbcw-ammo"), low_ammo,
                       ("type", "weapon", "turn", "attacks", "low_by_text", "share_low", "recorded_low")),
    "avbcw-first-low": (("avbcw-shot", "avbcw-ammo"), first_low,
                        ("game", "unit", "type", "weapon", "attacks", "first_low_turn", "attacks_to_low",
                         "exhausted_turn")),
    "avbcw-supply": (("avbcw-ammo",), supply, ("game", "turn", "by", "unit", "type", "weapon", "cause", "seq")),
    "avbcw-leadership": (("avbcw-lp",), leadership, ("side", "event", "use", "times", "points", "games")),
    "avbcw-suppression": (("avbcw-supp",), suppression,
                          ("game", "unit", "type", "from_turn", "to_turn", "turns", "ended_by", "seq")),
    "mog-breakdowns": (("mog-test",), breakdowns,
                       ("game", "unit", "vehicle", "test", "terrain", "rolls", "successes", "share", "odds",
                        "expected")),
    "mog-lost-turns": (("mog-lost",), lost_turns,
                       ("game", "unit", "vehicle", "breakdown_turns", "repair_turns", "lost_to_breakdown",
                        "lost_to_repair", "lost")),
    "mog-criticals": (("mog-card", "mog-crit"), criticals,
                      ("card", "weapon_class", "outcome", "draws", "critical_results")),
}
# The rule system each answer is about (the CLI's and the dashboard's choice).
RULESETS = {"dux-bellorum-avbcw": [k for k in ANSWERS if k.startswith("avbcw-")],
            "landships-of-mogdonazia": [k for k in ANSWERS if k.startswith("mog-")]}
