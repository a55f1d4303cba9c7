"""The off-map barrage procedure, step by step (Infernal Machines, Indirect Barrage Fire Procedure;
Aircraft; Balloons; Automatic observation; First-turn barrages; Sustained fire option).

Per barrage: observe (HexObserved) -> declare (BarrageDeclared, immutable) -> communication
(CommunicationTested after its roll; 1-3 fails) -> Fire Order Table (FireOrderChecked after its
roll, in the column of the hex's resistance turns) -> scatter and resolution. A failed
communication test or a refused fire order ends the barrage for the turn and wastes its
elements; the shortcuts skip exactly the steps their passage names. A step the procedure needs
and the log lacks is a `missing-roll` at the first fire step recorded without it.
"""
from __future__ import annotations

from typing import Optional

from domain.events import given
from domain.rules.engine import Rule, RuleApplication, RuleModule, Verdict
from domain.rules.infernal_machines.barrage_tracker import (
    AIRCRAFT_TIMING, COMM_DIE, COUNTER_BATTERY_PROCEDURE, LNO_CHAIN, OBSERVER_CLASS, SUSTAINED_SCATTER,
    Barrage, Observation, automatic_observation, hex_distance, observer_unit, renew_barrage)

from domain.rules.infernal_machines.fire_orders import FireOrders
from domain.rules.infernal_machines.flares import Flares
from domain.rules.infernal_machines.resistance import (
    EMERGENCY_EVENTS, MORTAR_RESISTANCE, RESISTANCE_EVENTS, ResistanceTracker)
from domain.rules.infernal_machines.sustained import SustainedFire
from domain.rulebook import beside

RULEBOOK = beside(__file__)
R_PRIOR_OBS = RULEBOOK.rule("IM.ART.FOT.PRIOR_OBS")
R_FO = RULEBOOK.rule("IM.ART.FO.REQUIRED")
R_AUTO = RULEBOOK.rule("IM.ART.AUTOOBS.HEXES")
R_AIR = RULEBOOK.rule("IM.ART.AIR.FO")
R_BALLOON = RULEBOOK.rule("IM.ART.BALLOON.FO")
R_DECLARE = RULEBOOK.rule("IM.ART.DECLARE")
R_DECLARE_STEPS = RULEBOOK.rule("IM.ART.DECLARE.STEPS")
R_PHASE = RULEBOOK.rule("IM.ART.GEN.PHASE")
R_BAT_HEX = RULEBOOK.rule("IM.ART.BAT.ONE_PER_HEX")
R_COMM = RULEBOOK.rule("IM.ART.COMM.TEST")
R_COMM_ONCE = RULEBOOK.rule("IM.ART.COMM.TEST.ONCE")
R_COMM_LOST = RULEBOOK.rule("IM.ART.COMM.TEST.LOST")
R_LNO = RULEBOOK.rule("IM.ART.LNO.COMM")
R_FOT_FAIL = RULEBOOK.rule("IM.ART.FOT.FAIL")
R_FIRST = RULEBOOK.rule("IM.ART.FIRSTTURN")
R_AUTO_PROC = RULEBOOK.rule("IM.ART.AUTOOBS.PROC")
R_FOT = RULEBOOK.rule("IM.ART.FOT.ROLL")

LINK_PURPOSE = {"fo-artillery": "IM.ART.COMM.TEST", "lno-fo": "IM.ART.LNO.COMM"}
# (the catalogue's family id "IM.ART.COMM" names the same test)
COMM_PURPOSES = tuple(LINK_PURPOSE.values()) + ("IM.ART.COMM",)
DECLARED_FIELDS = ("side", "target", "elements", "mission", "barrage_type", "ammunition", "observer",
                   "sustained", "objective", "target_element")


