"""Landships of Mogdonazia, the fire cards (landships-of-mogdonazia.txt, D. Firing at vehicles 2):
"When a vehicle is hit, play out a card as per all other units", read by weapon class; and every
card drawn against its deck (game-log-tabletop.md, Cards: a card drawn while out of the deck, or
from an empty deck, is a violation of `<for>.DECK`)."""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict
from domain.rules.landships_of_mogdonazia import core_tables
from domain.rules.landships_of_mogdonazia.common import RULEBOOK, faces, finer, last_roll, vehicle_of
from domain.tabletop.core_procedures import CARD_KEYS, card_meaning
from domain.tabletop.events import RANKS, SUITS

CARD = RULEBOOK.rule("MOG.FIRE.CARD")
PA = RULEBOOK.rule("MOG.PA")
CLOCKWORK = RULEBOOK.rule("MOG.CLOCKWORK")
AIR_SHOOT = RULEBOOK.rule("MOG.AIR.SHOOT")
TSATF_FIRE = Rule("TSATF.FIRE", "Firing (core, not in the text)", "The Sword and The Flame")
# Where the rule turning a card is not this book's (TSATF.SAVE, TSATF.ACTIVATION): the log format's words.
CARDS_PAGE = ("game-log-tabletop.md, Cards: a card drawn while out of the deck (drawn since the last shuffle "
              "that did not return it), or from an empty deck, is a violation of <for>.DECK")
FACES = ("J", "Q", "K")
GUNS = ("gun", "artillery")   # "If the weapon firing is a gun"; Congreve rockets "count as artillery"


def rank_suit(card: str) -> Optional[tuple[str, str]]:
    """A standard card's rank and suit ("rank A, 2..10, J, Q, K then suit C, D, H, S"), else None."""
    rank, suit = card[:-1], card[-1:]
    return (rank, suit) if rank in RANKS and suit in SUITS else None


def landship_outcome(weapon_class: str, rank: str, suit: str) -> str:
    """D. 2: "If the weapon firing is a gun: Face card- Criticals, Ace of Hearts card- Destroyed. If the
    weapon firing is a machine gun or small arms: Ace card- Criticals"; any other card, no wound."""
    if weapon_class in GUNS:
        if rank in FACES:
            return "critical"
        return "destroyed" if (rank, suit) == ("A", "H") else "none"
    return "critical" if rank == "A" else "none"


def contraption_outcome(kind: str, rank: str) -> str:
    """E. PA: "When hit, a face card counts as a wound, an ace as killed"; F. Clockwork: "a face card
    will cause the Clockwork to refer to the Clockwork Critical chart every turn, and an ace will shut
    it down permanently"."""
    face, ace = {"powered-armour": ("wound", "killed"), "clockwork": ("critical-each-turn", "shut-down")}[kind]
    return face if rank in FACES else ace if rank == "A" else "none"


