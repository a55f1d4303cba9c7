"""A plain check of an event schema, derived from its pydantic model: a function of the event's
data that says True only when the model surely accepts it, and False whenever in doubt (then the
model decides, and names the field).

The import checks every line's data against its schema. Building a model for each of the few
event types most lines are (a move, a status) cost as much as the rest of a line's checks; a
rule system's own types (domain/rules/*/events.py) are checked here without it, from what the
model says of its fields, so that no rule system keeps a hand-written copy of its schemas.

A schema is derived only when every part of it is understood here; otherwise `plain_check`
gives None and the model checks every line of that type. Understood: strict models (every
schema is, domain.events.STRICT) without model validators, keeping or ignoring extra fields;
fields of `str`, `int` (within 64 bits), `bool`, `None`, `Any`, `Literal[...]` of strings,
integers or booleans, `Optional`/`Union` of those, `list[...]`, `dict[...]` and nested models of
the same kind; the constraints `ge`, `gt`, `le`, `lt`, `min_length`, `max_length`; after-mode
validators of the value alone (an `AfterValidator`, a `field_validator`), called with it (one
that raises is in doubt; it is the line's own value, which it must not change: the test of
every schema checks that none does); markers pydantic passes over (domain/locations.Location). Not:
floats, patterns, before, wrap or plain validators, discriminators, validation aliases, typed
extras, models that build their own schema or set anything else that changes validation.
"""
from __future__ import annotations

import inspect
import types
from typing import Annotated, Any, Callable, Literal, Optional, Union, get_args, get_origin

import annotated_types
from pydantic import AfterValidator, BaseModel
from pydantic.fields import FieldInfo

Check = Callable[[Any], bool]

_DERIVED: dict[type, Optional[Check]] = {}
# Model settings that change nothing of what a strict model accepts (any other: no plain check).
_INERT_SETTINGS = frozenset(("extra", "strict", "title", "json_schema_extra", "frozen", "defer_build",
                             "protected_namespaces", "use_attribute_docstrings"))


class _Unsupported(Exception):
    """A part of a schema this module does not understand: no plain check for it."""


def plain_check(schema: type[BaseModel]) -> Optional[Check]:
    """The schema's plain check of a data dict (derived once per schema), or None."""
    try:
        return _DERIVED[schema]
    except KeyError:
        pass
    try:
        check: Optional[Check] = _Writer().model(schema)
    except _Unsupported:
        check = None
    _DERIVED[schema] = check
    return check


def _call(validate: Callable[[Any], Any], value: Any) -> bool:
    """Whether a validator takes the value (its error is the model's to word: in doubt)."""
    try:
        validate(value)
    except Exception:
        return False
    return True


