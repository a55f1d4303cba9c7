"""Infernal Machines as a rule system: the `RuleSet` its entry point names (pyproject.toml)."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Callable, Mapping

from domain.rules.infernal_machines.events import EVENTS, PHASES
from domain.rulebook import beside
from domain.rulesets import Generator, RuleSet

# The charts of the play-aid sheet a table pack may hold (docs/table-packs.md), and their shapes.
TABLES = {
    "FOT": "column (resistance turns) -> natural roll -> 'F' or '-'",
    "BCRT": "column -> modified roll -> result (miss, H, H+1, ...)",
    "BCRT_COLUMNS": "list of [min_firepower, column] in ascending order",
    "AFMT": "side (side name, nation or bloc) -> year -> roll -> mission letter (D, N, S, I, G) or name",
    "BTT": "side (side name, nation or bloc) -> year -> roll -> barrage type (drumfire, hurricane or both)",
    "SPOTTING": "column (fair, bad, buttoned-up) -> distance in hexes -> d10 number to spot on (<=)",
    "SCATTER": "direction roll -> hex direction index 0-5 (0 = north, clockwise)",
    "MOVEMENT": "unit movement class -> terrain -> MP cost",
    "ALLOWANCE": "unit class -> movement allowance",
    "SACRT": "firepower column -> roll -> result",
    "SACRT_COLUMNS": "list of [min_firepower, column] in ascending order (where a SACRT column covers several)",
    "SACRT_REVISED": "firepower column -> roll -> result (the optional revised SACRT, IM.OPTCBT.SACRT)",
    "ATCRT": "column (the AntiTankFired column or weapon) -> modified roll -> result",
    "CACRT": "column -> modified roll -> result",
    "CCSHIFT": "attackers' firepower (lower bound) -> average morale -> [low, high] die results that shift",
    "BLAST": "vehicle gun (as attrs.gun or the vehicle catalogue names it, e.g. '57mm') -> blast power (the play aid)",
    "NCRT": "d6 result -> effect on a boat hit by an artillery gun or aerial bombing (the Naval Combat Results Table)",
    "BREAKDOWN": "terrain state (good, difficult, mud, snow, deep-snow) or 'any' -> modified roll (the die plus the "
                 "vehicle's breakdown modifier) -> 'breakdown' or '-' (the Landships! breakdown table; the analytics' odds)",
    "IMPACT_ZONES": "mission -> {primary: [offsets], secondary: [offsets]}, or mission -> barrage type -> "
                    "{primary, secondary}; offsets are cube [x, y, z] from the centre hex",
}

# Fields of event data that name units or off-map elements, checked against the board.
UNIT_REFS = {
    "UnitMoved": ("unit",), "UnitStatusChanged": ("unit",), "MoraleChecked": ("units",),
    "Spotted": ("spotter",), "SmallArmsFired": ("firers",), "HexObserved": ("observer",),
    "BarrageDeclared": ("observer",), "MarkerPlaced": ("unit",), "MarkerRemoved": ("unit",),
    "CloseCombatFought": ("attackers", "defenders"), "CloseCombatResolved": ("results[].unit",),
    "PlatoonBrokenUp": ("platoon",), "PlatoonReformed": ("platoon", "squads"),
    "AntiTankFired": ("firers", "target_unit"), "AntiTankResolved": ("results[].unit",),
    "Embarked": ("carrier", "units"), "Disembarked": ("carrier", "units"),
}
# Where units come into the game: deployed, or the squads of a broken-up Sturmtruppen platoon.
DECLARES = {"UnitDeployed": ("unit",), "PlatoonBrokenUp": ("squads",), "CloseCombatFought": ("combat",)}
ELEMENT_REFS = {
    "BarrageDeclared": ("elements", "target_element"), "ArtilleryPointsSpent": ("element",),
    "ScatterTested": ("element",), "BarrageResolved": ("element",),
    "ArtilleryElementEliminated": ("element",),
}


def rule_modules() -> list[type]:
    """The rule modules, in the order they judge each event (their findings' order at one seq)."""
    from domain.rules.infernal_machines import (
        ammunition, artillery_after_effects, artillery_effects_judge, artillery_gassed, artillery_legality,
        artillery_legality_creeping, artillery_procedure, artillery_resolution, artillery_resolution_direct,
        anti_tank, cavalry, close_combat_shift, direct_fire, environment, equipment, infantry, morale, mortars,
        movement, observation, observers, obstacles, running, sacrt, spotting, support_weapons, shell_holes,
        terrain_combat)
    from domain.rules.infernal_machines import (  # the machines
        boats, light_vehicles, tanks, tanks_fascines, trains, vehicles_arms, vehicles_carrying, vehicles_protection,
        vehicles_special, vehicles_tadpole)
    return [
        artillery_legality.ArtilleryLegality, artillery_legality_creeping.CreepingBarrages,
        artillery_resolution.ArtilleryResolution, artillery_after_effects.SuppressedFire,
        artillery_after_effects.InterdictedUnits, artillery_after_effects.CounterBatteryOutcome,
        artillery_gassed.GassedUnits, artillery_effects_judge.ArtilleryEffects,
        ammunition.AmmunitionConsumption, artillery_resolution_direct.DirectArtilleryFire,
        observers.ObserverUnits, artillery_procedure.ArtilleryProcedure, movement.MovementChecks,
        observation.ObservationChecks, spotting.SpottingChecks, obstacles.TrenchFire, infantry.InfantryChecks,
        equipment.EquipmentChecks, terrain_combat.TerrainCombat,
        shell_holes.ShellHoleDisputes, environment.EnvironmentChecks, running.RunningFire,
        direct_fire.DirectFireChecks, support_weapons.SupportWeaponChecks,
        mortars.MortarChecks, anti_tank.AntiTankChecks, sacrt.SmallArmsResolution, morale.MoraleChecks,
        cavalry.CavalryFire, close_combat_shift.CloseCombatShift,
        tanks.TankChecks, tanks_fascines.FascineChecks, light_vehicles.LightVehicleChecks,
        vehicles_carrying.CarryingChecks, vehicles_arms.VehicleArms, vehicles_protection.VehicleProtection,
        vehicles_tadpole.TadpoleChecks, vehicles_special.SpecialVehicles, trains.TrainChecks, boats.BoatChecks,
    ]


# The modules that name its interpretations (as module-level Interpretation objects).
INTERPRETING = ("ammunition", "artillery_effects", "artillery_legality", "artillery_legality_creeping",
                "artillery_resolution", "barrage_tracker", "movement", "movement_costs", "observation", "obstacles",
                "infantry", "equipment", "terrain_combat", "resistance", "support_weapons", "mortars", "anti_tank",
                "sacrt", "vehicles_protection", "vehicles_tadpole", "trains")


def interpretations() -> list:
    """Its named interpretations: those its modules declare."""
    from importlib import import_module

    from domain.rules.interpretations import Interpretation
    found = {}
    for name in INTERPRETING:
        module = import_module(f"domain.rules.infernal_machines.{name}")
        found.update({v.name: v for v in vars(module).values() if isinstance(v, Interpretation)})
    return sorted(found.values(), key=lambda item: item.name)


def board_handlers() -> Mapping[str, Callable]:
    """The hex board's fold (domain/board/state.py)."""
    from domain.board.state import HANDLERS
    from domain.rules.infernal_machines.infantry_board import HANDLERS as INFANTRY
    from domain.rules.infernal_machines.vehicles_board import HANDLERS as VEHICLES
    return {**HANDLERS, **INFANTRY, **VEHICLES}


def analytics() -> type:
    """The fold of one game for the cross-game analytics (projections/analytics.py)."""
    from domain.rules.infernal_machines.analytics import GameTally
    return GameTally


def reach(state, lines, unit, tables, interpretations):
    """The hexes a unit could reach on the board, with their cost and the rule that stops it."""
    from domain.board.terrain import Board, Extras
    from domain.rules.infernal_machines.graph import reachable
    return reachable(Board(state, Extras.from_lines(lines)), unit, tables, interpretations)


def hex_counts():
    """The turns each position has resisted (IM.ART.RESIST), shown on the dashboard's hexes."""
    from domain.rules.infernal_machines.resistance import resistance_by_hex
    return resistance_by_hex


def facings():
    """Where each unit faces after a log's lines, as the vehicle checks read it (vehicles.Facings):
    `UnitDeployed.facing`, a move's `facing`, else the direction of its last step."""
    from domain.rules.infernal_machines.vehicles import Facings

    def fold(lines: list, maps: list) -> dict[str, float]:
        found, board = Facings(), SimpleNamespace(maps=maps)
        for line in lines:
            found.update(line, board)
        return dict(found.degrees)
    return fold


def benchmarks():
    from domain.rules.infernal_machines.bench_board import run_board_bench
    return {"board": run_board_bench}


def generator() -> Generator:
    from domain.rules.infernal_machines.generator.inject import inject
    from domain.rules.infernal_machines.generator.player import play_game
    return Generator(play_game=play_game, inject=inject)


RULESET = RuleSet(
    id="infernal-machines", prefix="IM", book="Infernal Machines", geometry="hex",
    title="Infernal Machines (Landships! 1915-1933)", phases=PHASES, events=EVENTS,
    unit_refs=UNIT_REFS, element_refs=ELEMENT_REFS, declares=DECLARES, rule_modules=rule_modules,
    board_handlers=board_handlers, generator=generator, analytics=analytics,
    reach=reach, benchmarks=benchmarks, interpretations=interpretations,
    table_schemas=TABLES, table_packs=lambda: Path(__file__).parent / "tables", hex_counts=hex_counts,
    facings=facings, rulebook=lambda: beside(__file__),
)
