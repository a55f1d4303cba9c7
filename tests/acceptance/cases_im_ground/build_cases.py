"""Writes the ground-war acceptance logs beside this file: infantry (IM.INF), obstacles (IM.OBS), the
new terrain in combat (IM.TER) and the shell-hole dispute (IM.SHELL).

Each case is a complete game log in the interchange format with a NAME.expected.json of the
findings it must give; every expectation cites the rulebook passage it comes from. Every shot is
spotted on its d10, records its firepower and range and rolls its SACRT with the modifiers the
text gives, so that a case shows its own finding and no other. Regenerate with
`.venv/bin/python -m tests.acceptance.cases_im_ground.build_cases`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from tests.acceptance.cases_movement.build_cases import BRIT, GER, Game as MovementGame

HERE = Path(__file__).resolve().parent


class Game(MovementGame):
    """A log written beside this file, with set-up and fire helpers."""

    def write(self) -> None:
        import json

        from domain.log import chain
        (HERE / f"{self.name}.jsonl").write_text("\n".join(chain(self.lines)) + "\n", encoding="utf-8")
        (HERE / f"{self.name}.expected.json").write_text(json.dumps({"findings": self.expected}, indent=1) + "\n",
                                                        encoding="utf-8")

    def deploy(self, unit: str, side: str, cls: str, location: Optional[str], firepower: float = 4, rng: int = 6,
               morale: int = 4, **attrs: Any) -> int:
        return self.add("UnitDeployed", {"unit": unit, "class": cls, "name": unit, "location": location,
                                         "facing": 1, "morale": morale, "firepower": firepower, "range": rng,
                                         "movement": 4, "attrs": attrs}, side=side)

    def at(self, turn: int, phase: str, active: str) -> None:
        if turn != self.turn:
            self.turn_start(turn)
        self.phase_start(phase, active)

    def fire(self, side: str, attack: str, firer: str, target: str, firepower: float, rng: int,
             modifiers: tuple[int, ...] = (), results: tuple[tuple[str, str], ...] = (),
             jam: Optional[int] = None, resolve: bool = True) -> int:
        """Spot (d10), fire, the squad's jam roll, the SACRT roll, the results: the seq of the fire."""
        self.roll(side, "IM.SPOT.ROLL", 2, firer, die="d10")
        self.add("Spotted", {"spotter": firer, "target": target, "spotted": True}, side=side)
        seq = self.add("SmallArmsFired", {"attack": attack, "firers": [firer], "target": target,
                                          "firepower": firepower, "range": rng}, side=side)
        if jam is not None:
            self.roll(side, "IM.INF.SQUAD.JAM", jam, firer)
        if resolve:
            self.add("DieRolled", {"purpose": "LS.SACRT", "die": "d6", "result": 4, "subject": attack,
                                   "modifiers": [{"value": m, "why": "text"} for m in modifiers]}, side=side)
            self.add("SmallArmsResolved", {"attack": attack, "results": [{"unit": u, "result": r}
                                                                         for u, r in results]}, side=side)
        return seq


def game(name: str, hexes: Optional[dict] = None, hexsides: Optional[list] = None, maps=("5",), **kw) -> Game:
    g = Game(name, hexes=hexes, hexsides=hexsides, **kw)
    if maps != ("5",):
        g.lines[1]["data"]["maps"] = list(maps)
    return g


# -- IM.INF ---------------------------------------------------------------------------------------
def squad_jam_then_seven_hexes() -> Game:
    """EC-31: "Squad fires at a target 8 hexes away. Pre-roll d6 = 1 -> jammed permanently. The 8-hex attack
    cannot be made ... Later attack at 7 -> REJECT. Later attack at 6 -> ACCEPT with FP 1." """
    g = game("inf-squad-jam-then-seven-hexes")
    g.deploy("g-sq", GER, "infantry-squad", "5:0510", firepower=1, rng=9)
    for n in (6, 7, 8):
        g.deploy(f"b-{n}", BRIT, "infantry-platoon", f"5:{5 + n:02d}10")
    g.at(1, "offensive-small-arms-fire", GER)
    g.fire(GER, "a-1", "g-sq", "5:1310", 1, 8, jam=1, resolve=False)   # jammed: the attack is not made
    g.expect(g.fire(GER, "a-2", "g-sq", "5:1210", 1, 7), "IM.INF.SQUAD.JAM")
    g.fire(GER, "a-3", "g-sq", "5:1110", 1, 6, results=(("b-6", "no-effect"),))
    return g