class HitCards(RuleModule):
    """HitCardResolved after its CardDrawn (MOG.FIRE.CARD): the card, the hits, the outcome."""

    ruleset = "landships-of-mogdonazia"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.shots: dict[str, Any] = {}
        self.hits: dict[str, int] = {}
        self.cards: dict[str, list[int]] = {}   # attack -> seqs of its HitCardResolved
        self.keys: dict[str, dict[str, str]] = {}   # unit -> {key figure: what it carries}
        self.counts: dict[str, Optional[int]] = {}   # unit -> its figures at deployment
        self.owed: list[tuple[str, int, int]] = []   # (attack, seq of its ShotResolved, hits) on a vehicle this turn

    def on_ShotFired(self, line):
        shot = self.ctx.typed(line)
        self.shots[shot.attack] = shot

    def on_UnitDeployed(self, line):
        unit = self.ctx.typed(line)
        self.keys[unit.unit] = {k.figure: k.carries for k in unit.key_figures or ()}
        self.counts[unit.unit] = core_tables.figure_count(unit)

    def on_ShotResolved(self, line):
        resolved = self.ctx.typed(line)
        self.hits[resolved.attack] = resolved.hits
        shot = self.shots.get(resolved.attack)
        if shot is not None and resolved.hits and shot.target_part == "vehicle" \
                and vehicle_of(self.ctx, shot.target) is not None:
            self.owed.append((resolved.attack, line["seq"], resolved.hits))
        carries = core_tables.carried(self.keys.get(shot.shooter, {}), shot,
                                     self.counts.get(shot.shooter)) if shot is not None else None
        if shot is None or not self.ctx.tables.has(TSATF_FIRE.id) or carries in ("tesla-rifle", "flame-rifle"):
            return ()   # the Tesla's hits are Contraptions'; the flame rifle's are the seed's "1-6"
        return tsatf_fire(self.ctx, shot, resolved, line["seq"], core_tables.column_of(shot, carries))

    def on_TurnStarted(self, line):
        return self._cards_owed(line["seq"] - 1)

    def finish(self):
        return self._cards_owed(len(self.ctx.lines))

    def _cards_owed(self, last: int) -> list[RuleApplication]:
        """D. 2: "When a vehicle is hit, play out a card as per all other units": one card a hit on a vehicle,
        by the end of the turn of the hits."""
        out = []
        for attack, seq, hits in self.owed:
            played = len(self.cards.get(attack, []))
            if played < hits:
                out.append(CARD.missing_roll(seq, f"{attack} hit a vehicle {hits} time(s): {played} card(s) played "
                                             "out (\"When a vehicle is hit, play out a card\")",
                                             expected=hits, recorded=played, related=[last]))
        self.owed = []
        return out

    def on_HitCardResolved(self, line):
        hit, seq = self.ctx.typed(line), line["seq"]
        earlier = self.cards.setdefault(hit.attack, [])
        drawn = self._card_for(hit.attack, seq, after=earlier[-1] if earlier else 0)
        earlier.append(seq)
        out = [a for a in (self._count(hit, seq, len(earlier)), self._class(hit, seq)) if a]
        if drawn is None:
            return out + [CARD.missing_roll(seq, f"no CardDrawn for MOG.FIRE.CARD about {hit.attack} before it")]
        card = self.ctx.typed(drawn).card
        if card != hit.card:
            return out + [CARD.mismatch(seq, f"the card turned was {card}, not {hit.card}",
                                        expected=card, recorded=hit.card, related=[drawn["seq"]])]
        return out + [self._outcome(hit, seq, drawn["seq"])]

    def _card_for(self, attack: str, seq: int, after: int) -> Optional[dict[str, Any]]:
        for line in reversed(self.ctx.of_type("CardDrawn", after=after, before=seq)):
            drawn = self.ctx.typed(line)
            if drawn.for_ == CARD.id and drawn.subject == attack:
                return line
        return None

    def _count(self, hit, seq: int, nth: int) -> Optional[RuleApplication]:
        hits = self.hits.get(hit.attack)
        if hits is None or nth <= hits:
            return None
        return CARD.violation(seq, f"card {nth} for {hit.attack}, which hit {hits} time(s): \"When a vehicle is hit, "
                              "play out a card\"", expected=f"<= {hits}", recorded=nth)

    def _class(self, hit, seq: int) -> Optional[RuleApplication]:
        shot = self.shots.get(hit.attack)
        if shot is None or shot.weapon_class == hit.weapon_class:
            return None
        return CARD.mismatch(seq, f"{hit.attack} was fired as {shot.weapon_class}, not {hit.weapon_class}",
                             expected=shot.weapon_class, recorded=hit.weapon_class)

    def _outcome(self, hit, seq: int, card_seq: int) -> RuleApplication:
        shot, kind = self.shots.get(hit.attack), (vehicle_of(self.ctx, hit.target) or {}).get("kind")
        parsed = rank_suit(hit.card)
        related = [card_seq]
        if shot is not None and shot.target_part == "crew":
            return CARD.unverifiable(seq, "fire at an open-topped vehicle's crew wounds figures as in TSATF (core, "
                                     "not in the text)", related=related)
        if kind is None:
            return CARD.unverifiable(seq, f"{hit.target} is not a vehicle: its card is read as in TSATF", related=related)
        if parsed is None:
            return CARD.unverifiable(seq, f"{hit.card} is not a standard card: neither face card nor ace",
                                     recorded=hit.card, related=related)
        rank, suit = parsed
        if kind in ("powered-armour", "clockwork"):
            rule = PA if kind == "powered-armour" else CLOCKWORK
            return _compare(rule, seq, hit, contraption_outcome(kind, rank), related)
        if kind in ("airship", "airplane"):
            return self._air(hit, seq, rank, suit, related)
        return _compare(CARD, seq, hit, landship_outcome(hit.weapon_class, rank, suit), related)

    def _air(self, hit, seq, rank, suit, related) -> RuleApplication:
        """A. 3: "On a face card, consult the Airship Critical Chart"; aces: `mog-air-cards`."""
        if rank in FACES:
            return _compare(AIR_SHOOT, seq, hit, "critical", related)
        if rank != "A":
            return _compare(AIR_SHOOT, seq, hit, "none", related)
        reading = self.ctx.interpretations.reading("mog-air-cards")
        label = self.ctx.interpretations.label("mog-air-cards")
        if reading is None:
            return CARD.ambiguous(seq, "an ace against an airship or airplane is not covered (`mog-air-cards`)",
                                  recorded=hit.outcome, related=related, interpretation=label)
        expected = "none" if reading == "face-only" else landship_outcome(hit.weapon_class, rank, suit)
        return _compare(CARD, seq, hit, expected, related, interpretation=label)


