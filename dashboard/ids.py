"""Every component id of the dashboard, in one place (pages, callbacks and browser tests share them)."""
from __future__ import annotations

# -- shell --------------------------------------------------------------------------------------
NAV = "nav"
WHO = "who"                          # who is signed in, beside the sign-in / sign-out
PUBLIC_BANNER = "public-banner"      # shown when the store is served with --public-read
LAG_BANNER = "lag-banner"            # shown while a worker is behind the log (dashboard/lag.py)

# -- games page ---------------------------------------------------------------------------------
GAMES_TABLE = "games-table"
GAMES_BODY = "games-body"            # the table (or the word that there is no game), redrawn as games grow
GAMES_LIVE = "games-live"            # dcc.Store written by assets/live.js when a game grew: {"last": position, "at"}
GAMES_FEED = "games-feed"            # hidden; its data-live-feed is the stream of every game's last seq

# -- replay page --------------------------------------------------------------------------------
REPLAY_GAME = "replay-game"          # dcc.Store: {"game", "last", "findings": [seqs with a finding], "board"}
REPLAY_SEQ = "replay-seq"            # dcc.Store: {"seq"}: the position; everything follows it
REPLAY_MAP = "replay-map"
REPLAY_FIRST = "replay-first"
REPLAY_PREV = "replay-prev"
REPLAY_NEXT = "replay-next"
REPLAY_LAST = "replay-last"
REPLAY_PREV_FINDING = "replay-prev-finding"  # the previous event with a finding (p, Shift+ArrowLeft)
REPLAY_NEXT_FINDING = "replay-next-finding"  # the next event with a finding (n, Shift+ArrowRight)
REPLAY_FINDING_COUNT = "replay-finding-count"
REPLAY_KEYS_HELP = "replay-keys-help"        # the keys, said on the page
REPLAY_SLIDER = "replay-slider"
REPLAY_JUMP = "replay-jump"          # dropdown of turns and phases
REPLAY_POSITION = "replay-position"  # "event N of M, turn T, phase P"
REPLAY_EVENTS = "replay-events"      # the event list; rows carry data-seq, the current one has class "current"
REPLAY_PICK = "replay-pick"          # dcc.Store set by assets/events.js when a row is chosen: {"seq", "at"}
REPLAY_EVENT_TEXT = "replay-event-text"
REPLAY_RULES = "replay-rules"        # the chosen event's rule applications
REPLAY_FINDINGS_ONLY = "replay-findings-only"
REPLAY_VIEW = "replay-view"          # "played" | "ruled"
REPLAY_URL_SINK = "replay-url-sink"  # output of the clientside callback that writes the URL
REPLAY_SUMMARY = "replay-summary"    # "scenario · date · N events"
REPLAY_LIVE = "replay-live"          # dcc.Store written by assets/live.js when the game grew: {"last": seq, "at"}
REPLAY_FEED = "replay-feed"          # hidden; its data-live-feed is the game's event stream
REPLAY_FIRE = "replay-fire"          # the chosen shot or spot told: lines, range in hexes, result, verdicts

# -- disputes page ------------------------------------------------------------------------------
DISPUTE_GAME = "dispute-game"
DISPUTE_LIST = "dispute-list"
DISPUTE_ABOUT = "dispute-about"
DISPUTE_CLAIM = "dispute-claim"
DISPUTE_RAISE = "dispute-raise"
DISPUTE_RAISE_RESULT = "dispute-raise-result"
DISPUTE_EVIDENCE_FOR = "dispute-evidence-for"
DISPUTE_EVIDENCE = "dispute-evidence"
RULING_DISPUTE = "ruling-dispute"
RULING_DECISION = "ruling-decision"
RULING_RULE = "ruling-rule"
RULING_NOTE = "ruling-note"
RULING_READINGS = "ruling-readings"   # a house rule's interpretations: NAME=READING
RULING_ISSUE = "ruling-issue"
RULING_RESULT = "ruling-result"
DISPUTE_REFRESH = "dispute-refresh"  # dcc.Store bumped after a write so the lists reload

