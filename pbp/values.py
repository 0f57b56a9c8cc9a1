"""Frozen values built quickly: every frozen value class of pbp's, built quickly at a
process's start and quick to make (``frozen_value``), and the ``__init__`` of those for a
frozen dataclass built otherwise (``fast_init``).

A frozen dataclass's ``__init__`` sets each field with ``object.__setattr__(self, name,
value)``, which looks the field up by name on every call; for a class with slots, each field
is a slot whose descriptor can set it directly, two to three times quicker. ``fast_init``
gives a frozen, slotted dataclass that ``__init__``: the same parameters (positional and
keyword-only, in the same order, with the same defaults), the same fields set, nothing else
changed (still frozen, ``dataclasses.replace`` goes through it too). It takes only the classes
it can build exactly so: no ``__post_init__``, no default factory, no field left out of
``__init__``; any other class is refused when it is defined. ``frozen_value`` gives its
classes such an ``__init__`` itself, for those too.
"""

from __future__ import annotations

import _thread
import abc
import dataclasses
import inspect
import operator
import sys
import threading
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

# each class given a quick __init__, with the one dataclasses wrote (tests compare them)
WRITTEN: dict[type, Any] = {}


def fast_init(cls: type[T]) -> type[T]:
    """``cls`` (a frozen dataclass with slots) with an ``__init__`` that sets its slots
    through their descriptors (one ``frozen_value`` built so already is left as it is)."""
    if cls.__dict__.get("__init__") in QUICK_INITS:
        return cls  # (frozen_value wrote it so)
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: fast_init takes a frozen dataclass with slots")
    code = getattr(cls.__init__, "__code__", None)
    if not params.init or code is None or code.co_filename != "<string>":  # (one of its own)
        raise TypeError(f"{cls.__name__}: fast_init takes the __init__ dataclasses writes")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: fast_init cannot run __post_init__")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    for field in fields:
        if not field.init or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name}: fast_init takes plain fields only")
    WRITTEN[cls] = cls.__init__
    _put(cls, _quick_init(cls, fields, post_init=False))
    return cls


# the value dataclasses gives a parameter whose field has a default factory (in signatures too)
_FACTORY: Any = getattr(dataclasses, "_HAS_DEFAULT_FACTORY", dataclasses.MISSING)
# every __init__ this module wrote (``fast_init`` leaves a class with one of them alone)
QUICK_INITS: set[Any] = set()
_POST_INITS: set[Any] = set()  # those of them that end with ``__post_init__``


def _quick_init(cls: type, fields: tuple[dataclasses.Field[Any], ...], *, post_init: bool) -> Any:
    """The ``__init__`` dataclasses writes for the frozen, slotted ``cls`` with these fields
    (the same parameters, positional and keyword-only in the same order, the same defaults
    and default factories, a field left out of ``__init__`` set to its default, then
    ``__post_init__``), that sets each slot through its descriptor: the descriptor of the
    class's own slot, so a subclass that makes a field a slot or a property of its own again
    is not one to give it. Like dataclasses', it is compiled in the module of the class (its
    annotations resolve there), what it uses given as the names of a closure."""
    names: dict[str, Any] = {"__FACTORY": _FACTORY}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    annotations: tuple[dict[str, Any], dict[str, Any]] = ({}, {})  # (positional, keyword-only)
    own = {f.name for f in fields}
    this = "__dataclass_self__" if "self" in own else "self"  # (as dataclasses names it)
    _check_order(fields)
    for number, field in enumerate(fields):
        name = field.name
        default = _default_of(field, number, names, prefix="__")
        if field.init:
            value, parameter = name, name
            if field.default_factory is not dataclasses.MISSING:
                value = f"{default} if {name} is __FACTORY else {name}"
                parameter += "=__FACTORY"
            elif default is not None:
                parameter += f"={default}"
            (keyword if field.kw_only else positional).append(parameter)
            annotations[1 if field.kw_only else 0][name] = field.type
        elif default is not None:
            value = default
        else:
            continue  # (left unset, as dataclasses leaves it)
        names[f"__set_{number}"] = _slot(cls, name).__set__
        body.append(f"  __set_{number}({this}, {value})")
    if own & names.keys():
        raise TypeError(f"{cls.__name__}: a field is named as a name of its quick __init__")
    if post_init:
        body.append(f"  {this}.__post_init__()")
    parameters = ", ".join([this, *positional, *(["*", *keyword] if keyword else [])])
    source = (
        f"def __make__({', '.join(names)}):\n def __init__({parameters}):\n"
        + "\n".join(body or ["  pass"])
        + "\n return __init__"
    )
    made: dict[str, Any] = {}
    module = sys.modules.get(cls.__module__)  # (none: no globals, as with dataclasses)
    exec(source, module.__dict__ if module is not None else {}, made)
    written = made["__make__"](**names)
    written.__annotations__ = {**annotations[0], **annotations[1], "return": None}
    QUICK_INITS.add(written)
    if post_init:
        _POST_INITS.add(written)
    return written


