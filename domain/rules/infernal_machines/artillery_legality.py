"""Off-map artillery: is a barrage declaration legal? (IM.ART sections F, G, H and I)

Judges every `BarrageDeclared` against the text: the owner's barrage phase, off-map elements only,
the mission the side may fly (the AFMT result; destruction always), the barrage types the BTT
allowed, the mission x barrage type x ammunition matrix, one barrage type and one ammunition per
hex per turn, smoke and gas permissions, counter-battery preconditions and the Allied shrapnel
compulsion. Creeping-barrage eligibility lives in `artillery_legality_creeping.py`.

The pure functions (`legal_barrage_types`, `legal_ammunition`, `matrix_problems`, ...) are what a
game generator or an analytics view needs, without an audit.
"""
from __future__ import annotations

from typing import Any, Optional

from domain.rules.engine import Rule, RuleModule, Verdict, in_phases
from domain.rules.infernal_machines.barrage_tracker import Declared, renew_barrage
from domain.rules.interpretations import Interpretation, declare
from domain.rulebook import beside

RULEBOOK = beside(__file__)

# -- the text's dates ------------------------------------------------------------------------
GAS_FROM = "1915-04"              # Gas missions: "never before April 1915 in any case"
DOUBLE_GAS_FROM = "1916-01"       # Double gas attack: "from January 1916, the Germans"
CB_FROM = {"central": "1915-07", "allied": "1917-01"}   # Counter-battery mission
WWI_FROM, WWI_TO = "1914-07", "1918-11"

MISSIONS = ("destruction", "counter-battery", "neutralisation", "suppression", "interdiction",
            "simple-creeping", "double-creeping", "gas")
CREEPING = ("simple-creeping", "double-creeping")
AMMUNITION = ("he", "shrapnel", "smoke", "gas")
# AFMT letters as players often record them (the chart itself is table data).
MISSION_LETTERS = {"D": "destruction", "N": "neutralisation", "S": "suppression", "I": "interdiction",
                   "G": "gas", "CB": "counter-battery", "SCB": "simple-creeping", "DCB": "double-creeping"}

# Section I, the legality matrix, as the text states it mission by mission.
MISSION_BARRAGE_TYPES = {
    "destruction": {"drumfire", "hurricane"},        # Destruction mission
    "counter-battery": {"drumfire"},                  # "always use drumfire barrages and HE"
    "neutralisation": {"drumfire", "hurricane"},     # Neutralisation mission
    "suppression": {"drumfire"},                      # Suppression: "only the drumfire barrage type"
    "interdiction": {"drumfire"},                     # Interdiction: "only drumfire ... HE"
    "gas": {"drumfire"},                              # Gas missions: "Drumfire barrage (only)"
    "simple-creeping": {"drumfire", "hurricane"},    # a fixed wall of fire: no barrage-type choice
    "double-creeping": {"drumfire", "hurricane"},
}
MISSION_AMMUNITION = {
    "destruction": {"he", "shrapnel"},
    "counter-battery": {"he"},
    "neutralisation": {"he", "smoke"},
    "suppression": {"he", "smoke"},
    "interdiction": {"he"},
    "gas": {"gas"},
    "simple-creeping": {"he"},                        # "a suppression mission attack with HE"
    "double-creeping": {"he"},
}
# "Drumfire": any ammunition; "Hurricane": "only high-explosive ammunition and shrapnel".
BARRAGE_AMMUNITION = {"drumfire": set(AMMUNITION), "hurricane": {"he", "shrapnel"}}

