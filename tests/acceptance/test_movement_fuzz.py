"""The auditor finishes on any valid log: random mutations of the fixture games, the spec examples
and the movement cases (units deployed and moved anywhere, random adjacent and non-adjacent paths,
modes, markers, weather, phases kept consistent with PhaseStarted, multi-map placements, some of
them ill-formed) must audit without an exception."""
from __future__ import annotations

import copy
import json
import random

import pytest

from domain.board.hexes import neighbours
from domain.log import LogError, read_lines
from projections.audit_trail import audit_lines

from tests.conftest import EXAMPLES, ROOT  # noqa: E402

def _hex_games(paths):
    """The Infernal Machines logs among them: the mutations walk hexes (the tabletop games' demo
    logs place units at points in inches, which their own tests fuzz)."""
    return [p for p in paths if json.loads(p.read_text(encoding="utf-8").splitlines()[0])["data"].get("ruleset")
            == "infernal-machines"]


SOURCES = _hex_games(sorted((ROOT / "fixtures" / "games").glob("*.jsonl"))) + \
    sorted(EXAMPLES.glob("*.jsonl")) + \
    sorted((ROOT / "tests" / "acceptance" / "cases_movement").glob("mv-*.jsonl"))[:8]
CLASSES = ["infantry-platoon", "infantry-squad", "mg-platoon", "cavalry-platoon", "forward-observer", "tank",
           "armoured-car", "light-vehicle", "armoured-train", "boat", "aircraft", "balloon"]
MARKERS = ["smoke", "wire", "wire-high", "roadblock", "rubble-2", "pinned", "prone", "trench-hasty"]
PHASES = ["pin-removal", "barrage", "air-combat", "vehicle-movement", "first-foot-movement",
          "second-foot-movement", "offensive-small-arms-fire", "close-combat", "end"]
MAPS = [["1", "2"], [{"id": "1"}, {"id": "2", "origin": [22, 0]}], [{"id": "2", "origin": [1, 0]}],
        [{"id": "5", "extent": [[0, 0], [20, 20]]}, "10"], [{"id": "2", "extent": "x"}], [7]]


def loc(rnd: random.Random) -> str:
    return f"{rnd.choice(['1', '2', '5', '10'])}:{rnd.randint(0, 99):02d}{rnd.randint(0, 99):02d}"


def walk(rnd: random.Random, start: str, steps: int) -> list[str]:
    path = [start]
    for _ in range(steps):
        path.append(rnd.choice(neighbours(path[-1])))
    return path


def mutate(rnd: random.Random, lines: list[dict]) -> list[dict]:
    out = copy.deepcopy(lines)
    for line in out:
        line.pop("prev", None)
        t, d, r = line["type"], line["data"], rnd.random()
        if t == "UnitMoved" and r < 0.5:
            d["path"] = walk(rnd, d["path"][0] if r < 0.35 else loc(rnd), rnd.randint(0, 5))
            d["mode"] = rnd.choice(["normal", "run", "trot", "gallop", "ski", "crawl"])
        elif t == "UnitDeployed" and r < 0.3:
            d.update(location=loc(rnd), **{"class": rnd.choice(CLASSES)})
            d["attrs"] = {"sturmtruppen": rnd.random() < 0.5, "skis": True, "kind": "gunboat"}
        elif t in ("HexObserved", "Spotted", "SmallArmsFired") and r < 0.5:
            d["target"] = loc(rnd)
        elif t == "MarkerPlaced" and r < 0.4:
            d.update(location=loc(rnd), marker=rnd.choice(MARKERS))
        elif t == "WeatherSet" and r < 0.5:
            d.update(terrain_state=rnd.choice(["good", "mud", "snow", "deep-snow"]), weather=rnd.choice(["fair", "bad"]))
        elif t == "MapDefined" and r < 0.6:
            d["maps"] = rnd.choice(MAPS)
        elif t == "PhaseStarted" and r < 0.2:
            d["phase"] = rnd.choice(PHASES)
    phase = "setup"
    for line in out:   # the envelope's phase follows the last TurnStarted / PhaseStarted
        phase = "start" if line["type"] == "TurnStarted" else line["data"]["phase"] \
            if line["type"] == "PhaseStarted" else phase
        line["phase"] = phase
    return out


@pytest.mark.parametrize("seed", range(24))
def test_audit_never_crashes_on_a_mutated_valid_log(seed):
    rnd = random.Random(seed)
    source = SOURCES[seed % len(SOURCES)]
    lines = [json.loads(t) for t in source.read_text(encoding="utf-8").splitlines() if t.strip()]
    audited = 0
    for _ in range(3):
        try:
            parsed = read_lines([json.dumps(l) for l in mutate(rnd, lines)])
        except LogError:
            continue
        report = audit_lines(parsed)
        assert report.to_json()["events"] == len(parsed)
        audited += 1
    assert audited >= 1