def _default_of(
    field: dataclasses.Field[Any], number: int, names: dict[str, Any], *, prefix: str
) -> str | None:
    """The expression of the ``number``th field's default in a method written as source: its
    default factory called, or its default value (put in ``names``, the method's closure, as
    ``{prefix}factory_{number}`` or ``{prefix}default_{number}``); None if it has neither."""
    if field.default_factory is not dataclasses.MISSING:
        names[f"{prefix}factory_{number}"] = field.default_factory
        return f"{prefix}factory_{number}()"
    if field.default is not dataclasses.MISSING:
        names[f"{prefix}default_{number}"] = field.default
        return f"{prefix}default_{number}"
    return None


def _check_order(fields: tuple[dataclasses.Field[Any], ...]) -> None:
    """dataclasses' check of the positional parameters (made for a class's own ``__init__``
    too): none without a default after one with a default."""
    defaulted = False
    for field in fields:
        if field.init and not field.kw_only:
            if field.default is not dataclasses.MISSING or (
                field.default_factory is not dataclasses.MISSING
            ):
                defaulted = True
            elif defaulted:
                raise TypeError(f"non-default argument {field.name!r} follows default argument")


def _slot(cls: type, name: str) -> types.MemberDescriptorType:
    """The descriptor of the slot ``name`` (of ``cls`` or of the class it inherits it from)."""
    for klass in cls.__mro__:
        found = klass.__dict__.get(name)
        if isinstance(found, types.MemberDescriptorType):
            return found
    raise TypeError(f"{cls.__name__}.{name}: no slot of that name for its quick __init__")


# each class ``frozen_value`` built (tests hold their methods to those dataclasses writes)
FROZEN_VALUES: list[type] = []
_FROZEN_VALUE = dataclasses.dataclass(frozen=True, slots=True, kw_only=True, repr=False, eq=False)
_FROZEN_POSITIONAL = dataclasses.dataclass(frozen=True, slots=True, repr=False, eq=False)
# the same, its frozen methods and __init__ left to ``_freeze``
_THAWED_VALUE = dataclasses.dataclass(slots=True, kw_only=True, init=False, repr=False, eq=False)
_THAWED_POSITIONAL = dataclasses.dataclass(slots=True, init=False, repr=False, eq=False)
_INIT_VAR = getattr(dataclasses, "_FIELD_INITVAR", None)
_THAWED: set[type] = set()  # the classes built so, then frozen by ``_freeze``
_BUILDING = threading.RLock()  # (a build may run code that builds another: see _thawed)