def sturm_firepower() -> Game:
    """Sturmtruppen firepower: "If the target lies in an adjacent hexagon, the unit's firepower is tripled (a
    printed 4 thus becomes 12)"; at 3 hexes printed +2 (6), so 8 is too much."""
    g = game("inf-sturm-firepower")
    g.deploy("g-st", GER, "infantry-platoon", "5:0510", firepower=4, rng=9, sturmtruppen=True)
    g.deploy("b-1", BRIT, "infantry-platoon", "5:0610")
    g.deploy("b-3", BRIT, "infantry-platoon", "5:0810")
    g.at(1, "offensive-small-arms-fire", GER)
    g.fire(GER, "a-1", "g-st", "5:0610", 12, 1, results=(("b-1", "no-effect"),))
    g.expect(g.fire(GER, "a-2", "g-st", "5:0810", 8, 3, results=(("b-3", "no-effect"),)), "IM.INF.ST.FP")
    return g


def leader_hit() -> Game:
    """Infantry leaders: "They are immune to 'Hits' on the SACRT or BCRT." """
    g = game("inf-leader-immune-to-hits")
    g.deploy("b-inf", BRIT, "infantry-platoon", "5:0510")
    g.deploy("b-ldr", BRIT, "infantry-leader", "5:0510", firepower=0, rng=0)
    g.deploy("g-inf", GER, "infantry-platoon", "5:0810")
    g.at(1, "offensive-small-arms-fire", GER)
    g.expect(g.fire(GER, "a-1", "g-inf", "5:0510", 4, 3, results=(("b-ldr", "pinned"),)) + 2,
             "IM.INF.LEADER.IMMUNE")
    return g


def breakup_stray() -> Game:
    """Breaking up Sturmtruppen platoons: the squads "must always end their movement within a maximum distance of
    two hexagons of another Sturmtruppen squad belonging to the same platoon" (EC-47: squad D ends 3 hexes from
    every sibling -> REJECT)."""
    g = game("inf-breakup-stray-squad", date="1918-03")
    g.deploy("g-st", GER, "infantry-platoon", "5:0510", sturmtruppen=True)
    g.deploy("b-inf", BRIT, "infantry-platoon", "5:2010")
    g.at(1, "first-foot-movement", GER)
    g.add("PlatoonBrokenUp", {"platoon": "g-st", "squads": ["g-a", "g-b", "g-c", "g-d"]}, side=GER)
    g.move(GER, "g-a", ["5:0510", "5:0610"])
    g.expect(g.move(GER, "g-d", ["5:0510", "5:0509", "5:0508", "5:0507"]), "IM.INF.ST.BREAKUP")
    g.at(1, "second-foot-movement", GER)
    return g


def smock_revealed_fire_legal() -> Game:
    """Smocks: "When smock-equipped troops conduct small arms fire while located 5 hexagons or less from an enemy
    unit, the firing unit is automatically spotted; and no special area modifier applies"."""
    g = game("inf-smock-revealed-legal", date="1919-03", nations={BRIT: "british", GER: "red-army"})
    g.deploy("g-red", GER, "infantry-platoon", "5:0910", smocks=True)
    g.deploy("b-inf", BRIT, "infantry-platoon", "5:0510")
    g.at(1, "defensive-small-arms-fire", BRIT)
    g.fire(GER, "a-1", "g-red", "5:0510", 4, 4, results=(("b-inf", "no-effect"),))
    g.at(1, "offensive-small-arms-fire", BRIT)
    g.fire(BRIT, "a-2", "b-inf", "5:0910", 4, 4, results=(("g-red", "no-effect"),))
    return g


