"""Breaking rules on purpose: turn a legal generated game into one with K known violations.

Each injection changes one event of the legal log (or removes one roll) so that exactly one rule
is broken, and says where the auditor must find it: `{"seq", "rule", "kind"}`. `seq` is the event
the rule judges (audit-report.md): the illegal action, the outcome that differs, or for a missing
roll the outcome recorded without it.
"""
from __future__ import annotations

import copy
import random
from typing import Any, Callable, Optional

from domain.board.hexes import distance
from domain.rules.infernal_machines.generator import inject_ground, inject_machines

Line = dict[str, Any]
Finding = dict[str, Any]


def _first_roll_before(lines: list[Line], i: int, purpose: str) -> Optional[int]:
    j = i - 1
    while j >= 0 and lines[j]["type"] in ("DieRolled",):
        if lines[j]["data"]["purpose"].startswith(purpose) and lines[j]["data"].get("note") != "direction":
            return j
        j -= 1
    return None


# -- the injections: each returns the changed lines' index and rule, or None if it cannot apply ----
def illegal_ammunition(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A destruction mission firing smoke (IM.ART.MISSION.DEST.COMBOS: HE or shrapnel only)."""
    d = lines[i]["data"]
    if lines[i]["type"] != "BarrageDeclared" or d["mission"] != "destruction" or d["ammunition"] != "he":
        return None
    d["ammunition"] = "smoke"
    return i, "IM.ART.MISSION.DEST.COMBOS"


def wrong_column(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """The Fire Order Table read in a column other than the hex's resistance turns."""
    if lines[i]["type"] != "FireOrderChecked":
        return None
    lines[i]["data"]["column"] += rng.choice([1, 2])
    return i, "IM.ART.FOT.ROLL"


def missing_scatter_roll(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A scatter test recorded without its d6."""
    if lines[i]["type"] != "ScatterTested" or lines[i]["data"].get("scattered"):
        return None
    j = _first_roll_before(lines, i, "IM.ART.SCATTER")
    if j is None:
        return None
    purpose = lines[j]["data"]["purpose"]
    del lines[j]
    return i - 1, purpose


def points_over_cap(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """More artillery points than the element's 25 (IM.ART.AMMOCON.COST)."""
    if lines[i]["type"] != "ArtilleryPointsSpent":
        return None
    lines[i]["data"]["points"] = 26
    return i, "IM.ART.AMMOCON.COST"


def impossible_move(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A foot unit's path that jumps over a hex (steps must be adjacent)."""
    d = lines[i]["data"]
    if lines[i]["type"] != "UnitMoved" or lines[i]["phase"] != "first-foot-movement" or len(d["path"]) != 2:
        return None
    start, end = d["path"]
    board, cr = end.split(":")
    col, row = int(cr[:2]), int(cr[2:])
    far = f"{board}:{col:02d}{row + (2 if row < 50 else -2):02d}"
    if distance(start, far) < 2:
        return None
    d["path"] = [start, far]
    return i, "IM.CORE.PATH.ADJACENT"


def communication_ignored(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A failed communication test (1-3) recorded as in communication."""
    if lines[i]["type"] != "CommunicationTested" or lines[i]["data"]["in_communication"]:
        return None
    j = _first_roll_before(lines, i, "IM.ART.")
    if j is None or lines[j]["data"]["result"] > 3:
        return None
    lines[i]["data"]["in_communication"] = True
    return i, lines[i]["data"]["link"] == "lno-fo" and "IM.ART.LNO.COMM" or "IM.ART.COMM.TEST"


def scatter_ignored(lines: list[Line], i: int, rng: random.Random) -> Optional[tuple[int, str]]:
    """A drumfire scatter roll of 5-6 recorded as no scatter."""
    d = lines[i]["data"]
    if lines[i]["type"] != "ScatterTested" or not d.get("scattered") or "element" in d:
        return None
    j = _first_roll_before(lines, i, "IM.ART.SCATTER.DRUMFIRE")
    if j is None:
        return None
    del lines[j + 1]   # the direction roll goes with the scatter
    d = lines[i - 1]["data"]
    d["scattered"] = False
    d.pop("new_target", None)
    return i - 1, "IM.ART.SCATTER.DRUMFIRE"


KINDS: dict[str, Callable[[list[Line], int, random.Random], Optional[tuple[int, str]]]] = {
    "illegal-ammunition": illegal_ammunition,
    "wrong-column": wrong_column,
    "missing-roll": missing_scatter_roll,
    "points-over-cap": points_over_cap,
    "impossible-move": impossible_move,
    "communication-ignored": communication_ignored,
    "scatter-ignored": scatter_ignored,
    **inject_ground.KINDS,
    **inject_machines.KINDS,
}


def inject(lines: list[Line], count: int, rng: random.Random,
           only: Optional[list[str]] = None) -> tuple[list[Line], list[Finding]]:
    """`count` violations, each of a different kind where the game allows (of the kinds `only` names,
    when given), far enough apart that one does not hide another. Returns the new lines (renumbered)
    and where each violation is."""
    out = copy.deepcopy(lines)
    found: list[Finding] = []
    touched: list[int] = []   # indexes of changed lines, kept in step with deletions and insertions
    kinds = list(only or KINDS)
    rng.shuffle(kinds)
    attempts = 0
    while len(found) < count and attempts < 4 * len(kinds) + count:
        kind = kinds[attempts % len(kinds)]
        attempts += 1
        candidates = [i for i in range(len(out)) if all(abs(i - t) > 12 for t in touched)]
        rng.shuffle(candidates)
        for i in candidates:
            before = len(out)
            result = KINDS[kind](out, i, rng)
            if result is None:
                continue
            index, rule = result
            removed = before - len(out)
            touched = [t - removed if t > index else t for t in touched] + [index]
            for f in found:
                if f["_index"] > index:
                    f["_index"] -= removed
            found.append({"_index": index, "rule": rule, "kind": kind})
            break
    for n, line in enumerate(out, start=1):
        line["seq"] = n
    return out, [{"seq": f["_index"] + 1, "rule": f["rule"], "kind": f["kind"]} for f in found]
