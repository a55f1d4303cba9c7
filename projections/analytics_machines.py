"""Infernal Machines' machines in the analytics: breakdowns per vehicle type against the text's odds,
fascines used, and vehicle losses by cause, each a pure function of the rows the fold keeps
(domain/rules/infernal_machines/analytics_machines.py and analytics_losses.py: `im-breakdown`,
`im-fascine`, `im-loss`). The fold carries the odds into the rows (the text's, or the game's table
pack's for the Landships! breakdown table), so nothing here knows a rule.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from projections.analytics_tabletop import _grouped, _share, _sorted_groups

Row = dict[str, Any]
DROP_ODDS = 4 / 6     # IM.TANK.FASCINE.DROP: "On a result of 3 to 6 with a six-sided die, the fascine drops"
UNJAM_ODDS = 4 / 6    # IM.TANK.FASCINE.UNJAM: "On a result of 1 to 4, the crew succeeds"
EVEN_ODDS = 1 / 2     # IM.TANK.BREAKDOWN: "If the result is even" (a six-sided die)
CAUSES = ("anti-tank", "artillery", "small-arms", "close-combat", "mines", "breakdown", "other")


def _expected(odds: list[Optional[float]]) -> Optional[float]:
    """The count the odds expect, when every one is known (else None: one chance is not in the text)."""
    return None if not odds or any(o is None for o in odds) else round(sum(odds), 4)


def breakdowns(rows: list[Row]) -> list[Row]:
    """Breakdowns per vehicle type: checks (LS.BREAKDOWN rolls), breakdowns seen, the count the odds
    expect (the Landships! table from the game's pack, with the text's breakdown modifier; None without
    it) and the second die's even results against the text's one in two."""
    out = []
    for (kind, klass), group in _sorted_groups(_grouped(rows, "type", "class")):
        checks = [r for r in group if r["event"] == "check"]
        broke = [r for r in group if r["event"] == "broke"]
        second = [r for r in group if r["event"] == "second"]
        out.append({"type": kind, "class": klass, "checks": len(checks), "breakdowns": len(broke),
                    "unchecked": sum(1 for r in broke if r["check_seq"] is None),
                    "share": _share(len(broke), len(checks)),
                    "modifier": sorted({r["modifier"] for r in checks if r["modifier"] is not None}),
                    "expected": _expected([r["odds"] for r in checks]),
                    "odds_from": "; ".join(sorted({r["odds_from"] for r in checks})),
                    "second_dice": len(second), "even": sum(1 for r in second if r["even"]),
                    "expected_even": round(len(second) * EVEN_ODDS, 4),
                    "games": len({r["game"] for r in group})})
    return out


def fascines(rows: list[Row]) -> list[Row]:
    """Fascines per game, side and tank type: carried where the scenario has extra-wide trenches, the
    drop and unjam rolls with what the text expects of them, where they were laid and who crossed."""
    out = []
    for (game, side, kind), group in _sorted_groups(_grouped(rows, "game", "side", "type")):
        of = {e: [r for r in group if r["event"] == e] for e in ("carried", "drop", "unjam", "laid", "crossing")}
        carried = [r for r in of["carried"] if r["in_scope"]]
        if not carried and not any(of[e] for e in ("drop", "unjam", "laid", "crossing")):
            continue   # no extra-wide trench in this game: fascines do not matter (IM.TANK.FASCINE.SCOPE)
        dropped = sum(1 for r in of["drop"] if r["dropped"])
        unjammed = sum(1 for r in of["unjam"] if r["unjammed"])
        out.append({"game": game, "side": side, "type": kind, "carried": len(carried),
                    "drop_rolls": len(of["drop"]), "dropped": dropped, "jammed": len(of["drop"]) - dropped,
                    "expected_dropped": round(len(of["drop"]) * DROP_ODDS, 4),
                    "unjam_rolls": len(of["unjam"]), "unjammed": unjammed,
                    "jammed_for_good": len(of["unjam"]) - unjammed,
                    "expected_unjammed": round(len(of["unjam"]) * UNJAM_ODDS, 4),
                    "trenches": sorted({r["hex"] for r in of["drop"] + of["laid"] if r.get("hex")
                                        and (r["event"] == "laid" or r["dropped"])}),
                    "crossings": len(of["crossing"]), "crossed_by": sorted({r["by"] for r in of["crossing"]})})
    return out


def vehicle_losses(rows: list[Row]) -> list[Row]:
    """Each vehicle knocked out or removed, once, with its cause and the event (and field) that decided it."""
    return list(rows)


def losses_by_cause(rows: list[Row]) -> list[Row]:
    """Vehicle losses per type and cause (anti-tank, artillery, small-arms, close-combat, mines, breakdown,
    other), over the games shown."""
    out = []
    for (kind, klass, cause), group in _sorted_groups(_grouped(rows, "type", "class", "cause")):
        out.append({"type": kind, "class": klass, "tank": bool(group[0]["tank"]), "cause": cause,
                    "losses": len(group), "games": len({r["game"] for r in group})})
    return out


# kind of answer -> (the row kinds it reads, the function, its columns in order)
ANSWERS: dict[str, tuple[tuple[str, ...], Callable[..., list[Row]], tuple[str, ...]]] = {
    "vehicle-breakdowns": (("im-breakdown",), breakdowns,
                           ("type", "class", "checks", "breakdowns", "unchecked", "share", "modifier", "expected",
                            "odds_from", "second_dice", "even", "expected_even", "games")),
    "fascines": (("im-fascine",), fascines,
                 ("game", "side", "type", "carried", "drop_rolls", "dropped", "jammed", "expected_dropped",
                  "unjam_rolls", "unjammed", "jammed_for_good", "expected_unjammed", "trenches", "crossings",
                  "crossed_by")),
    "vehicle-losses": (("im-loss",), vehicle_losses,
                       ("game", "seq", "turn", "side", "unit", "type", "class", "tank", "cause", "weapon",
                        "decided_by", "decided_seq")),
    "losses-by-cause": (("im-loss",), losses_by_cause, ("type", "class", "tank", "cause", "losses", "games")),
}
