"""The machines on a hex board: where each vehicle faces, its crew and damage, a train's cars, a boat.

- Facing: the degrees the game's rule system reads from the log (`RuleSet.facings`: Infernal
  Machines takes `UnitDeployed.facing`, a move's `facing`, else the direction of its last step),
  drawn as an arrow on the counter's edge.
- Crew and damage: what the board fold holds of a vehicle (its statuses, the crew counters placed
  under it or aboard it, its passengers, its fascine, an open hatch) and the hits the log records
  against it (every result of an anti-tank, small arms or close combat resolution that is not a
  miss), said in the counter's hover.
- An armoured train is one counter on the map ("the position of an armoured train is simulated on
  the map through the use of the armoured train counter"); its template's cars are drawn as a strip
  behind the counter along its facing (the railway's course), the locomotive first: each car's
  hover says what is aboard it and the hits it took.
- A boat is ringed in blue; its hover says whether its hex is a river hex (the terrain view's
  `river`, as the boat checks read it).
"""
from __future__ import annotations

import math
from typing import Any, Callable, Optional

from domain.board.state import BoardState, UnitState
from domain.board.terrain import VEHICLE_CLASSES

RESOLUTIONS = ("AntiTankResolved", "SmallArmsResolved", "CloseCombatResolved")
MISSES = {"miss", "no-effect"}
COMPASS = ("north", "north-east", "south-east", "south", "south-west", "north-west")
CAR_STEP = 0.42      # a car's spacing along the train, in hex sizes
ARROW_AT = 0.72      # the facing arrow's distance from the counter's centre (at the counter's edge)
HATCH_MARKERS = {"hatch-open", "commander"}
Point = tuple[float, float]


def damage_record(lines: list[dict[str, Any]]) -> dict[str, list[tuple[str, Optional[int], int]]]:
    """Unit -> the hits the log records against it: (result, car or None, seq), misses left out."""
    out: dict[str, list[tuple[str, Optional[int], int]]] = {}
    for line in lines:
        if line["type"] not in RESOLUTIONS:
            continue
        for r in line["data"].get("results", []):
            if isinstance(r, dict) and r.get("unit") and r.get("result") not in MISSES:
                car = r.get("car")
                out.setdefault(r["unit"], []).append((str(r.get("result")), car if isinstance(car, int) else None,
                                                      line["seq"]))
    return out


def facing_words(degrees: float) -> str:
    return f"faces {COMPASS[round(degrees / 60) % 6]} ({degrees % 360:g}°)"


def vehicles(board: BoardState) -> list[UnitState]:
    return [u for u in sorted(board.units.values(), key=lambda u: u.unit)
            if u.unit_class in VEHICLE_CLASSES and u.location and not u.eliminated]


def machine_notes(board: BoardState, facings: dict[str, float], damage: dict[str, list[tuple[str, Optional[int], int]]],
                  river: Callable[[str], bool]) -> dict[str, list[str]]:
    """Vehicle -> the lines its counter's hover adds: model, facing, state, crew, passengers, hits."""
    out: dict[str, list[str]] = {}
    for unit in vehicles(board):
        notes = [f"model {unit.attrs['model']}"] if unit.attrs.get("model") else []
        if unit.unit in facings:
            notes.append(facing_words(facings[unit.unit]))
        if unit.status:
            notes.append("state: " + ", ".join(s.replace("-", " ") for s in unit.status))
        notes += _crew(board, unit)
        if unit.unit_class == "armoured-train":
            notes += [words for _, words in train_cars(board, unit, damage)]
        if unit.attrs.get("fascine") is True:
            notes.append("carries a fascine")
        if unit.unit_class == "boat":
            kind = unit.attrs.get("kind", "boat")
            notes.append(f"{kind} on the river" if river(unit.location) else f"{kind}, not on a river hex")
        hits = damage.get(unit.unit, [])
        notes.append("hits recorded: " + ", ".join(f"{result}{f' (car {car})' if car is not None else ''} at event {seq}"
                                                    for result, car, seq in hits) if hits else "no hits recorded")
        out[unit.unit] = notes
    return out


