"""Dux Bellorum: A Very British Civil War as a rule system: the `RuleSet` its entry point names."""
from __future__ import annotations

from typing import Any

from domain.rules.dux_bellorum_avbcw import core_tables, events
from domain.tabletop import interpretations
from domain.tabletop import board
from domain.tabletop.ruleset import keep, tabletop_ruleset


def _cohesion(delta: int):
    def handler(s, line) -> None:
        data = line["data"]
        lost = s.extra.setdefault("cohesion_lost", {})
        lost[data["unit"]] = max(0, lost.get(data["unit"], 0) + delta * data["points"])
    return handler


def _marker_moved(s, line: dict[str, Any]) -> None:
    for marker in s.markers:
        if marker.get("id") == line["data"]["id"]:
            marker["position"] = dict(line["data"]["to"])


def _listed(s, line: dict[str, Any]) -> None:
    """An army list: its units by side, and each unit's type (its row of the unit table), which
    its UnitDeployed does not repeat."""
    data = line["data"]
    s.extra.setdefault("armies", {})[data["side"]] = [u["unit"] for u in data["units"]]
    s.extra.setdefault("listed_types", {}).update({u["unit"]: u["type"] for u in data["units"]})


def _deployed(s, line: dict[str, Any]) -> None:
    board.HANDLERS["UnitDeployed"](s, line)
    unit = s.units[line["data"]["unit"]]
    unit.type = unit.type or s.extra.get("listed_types", {}).get(unit.unit)


BOARD = {
    "ArmyListed": _listed, "UnitDeployed": _deployed,
    "CohesionLost": _cohesion(+1), "CohesionRestored": _cohesion(-1),
    "AmmoStateChanged": keep("ammunition", "unit", lambda d: d["state"]),
    "MarkerMoved": _marker_moved,
}


def _rule_modules() -> list[type]:
    """The rule modules, in the order they judge each event: the turn's sequence, movement, then
    shooting."""
    from domain.rules.dux_bellorum_avbcw import army, army_play, bravery, deployment, end_phase, leadership, melee
    from domain.rules.dux_bellorum_avbcw import modifiers, movement, priority, sequence, shooting, skirmish, support
    from domain.rules.dux_bellorum_avbcw import suppression, vehicle_damage, vehicle_moves
    return [army.AVBCWArmy, deployment.AVBCWDeployment, sequence.AVBCWSequence, bravery.AVBCWBravery,
            suppression.AVBCWMoveLimits, leadership.AVBCWLeadership, skirmish.AVBCWSkirmish, priority.AVBCWPriority,
            melee.AVBCWMelee, modifiers.AVBCWShotDice, vehicle_damage.AVBCWVehicleDamage,
            vehicle_moves.AVBCWVehicleMoves, end_phase.AVBCWEndPhase, movement.AVBCWMovement, shooting.AVBCWShooting,
            support.AVBCWSupport, army_play.AVBCWArmyRules]


def _army_check():
    """`umpire army check`: (ArmyListed data, {interpretation: reading}) -> the list's report."""
    from domain.rules.dux_bellorum_avbcw import army
    return army.army_report


def _turret_weapons():
    """(an ArmyListed unit entry) -> the ids of its turret weapons: a hard vehicle's row prints
    them "(T)" (shooting.turret_mounted, as the audit reads them)."""
    from domain.rules.dux_bellorum_avbcw.events import ListedUnit
    from domain.rules.dux_bellorum_avbcw.shooting import turret_mounted

    def turret_weapons(entry: Any) -> set[str]:
        listed = ListedUnit.model_validate(entry)
        return {w.weapon for w in listed.weapons or () if turret_mounted(listed, w)}
    return turret_weapons


def _analytics() -> type:
    """The fold of one game for the cross-game analytics (projections/analytics.py)."""
    from domain.rules.dux_bellorum_avbcw.analytics import AVBCWTally
    return AVBCWTally


def _generator():
    """`umpire generate --ruleset dux-bellorum-avbcw`: seeded legal games and injected violations."""
    from domain.rules.dux_bellorum_avbcw.generator.inject import inject
    from domain.rules.dux_bellorum_avbcw.generator.player import play_game
    from domain.rulesets import Generator
    return Generator(play_game=play_game, inject=inject)


RULESET = tabletop_ruleset(
    events, own_board=BOARD, interpretations=interpretations.AVBCW, rule_modules=_rule_modules,
    army_check=_army_check, analytics=_analytics, generator=_generator, turret_weapons=_turret_weapons,
    table_schemas=core_tables.TABLES,
    id="dux-bellorum-avbcw", prefix="AVBCW", book="Dux Bellorum: A Very British Civil War",
    title="Dux Bellorum conversion for A Very British Civil War (tabletop, inches)",
)
