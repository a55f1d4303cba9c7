"""Events in words, for the event list: what a person reads, not the JSON."""
from __future__ import annotations

from typing import Any, Callable

Describer = Callable[[dict[str, Any]], str]
DESCRIBE: dict[str, Describer] = {}


def says(event_type: str) -> Callable[[Describer], Describer]:
    def register(fn: Describer) -> Describer:
        DESCRIBE[event_type] = fn
        return fn
    return register


def describe(line: dict[str, Any]) -> str:
    """One sentence for an event."""
    fn = DESCRIBE.get(line["type"])
    if fn is not None:
        return fn(line["data"])
    fields = ", ".join(f"{k} {_short(v)}" for k, v in line["data"].items())
    return f"{_spaced(line['type'])}" + (f": {fields}" if fields else "")


def headline(line: dict[str, Any]) -> str:
    """The event with its place in the game, for lists: "12 · T1 barrage · british: ..."."""
    side = f" · {line['side']}" if line.get("side") else ""
    return f"{line['seq']} · T{line['turn']} {line['phase']}{side}: {describe(line)}"


def _spaced(name: str) -> str:
    out = "".join(f" {c.lower()}" if c.isupper() else c for c in name).strip()
    return out[:1].upper() + out[1:]


def _short(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_short(v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_short(v)}" for k, v in value.items())
    return str(value)


def _join(items: list[Any]) -> str:
    return ", ".join(str(i) for i in items) or "none"


@says("GameStarted")
def _game(d):
    sides = " vs ".join(d.get("sides", {}))
    return f"Game started: {d.get('scenario')} ({d.get('date')}), {sides}, table pack {d.get('tables', 'none')}"


@says("MapDefined")
def _map(d):
    maps = [m if isinstance(m, str) else m.get("map", m.get("id")) for m in d.get("maps", [])]
    return (f"Map {_join(maps)} defined: {len(d.get('hexes', {}))} hexes with terrain, "
            f"{len(d.get('hexsides', []))} hexsides")


@says("WeatherSet")
def _weather(d):
    return f"Weather {d.get('weather')}, ground {d.get('terrain_state')}"


@says("ArtilleryMissionSet")
def _mission(d):
    return f"{d['side']} artillery mission: {d['mission']}"


@says("BarrageTypesSet")
def _types(d):
    return f"{d['side']} may fire {_join(d['allowed'])} barrages"


@says("UnitDeployed")
def _deployed(d):
    return f"{d['unit']} ({d['class']}) deployed at {d.get('location') or 'off map'}"


@says("ArtilleryElementAssigned")
def _element(d):
    points = f", {d['artillery_points']} artillery points" if d.get("artillery_points") is not None else ""
    return f"Artillery element {d['element']} ({d['side']}) assigned, firepower {d['firepower']}{points}"


@says("MarkerPlaced")
def _marker(d):
    on = f" on {d['unit']}" if d.get("unit") else ""
    turns = f" for {d['turns']} turns" if d.get("turns") else ""
    return f"{d['marker']} marker placed at {d.get('location')}{on}{turns}"


@says("MarkerRemoved")
def _unmarker(d):
    return f"{d['marker']} marker removed from {d.get('location')}"


@says("TurnStarted")
def _turn(d):
    return f"Turn {d['turn']} begins"


@says("PhaseStarted")
def _phase(d):
    active = f" ({d['active']} player turn)" if d.get("active") else ""
    return f"{d['phase']} phase{active}"


@says("UnitMoved")
def _moved(d):
    path = d["path"]
    mode = f" ({d['mode']})" if d.get("mode") else ""
    return f"{d['unit']} moved {path[0]} → {path[-1]}{mode}, {len(path) - 1} hexes"


@says("UnitStatusChanged")
def _status(d):
    turns = f" for {d['turns']} turns" if d.get("turns") else ""
    cause = f" ({d['cause']})" if d.get("cause") else ""
    return f"{d['unit']} {d['status']}{turns}{cause}"


@says("MoraleChecked")
def _morale(d):
    return f"Morale check for {_join(d.get('units', []))}: {'passed' if d.get('passed') else 'failed'}"


@says("DieRolled")
def _die(d):
    rolls = f" ({'+'.join(str(r) for r in d['results'])})" if d.get("results") else ""
    about = f" for {d['subject']}" if d.get("subject") else ""
    return f"Rolled {d['die']}: {d['result']}{rolls}{about}, {d['purpose']}"


@says("Spotted")
def _spotted(d):
    return f"{d['spotter']} {'spots' if d.get('spotted') else 'fails to spot'} {d['target']}"


@says("SmallArmsFired")
def _fired(d):
    return (f"Small arms {d.get('attack')}: {_join(d.get('firers', []))} fire at {d.get('target')} "
            f"(firepower {d.get('firepower')}, range {d.get('range')})")


@says("SmallArmsResolved")
def _sa_resolved(d):
    results = "; ".join(f"{r.get('unit')} {r.get('result')}" for r in d.get("results", []))
    return f"Small arms {d.get('attack')} resolved: {results or 'no effect'}"


@says("HexObserved")
def _observed(d):
    who = d.get("observer") or "nobody (automatic)"
    return f"{d['target']} observed by {who} via {d.get('via')}"


@says("BarrageDeclared")
def _barrage(d):
    target = d.get("target") or f"element {d.get('target_element')}"
    sustained = ", sustained" if d.get("sustained") else ""
    return (f"Barrage {d['barrage']} declared on {target}: {d.get('barrage_type')} "
            f"{str(d.get('ammunition', '')).upper()} {d.get('mission')} by {_join(d.get('elements', []))}"
            f"{sustained}")


@says("ArtilleryPointsSpent")
def _points(d):
    why = f" ({d['reason']})" if d.get("reason") else ""
    return f"{d['element']} spends {d['points']} artillery points{why}"


@says("CommunicationTested")
def _comm(d):
    return (f"Barrage {d['barrage']}: {d['link']} link "
            f"{'in communication' if d['in_communication'] else 'out of communication'}")


@says("FireOrderChecked")
def _fot(d):
    return (f"Barrage {d['barrage']}: fire order {'granted' if d['granted'] else 'refused'} "
            f"(column {d['column']})")


@says("ScatterTested")
def _scatter(d):
    if d.get("scattered"):
        return f"Barrage {d['barrage']} scatters to {d.get('new_target')}"
    return f"Barrage {d['barrage']} on target"


@says("BarrageResolved")
def _resolved(d):
    results = "; ".join(f"{r.get('location')} {r.get('result')}" for r in d.get("results", []))
    return f"Barrage {d['barrage']} resolved at firepower {d.get('firepower')}: {results or 'nothing'}"


@says("BarrageCancelled")
def _cancelled(d):
    return f"Barrage {d['barrage']} cancelled: {d.get('reason')}"


@says("ArtilleryElementEliminated")
def _element_gone(d):
    return f"Artillery element {d['element']} eliminated"


@says("DisputeRaised")
def _dispute(d):
    by = f" by {d['by']}" if d.get("by") else ""
    return f"Dispute {d['dispute']} raised{by} about event {d['about']}: {d['claim']}"


@says("RulingIssued")
def _ruling(d):
    fixes = f", {len(d.get('corrections', []))} correction(s)" if d.get("corrections") else ""
    return f"Ruling on {d['dispute']}: {d['decision']}{fixes}"