@typing.dataclass_transform(
    frozen_default=True,
    kw_only_default=True,
    field_specifiers=(dataclasses.field, dataclasses.Field),
)
def frozen_value(cls: type[T] | None = None, /, *, kw_only: bool = True) -> Any:
    """``@dataclass(frozen=True, slots=True, kw_only=True)`` (``kw_only=False``: fields may be
    given by position too), with the same methods that dataclasses writes, made with as
    little compiled code as can be: dataclasses writes each method as source text and
    compiles it, the greater part of building a class (about 3.5 million instructions a
    class of four fields, where a pbp process builds some 350 at its start). Here
    ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__`` and the pickling
    pair are closures, and only ``__init__`` is compiled, one that sets each slot through its
    descriptor (as ``fast_init``'s do: a subclass that makes a field its own slot or property
    again is not one to give it). A class with a dataclass base that was not built so, or
    that dataclasses must see frozen as it builds it, gets dataclasses' own ``__init__``,
    ``__setattr__`` and ``__delattr__`` (``_thawable``), compiled. A method the class
    defines itself is kept, as dataclasses keeps it."""

    def wrap(cls: type[T]) -> type[T]:
        built: type[T]
        if _thawable(cls):
            documented, post_init = bool(cls.__doc__), hasattr(cls, "__post_init__")
            built = _thawed(cls, kw_only=kw_only)
            _freeze(built, cls, post_init=post_init, documented=documented)
            _THAWED.add(built)
        else:
            with _BUILDING:  # (not while a base built so says it is not frozen)
                built = (_FROZEN_VALUE if kw_only else _FROZEN_POSITIONAL)(cls)
        _add_methods(built)
        params = built.__dataclass_params__  # type: ignore[attr-defined]
        params.repr = params.eq = True  # (what it has, as dataclasses would say it)
        abc.update_abstractmethods(built)  # (as dataclasses does, once its methods are in)
        FROZEN_VALUES.append(built)
        return built

    return wrap if cls is None else wrap(cls)


def _thawable(cls: type) -> bool:
    """Whether ``cls`` can be built as a dataclass that is not frozen and then frozen by
    ``_freeze``: its dataclass bases, if any, were built so (``_thawed``); for a class that
    defines its own ``__setattr__`` or ``__delattr__`` dataclasses raises (its error is kept);
    a metaclass or a base's ``__init_subclass__`` would see the class before it is frozen; an
    ``InitVar`` is dataclasses' to pass (``_freeze`` refuses one this misses)."""
    bases = cls.__mro__[1:-1]
    annotations = inspect.get_annotations(cls).values()
    return (
        type(cls) is type
        and not any(_init_var(a) for a in annotations)
        and not any("__dataclass_fields__" in b.__dict__ and b not in _THAWED for b in bases)
        and not (any(b in _THAWED for b in bases) and _names_itself(cls))
        and not any("__init_subclass__" in b.__dict__ for b in bases)
        and not ("__setattr__" in cls.__dict__ or "__delattr__" in cls.__dict__)
    )


def _thawed(cls: type, *, kw_only: bool) -> type:
    """``cls`` made a slotted dataclass that is not frozen (nor has an ``__init__``, a
    ``__repr__`` or an ``__eq__``). dataclasses builds no such class on a frozen base, so the
    bases built so (``_THAWED``, all of its dataclass bases) say they are not frozen while it is
    built, under a lock that every ``frozen_value`` build takes. A plain dataclass built on
    one of them in another thread at that moment would be refused (pbp builds its classes as
    its modules are imported, and on them only frozen values); so would one built by what
    the build itself runs, which ``_thawable`` keeps out (a ``__set_name__`` of the class's
    attributes, run again when dataclasses makes the class anew with its slots)."""
    bases = [b for b in cls.__mro__[1:] if b in _THAWED]
    with _BUILDING:
        for base in bases:
            base.__dataclass_params__.frozen = False  # type: ignore[attr-defined]
        try:
            built: type = (_THAWED_VALUE if kw_only else _THAWED_POSITIONAL)(cls)
        finally:
            for base in bases:
                base.__dataclass_params__.frozen = True  # type: ignore[attr-defined]
    return built


def _names_itself(cls: type) -> bool:
    """Whether an attribute of ``cls`` (or a field's default) runs code as the class is made:
    ``__set_name__``."""
    for value in cls.__dict__.values():
        if isinstance(value, dataclasses.Field):
            value = value.default
        if hasattr(type(value), "__set_name__"):
            return True
    return False


def _init_var(annotation: Any) -> bool:
    """Whether an annotation may be an ``InitVar`` (as written, or as text)."""
    if isinstance(annotation, str):
        return "InitVar" in annotation
    return annotation is dataclasses.InitVar or isinstance(annotation, dataclasses.InitVar)