class _Writer:
    """Writes a schema's check as the source of one Python function per model and per item type
    (a check built of nested closures cost as much as the model it spares), each field's test an
    expression of its value: `type(v) is str`, `(type(v) is list and len(v) >= 1 and ...)`."""

    def __init__(self) -> None:
        self.names: dict[str, Any] = {"_M": object(), "_call": _call, "_LT": (str, int, bool),
                                      "_SIZED": (str, list, dict), "_I64": 2 ** 63}
        self.models: dict[type, Optional[Check]] = {}  # None: being written

    def name(self, value: Any) -> str:
        """A name the written source calls `value` by."""
        name = f"_{len(self.names)}"
        self.names[name] = value
        return name

    def function(self, params: str, lines: list[str]) -> Check:
        name = self.name(None)
        source = f"def {name}({params}):\n" + "".join(f"    {line}\n" for line in lines)
        exec(compile(source, f"<plain check {name}>", "exec"), self.names)  # noqa: S102 (our own source)
        return self.names[name]

    def model(self, schema: type[BaseModel]) -> Check:
        if schema in self.models:
            if self.models[schema] is None:
                raise _Unsupported("a model that holds itself")
            return self.models[schema]
        self.models[schema] = None
        check = self._model(schema)
        self.models[schema] = check
        return check

    def _model(self, schema: type[BaseModel]) -> Check:
        config = schema.model_config
        if config.get("strict") is not True or config.get("extra") not in (None, "allow", "ignore") \
                or not _INERT_SETTINGS.issuperset(config):
            raise _Unsupported("a lax model, one that forbids extra fields, or a setting that changes validation")
        if "__pydantic_extra__" in getattr(schema, "__annotations__", {}):
            raise _Unsupported("typed extra fields")
        if getattr(schema.__get_pydantic_core_schema__, "__func__", None) is not \
                getattr(BaseModel.__get_pydantic_core_schema__, "__func__", None) \
                or schema.model_post_init is not BaseModel.model_post_init:
            raise _Unsupported("a model that builds its own schema or has a post-init")
        decorators = schema.__pydantic_decorators__
        if decorators.model_validators or decorators.root_validators or decorators.validators:
            raise _Unsupported("a model validator")
        validators: dict[str, list[str]] = {}
        for attribute, decorator in decorators.field_validators.items():
            info = decorator.info
            if info.mode != "after" or "*" in info.fields:
                raise _Unsupported("a field validator that is not after-mode of named fields")
            validate = self.name(_one_value(getattr(schema, attribute)))
            for field_name in info.fields:
                validators.setdefault(field_name, []).append(f"_call({validate}, v)")
        lines = ["if type(data) is not dict: return False", "get = data.get"]
        for name, info in schema.model_fields.items():
            if info.validation_alias is not None or info.discriminator is not None or info.validate_default:
                raise _Unsupported("a validation alias, a discriminator or a validated default")
            test = " and ".join([self.annotated(info.annotation, info.metadata, "v"), *validators.pop(name, ())])
            lines.append(f"v = get({info.alias or name!r}, _M)")
            if info.is_required():
                lines += ["if v is _M: return False", f"if not ({test}): return False"]
            else:
                lines.append(f"if v is not _M and not ({test}): return False")
        if validators:
            raise _Unsupported("a validator of a field the model does not have")
        return self.function("data", lines + ["return True"])

    def annotated(self, annotation: Any, metadata: list[Any], v: str) -> str:
        """The test of a value `v` of `annotation` under pydantic's `metadata`."""
        tests = [self.test(annotation, v)]
        for item in metadata:
            kind = type(item)
            if kind in _BOUNDS:
                attribute, operator = _BOUNDS[kind]
                # an int's bound only: a bound met by something else (None of an Optional) is in doubt
                tests.append(f"(type({v}) is int and {v} {operator} {self.name(getattr(item, attribute))})")
            elif kind is annotated_types.MinLen:
                tests.append(f"(type({v}) in _SIZED and len({v}) >= {self.name(item.min_length)})")
            elif kind is annotated_types.MaxLen:
                tests.append(f"(type({v}) in _SIZED and len({v}) <= {self.name(item.max_length)})")
            elif kind is AfterValidator:
                tests.append(f"_call({self.name(_one_value(item.func))}, {v})")
            elif kind is FieldInfo and item.validation_alias is None and item.discriminator is None:
                # a Field(...) of constraints inside an Annotated: pydantic applies its metadata
                tests.append(self.annotated(Any, item.metadata, v))
            elif not _passed_over(item):
                raise _Unsupported(f"metadata {item!r}")
        return "(" + " and ".join(tests) + ")"

    def test(self, annotation: Any, v: str) -> str:
        simple = _SIMPLE.get(annotation) if _hashable(annotation) else None
        if simple is not None:
            return simple.format(v=v)
        origin, args = get_origin(annotation), get_args(annotation)
        if origin is Annotated:
            return self.annotated(args[0], list(annotation.__metadata__), v)
        if origin is Literal:
            if not all(type(a) in (str, int, bool) for a in args):
                raise _Unsupported("a literal that is not a string, an integer or a boolean")
            allowed = self.name(frozenset((type(a), a) for a in args))
            return f"(type({v}) in _LT and (type({v}), {v}) in {allowed})"
        if origin is Union or origin is types.UnionType:
            return "(" + " or ".join(self.test(a, v) for a in args) + ")"
        if origin is list or annotation is list:
            item = self.item(args[0] if args else Any)
            return f"(type({v}) is list and all(map({item}, {v})))"
        if origin is dict or annotation is dict:
            key, value = (self.item(args[0]), self.item(args[1])) if args else (self.item(Any), self.item(Any))
            return f"(type({v}) is dict and all(map({key}, {v})) and all(map({value}, {v}.values())))"
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return f"{self.name(self.model(annotation))}({v})"
        raise _Unsupported(f"a field of {annotation!r}")

    def item(self, annotation: Any) -> str:
        """The name of a function testing one item (of a list) or key or value (of a dict)."""
        return self.name(self.function("x", [f"return {self.test(annotation, 'x')}"]))


def _one_value(validator: Callable[..., Any]) -> Callable[[Any], Any]:
    """A validator called with the value alone (one that also asks for pydantic's info is not)."""
    try:
        parameters = inspect.signature(validator).parameters
    except (TypeError, ValueError):
        raise _Unsupported("a validator without a signature") from None
    if len(parameters) != 1:
        raise _Unsupported("a validator of more than the value")
    return validator


def _passed_over(item: Any) -> bool:
    """A marker pydantic passes over (domain/locations.Location): none of pydantic's or
    annotated_types' own, with no hook of pydantic's."""
    module = type(item).__module__ or ""
    return not (module.startswith(("pydantic", "annotated_types"))
                or hasattr(item, "__get_pydantic_core_schema__") or hasattr(item, "__get_pydantic_json_schema__"))


def _hashable(annotation: Any) -> bool:
    try:
        hash(annotation)
    except TypeError:
        return False
    return True


# The tests of the plain types, strict: a bool is no int, an int is no float (floats are not
# understood), and an int beyond 64 bits is left to the model.
_SIMPLE: dict[Any, str] = {str: "type({v}) is str", int: "(type({v}) is int and -_I64 <= {v} < _I64)",
                           bool: "type({v}) is bool", type(None): "{v} is None", None: "{v} is None",
                           Any: "True", object: "True"}
_BOUNDS = {annotated_types.Ge: ("ge", ">="), annotated_types.Gt: ("gt", ">"),
           annotated_types.Le: ("le", "<="), annotated_types.Lt: ("lt", "<")}
