"""Breaking rules on purpose in a generated tabletop game: the driver both tabletop rule systems'
`inject` share. Each injection changes one event of a legal log (or removes one) so that one rule
is broken, and says at which line the auditor must find it."""
from __future__ import annotations

import copy
import random
from typing import Any, Callable, Mapping, Optional

Line = dict[str, Any]
Injection = Callable[[list[Line], int, random.Random], Optional[tuple[int, str]]]
SPACING = 12   # lines between two injections, so that one does not hide another


def inject_with(kinds: Mapping[str, Injection], lines: list[Line], count: int,
                rng: random.Random) -> tuple[list[Line], list[dict[str, Any]]]:
    """`count` violations, of different kinds where the game allows, SPACING lines apart. An
    injection returns (index of the line the rule judges, rule id), having removed at most lines
    before that index. Returns the renumbered lines and each violation's {seq, rule, kind}."""
    out = copy.deepcopy(lines)
    found: list[dict[str, Any]] = []
    names = list(kinds)
    rng.shuffle(names)
    for attempt in range(4 * len(names) + count):
        if len(found) >= count:
            break
        name = names[attempt % len(names)]
        candidates = [i for i in range(len(out)) if all(abs(i - f["_index"]) > SPACING for f in found)]
        rng.shuffle(candidates)
        for i in candidates:
            before = len(out)
            result = kinds[name](out, i, rng)
            if result is None:
                continue
            index, rule = result
            removed = before - len(out)
            for f in found:
                if f["_index"] > index:
                    f["_index"] -= removed
            found.append({"_index": index, "rule": rule, "kind": name})
            break
    for n, line in enumerate(out, start=1):
        line["seq"] = n
    return out, [{"seq": f["_index"] + 1, "rule": f["rule"], "kind": f["kind"]} for f in found]


def previous(lines: list[Line], i: int, kind: str, purpose: Optional[str] = None) -> Optional[int]:
    """The index of the nearest line before `i` of this type (and DieRolled purpose)."""
    for j in range(i - 1, -1, -1):
        if lines[j]["type"] == kind and (purpose is None or lines[j]["data"].get("purpose") == purpose):
            return j
    return None
