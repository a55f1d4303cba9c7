"""The named interpretations of game-log-tabletop.md ("Interpretations"): where the two seeds
leave a question open, a game chooses a reading as `NAME=READING` in `GameStarted.options`; an
unchosen one takes its default, or gives `ambiguous` where it has none. Each rule system's
RuleSet lists the ones that are its own (`measure` is both's)."""
from __future__ import annotations

from domain.rules.interpretations import Interpretation, declare


def _named(name: str, rules: tuple[str, ...], question: str, readings: dict[str, str],
           default: str | None) -> Interpretation:
    return declare(Interpretation(name, rules, question, readings, default))


MEASURE = _named(
    "measure", ("AVBCW.*", "MOG.*"), "Neither seed says how distances are measured.",
    {"closest": "closest point to closest point", "centre": "centre to centre"}, "closest")

AVBCW = (
    MEASURE,
    _named("avbcw-range", ("AVBCW.SHOOT.RATINGS",), "Range is unstated; LOS is from the leader figure.",
           {"from-leader": "from the LOS origin to the target's closest point",
            "closest": "closest point to closest point"}, "from-leader"),
    _named("avbcw-arc", ("AVBCW.SHOOT.RATINGS", "AVBCW.VEH.SHOOT"), '"45° to its front".',
           {"quadrant": "45° either side", "narrow": "22.5° either side"}, "quadrant"),
    _named("avbcw-end-phase", ("AVBCW.AB.FIRSTAID", "AVBCW.AB.SUPPLY"), '"end phase" is not a named phase.',
           {"morale-and-victory": "the morale-and-victory phase"}, "morale-and-victory"),
    _named("avbcw-vehicle-terrain", ("AVBCW.MOVE.TERRAIN",),
           'MOVE.TERRAIN says "A unit"; the tracked rules move "though area terrain".',
           {"cross": "vehicles cross", "stop": "vehicles stop like other units"}, "cross"),
    _named("avbcw-bog-area", ("AVBCW.VEH.TRACKED.BOG",), '"the midpoint of its current move though area terrain".',
           {"area-midpoint": "the midpoint of the area crossed", "move-midpoint": "the midpoint of the move"}, None),
    _named("avbcw-low-ammo-halve", ("AVBCW.AMMO.LOW",), "Halving against the SHOOT changes (-2, +1, +2).",
           {"after-rating": "halve after the changes", "before-rating": "halve before the changes"}, "after-rating"),
    _named("avbcw-mad-minute", ("AVBCW.AB.MADMINUTE",), "AP-AV-03.",
           {"low": "low on ammunition", "exhausted": "out of ammunition"}, None),
    _named("avbcw-heavy-mortar-pts", ("AVBCW.UNIT.STATS",), 'AP-AV-04: a heavy mortar team costs "3 4" as printed.',
           {"3": "3 points", "4": "4 points"}, None),
    _named("avbcw-ram-soft", ("AVBCW.VEH.RAM",), 'AP-AV-01/02: ram damage on a soft vehicle, "in response to a hit" '
           "undefined for rams; which facing's PRO sets the count is not stated.",
           {"1d6": "1d6 a roll", "1d6+1": "1d6+1 a roll"}, None),
)

MOG = (
    MEASURE,
    # The seed names no readings for these two: they stay `ambiguous` whatever a game chooses.
    _named("mog-explode-6", ("MOG.FIRE.EXPLODE",), 'AP-MOG-02: a figure exactly 6" from an exploding vehicle '
           "(the bands overlap).", {}, None),
    _named("mog-armour-neutral", ("MOG.VEH.ARMOUR",), "AP-MOG-01: a neutral-looking vehicle rolls armour 6 "
           "(no class mapping).", {}, None),
    _named("mog-speed-roll", ("MOG.VEH.SPEED",), "MOG.Z 7.",
           {"once": "the speed dice are rolled once", "per-turn": "rolled each turn"}, None),
    _named("mog-terrain-class", ("MOG.VEH.SPEED",), "A move over road and off road is not covered.",
           {"worst": "the worst class it touches", "start": "the class where it starts"}, "worst"),
    _named("mog-rough-dice", ("MOG.VEH.SPEED",), '"negates the highest die": of the off-road dice or of all.',
           {"off-road": "of the off-road dice", "maximum": "of all the dice"}, "off-road"),
    _named("mog-airship-accel", ("MOG.AIRSHIP.MOVE",),
           '"plus an additional d6 every turn after" vs "can decelerate".',
           {"compulsory": "the extra die is compulsory", "optional": "it may be left"}, None),
    _named("mog-airplane-sharp", ("MOG.AIRPLANE.MOVE",), '"cannot make a sharp, right angle turn".',
           {"90": "a turn of 90° or more is sharp"}, "90"),
    _named("mog-air-cards", ("MOG.FIRE.CARD",), "Aces against airships are not covered.",
           {"face-only": "only face cards hit", "as-landship": "as against a landship"}, None),
    _named("mog-jump-6", ("MOG.JUMP",), '"Explodes as it takes off", yet the chart is read "After moving".',
           {"at-start": "it explodes at the start", "at-end": "at the end of the move"}, None),
    _named("mog-bomb", ("MOG.AIRPLANE.BOMB",), "MOG.Z 6.",
           {"hit-at-offset": "a hit lands at the offset", "offset-on-miss": "the offset applies to a miss"}, None),
)
