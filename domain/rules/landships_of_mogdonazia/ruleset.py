"""Landships of Mogdonazia (for The Sword and The Flame) as a rule system: the `RuleSet` its
entry point names."""
from __future__ import annotations

from domain.rules.landships_of_mogdonazia.events import (DECLARES, EVENTS, NESTED_REFERENCES, PHASES, REFERENCES,
                                                        advance_line, check_line)
from domain.rulebook import beside
from domain.rulesets import RuleSet
from domain.tabletop import interpretations
from domain.tabletop.ruleset import board_handlers, keep, unit_refs

BOARD = {
    # What each machine was built as: its kind, speed dice, target class, crew and weapons.
    "VehicleBuilt": keep("vehicles", "unit", lambda d: {k: d[k] for k in (
        "kind", "looks", "open_topped", "speed_dice", "target_class", "crew") if k in d}),
}


RULESET = RuleSet(
    id="landships-of-mogdonazia", prefix="MOG", book="Landships of Mogdonazia",
    title="Landships of Mogdonazia, for The Sword and The Flame (tabletop, inches)", geometry="tabletop",
    phases=PHASES, events=EVENTS, unit_refs=unit_refs(REFERENCES, NESTED_REFERENCES), declares=DECLARES,
    board_handlers=board_handlers(BOARD),
    check_line=check_line, advance_line=advance_line, interpretations=lambda: interpretations.MOG,
    rulebook=lambda: beside(__file__),
    rule_modules=lambda: _rule_modules(),
)


def _rule_modules() -> list[type]:
    """In judging order: the vehicle as built, its movement dice, breakdown and repair, the cards."""
    from domain.rules.landships_of_mogdonazia.breakdown import Breakdown, Repair
    from domain.rules.landships_of_mogdonazia.fire import DeckChecks, HitCards
    from domain.rules.landships_of_mogdonazia.vehicles import MovementDice, VehicleBuilding
    return [VehicleBuilding, MovementDice, Breakdown, Repair, DeckChecks, HitCards]