def tsatf_fire(ctx, shot, resolved, seq: int, column: str, rule: Optional[Rule] = None) -> list[RuleApplication]:
    """A shot's hits read on the table pack's TSATF.FIRE ("Firing at vehicles is done in the same way
    as in TSATF"): each d20 of its TSATF.FIRE roll at or under the column's number for the target and
    range hits. Only called when the pack holds TSATF.FIRE."""
    rule = rule or TSATF_FIRE
    roll = last_roll(ctx, resolved.attack, TSATF_FIRE.id, seq)
    if roll is None:
        return [rule.missing_roll(seq, f"no TSATF.FIRE d20s about {resolved.attack}")]
    unit = ctx.board.units.get(shot.target)
    keys = core_tables.target_keys(shot, vehicle_of(ctx, shot.target), unit.type if unit is not None else None)
    face, why = core_tables.hit_on(ctx.tables.get(TSATF_FIRE.id), column, keys, shot.range)
    if face is None:
        return [rule.unverifiable(seq, f"{resolved.attack}: {why} ({ctx.tables.label()})", recorded=resolved.hits)]
    rolled = faces(ctx.typed(roll))
    hits = sum(1 for f in rolled if f <= face)
    return [rule.judge(seq, resolved.hits == hits, f"{resolved.attack}: {hits} hits, the d20s {rolled} on {why}",
                       f"{resolved.attack} records {resolved.hits} hits; the d20s {rolled} on {why} "
                       f"({ctx.tables.label()}) give {hits}", verdict=Verdict.MISMATCH, expected=hits,
                       recorded=resolved.hits, related=[roll["seq"]])]


def _compare(rule: Rule, seq: int, hit, expected: str, related: list[int], **kw) -> RuleApplication:
    return rule.judge(seq, hit.outcome == expected, f"{hit.weapon_class} hit, {hit.card}: {expected}",
                      f"a {hit.weapon_class} hit turning {hit.card} gives {expected}, not {hit.outcome}",
                      verdict=Verdict.MISMATCH, expected=expected, recorded=hit.outcome, related=related, **kw)


