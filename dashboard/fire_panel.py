"""The chosen shot told beside the hex map: each line with its range in hexes and what blocks it,
the recorded range, the outcome, the dice the auditor read and its verdicts, the disputes about it.

Built by a pure function from a `hex_fire.FireView` and what the audit said of the shot's events;
the replay puts it under the event's words (`ids.REPLAY_FIRE`).
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

from dash import html

from dashboard import ids
from dashboard.hex_fire import FireView, SightLine
from dashboard.pages.common import verdict_badge

TITLES = {"spot": "Line of sight", "close combat": "Close combat"}


def fire_panel(view: FireView, applications: Iterable[Any], dice: list[dict[str, Any]],
               disputes: list[str]) -> html.Div:
    """The shot in words: lines, range, outcome, the auditor's verdicts, dice and disputes."""
    counted = sorted({line.range for line in view.lines})
    rows: list = [html.B(f"{TITLES.get(view.kind, 'Line of fire')} ({view.kind}, "
                         f"event{'s' if len(view.seqs) > 1 else ''} {', '.join(map(str, view.seqs))})"),
                  html.Ul([html.Li(_line_words(line, view)) for line in view.lines] or
                          [html.Li("no firer stands on the board")], className="fire-lines")]
    if counted:
        rows.append(html.Div(_range_words(counted, view.recorded_range), className="fire-range-text"))
    rows.append(html.Div(_result_words(view), className="fire-result"))
    if view.reading:
        rows.append(html.Div(f"along a hexside: the reading {view.reading}", className="fire-reading"))
    rows += _verdicts(list(applications))
    if dice:
        rows.append(html.Div("Dice: " + "; ".join(f"{d['data'].get('die')} → {d['data'].get('result')} "
                                                  f"({d['data'].get('purpose')}, event {d['seq']})" for d in dice),
                             className="fire-dice"))
    rows += [html.Div(f"Disputed: {d}", className="fire-dispute") for d in disputes]
    return html.Div(rows, id=ids.REPLAY_FIRE, className="fire-panel")


def _line_words(line: SightLine, view: FireView) -> str:
    where = f"{line.firer} ({line.origin}) → {line.target}: {line.range} hex{'es' if line.range != 1 else ''}"
    if line.off_facing is not None:
        where += (f" (faces {line.facing:g}°, the line leaves at {line.bearing:g}°: "
                  f"{line.off_facing:g}° off its facing)")
    if line.clear is None:
        return where
    if line.clear:
        return f"{where}, line clear ({line.reason})"
    return f"{where}, line blocked at {line.blocker}: {line.reason} ({line.rule})"


def _range_words(counted: list[int], recorded: Optional[int]) -> str:
    said = f"Range counted: {' / '.join(map(str, counted))} hex{'es' if counted != [1] else ''}"
    if recorded is None:
        return said
    agree = "agrees" if counted == [recorded] else "differs"
    return f"{said}; recorded {recorded} ({agree})"


def _result_words(view: FireView) -> str:
    said = "Result: " + "; ".join(view.outcome)
    if view.hits is not None and view.resolved:
        said += f" ({view.hits} hit{'s' if view.hits != 1 else ''})"
    return said


def _verdicts(applications: list[Any]) -> list:
    """Each rule the auditor applied to the shot's events, findings first."""
    if not applications:
        return [html.Div("Auditor: no rule judges these events.", className="fire-audit")]
    seen: dict[tuple[str, str], Any] = {}
    for app in sorted(applications, key=lambda a: (a.verdict.value == "ok", a.rule)):
        seen.setdefault((app.rule, app.verdict.value), app)
    items = [html.Li([verdict_badge(verdict), f" {rule}: {app.message}"]) for (rule, verdict), app in seen.items()]
    return [html.Div("Auditor:", className="fire-audit"), html.Ul(items, className="fire-verdicts")]