# -- IM.OBS ---------------------------------------------------------------------------------------
def trench_game(name: str, kind: str) -> Game:
    """A german platoon in a `kind` trench at 0510 facing north (front 0); british north and south of it."""
    g = game(name)
    g.add("MarkerPlaced", {"marker": kind, "location": "5:0510", "front": 0}, side=GER)
    g.deploy("g-inf", GER, "infantry-platoon", "5:0510")
    g.deploy("b-north", BRIT, "infantry-platoon", "5:0507")
    g.deploy("b-south", BRIT, "infantry-platoon", "5:0513")
    return g


def communication_trench_fire() -> Game:
    """Communication trenches: units in them "may also not conduct small arms fire outward in any direction"."""
    g = trench_game("obs-communication-trench-fires", "trench-communication")
    g.at(1, "defensive-small-arms-fire", BRIT)
    g.expect(g.fire(GER, "a-1", "g-inf", "5:0507", 4, 3, results=(("b-north", "no-effect"),)),
             "IM.OBS.TRENCH.COMM.SAF")
    return g


def prepared_trench_rear() -> Game:
    """Prepared trenches: "invulnerable to small arms fire conducted from their rear by units that are not trench
    mortars"; from the front "+2" (EC-44)."""
    g = trench_game("obs-prepared-trench-rear-fire", "trench-prepared")
    g.at(1, "offensive-small-arms-fire", BRIT)
    g.fire(BRIT, "a-1", "b-north", "5:0510", 4, 3, modifiers=(2,), results=(("g-inf", "no-effect"),))
    g.expect(g.fire(BRIT, "a-2", "b-south", "5:0510", 4, 3, results=(("g-inf", "pinned"),)) + 2,
             "IM.OBS.TRENCH.PREP.SAF")
    return g


def hasty_trench_legal() -> Game:
    """Hasty trenches: "+1 modifier against small arms fire conducted from any direction" and "units in hasty
    trenches may conduct small arms fire against enemy units located in adjacent hasty trench hexagons"."""
    g = trench_game("obs-hasty-trench-legal", "trench-hasty")
    g.add("MarkerPlaced", {"marker": "trench-hasty", "location": "5:0509"}, side=BRIT)
    g.deploy("b-near", BRIT, "infantry-platoon", "5:0509")
    g.at(1, "offensive-small-arms-fire", BRIT)
    g.fire(BRIT, "a-1", "b-south", "5:0510", 4, 3, modifiers=(1,), results=(("g-inf", "no-effect"),))
    g.at(1, "defensive-small-arms-fire", BRIT)
    g.fire(GER, "a-2", "g-inf", "5:0509", 4, 1, modifiers=(1,), results=(("b-near", "no-effect"),))
    return g


def extra_wide_poor_crosser() -> Game:
    """OPTIONAL RULE: "Extra wide trenches completely prevent crossing by tanks with poor trench-crossing capability
    (the = indicator)"."""
    g = game("obs-extra-wide-poor-crosser")
    g.lines[0]["data"]["permissions"] = ["extra-wide-trenches"]
    g.add("MarkerPlaced", {"marker": "trench-extra-wide", "location": "5:0511"}, side=GER)
    g.add("UnitDeployed", {"unit": "b-tank", "class": "tank", "name": "Mk IV", "location": "5:0510", "movement": 4,
                           "attrs": {"trench_crossing": "=", "model": "Mk IV"}}, side=BRIT)
    g.at(1, "vehicle-movement", BRIT)
    g.expect(g.move(BRIT, "b-tank", ["5:0510", "5:0511"]), "IM.OBS.TRENCH.EXTRAWIDE")
    return g