def _freeze(built: type, original: type, *, post_init: bool, documented: bool) -> None:
    """Make ``built`` (``original`` made a slotted dataclass that is not frozen, with no
    ``__init__``) what the frozen dataclass is: its ``__init__``, the ``__setattr__`` and
    ``__delattr__`` that refuse its fields, the ``__getstate__`` and ``__setstate__`` that
    pickle it, the docstring of a class that has none, and its parameters saying so."""
    fields = dataclasses.fields(built)
    if any(f._field_type is _INIT_VAR for f in built.__dataclass_fields__.values()):  # type: ignore[attr-defined]
        raise TypeError(f"{built.__name__}: frozen_value takes no InitVar fields")
    own = dict(built.__dict__)
    if "__init__" not in own:  # (one it defines itself is kept, the order still checked)
        _put(built, _quick_init(built, fields, post_init=post_init))
    else:
        _check_order(fields)
    names = tuple(f.name for f in fields)
    before: type = original  # (the class these name, as dataclasses': the one before slots)

    # as dataclasses writes them
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is before or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(before, self).__setattr__(name, value)  # type: ignore[arg-type]

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is before or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(before, self).__delattr__(name)  # type: ignore[arg-type]

    _put(built, __setattr__)
    _put(built, __delattr__)
    for name, method in (("__getstate__", _getstate), ("__setstate__", _setstate)):
        if name not in own:
            setattr(built, name, method)
    if not documented:  # dataclasses' docstring: the class's signature
        try:
            signature = str(inspect.signature(built)).replace(" -> None", "")
        except (TypeError, ValueError):
            signature = ""
        built.__doc__ = built.__name__ + signature
    params = built.__dataclass_params__  # type: ignore[attr-defined]
    params.init = params.frozen = True


def _getstate(self: Any) -> list[Any]:
    """dataclasses' ``__getstate__`` of a frozen, slotted class: its fields' values (those of
    the object's own class, a subclass's too). A thread's snapshot pickles thousands of
    them: each class's fields are looked up once (``_pickled``), not at every object."""
    return _pickled(self.__class__)[1](self)


def _setstate(self: Any, state: list[Any]) -> None:
    """dataclasses' ``__setstate__`` of a frozen, slotted class."""
    for name, value in zip(_pickled(self.__class__)[0], state, strict=False):  # (as dataclasses')
        object.__setattr__(self, name, value)


# for each class pickled: its fields' names, in order, and what reads their values as a list
# (a class's fields are fixed once it is built)
_PICKLED: dict[type, tuple[tuple[str, ...], Callable[[Any], list[Any]]]] = {}


def _pickled(cls: type) -> tuple[tuple[str, ...], Callable[[Any], list[Any]]]:
    found = _PICKLED.get(cls)
    if found is None:
        names = tuple(f.name for f in dataclasses.fields(cls))
        values = _tuple_of(names)
        found = _PICKLED[cls] = (names, lambda obj: list(values(obj)))
    return found


def _add_methods(cls: type) -> None:
    """The ``__repr__``, ``__eq__`` and ``__hash__`` of a frozen dataclass with ``eq`` and
    ``repr``, as dataclasses decides and writes them, on ``cls`` (built without them)."""
    own = dict(cls.__dict__)  # (as written: the methods added below are not its own)
    fields = dataclasses.fields(cls)
    if "__repr__" not in own:
        _put(cls, _repr_of(tuple(f.name for f in fields if f.repr)))
    compared = _tuple_of(tuple(f.name for f in fields if f.compare))
    if "__eq__" not in own:

        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is self.__class__:
                return compared(self) == compared(other)
            return NotImplemented

        _put(cls, __eq__)
    # dataclasses' rule: a class that defines no __hash__ of its own (Python sets it to None
    # for a class that defines __eq__) hashes its fields, as a frozen class that compares
    explicit = own.get("__hash__", dataclasses.MISSING)
    if explicit is dataclasses.MISSING or (explicit is None and "__eq__" in own):
        hashed = _tuple_of(
            tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
        )

        def __hash__(self: Any) -> int:
            return hash(hashed(self))

        _put(cls, __hash__)


