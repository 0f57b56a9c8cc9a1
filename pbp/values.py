"""Frozen values built quickly: the few the tag reader and the engine build by the thousand.

A frozen dataclass's ``__init__`` sets each field with ``object.__setattr__(self, name,
value)``, which looks the field up by name on every call; for a class with slots, each field
is a slot whose descriptor can set it directly, two to three times quicker. ``fast_init``
gives a frozen, slotted dataclass that ``__init__``: the same parameters (positional and
keyword-only, in the same order, with the same defaults), the same fields set, nothing else
changed (still frozen, ``dataclasses.replace`` goes through it too). It takes only the classes
it can build exactly so: no ``__post_init__``, no default factory, no field left out of
``__init__``; any other class is refused when it is defined.
"""

from __future__ import annotations

import dataclasses
import types
from typing import Any, TypeVar

T = TypeVar("T")

# each class given a quick __init__, with the one dataclasses wrote (tests compare them)
WRITTEN: dict[type, Any] = {}


def fast_init(cls: type[T]) -> type[T]:
    """``cls`` (a frozen dataclass with slots) with an ``__init__`` that sets its slots
    through their descriptors."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: fast_init takes a frozen dataclass with slots")
    code = getattr(cls.__init__, "__code__", None)
    if not params.init or code is None or code.co_filename != "<string>":  # (one of its own)
        raise TypeError(f"{cls.__name__}: fast_init takes the __init__ dataclasses writes")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: fast_init cannot run __post_init__")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    names: dict[str, Any] = {}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    for number, field in enumerate(fields):
        if not field.init or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name}: fast_init takes plain fields only")
        parameter = field.name
        if field.default is not dataclasses.MISSING:
            names[f"_default_{number}"] = field.default
            parameter += f"=_default_{number}"
        (keyword if field.kw_only else positional).append(parameter)
        names[f"_set_{number}"] = _slot(cls, field.name).__set__
        body.append(f"    _set_{number}(self, {field.name})")
    parameters = ", ".join([*positional, *(["*", *keyword] if keyword else [])])
    source = f"def __init__(self, {parameters}):\n" + "\n".join(body or ["    pass"])
    exec(source, names)
    written = names["__init__"]
    written.__qualname__ = f"{cls.__qualname__}.__init__"
    written.__module__ = cls.__module__
    written.__annotations__ = dict(cls.__init__.__annotations__)
    WRITTEN[cls] = cls.__init__
    cls.__init__ = written  # type: ignore[method-assign]
    return cls


def _slot(cls: type, name: str) -> types.MemberDescriptorType:
    """The descriptor of the slot ``name`` (of ``cls`` or of the class it inherits it from)."""
    for klass in cls.__mro__:
        found = klass.__dict__.get(name)
        if isinstance(found, types.MemberDescriptorType):
            return found
    raise TypeError(f"{cls.__name__}.{name}: fast_init finds no slot of that name")