# -- analytics page -----------------------------------------------------------------------------
AN_SCENARIO = "an-scenario"
AN_SIDE = "an-side"
AN_YEAR = "an-year"
AN_POINTS = "an-points"
AN_CONSUMPTION = "an-consumption"
AN_RESISTANCE = "an-resistance"
AN_FOT = "an-fot"
CHARTS = (AN_POINTS, AN_CONSUMPTION, AN_RESISTANCE, AN_FOT)
# Infernal Machines' machines, on the same page under the same filters (dashboard/machine_figures.py)
AN_VEHICLE_BREAKDOWNS = "an-vehicle-breakdowns"
AN_FASCINES = "an-fascines"
AN_LOSSES = "an-losses-by-cause"
MACHINE_CHARTS = (AN_VEHICLE_BREAKDOWNS, AN_FASCINES, AN_LOSSES)
# The tabletop rule systems' charts (the page's `?ruleset=` chooses; dashboard/analytics_figures.py)
AN_RULESET = "an-ruleset"
AN_GAMES = "an-games"
AN_AVBCW_LOW = "an-avbcw-low-ammo"
AN_AVBCW_FIRST = "an-avbcw-first-low"
AN_AVBCW_SUPPLY = "an-avbcw-supply"
AN_AVBCW_LP = "an-avbcw-leadership"
AN_AVBCW_SUPP = "an-avbcw-suppression"
AN_MOG_BREAKDOWN = "an-mog-breakdowns"
AN_MOG_LOST = "an-mog-lost-turns"
AN_MOG_CRIT = "an-mog-criticals"
TABLETOP_CHARTS = {
    "dux-bellorum-avbcw": (AN_AVBCW_LOW, AN_AVBCW_FIRST, AN_AVBCW_SUPPLY, AN_AVBCW_LP, AN_AVBCW_SUPP),
    "landships-of-mogdonazia": (AN_MOG_BREAKDOWN, AN_MOG_LOST, AN_MOG_CRIT),
}


def png_button(chart: str) -> str:
    return f"{chart}-png"


def png_download(chart: str) -> str:
    return f"{chart}-download"


def games_filter(ruleset: str) -> str:
    """The analytics page's game filter of one tabletop rule system."""
    return f"{AN_GAMES}-{ruleset}"

# -- army list check page --------------------------------------------------------------------------
ARMY_RULESET = "army-ruleset"        # dropdown: the rule systems with army lists
ARMY_UPLOAD = "army-upload"          # a LIST.json file, read into the text box
ARMY_TEXT = "army-text"              # the list as JSON
ARMY_READINGS = "army-readings"      # NAME=READING, one a line
ARMY_CHECK = "army-check"
ARMY_RESULT = "army-result"          # the verdict, the errors and the points

# -- forms made from the event schemas (dashboard/form_view.py) -------------------------------------
# Pattern-matching ids {"type", "form", "name"}: `form` is one of the forms below, `name` the
# field's place in the event's data ("unit", "footprint.w", "results[0].unit"), "@side" the
# envelope's side, "@game" a new game's id.
FORM_FIELD = "form-field"            # a field's control
FORM_ERROR = "form-error"            # the refusal beside that field (role=alert)
FORM_ADD_ROW = "form-add-row"        # "add a row" of a rows field
FORM_PICK = "form-pick"              # "pick on the map" of a location field
FORM_REMOVE = "form-remove"          # {"type", "form", "index"}: take a correction off the list
EVENT_FORM, FIX_FORM, RULING_FORM, START_FORM = "event", "fix", "ruling-fix", "start"


def form_type(form: str) -> str:
    """The event type dropdown of a form."""
    return f"{form}-type"


def form_fields(form: str) -> str:
    """The container of a form's generated fields."""
    return f"{form}-fields"


def form_submit(form: str) -> str:
    return f"{form}-submit"


def form_result(form: str) -> str:
    """What a form's last submission did, or its refusal when it names no field."""
    return f"{form}-result"


def form_items(form: str) -> str:
    """dcc.Store of the events a form built so far (a ruling's corrections)."""
    return f"{form}-items"


def form_list(form: str) -> str:
    """Those events in words, each with its remove button."""
    return f"{form}-list"


def form_add(form: str) -> str:
    """The button adding the built event to the form's list."""
    return f"{form}-add"


# -- record page (the scribe: /record, /record/<game>) ----------------------------------------------
RECORD_GAME = "record-game"          # dcc.Store {"game"}
RECORD_RULESET = "record-ruleset"    # the start form's rule system
RECORD_START_GO = "record-start-go"  # dcc.Location: the new game's page once started
RECORD_RIGHTS = "record-rights"      # whether the signed-in token may record here
RECORD_MAP = "record-map"
RECORD_CLICK = "record-click"        # dcc.Store set by assets/record.js: {"x", "y", "at"} in the map's coordinates
RECORD_TARGET = "record-target"      # dcc.Store {"form", "name"}: the location field a click fills
RECORD_SERVICE = "record-service"    # roll, deal or shuffle by the service (DieRolled, CardDrawn, DeckShuffled)
RECORD_AUDIT = "record-audit"        # the stored events in words and what the auditor says of them
RECORD_EVENTS = "record-events"      # the last events, those with findings flagged
RECORD_FIX = "record-fix"            # the correction's section (open when an event awaits one)
RECORD_FIX_ABOUT = "record-fix-about"
RECORD_FIX_CLAIM = "record-fix-claim"
RECORD_FIX_DECISION = "record-fix-decision"
RECORD_FIX_RULE = "record-fix-rule"
RECORD_FIX_NOTE = "record-fix-note"
RECORD_FIX_SUBMIT = "record-fix-submit"
RECORD_FIX_RESULT = "record-fix-result"
