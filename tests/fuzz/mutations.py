"""Hypothesis strategies that damage valid game logs the way a careless or hostile table would:
wrong JSON types, extreme numbers, awkward Unicode, cut, reordered and repeated lines, unknown
fields and deep nesting. The import, API and audit fuzz tests share them.

A log is a list of text lines (no newline). A mutated line is written back with `json.dumps`,
except for the tokens `json` cannot write (1e400, -0, NaN), which are spliced in as raw text.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Callable, Optional

from hypothesis import strategies as st

from domain.log import LIMITS, chain
from tests.conftest import FIXTURE_GAMES, example_lines, example_names

Path_ = tuple[Any, ...]  # keys and list indices from the top of a line
Draw = Callable[[st.SearchStrategy], Any]


def source_logs() -> dict[str, list[str]]:
    """The valid logs to damage: the spec examples and the demo games."""
    logs = {name: example_lines(name) for name in example_names()}
    for path in sorted(FIXTURE_GAMES.glob("*.jsonl")):
        logs[path.stem] = path.read_text(encoding="utf-8").splitlines()
    return logs


def renamed(lines: list[str], game: str, *, keep_chain: bool = True) -> list[str]:
    """The log under another game id: re-chained, or as a batch posted to the API holds it:
    without `prev`, `by` and `at`, and disputes without their raiser (the service names them)."""
    objs = [json.loads(text) for text in lines]
    for obj in objs:
        obj["game"] = game
        for name in ("prev", "by", "at"):
            obj.pop(name, None)
    if keep_chain:
        return list(chain(objs))
    for obj in objs:
        if obj["type"] == "DisputeRaised":
            obj["data"].pop("by", None)
    return [json.dumps(obj, separators=(",", ":"), ensure_ascii=False) for obj in objs]


@dataclass(frozen=True)
class Raw:
    """A JSON token that `json.dumps` cannot produce, written into the line as is."""

    token: str


def dumps(obj: Any) -> str:
    """A line's JSON text, with `Raw` tokens spliced in and lone surrogates as `\\uXXXX` escapes."""
    raws: list[str] = []

    def swap(value: Any) -> Any:
        if isinstance(value, Raw):
            raws.append(value.token)
            return f"@@raw{len(raws) - 1}@@"
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    plain = swap(obj)
    text = json.dumps(plain, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: only the escaped form is JSON text in UTF-8
        text = json.dumps(plain, ensure_ascii=True)
    for i, token in enumerate(raws):
        text = text.replace(f'"@@raw{i}@@"', token)
    return text


# -- what a value may become ------------------------------------------------------------------
HUGE_NUMBERS = [10**30, -(10**30), 2**63, 2**64, -(2**63) - 1, Raw("1e400"), Raw("-1e400"), Raw("1e-400"),
                Raw("-0"), Raw("NaN"), Raw("Infinity"), 1e308]
LONG = "x" * (LIMITS.max_string + 1)
ODD_TEXT = ["\ud800", "\udfff", "a\udc00b", "\U0001F600", "\U00010348\U0001D11E", "\x00", "nul\x00inside", "",
            "\u2028", "line\u2028sep", "\ufeff", "e\u0301", "\u202e", " ", "\\", '"']


def deep(depth: int, kind: str) -> Raw:
    """A value nested `depth` levels deep (lists or objects)."""
    if kind == "list":
        return Raw("[" * depth + "]" * depth)
    return Raw('{"a":' * depth + "1" + "}" * depth)


def replacements(value: Any) -> list[Any]:
    """Values of another JSON type, or extreme values of the same type, for `value`."""
    common = [None, deep(LIMITS.max_depth + 1, "list"), deep(200, "object")]
    if isinstance(value, bool):
        return common + [1, 0, "true", [value], not value]
    if isinstance(value, int):
        return common + [str(value), float(value), Raw(f"{value}.0"), Raw(f"{value}e0"), True, False,
                         [value], {"n": value}, -value - 1, 0, -1, *HUGE_NUMBERS]
    if isinstance(value, float):
        # a value an earlier mutation made infinite has no integer of its own
        return common + [str(value), *([int(value)] if math.isfinite(value) else []), *HUGE_NUMBERS]
    if isinstance(value, str):
        return common + [4, 4.5, True, [value], {value: value}, LONG, value + LONG[len(value):],
                         *(value + odd for odd in ODD_TEXT), *ODD_TEXT, value.upper()]
    if isinstance(value, list):
        return common + [{str(i): v for i, v in enumerate(value)}, "x", 4, [], value + value[:1], [value],
                         list(reversed(value))]
    if isinstance(value, dict):
        return common + [list(value.values()), list(value), "x", 4, {}, {**value, "unknown": 1},
                         {**value, "\ud800": 1}, {**value, LONG: 1}]
    return common + [0, "", "british", [], {}, True]  # null


def same_type(value: Any) -> list[Any]:
    """Values of the same JSON type that a schema may well accept: what reaches the auditor and
    the board."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [-value - 1, 0, -1, 1, 2**31, 2**53, 2**63 - 1, 10**30, value + 1]
    if isinstance(value, str):
        return [*(value + odd for odd in ODD_TEXT if odd.isprintable() or odd == ""), "\U0001F600",
                "x" * LIMITS.max_string, value[:1], "", value.upper(), "1:9999", "1:0000", "0:0101"]
    if isinstance(value, list):
        return [[], value + value[:1], list(reversed(value)), value[:1] * 50]
    if isinstance(value, dict):
        return [{}, {**value, "attrs": {}}]
    return [None]


def paths(obj: Any, prefix: Path_ = (), depth: int = 4) -> list[Path_]:
    """Every field of a line down to `depth`: envelope fields, `data`'s fields, list items."""
    out = []
    if isinstance(obj, dict):
        items = list(obj.items())
    elif isinstance(obj, list):
        items = list(enumerate(obj))[:4]
    else:
        return out
    for key, value in items:
        out.append(prefix + (key,))
        if depth > 1:
            out.extend(paths(value, prefix + (key,), depth - 1))
    return out


def get(obj: Any, path: Path_) -> Any:
    for key in path:
        obj = obj[key]
    return obj


def parent(obj: Any, path: Path_) -> Any:
    return get(obj, path[:-1])


# -- mutations of one log ---------------------------------------------------------------------
# Each takes hypothesis' draw and the lines, and returns the new lines and what it did.

# A line nested deeper than this is not taken apart again by a later mutation: rewriting it
# (`dumps` walks it) would need as many Python frames, more than hypothesis leaves on the stack.
REWRITE_DEPTH = 300


def json_object(text: str) -> Optional[dict[str, Any]]:
    """The line's JSON object, or None when it is not one (or is nested too deep to rewrite)."""
    if max(text.count("["), text.count("{")) > REWRITE_DEPTH and _nesting(text) > REWRITE_DEPTH:
        return None
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def _nesting(text: str) -> int:
    """How deep brackets nest in the text (strings' brackets counted too: an upper bound)."""
    depth = deepest = 0
    for c in text:
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def _pick_object(draw: Draw, lines: list[str]) -> Optional[tuple[int, Any]]:
    if not lines:
        return None
    i = draw(st.integers(0, len(lines) - 1))
    obj = json_object(lines[i])
    return None if obj is None else (i, obj)


def _set_line(lines: list[str], i: int, obj: Any) -> list[str]:
    return lines[:i] + [dumps(obj)] + lines[i + 1:]


def _pick_field(draw: Draw, lines: list[str]) -> Optional[tuple[int, Any, Path_]]:
    """A line that is a JSON object with fields, and one of its fields."""
    picked = _pick_object(draw, lines)
    if picked is None or not picked[1]:
        return None
    i, obj = picked
    return i, obj, draw(st.sampled_from(paths(obj)))


def _replace(draw: Draw, lines: list[str], choices: Callable[[Any], list[Any]]) -> tuple[list[str], str]:
    picked = _pick_field(draw, lines)
    if picked is None:
        return lines, "no change"
    i, obj, path = picked
    old = get(obj, path)
    new = draw(st.sampled_from(choices(old)))
    parent(obj, path)[path[-1]] = new
    return _set_line(lines, i, obj), f"line {i + 1}: {'.'.join(map(str, path))}: {old!r:.40} -> {new!r:.60}"


def change_value(draw: Draw, lines: list[str]) -> tuple[list[str], str]:
    """A field (envelope or data, at any depth) gets another type or an extreme value."""
    return _replace(draw, lines, replacements)


def tweak_value(draw: Draw, lines: list[str]) -> tuple[list[str], str]:
    """A field gets another value of its type (a negative count, a huge number, odd text)."""
    return _replace(draw, lines, same_type)


def drop_field(draw: Draw, lines: list[str]) -> tuple[list[str], str]:
    picked = _pick_field(draw, lines)
    if picked is None:
        return lines, "no change"
    i, obj, path = picked
    del parent(obj, path)[path[-1]]
    return _set_line(lines, i, obj), f"line {i + 1}: {'.'.join(map(str, path))} removed"


UNKNOWN_FIELDS = ["extra", "Seq", "seq ", " ", "", "a.b", "\U0001F600", "data2", "__proto__"]


def add_field(draw: Draw, lines: list[str]) -> tuple[list[str], str]:
    """An unknown field at the top of a line or inside its data."""
    picked = _pick_object(draw, lines)
    if picked is None:
        return lines, "no change"
    i, obj = picked
    name = draw(st.sampled_from(UNKNOWN_FIELDS))
    value = draw(st.sampled_from([1, "x", None, {"a": [1]}, LONG]))
    target = obj["data"] if draw(st.booleans()) and isinstance(obj.get("data"), dict) else obj
    target[name] = value
    return _set_line(lines, i, obj), f"line {i + 1}: unknown field {name!r} = {value!r:.20}"


def cut_line(draw: Draw, lines: list[str]) -> tuple[list[str], str]:
    """A line cut mid-way (a log written by a process that died)."""
    if not lines:
        return lines, "no change"
    i = draw(st.integers(0, len(lines) - 1))
    at = draw(st.integers(0, max(0, len(lines[i]) - 1)))
    return lines[:i] + [lines[i][:at]] + lines[i + 1:], f"line {i + 1} cut at {at}"


def drop_tail(draw: Draw, lines: list[str]) -> tuple[list[str], str]:
    """The last lines lost (still a valid log: a game stopped early)."""
    if len(lines) < 2:
        return lines, "no change"
    keep = draw(st.integers(1, len(lines) - 1))
    return lines[:keep], f"only the first {keep} lines"


def drop_line(draw: Draw, lines: list[str]) -> tuple[list[str], str]:
    if len(lines) < 2:
        return lines, "no change"
    i = draw(st.integers(0, len(lines) - 1))
    return lines[:i] + lines[i + 1:], f"line {i + 1} removed"


def swap_lines(draw: Draw, lines: list[str]) -> tuple[list[str], str]:
    if len(lines) < 2:
        return lines, "no change"
    i = draw(st.integers(0, len(lines) - 2))
    j = draw(st.integers(i + 1, min(len(lines) - 1, i + 5)))
    out = list(lines)
    out[i], out[j] = out[j], out[i]
    return out, f"lines {i + 1} and {j + 1} swapped"


def repeat_line(draw: Draw, lines: list[str]) -> tuple[list[str], str]:
    if not lines:
        return lines, "no change"
    i = draw(st.integers(0, len(lines) - 1))
    at = draw(st.integers(i + 1, min(len(lines), i + 3)))
    return lines[:at] + [lines[i]] + lines[at:], f"line {i + 1} repeated as line {at + 1}"


JUNK = ["not json", "[]", "4", "null", '"text"', "{", "{}", '{"v":1}', "\ufeff{}", "[1,2", "NaN", " ", "\x00",
        "{\"a\":1}{\"b\":2}", "\udcff\udcfe"]  # the last: bytes that are not UTF-8 (see write_log)


def insert_junk(draw: Draw, lines: list[str]) -> tuple[list[str], str]:
    at = draw(st.integers(0, len(lines)))
    junk = draw(st.sampled_from(JUNK))
    return lines[:at] + [junk] + lines[at:], f"{junk!r} inserted as line {at + 1}"


def nest_deeply(draw: Draw, lines: list[str]) -> tuple[list[str], str]:
    """A data field nested around the documented depth, or far beyond it."""
    picked = _pick_object(draw, lines)
    if picked is None or not isinstance(picked[1].get("data"), dict):
        return lines, "no change"
    i, obj = picked
    # 254 and more: beyond what orjson writes (it reads 1024 levels); 100,000: beyond Python's stack.
    depth = draw(st.sampled_from([LIMITS.max_depth - 2, LIMITS.max_depth, LIMITS.max_depth + 1, 200, 254, 260,
                                  1000, 2000, 100_000]))
    kind = draw(st.sampled_from(["list", "object"]))
    name = draw(st.sampled_from(sorted(obj["data"]) + ["attrs", "nested"]))
    obj["data"][name] = deep(depth, kind)
    return _set_line(lines, i, obj), f"line {i + 1}: data.{name} nested {depth} deep ({kind})"


MUTATIONS = [change_value, change_value, change_value, tweak_value, tweak_value, tweak_value, drop_field, add_field, cut_line, drop_tail, drop_line,
             swap_lines, repeat_line, insert_junk, nest_deeply]


class MutatedLog:
    """A damaged log, the valid log it came from, and what was done to it. (A plain class, so
    that a failing example prints its steps rather than every line.)"""

    def __init__(self, original: list[str], lines: list[str], steps: tuple[str, ...]):
        self.original, self.lines, self.steps = original, lines, steps

    @property
    def first_change(self) -> Optional[int]:
        """The 1-based number of the first line that differs from the valid log (None when the
        lines are the valid log or a prefix of it: nothing to refuse)."""
        for i, text in enumerate(self.lines):
            if i >= len(self.original) or text != self.original[i]:
                return i + 1
        return None

    def __repr__(self) -> str:
        return f"MutatedLog({len(self.lines)} lines, steps={self.steps!r})"

    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)


