"""Mutating artillery events of valid logs while keeping them valid logs (seq renumbered, turn and
phase kept consistent), for robustness tests of the auditor: `audit` must complete on each."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any, Optional

from domain.log import LogError, read_lines
from tests.conftest import EXAMPLES, ROOT

SOURCES = [ROOT / "fixtures" / "games" / "arras-1917-raid.jsonl", ROOT / "fixtures" / "games" / "michael-1918-ronssoy.jsonl",
           EXAMPLES / "first-turn-barrage.jsonl", EXAMPLES / "resistance-turns.jsonl"]
ARTILLERY = {"HexObserved", "BarrageDeclared", "ArtilleryPointsSpent", "CommunicationTested", "FireOrderChecked",
             "ScatterTested", "BarrageResolved", "BarrageCancelled", "ArtilleryElementEliminated",
             "ArtilleryElementAssigned", "ArtilleryMissionSet", "BarrageTypesSet", "UnitStatusChanged",
             "MoraleChecked", "MarkerPlaced", "MarkerRemoved", "DieRolled"}
FRAME = {"GameStarted", "TurnStarted", "PhaseStarted"}
CHOICES: dict[str, list[Any]] = {
    "mission": ["destruction", "counter-battery", "neutralisation", "suppression", "interdiction",
                "simple-creeping", "double-creeping", "gas"],
    "barrage_type": ["drumfire", "hurricane"], "ammunition": ["he", "shrapnel", "smoke", "gas"],
    "via": ["forward-observer", "liaison-officer", "aircraft", "balloon", "automatic"],
    "link": ["fo-artillery", "lno-fo"], "zone": ["primary", "secondary"],
    "result": ["miss", "H", "H+1", "H+2", "H+3", 1, 2, 3, 4, 5, 6],
    "column": [0, 1, 2, 3, 7, "10", "20", "31+", "5"], "firepower": [0, 5, 10, 20, 40, 60, 80],
    "status": ["pinned", "unpinned", "eliminated", "retreated", "dismounted", "prone", "standing"],
    "reason": ["no-communication", "fire-order-refused", "sustained-ended", "other", "barrage",
               "destruction-gun", "destruction-strongpoint"],
    "objective": ["strongpoint", "wire", "gun", None], "points": [0, 1, 2, 4, 5, 25, 30],
    "turns": [1, 2, 4, None], "purpose": ["IM.ART.COMM.TEST", "IM.ART.LNO.COMM", "IM.ART.FOT.ROLL",
                                          "IM.ART.SCATTER.DRUMFIRE", "IM.ART.SCATTER.HURRICANE",
                                          "IM.ART.BCRT.REVISED", "IM.ART.SUSTAINED", "IM.ART.AMMO.GAS.DOUBLE",
                                          "IM.ART.AMMO.SHRAP.ALLIED", "IM.ART.LNO.FLARE", "LS.MORALE",
                                          "IM.ART.EFF.DEST.HE.VEH", "IM.ART.MISSION.SCB.RUN"],
}
BOOLS = ("in_communication", "granted", "scattered", "sustained", "passed", "spotted")


def load(path: Path) -> list[dict[str, Any]]:
    return read_lines(path.read_text(encoding="utf-8").splitlines())


def _locations(lines) -> list[str]:
    locs = {l["data"][k] for l in lines for k in ("target", "location", "new_target")
            if isinstance(l["data"].get(k), str) and ":" in l["data"][k]}
    return sorted(locs) or ["1:1010"]


def _ids(lines) -> list[str]:
    ids = {l["data"][k] for l in lines for k in ("barrage", "unit", "element", "subject")
           if isinstance(l["data"].get(k), str)}
    return sorted(ids) + ["nobody"]


def _alter(line: dict, rng: random.Random, locs: list[str], ids: list[str]) -> None:
    d = line["data"]
    keys = [k for k in d if k in CHOICES or k in BOOLS or k in ("target", "new_target", "location", "elements",
                                                                "results", "modifiers", "die", "subject",
                                                                "barrage", "unit", "observer", "element")]
    if not keys:
        return
    key = rng.choice(keys)
    if key in BOOLS:
        d[key] = not d[key]
    elif key == "result" and line["type"] == "DieRolled":
        d[key] = rng.randint(1, 10 if d.get("die") == "d10" else 6)
    elif key in CHOICES:
        d[key] = rng.choice(CHOICES[key])
    elif key in ("target", "new_target", "location"):
        d[key] = rng.choice(locs + [None] if key != "location" else locs)
    elif key == "elements":
        d[key] = rng.sample(ids, k=min(len(ids), rng.randint(0, 3)))
    elif key == "results":
        d[key] = [{"location": rng.choice(locs), "zone": rng.choice(CHOICES["zone"]),
                   "result": rng.choice(["miss", "H", "H+1", "H+2"])} for _ in range(rng.randint(0, 3))]
    elif key == "modifiers":
        d[key] = [{"value": rng.randint(-2, 3), "why": "fuzz"} for _ in range(rng.randint(0, 2))]
    elif key == "die":
        d[key] = rng.choice(["d6", "d10", "d20"])
        d["result"] = min(d.get("result", 1), int(d[key][1:]))
    elif key == "observer":
        d[key] = rng.choice(ids + [None, "aircraft:nobody", "balloon:nobody"])
    else:
        d[key] = rng.choice(ids)


def mutate(lines: list[dict[str, Any]], rng: random.Random, steps: int = 3) -> list[dict[str, Any]]:
    out = copy.deepcopy(lines)
    locs, ids = _locations(lines), _ids(lines)
    for _ in range(steps):
        arty = [i for i, l in enumerate(out) if l["type"] in ARTILLERY and l["type"] not in FRAME]
        if not arty:
            break
        i = rng.choice(arty)
        op = rng.choice(("drop", "duplicate", "swap", "alter", "alter", "move", "strip"))
        if op == "drop":
            del out[i]
        elif op == "duplicate":
            out.insert(i + 1, copy.deepcopy(out[i]))
        elif op == "swap":
            j = i + 1
            if j < len(out) and out[j]["type"] not in FRAME and out[j]["turn"] == out[i]["turn"] \
                    and out[j]["phase"] == out[i]["phase"]:
                out[i], out[j] = out[j], out[i]
        elif op == "move":       # to anywhere after set-up, taking the turn and phase in force there
            line = out.pop(i)
            j = rng.randrange(1, len(out) + 1)
            before = out[j - 1]
            line["turn"], line["phase"] = before["turn"], before["phase"]
            out.insert(j, line)
        elif op == "strip" and out[i]["data"]:
            del out[i]["data"][rng.choice(sorted(out[i]["data"]))]
        else:
            _alter(out[i], rng, locs, ids)
    for n, line in enumerate(out, start=1):
        line["seq"] = n
    return out


def valid(lines: list[dict[str, Any]]) -> Optional[list[dict[str, Any]]]:
    """The mutant re-read as a log, or None when the schema rejects it (not a valid log)."""
    try:
        return read_lines([json.dumps(l) for l in lines])
    except LogError:
        return None
