"""One idiom for "a handler per event type", shared by the board fold, the auditor's rule
modules, the analytics fold and the dashboard's words: a dict from event type to handler,
built once, looked up once per event.

A class names its handlers after the type they take (`on_UnitMoved`, `_BarrageDeclared`);
`handlers_of` collects them into that dict.
"""
from __future__ import annotations

from functools import cache
from typing import Callable


@cache
def handlers_of(cls: type, prefix: str) -> dict[str, Callable]:
    """{event type: function} for the class's methods named `prefix` + a PascalCase event type."""
    found = {}
    for name in dir(cls):
        kind = name[len(prefix):]
        if name.startswith(prefix) and kind[:1].isupper():
            found[kind] = getattr(cls, name)
    return found