MISSION_RULE = {
    "destruction": RULEBOOK.rule("IM.ART.MISSION.DEST.COMBOS"),
    "counter-battery": RULEBOOK.rule("IM.ART.MISSION.CB.RESOLVE"),
    "neutralisation": RULEBOOK.rule("IM.ART.MISSION.NEUT"),
    "suppression": RULEBOOK.rule("IM.ART.MISSION.SUPP"),
    "interdiction": RULEBOOK.rule("IM.ART.MISSION.INTERDICT"),
    "gas": RULEBOOK.rule("IM.ART.MISSION.GAS.ELIG"),
    "simple-creeping": RULEBOOK.rule("IM.ART.MISSION.SCB.ATTACK"),
    "double-creeping": RULEBOOK.rule("IM.ART.MISSION.DCB.RUN"),
}
R_MATRIX = RULEBOOK.rule("IM.ART.LEGAL.MATRIX")
R_TWO_KINDS = RULEBOOK.rule("IM.ART.GEN.TWO_KINDS")
R_AFMT = RULEBOOK.rule("IM.ART.AFMT.ROLL")
R_DEST_ALWAYS = RULEBOOK.rule("IM.ART.MISSION.DEST.ALWAYS")
R_COUNT = RULEBOOK.rule("IM.ART.MISSION.COUNT")
R_BTT = RULEBOOK.rule("IM.ART.BTT.ROLL")
R_HURRICANE = RULEBOOK.rule("IM.ART.BAT.HURRICANE")
R_AMMO_HEX = RULEBOOK.rule("IM.ART.AMMO.ONE_PER_HEX")
R_SHRAP_ILLEGAL = RULEBOOK.rule("IM.ART.AMMO.SHRAP.ILLEGAL")
R_SHRAP_ALLIED = RULEBOOK.rule("IM.ART.AMMO.SHRAP.ALLIED")
R_SMOKE_PERMIT = RULEBOOK.rule("IM.ART.AMMO.SMOKE.PERMIT")
R_SMOKE_COMBO = RULEBOOK.rule("IM.ART.AMMO.SMOKE.COMBO")
R_GAS_PROC = RULEBOOK.rule("IM.ART.AMMO.GAS.PERMIT_PROC")
R_GAS_ELIG = MISSION_RULE["gas"]
R_GAS_DOUBLE = RULEBOOK.rule("IM.ART.AMMO.GAS.DOUBLE")
R_CB_ELIG = RULEBOOK.rule("IM.ART.MISSION.CB.ELIG")
R_DIRECT_NOPROC = RULEBOOK.rule("IM.ART.DIRECT.NOPROC")

INTERDICTION_UNLOCK = declare(Interpretation(
    "im-interdiction-unlock", ("IM.ART.MISSION.COUNT", "IM.ART.MISSION.INTERDICT"),
    "Which AFMT result allows an interdiction mission? The text does not say.",
    {"suppression": "interdiction is 'a specialised form of the suppression mission': an AFMT "
                    "suppression (or interdiction) result allows it",
     "any": "interdiction may always be chosen, like destruction"},
    default="suppression"))
SHRAPNEL_FREQUENCY = declare(Interpretation(
    "im-allied-shrapnel-frequency", ("IM.ART.AMMO.SHRAP.ALLIED",),
    "How often does an Allied WWI player roll to select ammunition other than shrapnel?",
    {"per-barrage": "each barrage that selects another ammunition rolls",
     "per-turn": "one roll a turn covers the side's barrages of that turn",
     "per-scenario": "one roll for the whole scenario"},
    default="per-barrage"))
SHRAPNEL_VS_MISSION = declare(Interpretation(
    "im-allied-shrapnel-vs-mission", ("IM.ART.AMMO.SHRAP.ALLIED", "IM.ART.AMMO.SHRAP.ILLEGAL"),
    "An Allied WWI player fails (or skips) the shrapnel-compulsion roll but flies a mission that "
    "forbids shrapnel (neutralisation, suppression, interdiction, gas): may it fire?",
    {"mission-barred": "no: the compulsion leaves only shrapnel, which that mission may not fire",
     "exempt": "yes: the compulsion applies only where shrapnel is a legal choice (destruction)"},
    default=None))