# Mutations that often leave a log valid, so that the auditor and the board meet odd games.
GENTLE = [tweak_value, tweak_value, tweak_value, drop_tail]
KINDS = {"any": MUTATIONS, "gentle": GENTLE}


@st.composite
def mutated(draw: Draw, original: list[str], max_steps: int = 3, kinds: list = MUTATIONS) -> MutatedLog:
    """`original` damaged by one to `max_steps` mutations of `kinds`."""
    lines, steps = list(original), []
    for _ in range(draw(st.integers(1, max_steps))):
        mutation = draw(st.sampled_from(kinds))
        lines, what = mutation(draw, lines)
        steps.append(f"{mutation.__name__}: {what}")
    if kinds is GENTLE and '"prev"' in original[0]:
        lines = rechained(lines)  # the hash chain follows the changes: the auditor gets to read them
    return MutatedLog(list(original), lines, tuple(steps))


def rechained(lines: list[str]) -> list[str]:
    """The lines with each `prev` recomputed (when every line is a JSON object)."""
    objs = [json_object(text) for text in lines]
    if any(obj is None for obj in objs):
        return lines
    for obj in objs:
        obj.pop("prev", None)
    try:
        return list(chain(objs))
    except (ValueError, TypeError):  # NaN or a lone surrogate: not canonical JSON, keep the lines
        return lines


def write_log(path, log: MutatedLog) -> None:
    """The log as a UTF-8 file (the surrogates U+DC80-U+DCFF of JUNK become raw bytes that are
    not UTF-8)."""
    with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="\n") as fh:
        fh.write(log.text())