def _crew(board: BoardState, vehicle: UnitState) -> list[str]:
    """The crew counters under it or aboard it, its passengers, an open hatch."""
    under = [u for u in board.units.values() if not u.eliminated and vehicle.unit in
             (u.attrs.get("vehicle"), u.attrs.get("aboard"))]
    crew = [u for u in under if u.unit_class == "crew" or u.attrs.get("vehicle") == vehicle.unit]
    riders = [u for u in under if u not in crew]
    notes = []
    if crew:
        notes.append("crew: " + ", ".join(_counter(u) for u in crew))
    if any(m.get("unit") == vehicle.unit and m.get("marker") == "crew" for m in board.markers):
        notes.append("crew counter placed")
    if riders and vehicle.unit_class != "armoured-train":
        notes.append("aboard: " + ", ".join(_counter(u) for u in riders))
    if vehicle.attrs.get("hatch") == "open" or any(m.get("unit") == vehicle.unit and m.get("marker") in HATCH_MARKERS
                                                   for m in board.markers):
        notes.append("hatch open")
    return notes


def _counter(unit: UnitState) -> str:
    state = f", {', '.join(unit.status)}" if unit.status else ""
    return f"{unit.unit} ({unit.unit_class}{state})"


def train_cars(board: BoardState, train: UnitState,
               damage: dict[str, list[tuple[str, Optional[int], int]]]) -> list[tuple[int, str]]:
    """The template of a train: (car, what its hover says), the locomotive (0) first."""
    aboard = [u for u in board.units.values() if u.attrs.get("aboard") == train.unit and not u.eliminated]
    cars = train.attrs.get("cars")
    count = cars if isinstance(cars, int) and cars >= 0 else max((int(u.attrs.get("car") or 0) for u in aboard), default=0)
    out = []
    for car in range(count + 1):
        name = "locomotive" if car == 0 else f"car {car}"
        load = [_counter(u) for u in aboard if u.attrs.get("car") is not None and int(u.attrs["car"]) == car]
        hits = [f"{result} at event {seq}" for result, hit, seq in damage.get(train.unit, []) if hit == car]
        out.append((car, f"{train.unit} {name}: " + (", ".join(load) or "empty")
                    + (f"; hit: {', '.join(hits)}" if hits else "")))
    return out


# -- drawn --------------------------------------------------------------------------------------
MACHINE_TRACES = ("facing", "train-cars", "boats")


def _toward(degrees: float) -> Point:
    """A unit step toward `degrees` clockwise from north, on the drawing (north is up)."""
    return math.sin(math.radians(degrees)), math.cos(math.radians(degrees))


def machine_traces(board: BoardState, positions: dict[str, Point], facings: dict[str, float],
                   damage: dict[str, list[tuple[str, Optional[int], int]]]) -> list[dict[str, Any]]:
    """Always three traces: the vehicles' facing arrows, the trains' cars, the boats' rings."""
    shown = [u for u in vehicles(board) if u.unit in positions]
    arrows = [(u, positions[u.unit], facings[u.unit]) for u in shown if u.unit in facings]
    facing = dict(type="scatter", mode="markers", name=MACHINE_TRACES[0], showlegend=False, hoverinfo="text",
                  x=[p[0] + ARROW_AT * _toward(d)[0] for _, p, d in arrows],
                  y=[p[1] + ARROW_AT * _toward(d)[1] for _, p, d in arrows],
                  hovertext=[f"{u.unit} {facing_words(d)}" for u, _, d in arrows],
                  marker=dict(symbol="arrow", size=20, angle=[d for _, _, d in arrows], color="#111111",
                              line=dict(width=1, color="#ffffff")))
    cx, cy, labels, hovers = [], [], [], []
    for train in (u for u in shown if u.unit_class == "armoured-train"):
        (x, y), back = positions[train.unit], _toward(facings.get(train.unit, 0.0) + 180)
        for car, words in train_cars(board, train, damage):
            if car == 0:
                continue   # the locomotive is the counter itself
            cx.append(x + CAR_STEP * (car + 0.5) * back[0]), cy.append(y + CAR_STEP * (car + 0.5) * back[1])
            labels.append(str(car)), hovers.append(words)
    cars = dict(type="scatter", mode="markers+text", name=MACHINE_TRACES[1], showlegend=False, hoverinfo="text",
                x=cx, y=cy, text=labels, hovertext=hovers, textfont=dict(size=9, color="#ffffff"),
                marker=dict(symbol="square", size=17, color="#4e342e", line=dict(width=1, color="#111111")))
    boats = [u for u in shown if u.unit_class == "boat"]
    rings = dict(type="scatter", mode="markers", name=MACHINE_TRACES[2], showlegend=False, hoverinfo="skip",
                 x=[positions[u.unit][0] for u in boats], y=[positions[u.unit][1] for u in boats],
                 marker=dict(symbol="diamond-wide-open", size=46, color="#1565c0", line=dict(width=3, color="#1565c0")))
    return [facing, cars, rings]