class ArtilleryProcedure(RuleModule):
    """Observation, declaration, communication, fire order and the shortcuts of each barrage."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.observations: list[Observation] = []
        self.barrages: dict[str, Barrage] = {}
        self.comm_tests: dict[tuple, tuple[int, bool]] = {}   # (turn, side, observer, hex, link)
        self.lost: dict[tuple[int, str], tuple[Rule, int]] = {}  # (turn, element) -> why
        self.resistance = ResistanceTracker()
        self.sustained = SustainedFire(self)
        self.fire_orders = FireOrders(self)
        self.flares = Flares(self)

    # -- bookkeeping ------------------------------------------------------------------------
    def after(self, line):
        self.flares.feed(line)
        out = list(super().after(line) or ())
        self.resistance.feed(line, self.ctx.typed)
        return out

    def before(self, line):
        out = list(super().before(line) or ())
        return out + self._declaration_kept(line)

    def steps_for(self, kind: str):
        """Every event may restate a barrage's choices (any line may name a barrage); only the events
        its trackers read, and those it has a handler for, go through `after`."""
        on, after = self.own_handlers(kind)
        fed = kind == "GameStarted" or kind in EMERGENCY_EVENTS or kind in RESISTANCE_EVENTS
        return (self.before if on is not None else self._declaration_kept,
                self.after if fed or after is not None else None)

    def _declaration_kept(self, line) -> list[RuleApplication]:
        """A later step of a barrage that restates a declared choice must restate it unchanged."""
        data = line["data"]
        # The data's keys are the fields the line gives: one that names no barrage is no step of one
        # (and its typed event is not built for nothing).
        if line["type"] == "BarrageDeclared" or ("barrage" not in data and "subject" not in data):
            return []
        event = self.ctx.typed(line)
        # a line of a type no schema knows (a log read with unknown types allowed): its data as it stands
        stated = data if event is None else None
        about = (stated.get if stated is not None else lambda k: given(event, k))
        b = self.barrages.get(about("barrage") or (about("subject") if line["type"] == "DieRolled" else None))
        if b is None:
            return []
        if stated is None:
            stated = {k: getattr(event, k) for k in DECLARED_FIELDS if k in event.model_fields_set}
        changed = {k: (given(b.declared, k), stated[k]) for k in DECLARED_FIELDS
                   if k in stated and stated[k] != given(b.declared, k)}
        if not changed:
            return []
        return [R_DECLARE_STEPS.violation(line["seq"], f"{line['type']} changes {b.id}'s declared "
                                    + ", ".join(f"{k} {a!r} -> {v!r}" for k, (a, v) in changed.items()),
                                    related=[b.seq], expected={k: a for k, (a, _) in changed.items()},
                                    recorded={k: v for k, (_, v) in changed.items()})]

    def on_GameStarted(self, line):
        self.resistance.mortars_count = self.ctx.interpretations.reading(MORTAR_RESISTANCE.name) != "excluded"

    def barrage(self, line) -> Optional[Barrage]:
        return self.barrages.get(self.ctx.typed(line).barrage)

    def unit(self, name: Optional[str]):
        return self.ctx.board.units.get(observer_unit(name) or "")

    def reading(self, interpretation) -> tuple[Optional[str], str]:
        return (self.ctx.interpretations.reading(interpretation.name),
                self.ctx.interpretations.label(interpretation.name))

    # -- observe ----------------------------------------------------------------------------
    def on_HexObserved(self, line):
        observed, seq, side = self.ctx.typed(line), line["seq"], line.get("side")
        out: list[RuleApplication] = []
        via, observer, target = observed.via, observed.observer, observed.target
        if side is None and self.unit(observer) is not None:
            side = self.unit(observer).side     # the envelope's side is optional: the observer's side
        if via == "automatic":
            verdict, why = automatic_observation(self.ctx.board, side, target)
            if verdict == "yes":
                out.append(R_AUTO.ok(seq, f"{target} is {why}"))
            elif verdict == "unknown":
                out.append(R_AUTO.unverifiable(seq, f"{target} is {why}"))
            else:
                out.append(R_AUTO.violation(seq, f"{target} is {why}: it is not automatically observed",
                                            recorded=target))
        else:
            out.extend(self._observer_checks(line, via, observer))
        self.observations.append(Observation(seq, line["turn"], side, target, via, observer))
        return out

    def _observer_checks(self, line, via: str, observer: Optional[str]) -> list[RuleApplication]:
        """The observer is of the kind the observation names. Its state and the geometry (pinned,
        eliminated, range, line of sight, the aircraft's two hexes) are the observation checks'."""
        unit = self.unit(observer)
        if unit is None:
            return []
        rule = {"aircraft": R_AIR, "balloon": R_BALLOON}.get(via, R_FO)
        return [rule.judge(line["seq"], unit.unit_class == OBSERVER_CLASS[via], f"{unit.unit} is a {unit.unit_class}",
                           f"{unit.unit} is a {unit.unit_class}, not a {OBSERVER_CLASS[via]}: it cannot observe "
                           f"via {via}", expected=OBSERVER_CLASS[via], recorded=unit.unit_class)]

    # -- declare ----------------------------------------------------------------------------
    def on_BarrageDeclared(self, line):
        d, seq = self.ctx.typed(line), line["seq"]
        renew_barrage(d.barrage, line["turn"], self.barrages)
        known = self.barrages.get(d.barrage)
        if known is not None:
            # The procedure keeps following the first declaration.
            changed = [k for k in DECLARED_FIELDS if given(known.declared, k) != given(d, k)]
            what = f"changes {', '.join(changed)}" if changed else "repeats it"
            return [R_DECLARE.violation(seq, f"barrage {d.barrage!r} was declared at seq {known.seq}; this "
                                        f"second declaration {what}", related=[known.seq],
                                        expected={k: given(known.declared, k) for k in changed} or None,
                                        recorded={k: given(d, k) for k in changed} or None)]
        b = Barrage(d.barrage, seq, line["turn"], d.side or line.get("side"), d,
                    first_turn=line["turn"] == 1, observer=d.observer)
        self.barrages[b.id] = b
        out = [R_DECLARE.ok(seq, f"barrage {b.id}: {b.mission}, {d.barrage_type}, {d.ammunition}")]
        out += self._phase(line, b)
        out += self._one_type_per_hex(line, b)
        out += self._lost_elements(line, b)
        self.flares.attach_pending(line, b)
        out += self._route(line, b)
        out += self.sustained.on_declared(line, b)
        out += self.flares.on_declared(line, b)
        return out

    def _phase(self, line, b: Barrage) -> list[RuleApplication]:
        """Indirect fire happens in the firer's own barrage phase; creeping barrages may also be
        chosen before the scenario begins (IM.ART.MISSION.SCB.ELIG)."""
        phase, seq, active = line["phase"], line["seq"], self.ctx.board.active
        if b.creeping and line["turn"] == 0:
            return [R_PHASE.ok(seq, "a creeping barrage chosen before the scenario begins")]
        good = phase == "barrage" and (active is None or b.side is None or active == b.side)
        return [R_PHASE.judge(seq, good, f"declared in {b.side}'s barrage phase",
                              f"indirect barrage fire takes place only in the firer's own barrage phase "
                              f"(phase {phase}, active {active})",
                              expected={"phase": "barrage", "active": b.side},
                              recorded={"phase": phase, "active": active})]

    def _one_type_per_hex(self, line, b: Barrage) -> list[RuleApplication]:
        if not b.target or b.creeping:
            return []
        other = [x for x in self.barrages.values() if x is not b and x.turn == b.turn and x.side == b.side
                 and x.target == b.target and x.declared.barrage_type != b.declared.barrage_type
                 and None not in (x.declared.barrage_type, b.declared.barrage_type)]
        return [R_BAT_HEX.judge(line["seq"], not other, f"one barrage type against {b.target} this turn",
                                f"{b.target} already has a {other[0].declared.barrage_type} barrage this turn "
                                f"({other[0].id})" if other else "", related=[x.seq for x in other],
                                expected=other[0].declared.barrage_type if other else None,
                                recorded=b.declared.barrage_type)]

    def _lost_elements(self, line, b: Barrage) -> list[RuleApplication]:
        out = []
        for element in b.declared.elements:
            why = self.lost.get((b.turn, element))
            if why:
                rule, at = why
                out.append(rule.violation(line["seq"], f"element {element} lost its potential for this turn "
                                          f"at seq {at} and may not fire again until next turn",
                                          related=[at], recorded=element))
        return out

    def _route(self, line, b: Barrage) -> list[RuleApplication]:
        """Which observation the barrage rests on, hence which steps it needs."""
        seq = line["seq"]
        if b.creeping or b.counter_battery:
            b.route = "creeping" if b.creeping else "counter-battery"
            return []
        cands = [o for o in self.observations if o.side in (b.side, None) and self._covers(o, b)]
        out: list[RuleApplication] = []
        if b.observer and cands:
            named = [o for o in cands if observer_unit(o.observer) == observer_unit(b.observer)]
            relay = self.unit(b.observer)
            if not named and relay is not None and relay.unit_class == "forward-observer":
                # Liaison officer: he requests support "by means of flares or through the forward
                # observer": the FO named by the declaration relays what the LNO observed.
                named = [o for o in cands if o.via == "liaison-officer"]
            if not named:
                out.append(R_FO.violation(seq, f"{b.observer} did not observe {b.target} this turn; "
                                          f"observed by {', '.join(str(o.observer or o.via) for o in cands)}",
                                          related=[o.seq for o in cands], recorded=b.observer))
            cands = named or cands
        if cands:
            best = min(cands, key=lambda o: ("automatic", "balloon", "aircraft", "forward-observer",
                                             "liaison-officer").index(o.via))
            b.route, b.observer = best.via, best.observer or b.observer
            b.related.append(best.seq)
            out.append(R_PRIOR_OBS.ok(seq, f"{b.target} observed via {best.via} at seq {best.seq}",
                                      related=[best.seq]))
            if best.via == "aircraft":
                out.extend(self._aircraft_timing(seq, b, best))
            return out
        if b.flare or b.sustained:
            b.route = "flare" if b.flare else b.route
            return out
        air = self._air_observer(b)
        if air is not None:
            b.route = air.unit_class
            return out + [R_PRIOR_OBS.ok(seq, f"{b.target} is observed by {air.unit_class} {air.unit} at "
                                         f"{air.location}")]
        verdict, why = automatic_observation(self.ctx.board, b.side, b.target or "")
        if verdict != "no":
            b.route = "automatic"
            rule_out = R_PRIOR_OBS.ok if verdict == "yes" else R_PRIOR_OBS.unverifiable
            return out + [rule_out(seq, f"no observation recorded; {b.target} is {why}")]
        named = self.unit(b.observer)
        if named is not None and named.unit_class in ("aircraft", "balloon"):
            b.route = named.unit_class   # (its steps are still judged as the named observer's: one finding)
        return out + [R_PRIOR_OBS.violation(seq, f"{b.target} was not observed by a forward observer, liaison "
                                            f"officer, aircraft or balloon, and is {why}", recorded=b.target)]

    def _covers(self, o: Observation, b: Barrage) -> bool:
        """Whether an observation lets the barrage fall on its target. An aircraft placed in the air
        combat phase "may automatically observe any hexagon at a distance of two hexagons from the
        hexagon it occupies" and the barrage marker then goes "on any hexagon at a distance of two
        hexagons from the aircraft" (IM, Use of aircraft and balloons), for this or the next turn."""
        if o.via != "aircraft":
            return o.target == b.target and o.turn == b.turn
        if o.turn not in (b.turn, b.turn - 1):
            return False
        if o.target == b.target:
            return True
        aircraft = self.unit(o.observer)
        where = aircraft.location if aircraft is not None and aircraft.location else o.target
        dist = hex_distance(self.ctx.board, where, b.target)
        return dist is not None and dist <= 2

    def _air_observer(self, b: Barrage):
        """A balloon (every hex) or aircraft (two hexes) of the side named as the barrage's observer
        observes its target even when the log records no HexObserved for it: "Balloons automatically
        observe all hexagons on the map"; the aircraft "may automatically observe" within two hexes."""
        unit = self.unit(b.observer)
        if unit is None or unit.side != b.side or unit.eliminated or unit.unit_class not in ("aircraft", "balloon"):
            return None
        if unit.unit_class == "balloon":
            return unit
        dist = hex_distance(self.ctx.board, unit.location, b.target)
        return unit if dist is not None and dist <= 2 else None

    def _aircraft_timing(self, seq: int, b: Barrage, obs: Observation) -> list[RuleApplication]:
        same = obs.turn == b.turn
        reading, label = self.reading(AIRCRAFT_TIMING)
        when = "the turn it observed" if same else "the turn after it observed"
        if reading is None:
            return [R_AIR.ambiguous(seq, f"aircraft-observed barrage fired in {when}: {AIRCRAFT_TIMING.describe()}",
                                    related=[obs.seq], interpretation=label)]
        good = (reading == "same-turn") == same
        return [R_AIR.judge(seq, good, f"aircraft-observed barrage fired in {when}",
                            f"aircraft-observed barrage fired in {when}; reading {reading}",
                            related=[obs.seq], interpretation=label)]

    # -- communication ----------------------------------------------------------------------
    def on_CommunicationTested(self, line):
        b = self.barrage(line)
        if b is None:
            return []
        test, seq = self.ctx.typed(line), line["seq"]
        link = test.link
        rule = R_COMM if link == "fo-artillery" else R_LNO
        out = self._after_failure(line, b)
        # The roll since the barrage's previous test; the log format pairs either purpose with a test.
        since = max(b.seq, b.last_comm_seq or 0)
        rolls = [r for r in self.ctx.rolls_for(b.id, "IM.ART.", after=since)
                 if r["seq"] < seq and self.ctx.typed(r).purpose.startswith(COMM_PURPOSES)]
        exact = [r for r in rolls if self.ctx.typed(r).purpose.startswith(LINK_PURPOSE[link])]
        roll = (exact or rolls)[-1] if rolls else None
        b.last_comm_seq = seq
        key = (b.turn, b.side, observer_unit(b.observer), b.target, link)
        earlier = self.comm_tests.get(key)
        if earlier is not None:
            out.append(R_COMM_ONCE.violation(seq, f"{b.observer} already tested {link} for {b.target} this turn "
                                             f"(seq {earlier[0]})", related=[earlier[0]]))
        if roll is None:
            out.append(rule.missing_roll(seq, f"no {LINK_PURPOSE[link]} roll about {b.id} before its "
                                         f"communication test"))
            ok = test.in_communication
        else:
            out.extend(self._comm_roll(line, rule, roll))
            ok = self.ctx.typed(roll).result >= 4
        if earlier is None:
            self.comm_tests[key] = (seq, ok)
        # A test recorded "in communication" against a roll of 1-3 is the mismatch above; the steps the
        # players then took are judged on the outcome they recorded, not reported again as violations.
        out.extend(self._comm_binding(line, b, rule, ok or test.in_communication))
        return out

    def _comm_roll(self, line, rule: Rule, roll) -> list[RuleApplication]:
        seq, rd = line["seq"], self.ctx.typed(roll)
        out = []
        if rd.die != "d6":
            reading, label = self.reading(COMM_DIE)
            if reading is None:
                out.append(rule.ambiguous(roll["seq"], f"communication test rolled on a {rd.die}: "
                                          f"{COMM_DIE.describe()}", recorded=rd.die, interpretation=label))
            else:
                out.append(rule.judge(roll["seq"], reading == "any", f"{rd.die} accepted",
                                      f"the communication test is a d6, not a {rd.die}",
                                      expected="d6", recorded=rd.die, interpretation=label))
        expected = rd.result >= 4
        recorded = self.ctx.typed(line).in_communication
        out.append(rule.judge(seq, expected == recorded,
                              f"roll {rd.result}: {'in' if expected else 'not in'} communication",
                              f"roll {rd.result} gives {'in' if expected else 'not in'} communication "
                              f"(1 to 3 fails)", verdict=Verdict.MISMATCH,
                              expected=expected, recorded=recorded, related=[roll["seq"]]))
        return out

    def _comm_binding(self, line, b: Barrage, rule: Rule, ok: bool) -> list[RuleApplication]:
        """Whether this test decides the barrage: aircraft and balloons are always in
        communication; the shortcuts make the test unnecessary (its result does not bind)."""
        seq = line["seq"]
        if b.route in ("aircraft", "balloon"):
            r = R_AIR if b.route == "aircraft" else R_BALLOON
            return [r.judge(seq, ok, f"{b.route} observers are always in communication (no test needed)",
                            f"{b.route} observers are always in communication: a failed test is not a result",
                            recorded=ok)]
        if b.shortcut() or b.route == "automatic":
            why = b.shortcut() or "IM.ART.AUTOOBS.PROC"
            return [rule.ok(seq, f"no communication test is needed ({why}); recorded, not binding")]
        out = []
        observer = self.unit(b.observer)
        if observer is not None and "pinned" in observer.status:
            out.append(R_FO.violation(seq, f"{b.observer} is pinned: only a forward observer not pinned may "
                                      f"attempt communication", recorded="pinned"))
        if not ok:
            b.comm_failed_seq = seq
            self._waste(b, R_COMM_LOST, seq)
        return out

    def _waste(self, b: Barrage, rule: Rule, seq: int) -> None:
        for element in b.declared.elements:
            self.lost.setdefault((b.turn, element), (rule, seq))

    # -- fire order -------------------------------------------------------------------------
    def on_FireOrderChecked(self, line):
        b = self.barrage(line)
        if b is None:
            return []
        out = self._after_failure(line, b)
        out += self.fire_orders.check(line, b)
        return out

    # -- the fire itself --------------------------------------------------------------------
    def on_DieRolled(self, line):
        return self.flares.on_roll(line) + self.sustained.on_roll(line)

    def on_ArtilleryPointsSpent(self, line):
        b = self.barrage(line)
        return self._after_failure(line, b) if b else []

    def on_ScatterTested(self, line):
        return self._fire_step(line)

    def on_BarrageResolved(self, line):
        out = self._fire_step(line)
        b = self.barrage(line)
        if b is not None and b.sustained and b.scatter_seq is None:
            out += self._sustained_scatter(line, b)
        return out

    def _fire_step(self, line) -> list[RuleApplication]:
        b = self.barrage(line)
        if b is None:
            return []
        out = self._after_failure(line, b)
        if line["type"] == "ScatterTested":
            b.scatter_seq = b.scatter_seq or line["seq"]
        if b.fired_seq is None:
            b.fired_seq = line["seq"]
            out += self._missing_steps(line, b)
            out += self.sustained.on_fired(line, b)
            out += self.flares.on_fired(line, b)
        return out

    def _after_failure(self, line, b: Barrage) -> list[RuleApplication]:
        """The first step the barrage takes after its binding failure is the violation; a further
        communication test is pointless, not a barrage, and later steps repeat the same fault."""
        failed = b.failed_seq
        if failed is None or failed >= line["seq"] or b.failure_reported or line["type"] == "CommunicationTested":
            return []
        b.failure_reported = True
        if b.flare_roll is not None and failed == b.comm_failed_seq:
            return []   # the flare answers the failed test: IM.ART.LNO.FLARE judges whether it may fire
        if b.fot_refused_seq is not None and failed == b.fot_refused_seq:
            return [R_FOT_FAIL.violation(line["seq"], f"the fire order for {b.id} was refused at seq {failed}: "
                                         f"its artillery is wasted for the turn", related=[failed])]
        return [R_COMM.violation(line["seq"], f"{b.id} failed its communication test at seq {failed}: no barrage "
                                 f"on {b.target} this turn", related=[failed])]

    def _missing_steps(self, line, b: Barrage) -> list[RuleApplication]:
        seq, out = line["seq"], []
        comm = self._comm_result(b, "fo-artillery")
        needs = b.needs_comm()
        if needs is None and comm is None:
            out.append(self._cb_reading(seq, R_COMM, "communication test"))
        elif needs and comm is None:
            out.append(R_COMM.missing_roll(seq, f"{b.id} fires without a communication test: observed via "
                                           f"{b.route} on turn {b.turn}, which needs one", related=b.related))
        elif needs:
            out.append(R_COMM.ok(seq, f"communication test at seq {comm[0]}", related=[comm[0]]))
        if b.route == "liaison-officer" and not b.shortcut():
            out += self._lno_chain(seq, b)
        out += self._missing_fot(seq, b)
        return out

    def _missing_fot(self, seq: int, b: Barrage) -> list[RuleApplication]:
        needs = b.needs_fot()
        if needs is None and b.fot is None:
            return [self._cb_reading(seq, R_FOT, "Fire Order Table roll")]
        if needs and b.fot is None:
            return [R_FOT.missing_roll(seq, f"{b.id} fires on turn {b.turn} without a Fire Order Table roll: "
                                       f"{b.why_fot()}", related=b.related)]
        if b.shortcut() and b.fot is None:
            rule = R_FIRST if b.first_turn and not b.sustained else R_FOT
            return [rule.ok(seq, f"no communication test or FOT needed ({b.shortcut()})")]
        return []

    def _cb_reading(self, seq: int, rule: Rule, what: str) -> RuleApplication:
        reading, label = self.reading(COUNTER_BATTERY_PROCEDURE)
        if reading is None:
            return rule.ambiguous(seq, f"counter-battery without a {what}: {COUNTER_BATTERY_PROCEDURE.describe()}",
                                  interpretation=label)
        return rule.judge(seq, reading == "simplified", f"counter-battery needs no {what} (reading {reading})",
                          f"counter-battery follows the normal procedure: the {what} is missing",
                          verdict=Verdict.MISSING_ROLL, interpretation=label)

    def _lno_chain(self, seq: int, b: Barrage) -> list[RuleApplication]:
        if self._comm_result(b, "lno-fo") is not None:
            return []
        reading, label = self.reading(LNO_CHAIN)
        if reading is None:
            return [R_LNO.ambiguous(seq, f"the liaison officer observed {b.target} and no LNO-to-FO test is "
                                    f"recorded: {LNO_CHAIN.describe()}", interpretation=label)]
        return [R_LNO.judge(seq, reading == "fo-only", "the LNO-to-FO test is not required (reading fo-only)",
                            f"{b.id} fires without the LNO-to-FO communication test",
                            verdict=Verdict.MISSING_ROLL, interpretation=label)]

    def _comm_result(self, b: Barrage, link: str) -> Optional[tuple[int, bool]]:
        return self.comm_tests.get((b.turn, b.side, observer_unit(b.observer), b.target, link))

    def _sustained_scatter(self, line, b: Barrage) -> list[RuleApplication]:
        reading, label = self.reading(SUSTAINED_SCATTER)
        rule = Rule("IM.ART.SUSTAINED.SCATTER", "Sustained fire option")
        if reading is None:
            return [rule.ambiguous(line["seq"], f"sustained barrage {b.id} resolved without a scatter test: "
                                   f"{SUSTAINED_SCATTER.describe()}", interpretation=label)]
        return [rule.judge(line["seq"], reading == "no-retest", "no scatter test on a sustained turn",
                           f"sustained barrage {b.id} resolved without a scatter test",
                           verdict=Verdict.MISSING_ROLL, interpretation=label)]

    # -- cancellation -----------------------------------------------------------------------
    def on_BarrageCancelled(self, line):
        b = self.barrage(line)
        if b is None:
            return []
        seq, reason = line["seq"], self.ctx.typed(line).reason
        b.cancelled = reason
        if reason == "no-communication":
            return self._cancel_no_comm(seq, b)
        if reason == "fire-order-refused":
            refused = b.fot is not None and not b.fot[1]
            return [R_FOT_FAIL.judge(seq, refused, "cancelled after the fire order was refused",
                                     "cancelled for a refused fire order, but no refused FOT is recorded"
                                     + (" (the communication test failed)" if b.comm_failed_seq else ""),
                                     verdict=Verdict.MISMATCH,
                                     expected="no-communication" if b.comm_failed_seq else None,
                                     recorded=reason, related=[b.fot[0]] if b.fot else [])]
        if reason == "sustained-ended":
            return self.sustained.on_cancelled(line, b)
        return []

    def _cancel_no_comm(self, seq: int, b: Barrage) -> list[RuleApplication]:
        if b.route in ("aircraft", "balloon"):
            r = R_AIR if b.route == "aircraft" else R_BALLOON
            return [r.violation(seq, f"{b.route} observers are always in communication; {b.id} cannot be "
                                f"cancelled for no communication", recorded="no-communication")]
        failed = [t for (turn, side, _o, target, _l), t in self.comm_tests.items()
                  if turn == b.turn and side == b.side and target == b.target and not t[1]]
        if failed:
            return [R_COMM.ok(seq, "cancelled after a failed communication test", related=[failed[0][0]])]
        return [R_COMM.mismatch(seq, f"{b.id} cancelled for no communication, but no failed test is recorded",
                                expected="a failed communication test", recorded="no-communication")]


COVERAGE = {
    "IM.ART.RESTRICT.NO_OBSERVERS": ("implemented",
                                     "tests/unit/test_artillery_procedure.py::test_without_observers_only_automatic_hexes"),
    "IM.ART.GEN.PHASE": ("implemented", "tests/unit/test_artillery_procedure.py::test_barrage_outside_barrage_phase"),
    "IM.ART.DECLARE": ("implemented", "tests/unit/test_artillery_procedure.py::test_declaration_is_immutable"),
    "IM.ART.BAT.ONE_PER_HEX": ("implemented", "tests/unit/test_artillery_procedure.py::test_one_barrage_type_per_hex"),
    "IM.ART.FO.REQUIRED": ("implemented", "tests/unit/test_artillery_procedure.py::test_observer_must_match_observation"),
    "IM.ART.FO.MARKER": ("implemented", "tests/unit/test_artillery_procedure.py::test_target_not_observed_is_violation"),
    "IM.ART.COMM.TEST": ("ambiguous", "tests/unit/test_artillery_procedure.py::test_comm_failure_stops_barrage"),
    "IM.ART.FOT.ROLL": ("needs a chart", "tests/unit/test_artillery_procedure.py::test_fot_column_must_be_resistance"),
    "IM.ART.FOT.FAIL": ("implemented", "tests/unit/test_artillery_procedure.py::test_refused_fire_order_wastes_elements"),
    "IM.ART.FOT.PRIOR_OBS": ("implemented", "tests/unit/test_artillery_procedure.py::test_target_not_observed_is_violation"),
    "IM.ART.FOT.MOD": ("ambiguous", "tests/unit/test_artillery_procedure.py::test_aircraft_fot_needs_minus_one"),
    "IM.ART.LNO.COMM": ("ambiguous", "tests/unit/test_artillery_procedure.py::test_lno_link_failure_stops_barrage"),
    "IM.ART.AIR.FO": ("ambiguous", "tests/unit/test_artillery_procedure.py::test_aircraft_comm_failure_is_violation"),
    "IM.ART.BALLOON.FO": ("needs a chart", "tests/unit/test_artillery_procedure.py::test_balloon_fot_needs_modifier"),
    "IM.ART.AUTOOBS.HEXES": ("implemented", "tests/unit/test_artillery_procedure.py::test_automatic_observation_kinds"),
    "IM.ART.AUTOOBS.PROC": ("implemented", "tests/unit/test_artillery_procedure.py::test_automatic_needs_fot_not_comm"),
    "IM.ART.FIRSTTURN": ("implemented", "tests/unit/test_artillery_procedure.py::test_first_turn_skips_comm_and_fot"),
    "IM.ART.SUSTAINED": ("ambiguous", "tests/unit/test_artillery_sustained.py::test_sustained_roll_six_ends"),
}