# -- pure helpers ----------------------------------------------------------------------------
def normalise_mission(value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    return MISSION_LETTERS.get(value.strip().upper(), value.strip().lower())


def is_wwi(date: Optional[str]) -> bool:
    return bool(date) and WWI_FROM <= date <= WWI_TO


def legal_barrage_types(mission: str) -> set[str]:
    return set(MISSION_BARRAGE_TYPES.get(mission, ()))


def legal_ammunition(mission: str, barrage_type: str, side_bloc: Optional[str] = None,
                     date: Optional[str] = None, nation: Optional[str] = None) -> set[str]:
    """The ammunition the text allows for this mission and barrage type at this date."""
    if barrage_type not in legal_barrage_types(mission):
        return set()
    allowed = MISSION_AMMUNITION.get(mission, set()) & BARRAGE_AMMUNITION.get(barrage_type, set())
    if date is not None and date < GAS_FROM:
        allowed.discard("gas")
    if mission == "counter-battery" and not counter_battery_date_ok(side_bloc, date, nation):
        return set()
    return allowed


def counter_battery_date_ok(side_bloc: Optional[str], date: Optional[str],
                            nation: Optional[str] = None) -> bool:
    """WWI only; July 1915 for the Germans (Central bloc), January 1917 for the Allies."""
    if date is None:
        return True
    if not is_wwi(date):
        return False
    start = CB_FROM["central"] if side_bloc == "central" or is_german(nation) else CB_FROM["allied"]
    return date >= start


def is_german(nation: Optional[str]) -> bool:
    return (nation or "").strip().lower() in ("german", "germany", "germans")


def matrix_problems(mission: str, barrage_type: str, ammunition: str) -> list[tuple[Rule, str]]:
    """Every rule of section I that the combination breaks, with the reason."""
    out: list[tuple[Rule, str]] = []
    rule = MISSION_RULE.get(mission, R_MATRIX)
    chosen = barrage_type is not None   # None: the ammunition-consumption action that names no type (AP-09)
    if mission not in CREEPING and chosen and barrage_type not in legal_barrage_types(mission):
        out.append((rule, f"a {mission} mission may not use a {barrage_type} barrage "
                          f"(allowed: {', '.join(sorted(legal_barrage_types(mission)))})"))
    if ammunition not in MISSION_AMMUNITION.get(mission, set()):
        out.append((rule, f"a {mission} mission may not fire {ammunition} "
                          f"(allowed: {', '.join(sorted(MISSION_AMMUNITION.get(mission, ())))})"))
        if ammunition == "shrapnel":
            out.append((R_SHRAP_ILLEGAL, f"shrapnel with a {mission} mission is not permitted"))
        if ammunition == "smoke":
            out.append((R_SMOKE_COMBO, "smoke needs a suppression or neutralisation mission"))
        if ammunition == "gas":
            out.append((R_GAS_PROC, "gas shells need a gas mission"))
    if mission not in CREEPING and chosen and ammunition not in BARRAGE_AMMUNITION.get(barrage_type, set()):
        out.append((R_HURRICANE, f"a {barrage_type} barrage may fire only high explosive or shrapnel, "
                                 f"not {ammunition}"))
        if ammunition == "smoke":
            out.append((R_SMOKE_COMBO, "smoke is fired by a drumfire barrage only"))
        if ammunition == "gas":
            out.append((R_GAS_PROC, "gas is fired by a drumfire barrage only"))
    return out


def shrapnel_compulsion_bonus(date: str) -> Optional[int]:
    """The Allied roll's bonus (+1 in 1915, +2 in 1916), or None when the choice is free."""
    if not is_wwi(date) or date >= "1917-01":
        return None
    year = int(date[:4])
    return {1915: 1, 1916: 2}.get(year, 0)


def shrapnel_compulsion_passed(date: str, natural: int) -> bool:
    """"must obtain a 6 or more on a six-sided die ... Add +1 in 1915 and +2 in 1916"."""
    bonus = shrapnel_compulsion_bonus(date)
    return True if bonus is None else natural + bonus >= 6


def side_facts(board, side: str) -> tuple[Optional[str], Optional[str]]:
    info = board.sides.get(side) or {}
    return info.get("bloc"), info.get("nation")


def ammo_option_on(options: list[Any], prefix: str) -> bool:
    return any(isinstance(o, str) and o.startswith(prefix) for o in options)


# -- the rule module ---------------------------------------------------------------------------
class ArtilleryLegality(RuleModule):
    """Judges each BarrageDeclared (and the Allied shrapnel roll that goes with it)."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.declared: dict[str, Declared] = {}
        self.afmt: dict[str, list[str]] = {}
        self.per_hex: dict[tuple[int, str, str], list[tuple[int, str, str]]] = {}
        self.fired_in_phase: dict[str, int] = {}       # barrages each side kept in its last barrage phase
        self.shrapnel_pending: dict[str, int] = {}     # barrage -> seq of its declaration
        self.shrapnel_rolls: list[dict[str, Any]] = []
        self.shrapnel_rolls_used: list[dict[str, Any]] = []

    # -- bookkeeping --------------------------------------------------------------------------
    def on_ArtilleryMissionSet(self, line):
        chosen = self.ctx.typed(line)
        side, mission = chosen.side, normalise_mission(chosen.mission)
        self.afmt.setdefault(side, []).append(mission)
        if mission in CREEPING:
            return []
        found = self._chart_roll(line, "AFMT", R_AFMT.id)
        if found is None:
            return []
        roll, cell = found
        if cell is None:
            return [R_AFMT.unverifiable(line["seq"], self.ctx.tables.lacks("AFMT"), related=[roll["seq"]])]
        expected = normalise_mission(str(cell))
        face = self.ctx.typed(roll).result
        return [R_AFMT.judge(line["seq"], expected == mission, f"AFMT roll {face}: {expected}",
                             f"AFMT roll {face} gives {expected}, not {mission}",
                             verdict=Verdict.MISMATCH, expected=expected, recorded=mission, related=[roll["seq"]],
                             inputs={"pack": self.ctx.tables.label()})]

    def on_BarrageTypesSet(self, line):
        found = self._chart_roll(line, "BTT", R_BTT.id)
        if found is None:
            return []
        roll, cell = found
        if cell is None:
            return [R_BTT.unverifiable(line["seq"], self.ctx.tables.lacks("BTT"), related=[roll["seq"]])]
        expected = sorted({"drumfire", "hurricane"} if cell == "both" else {str(cell)})
        recorded, face = sorted(self.ctx.typed(line).allowed), self.ctx.typed(roll).result
        return [R_BTT.judge(line["seq"], expected == recorded, f"BTT roll {face}: {expected}",
                            f"BTT roll {face} permits {expected}, not {recorded}",
                            verdict=Verdict.MISMATCH, expected=expected, recorded=recorded, related=[roll["seq"]])]

    def _chart_roll(self, line, table, purpose):
        """The set-up roll on a chart for this side, and the pack's cell for it (None: not in the pack)."""
        side = self.ctx.typed(line).side
        rolls = [l for l in self.ctx.rolls(purpose, before=line["seq"])
                 if side in (l.get("side"), self.ctx.typed(l).subject)]
        if not rolls:
            return None
        roll, board = rolls[-1], self.ctx.board
        bloc, nation = side_facts(board, side)
        year = (board.date or "")[:4]
        for key in (side, nation, bloc, "any"):
            cell = self.ctx.tables.get(table, key, year, self.ctx.typed(roll).result) if key else None
            if cell is not None:
                return roll, cell
        return roll, None

    @in_phases("barrage")
    def after_PhaseStarted(self, line):
        # the board holding the phase: its active side (the phase is the envelope's)
        if line["phase"] == "barrage" and self.ctx.board.active:
            self.fired_in_phase[self.ctx.board.active] = 0
        return []

    def on_BarrageCancelled(self, line):
        barrage = self.ctx.typed(line).barrage
        decl = self.declared.get(barrage)
        if decl and decl.event.side in self.fired_in_phase:
            self.fired_in_phase[decl.event.side] = max(0, self.fired_in_phase[decl.event.side] - 1)
        self.shrapnel_pending.pop(barrage, None)
        return []

    def on_DieRolled(self, line):
        roll = self.ctx.typed(line)
        if not roll.purpose.startswith(R_SHRAP_ALLIED.id):
            return []
        self.shrapnel_rolls.append(line)
        # Judged at the roll itself when it follows the declaration it is about, so the finding sits
        # beside the selection it allows or forbids (IM, Allied use of shrapnel).
        barrage = roll.subject
        if barrage in self.shrapnel_pending:
            return self._shrapnel_compulsion(barrage, self.shrapnel_pending.pop(barrage), line["seq"])
        return []

    def _shrapnel_due(self, line):
        """The barrage's first procedure step after its declaration: the compulsion roll is due by then."""
        barrage = self.ctx.typed(line).barrage
        if barrage not in self.shrapnel_pending:
            return []
        return self._shrapnel_compulsion(barrage, self.shrapnel_pending.pop(barrage), line["seq"])

    def on_ScatterTested(self, line):
        return self._shrapnel_due(line)

    def on_CommunicationTested(self, line):
        return self._shrapnel_due(line)

    def on_FireOrderChecked(self, line):
        return self._shrapnel_due(line)

    def on_BarrageResolved(self, line):
        return self._shrapnel_due(line)

    # -- the declaration --------------------------------------------------------------------------
    def on_BarrageDeclared(self, line):
        d, seq = self.ctx.typed(line), line["seq"]
        mission, bat, ammo, side = d.mission, d.barrage_type, d.ammunition, d.side
        # The phase, the immutability of a declaration and one barrage type per hex are judged by
        # artillery_procedure.py (IM.ART.GEN.PHASE, IM.ART.DECLARE, IM.ART.BAT.ONE_PER_HEX).
        if not renew_barrage(d.barrage, line["turn"], self.declared, self.shrapnel_pending):
            return []
        out: list = []
        self.declared[d.barrage] = Declared(d, seq, line["turn"])
        selection = line["turn"] == 0 and mission in CREEPING   # chosen before the scenario begins
        if not selection:
            self.fired_in_phase[side] = self.fired_in_phase.get(side, 0) + 1
        out.extend(self._elements(d, seq))
        out.extend(self._afmt(d, seq))
        if mission not in CREEPING:
            out.extend(self._btt(d, seq))
        problems = matrix_problems(mission, bat, ammo)
        out.extend(rule.violation(seq, msg, recorded={"mission": mission, "barrage_type": bat, "ammunition": ammo})
                   for rule, msg in problems)
        if not problems:
            out.append(R_MATRIX.ok(seq, f"{mission} / {bat} / {ammo} is a legal combination"))
        out.extend(self._permissions(d, seq))
        if mission == "counter-battery":
            out.extend(self._counter_battery(d, line))
        if not selection and mission not in CREEPING and d.target:
            out.extend(self._one_per_hex(line))
        if shrapnel_compulsion_bonus(self.ctx.board.date or "") is not None and ammo != "shrapnel" \
                and side_facts(self.ctx.board, side)[0] == "allied" and mission not in CREEPING:
            self.shrapnel_pending[d.barrage] = seq
            rolled_first = [r for r in self.shrapnel_rolls if r["turn"] == line["turn"]
                            and r["seq"] not in {u["seq"] for u in self.shrapnel_rolls_used}
                            and self.ctx.typed(r).subject in (d.barrage, side, None)]
            if rolled_first:   # the roll was made before the selection: judge the selection now
                out.extend(self._shrapnel_compulsion(d.barrage, self.shrapnel_pending.pop(d.barrage), seq))
        return out

    def _elements(self, d, seq):
        board, out = self.ctx.board, []
        for element in d.elements:
            if element in board.elements:
                continue
            unit = board.units.get(element)
            if unit is not None and unit.unit_class == "artillery-gun":
                out.append(R_DIRECT_NOPROC.violation(
                    seq, f"{element} is an on-map artillery gun: it fires directly, never a mission or barrage type",
                    recorded=element))
            out.append(R_TWO_KINDS.violation(seq, f"{element} is not an off-map artillery element: only OBMs "
                                             "conduct artillery fire missions and barrage types", recorded=element))
        if not out:
            out.append(R_TWO_KINDS.ok(seq, "every firing element is an off-map artillery element"))
        return out

    def _afmt(self, d, seq):
        side, mission = d.side, d.mission
        results = self.afmt.get(side, [])
        if mission == "destruction":
            return [R_DEST_ALWAYS.ok(seq, "destruction may always be chosen, whatever the AFMT result")]
        if mission in ("counter-battery", "gas") or mission in CREEPING:
            return []   # their own eligibility rules decide (CB.ELIG, GAS.ELIG, SCB/DCB.ELIG)
        if mission == "interdiction":
            reading = self.ctx.interpretations.reading(INTERDICTION_UNLOCK.name)
            label = self.ctx.interpretations.label(INTERDICTION_UNLOCK.name)
            if reading == "any":
                return [R_COUNT.ok(seq, "interdiction may always be chosen (reading 'any')", interpretation=label)]
            unlocking = {"suppression", "interdiction"}
        else:
            unlocking, label = {mission}, None
        if not results:
            return [R_AFMT.unverifiable(seq, f"no AFMT result is recorded for {side} (ArtilleryMissionSet); "
                                        f"cannot tell whether a {mission} mission is available")]
        good = bool(unlocking & set(results))
        return [R_AFMT.judge(seq, good, f"{mission} is available: AFMT result {results[-1]}",
                             f"{side}'s AFMT result is {', '.join(results)}: a {mission} mission is not available "
                             "(destruction always is)", expected=sorted(unlocking), recorded=mission,
                             interpretation=label)]

    def _btt(self, d, seq):
        if d.barrage_type is None:
            return []   # no barrage type chosen: an objective's destruction under the ammunition option
        allowed = self.ctx.board.barrage_types.get(d.side)
        if allowed is None:
            return [R_BTT.unverifiable(seq, f"no Barrage Type Table result is recorded for {d.side} "
                                       "(BarrageTypesSet)")]
        return [R_BTT.judge(seq, d.barrage_type in allowed, f"{d.barrage_type} is permitted by the BTT",
                            f"the BTT result permits {', '.join(allowed) or 'no barrage type'}, "
                            f"not {d.barrage_type}", expected=allowed, recorded=d.barrage_type)]

    def _permissions(self, d, seq):
        board, out = self.ctx.board, []
        mission, ammo, date = d.mission, d.ammunition, board.date or ""
        if ammo == "smoke":
            out.append(R_SMOKE_PERMIT.judge(seq, "smoke" in board.permissions, "the scenario permits smoke",
                                            "smoke shells may be used only when the scenario states it",
                                            expected="smoke", recorded=board.permissions))
        if mission == "gas" or ammo == "gas":
            forbidden = bool({"no-gas", "gas-forbidden"} & set(board.permissions))
            by_afmt = "gas" in self.afmt.get(d.side, []) and not forbidden
            permitted = ("gas" in board.permissions and not forbidden) or by_afmt
            out.append(R_GAS_ELIG.judge(seq, permitted, "gas is permitted (scenario or AFMT)",
                                        "gas needs the scenario's permission, or an AFMT gas result in a scenario "
                                        "that does not forbid it", recorded=board.permissions))
            out.append(R_GAS_ELIG.judge(seq, date >= GAS_FROM, f"{date} is April 1915 or later",
                                        f"no gas before April 1915 in any case (scenario date {date})",
                                        expected=f">= {GAS_FROM}", recorded=date))
        # "double_gas" or "double": fields beside the schema's
        if getattr(d, "double_gas", None) or getattr(d, "double", None):
            bloc, nation = side_facts(board, d.side)
            good = (is_german(nation) or (nation is None and bloc == "central")) and date >= DOUBLE_GAS_FROM
            out.append(R_GAS_DOUBLE.judge(seq, good and mission == "gas", "German double gas from January 1916",
                                          "only the Germans fire double gas, from January 1916, with a gas mission",
                                          recorded={"nation": nation, "date": date, "mission": mission}))
        return out

    def _counter_battery(self, d, line):
        board, seq, side = self.ctx.board, line["seq"], d.side
        bloc, nation = side_facts(board, side)
        date, out = board.date or "", []

        def check(good, ok_msg, bad_msg, **kw):
            out.append(R_CB_ELIG.judge(seq, good, ok_msg, bad_msg, **kw))

        check(is_wwi(date), "a First World War scenario", f"no counter-battery outside the First World War ({date})",
              recorded=date)
        start = CB_FROM["central"] if (bloc == "central" or is_german(nation)) else CB_FROM["allied"]
        check(date >= start, f"on or after {start}", f"no counter-battery before {start} for {side}",
              expected=f">= {start}", recorded=date)
        enemies = [s for s in board.sides if s != side]
        enemy_obm = [e for e in board.elements.values() if e.side in enemies and not e.eliminated]
        used = any(self.fired_in_phase.get(s, 0) > 0 for s in enemies)
        check(bool(enemy_obm) and used, "the enemy fired an off-map element in its previous barrage phase",
              "the enemy must have an off-map element that it used in its previous barrage phase",
              recorded={"enemy_elements": len(enemy_obm), "used_last_barrage_phase": used})
        if board.weather is not None:
            check(board.weather == "fair", "the weather is fair", f"counter-battery needs fair weather "
                  f"(weather {board.weather})", expected="fair", recorded=board.weather)
        observers = [u for u in board.units.values() if u.side == side and not u.eliminated and (
            (u.unit_class in ("forward-observer", "liaison-officer") and "pinned" not in u.status)
            or u.unit_class in ("aircraft", "balloon"))]
        check(bool(observers), "a non-pinned FO or LNO, an aircraft or a balloon is in play",
              "counter-battery needs a non-pinned forward observer or liaison officer, or a CS aircraft or "
              "balloon on the map")
        check(len(d.elements) == 1, "one off-map element", "a counter-battery mission is fired by one of the "
              "player's off-map elements", expected=1, recorded=len(d.elements))
        target = d.target_element
        if target is not None:
            element = board.elements.get(target)
            check(element is not None and element.side in enemies and not element.eliminated,
                  f"{target} is an enemy off-map element", f"{target} is not an enemy off-map element in play",
                  recorded=target)
        return out

    def _one_per_hex(self, line):
        d, seq = self.ctx.typed(line), line["seq"]
        key = (line["turn"], d.side, d.target)
        earlier = self.per_hex.setdefault(key, [])
        out = []
        other_ammo = [s for s, _, ammo in earlier if ammo != d.ammunition]
        out.append(R_AMMO_HEX.judge(seq, not other_ammo, "one ammunition type against this hex",
                                    f"{d.target} was already attacked with another ammunition this turn",
                                    related=other_ammo))
        earlier.append((seq, d.barrage_type, d.ammunition))
        return out

    # -- the Allied shrapnel compulsion, judged when the barrage fires --------------------------------
    def _barrage_compulsion_rolls(self, barrage, decl):
        """The barrage's own roll: about it, or made in its barrage phase before it was declared.

        game-log.md puts a barrage's rolls after its declaration, but the text has the roll decide
        whether the ammunition may be selected, so a log may well record it first (subject: the
        barrage, the side or nothing); such a roll serves the next declaration only."""
        subject = self.ctx.typed
        own = [r for r in self.shrapnel_rolls if subject(r).subject == barrage and r["seq"] > decl.seq]
        if own:
            return own
        used = {r["seq"] for r in self.shrapnel_rolls_used}
        before = [r for r in self.shrapnel_rolls if r["turn"] == decl.turn and r["seq"] < decl.seq
                  and r["seq"] not in used and subject(r).subject in (barrage, decl.event.side, None)]
        self.shrapnel_rolls_used.extend(before[-1:])
        return before[-1:]

    def _shrapnel_compulsion(self, barrage, decl_seq, seq):
        found = self.declared[barrage]
        decl, date = found.event, self.ctx.board.date or ""
        reading = self.ctx.interpretations.reading(SHRAPNEL_FREQUENCY.name)
        label = self.ctx.interpretations.label(SHRAPNEL_FREQUENCY.name)
        rolls = [r for r in self.shrapnel_rolls if r.get("side") in (decl.side, None)]
        if reading == "per-barrage":
            rolls = self._barrage_compulsion_rolls(barrage, found)
        elif reading == "per-turn":
            rolls = [r for r in rolls if r["turn"] == found.turn]
        bonus = shrapnel_compulsion_bonus(date)
        face = self.ctx.typed(rolls[-1]).result if rolls else None
        passed = bool(rolls) and shrapnel_compulsion_passed(date, face)
        related = [decl_seq] + [r["seq"] for r in rolls[-1:]]
        if passed:
            return [R_SHRAP_ALLIED.ok(seq, f"the Allied player rolled {face}+{bonus} >= 6: "
                                      f"free to select {decl.ammunition}", related=related, interpretation=label)]
        if decl.mission != "destruction":
            vs = self.ctx.interpretations.reading(SHRAPNEL_VS_MISSION.name)
            vs_label = self.ctx.interpretations.label(SHRAPNEL_VS_MISSION.name)
            if vs is None:
                return [R_SHRAP_ALLIED.ambiguous(
                    seq, f"Allied {date}: {'the compulsion roll failed' if rolls else 'no compulsion roll'}, "
                    f"and a {decl.mission} mission may not fire shrapnel. {SHRAPNEL_VS_MISSION.describe()}",
                    related=related, interpretation=vs_label)]
            if vs == "exempt":
                return [R_SHRAP_ALLIED.ok(seq, "the compulsion does not apply to a mission that forbids shrapnel",
                                          related=related, interpretation=vs_label)]
        if not rolls:
            return [R_SHRAP_ALLIED.missing_roll(
                seq, f"an Allied player in {date} must roll 6 or more (d6 +{bonus}) to select "
                f"{decl.ammunition} instead of shrapnel; no roll is recorded", related=related, interpretation=label)]
        return [R_SHRAP_ALLIED.violation(
            seq, f"the compulsion roll {face}+{bonus} is under 6: the Allied player must fire "
            f"shrapnel, not {decl.ammunition}", expected="shrapnel", recorded=decl.ammunition,
            related=related, interpretation=label)]


COVERAGE = {
    "IM.ART.GEN.TWO_KINDS": ("implemented", "tests/unit/test_artillery_legality.py::test_only_off_map_elements_fire_barrages"),
    "IM.ART.AFMT.ROLL": ("needs a chart", "tests/unit/test_artillery_legality.py::test_mission_must_be_the_afmt_result"),
    "IM.ART.MISSION.COUNT": ("implemented", "tests/unit/test_artillery_legality.py::test_interdiction_unlocked_by_suppression"),
    "IM.ART.MISSION.DEST.ALWAYS": ("implemented", "tests/unit/test_artillery_legality.py::test_destruction_always_available"),
    "IM.ART.MISSION.DEST.COMBOS": ("implemented", "tests/unit/test_artillery_legality.py::test_ammunition_locked_by_mission"),
    "IM.ART.MISSION.NEUT": ("implemented", "tests/unit/test_artillery_legality.py::test_shrapnel_illegal_outside_destruction"),
    "IM.ART.MISSION.SUPP": ("implemented", "tests/unit/test_artillery_legality.py::test_drumfire_only_missions"),
    "IM.ART.MISSION.INTERDICT": ("implemented", "tests/unit/test_artillery_legality.py::test_drumfire_only_missions"),
    "IM.ART.MISSION.CB.ELIG": ("implemented", "tests/unit/test_artillery_legality.py::test_counter_battery_preconditions"),
    "IM.ART.MISSION.GAS.ELIG": ("implemented", "tests/unit/test_artillery_legality.py::test_gas_permission_and_date"),
    "IM.ART.BTT.ROLL": ("needs a chart", "tests/unit/test_artillery_legality.py::test_barrage_type_must_be_allowed_by_btt"),
    "IM.ART.AMMO.ONE_PER_HEX": ("implemented", "tests/unit/test_artillery_legality.py::test_one_ammunition_per_hex"),
    "IM.ART.LEGAL.MATRIX": ("implemented", "tests/unit/test_artillery_legality.py::test_matrix_pure_function"),
    "IM.ART.AMMO.SHRAP.ILLEGAL": ("implemented", "tests/unit/test_artillery_legality.py::test_shrapnel_illegal_outside_destruction"),
    "IM.ART.AMMO.SHRAP.ALLIED": ("implemented", "tests/unit/test_artillery_legality.py::test_allied_shrapnel_compulsion"),
    "IM.ART.AMMO.SMOKE.PERMIT": ("implemented", "tests/unit/test_artillery_legality.py::test_smoke_needs_permission"),
    "IM.ART.AMMO.SMOKE.COMBO": ("implemented", "tests/unit/test_artillery_legality.py::test_hurricane_fires_only_he_or_shrapnel"),
    "IM.ART.AMMO.GAS.PERMIT_PROC": ("implemented", "tests/unit/test_artillery_legality.py::test_ammunition_locked_by_mission"),
    "IM.ART.AMMO.GAS.DOUBLE": ("implemented", "tests/unit/test_artillery_legality.py::test_double_gas_german_from_1916"),
    "IM.ART.DIRECT.NOPROC": ("implemented", "tests/unit/test_artillery_legality.py::test_only_off_map_elements_fire_barrages"),
}