def _put(cls: type, method: Any) -> None:
    """``method`` on ``cls`` under its name, named as a method of the class written there."""
    method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
    method.__module__ = cls.__module__
    setattr(cls, method.__name__, method)


def _tuple_of(names: tuple[str, ...]) -> Any:
    """The values of the fields ``names`` of an object, as a tuple (for one field too)."""
    if len(names) >= 2:
        return operator.attrgetter(*names)
    if len(names) == 1:
        get = operator.attrgetter(names[0])
        return lambda obj: (get(obj),)
    return lambda obj: ()


def _repr_of(names: tuple[str, ...]) -> Any:
    """dataclasses' ``__repr__``: ``Name(a=1, b='x')``, and ``...`` for an object within its
    own repr (in the same thread)."""
    running: set[tuple[int, int]] = set()
    getters = tuple((f"{name}=", operator.attrgetter(name)) for name in names)

    def __repr__(self: Any) -> str:
        key = id(self), _thread.get_ident()
        if key in running:
            return "..."
        running.add(key)
        try:
            inside = ", ".join(label + repr(get(self)) for label, get in getters)
        finally:
            running.discard(key)
        return f"{self.__class__.__qualname__}({inside})"

    return __repr__


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace``: a new object of ``obj``'s class, made through its
    ``__init__`` (and ``__post_init__``) from its fields and ``changes``, for about half the
    cost: the engine makes several new values from old ones for every post it reads, where
    ``dataclasses.replace`` looks at every field of the class at every call. Here a function
    written once per class does it: for a class with a quick ``__init__`` of this module's,
    what that ``__init__`` does (each slot set through its descriptor, then
    ``__post_init__``), else a call of its ``__init__`` with each field by name. Anything
    that would not take (a field left out of ``__init__``, a name that is no field) goes to
    ``dataclasses.replace``, which says what is wrong as it would have."""
    cls = obj.__class__
    made = _REPLACERS.get(cls)
    if made is None:
        made = _REPLACERS[cls] = _replacer(cls)
    names, replacer = made
    if not changes.keys() <= names:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    return replacer(obj, changes)  # type: ignore[no-any-return]


# for each class ``replace`` took: the names of its fields that __init__ takes, and the
# function that makes a new one from an old one and changes among those
_REPLACERS: dict[type, tuple[frozenset[str], Any]] = {}


def _replacer(cls: type) -> tuple[frozenset[str], Any]:
    kinds = getattr(cls, "__dataclass_fields__", {}).values()
    if not dataclasses.is_dataclass(cls) or any(f._field_type is _INIT_VAR for f in kinds):
        # (dataclasses refuses what is not one, and passes an InitVar its own way)
        return frozenset(), lambda old, changes: dataclasses.replace(old, **changes)
    fields = dataclasses.fields(cls)
    names = frozenset(f.name for f in fields if f.init)
    if cls.__init__ not in QUICK_INITS:
        passed = ", ".join(f"{n}=changes.get({n!r}, old.{n})" for n in sorted(names))
        source = f"def replace(old, changes):\n return cls({passed})\n"
        made: dict[str, Any] = {}
        exec(source, {"cls": cls}, made)
        return names, made["replace"]
    # one of this module's: what it does, done here (each slot set through its descriptor)
    given: dict[str, Any] = {"cls": cls, "new": object.__new__}
    body = ["def replace(old, changes):", " made = new(cls)"]
    for number, field in enumerate(fields):
        if field.init:
            value: str | None = f"changes.get({field.name!r}, old.{field.name})"
        else:
            value = _default_of(field, number, given, prefix="")
            if value is None:
                continue  # (left unset, as its __init__ leaves it)
        given[f"set_{number}"] = _slot(cls, field.name).__set__
        body.append(f" set_{number}(made, {value})")
    if cls.__init__ in _POST_INITS:
        body.append(" made.__post_init__()")
    body.append(" return made")
    made = {}
    exec("\n".join(body) + "\n", given, made)
    return names, made["replace"]
