"""Landships of Mogdonazia (for The Sword and The Flame) as a rule system: the `RuleSet` its
entry point names."""
from __future__ import annotations

from domain.rules.landships_of_mogdonazia import core_tables, events
from domain.tabletop import interpretations
from domain.tabletop.ruleset import keep, tabletop_ruleset

BOARD = {
    # What each machine was built as: its kind, speed dice, target class, crew and weapons.
    "VehicleBuilt": keep("vehicles", "unit", lambda d: {k: d[k] for k in (
        "kind", "looks", "open_topped", "speed_dice", "target_class", "crew") if k in d}),
}


def _rule_modules() -> list[type]:
    """In judging order: the vehicle as built, its movement dice, breakdown and repair, the cards."""
    from domain.rules.landships_of_mogdonazia.air import Flying
    from domain.rules.landships_of_mogdonazia.breakdown import Breakdown, Repair
    from domain.rules.landships_of_mogdonazia.combat import VehicleCombat
    from domain.rules.landships_of_mogdonazia.contraptions import Contraptions
    from domain.rules.landships_of_mogdonazia.criticals import Criticals
    from domain.rules.landships_of_mogdonazia.explode import Explosions
    from domain.rules.landships_of_mogdonazia.fire import DeckChecks, HitCards
    from domain.rules.landships_of_mogdonazia.vehicles import MovementDice, VehicleBuilding
    return [VehicleBuilding, MovementDice, Breakdown, Repair, DeckChecks, HitCards, Criticals, Explosions, Flying,
            Contraptions, VehicleCombat]


def _analytics() -> type:
    """The fold of one game for the cross-game analytics (projections/analytics.py)."""
    from domain.rules.landships_of_mogdonazia.analytics import MOGTally
    return MOGTally


def _generator():
    """`umpire generate --ruleset landships-of-mogdonazia`: seeded legal games and injected violations."""
    from domain.rules.landships_of_mogdonazia.generator.inject import inject
    from domain.rules.landships_of_mogdonazia.generator.player import play_game
    from domain.rulesets import Generator
    return Generator(play_game=play_game, inject=inject)


RULESET = tabletop_ruleset(
    events, own_board=BOARD, interpretations=interpretations.MOG, rule_modules=_rule_modules,
    analytics=_analytics, generator=_generator, table_schemas=core_tables.TABLES,
    id="landships-of-mogdonazia", prefix="MOG", book="Landships of Mogdonazia",
    title="Landships of Mogdonazia, for The Sword and The Flame (tabletop, inches)",
)