class DeckChecks(RuleModule):
    """Every CardDrawn against its deck, before the board takes it out."""

    ruleset = "landships-of-mogdonazia"

    def on_CardDrawn(self, line):
        drawn, seq = self.ctx.typed(line), line["seq"]
        rule = deck_rule(drawn.for_)
        deck = self.ctx.board.extra.get("decks", {}).get(drawn.deck, {"cards": 0, "drawn": []})
        out = []
        if len(deck["drawn"]) >= deck["cards"]:
            out.append(rule.violation(seq, f"deck {drawn.deck!r} is empty: all {deck['cards']} cards are drawn since "
                                      "its last shuffle", recorded=drawn.card))
        elif drawn.card in deck["drawn"]:
            out.append(rule.violation(seq, f"{drawn.card} is out of deck {drawn.deck!r}: drawn since the last shuffle "
                                      "that did not return it", recorded=drawn.card,
                                      related=self._drawn_at(drawn.deck, drawn.card, seq)))
        else:
            out.append(rule.ok(seq, f"{drawn.card} is in deck {drawn.deck!r}"))
        if drawn.for_.startswith("TSATF.") and drawn.meaning is not None:
            out.append(self._meaning(drawn, seq))
        return out

    def _meaning(self, drawn, seq: int) -> RuleApplication:
        """A TSATF card's meaning, read on the table pack's table of that procedure (its card, rank,
        suit, colour or `any`), else `unverifiable`."""
        rule = Rule(drawn.for_, "The Sword and The Flame (core, not in the text)", "The Sword and The Flame")
        if not self.ctx.tables.has(drawn.for_):
            return rule.unverifiable(seq, f"the card's meaning {drawn.meaning!r} is read by {drawn.for_}: "
                                     f"{self.ctx.tables.lacks(drawn.for_)}", recorded=drawn.meaning)
        table = self.ctx.tables.get(drawn.for_)
        expected = card_meaning(table, drawn.card) if isinstance(table, dict) else None
        if expected is None:
            return rule.unverifiable(seq, f"{drawn.for_} of {self.ctx.tables.label()} gives no meaning for "
                                     f"{drawn.card} (read by {CARD_KEYS})", recorded=drawn.meaning)
        return rule.judge(seq, drawn.meaning == expected, f"{drawn.card}: {expected}", f"{drawn.card} means "
                          f"{expected!r} by {drawn.for_} of {self.ctx.tables.label()}, not {drawn.meaning!r}",
                          verdict=Verdict.MISMATCH, expected=expected, recorded=drawn.meaning)

    def _drawn_at(self, deck: str, card: str, seq: int) -> list[int]:
        typed = self.ctx.typed
        return [l["seq"] for l in self.ctx.of_type("CardDrawn", before=seq)
                if (typed(l).deck, typed(l).card) == (deck, card)][-1:]


def deck_rule(purpose: str) -> Rule:
    """`<for>.DECK`: below this book's id where it is one (citing its passage), else the page's words."""
    if purpose in RULEBOOK:
        return finer(RULEBOOK.rule(purpose), "DECK")
    return Rule(f"{purpose}.DECK", CARDS_PAGE, "Umpire game log")



TESTS = "tests/unit/test_mog_fire.py::"
# rule id -> (status, tests, what is judged and what is not yet): docs/rules/landships-of-mogdonazia.md
COVERAGE = {
    "MOG.FIRE.CARD": ("implemented", "; ".join(TESTS + t for t in (
        "test_hit_cards_by_weapon_class", "test_the_example_hit_card_is_a_critical_and_nothing_fails",
        "test_a_card_other_than_the_one_turned_is_a_mismatch", "test_more_cards_than_hits",
        "test_every_hit_on_a_vehicle_plays_out_a_card",
        "test_a_card_drawn_twice_before_a_shuffle_is_a_violation", "test_a_card_from_an_empty_deck_is_a_violation",
        "test_a_save_card_is_checked_against_its_deck_under_its_own_id"))
        + "; tests/acceptance/test_mog_example.py::test_the_example_legal_lines_are_judged_ok",
        "`HitCards`: the card turned, one per hit (no more, and none missing by the turn's end), the outcome by "
        "weapon class; fire at an open-topped crew needs "
        "TSATF. `DeckChecks`: every card drawn against its deck, under `<for>.DECK` (`MOG.FIRE.CARD.DECK`, "
        "`TSATF.SAVE.DECK`, ...: game-log-tabletop.md, Cards); a `TSATF.*` card's `meaning` is `unverifiable` unless "
        "the table pack holds that procedure"),
    "MOG.PA": ("implemented", TESTS + "test_powered_armour_face_is_a_wound_and_ace_killed",
               "`HitCards`: face a wound, ace killed"),
    "MOG.AIR.SHOOT": ("implemented", TESTS + "test_an_ace_against_an_airship_follows_mog_air_cards",
                      "`HitCards`: face card the Airship chart; aces `mog-air-cards` (no default: ambiguous)"),
}
