"""The banner every page shows while a worker is behind the log: what it shows may miss the latest
events (projections/worker.py; without a worker, the reads catch up themselves and nothing is behind)."""
from __future__ import annotations

from typing import Optional

from dash import html

from api.deps import Services
from dashboard import ids
from projections.worker import behind

NAMES = {"analytics": "analytics", "boards": "board checkpoints", "audits": "audit reports"}


def lag_text(lags: dict[str, int]) -> Optional[str]:
    """What the banner says of the projections' lags (game events each has yet to take); None when
    none is behind."""
    late = [f"{NAMES.get(name, name)} {count} event{'s' if count != 1 else ''} behind"
            for name, count in sorted(lags.items()) if count]
    if not late:
        return None
    return (f"Catching up with the log: {', '.join(late)}. Findings and figures may miss the latest "
            "events; reload to see how far it has come.")


def lag_banner(services: Services) -> Optional[html.Div]:
    """The banner, when a worker keeps a projection that is behind."""
    text = lag_text(behind(services.ledger, services.store))
    return html.Div(text, id=ids.LAG_BANNER, className="lag-banner") if text else None