# -- IM.TER and IM.SHELL ---------------------------------------------------------------------------
def through_the_ceiling() -> Game:
    """Storeys: "Units on different levels but in the same building hexagon may not fire through the ceiling"."""
    g = game("ter-fire-through-the-ceiling", hexes={"5:0510": {"terrain": "town", "features": ["multi-storey"]}})
    g.deploy("b-inf", BRIT, "infantry-platoon", "5:0510")
    g.deploy("g-inf", GER, "infantry-platoon", "5:0510")
    g.add("MarkerPlaced", {"marker": "2nd-story", "location": "5:0510", "unit": "g-inf"}, side=GER)
    g.at(1, "offensive-small-arms-fire", BRIT)
    g.expect(g.fire(BRIT, "a-1", "b-inf", "5:0510", 4, 0, results=(("g-inf", "no-effect"),)),
             "IM.TER.STOREY.CEILING")
    return g


def across_a_wall() -> Game:
    """Stone walls: "Units attacked by enemy small arms fire across a stone wall apply a +2 modifier to the
    attacker's die roll on the SACRT"."""
    g = game("ter-fire-across-a-stone-wall", hexsides=[{"between": ["5:0509", "5:0510"], "feature": "stone-wall"}])
    g.deploy("b-inf", BRIT, "infantry-platoon", "5:0507")
    g.deploy("g-inf", GER, "infantry-platoon", "5:0510")
    g.at(1, "offensive-small-arms-fire", BRIT)
    g.fire(BRIT, "a-1", "b-inf", "5:0510", 4, 3, modifiers=(2,), results=(("g-inf", "no-effect"),))
    g.expect(g.fire(BRIT, "a-2", "b-inf", "5:0510", 4, 3, results=(("g-inf", "no-effect"),)) + 2,
             "IM.TER.WALL.SAF", "mismatch")
    return g


def rubble_by_small_arms() -> Game:
    """Rubble markers, NOTE: "anti-tank rifles, small arms fire by infantry or machine guns have no effect on
    reducing stone/concrete buildings to rubble" (EC-43: an MG platoon's hits -> no rubble progress)."""
    g = game("ter-rubble-by-small-arms", hexes={"10:1010": {"terrain": "town"}}, maps=("10",))
    g.deploy("b-mg", BRIT, "mg-platoon", "10:1007", firepower=6, rng=10)
    g.deploy("g-inf", GER, "infantry-platoon", "10:1010")
    g.at(1, "offensive-small-arms-fire", BRIT)
    g.fire(BRIT, "a-1", "b-mg", "10:1010", 6, 3, results=(("g-inf", "no-effect"),))
    g.expect(g.add("MarkerPlaced", {"marker": "rubble-1", "location": "10:1010"}, side=BRIT), "IM.TER.RUBBLE.IMMUNE")
    return g


def shell_dispute_tie() -> Game:
    """Shell holes, NOTE: "roll a six-sided die; the player who rolls the higher result uses his interpretation"
    (a tie is not covered: AP-06)."""
    g = game("shell-dispute-tie", hexes={f"5:{c:02d}10": {"terrain": "clear", "features": ["shell-holes"]}
                                         for c in (6, 7)})
    g.add("UnitDeployed", {"unit": "b-tank", "class": "tank", "name": "Mk IV", "location": "5:0510", "movement": 6,
                           "attrs": {}}, side=BRIT)
    g.at(1, "vehicle-movement", BRIT)
    moved = g.move(BRIT, "b-tank", ["5:0510", "5:0610", "5:0710", "5:0810"])
    g.add("DisputeRaised", {"dispute": "dispute-1", "about": moved, "by": "german",
                            "claim": "the tank crossed two shell-hole hexes: its allowance is halved"}, side=GER)
    g.roll(BRIT, "IM.SHELL.DISPUTE", 4, "dispute-1")
    g.expect(g.roll(GER, "IM.SHELL.DISPUTE", 4, "dispute-1"), "IM.SHELL.DISPUTE", "ambiguous")
    return g


CASES = [squad_jam_then_seven_hexes, sturm_firepower, leader_hit, breakup_stray, smock_revealed_fire_legal,
         communication_trench_fire, prepared_trench_rear, hasty_trench_legal, extra_wide_poor_crosser,
         through_the_ceiling, across_a_wall, rubble_by_small_arms, shell_dispute_tie]


def main() -> None:
    for make in CASES:
        make().write()


if __name__ == "__main__":
    main()
