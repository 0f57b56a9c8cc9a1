"""A built statement run as the driver's own SQL, compiled once.

``Connection.execute`` compiles nothing twice (SQLAlchemy caches the compiled form), yet it
still builds an execution context around every statement: the parameters gathered and turned
to the driver's types, the cursor wrapped, the result made. On SQLite that costs seven times
what the statement does. The store's hot statements are few and fixed (each is built once, at
first use), so here each is compiled once per database dialect and shape of parameters into a
``Plan``: the SQL text, where each parameter comes from, and the type conversions of SQLAlchemy's
own types, both ways. Running one is then a cursor call and those conversions, nothing more.

What it keeps of SQLAlchemy: the statement is SQLAlchemy's, compiled by SQLAlchemy for the
dialect; the types' conversions are SQLAlchemy's (UtcDateTime's, SQLite's text dates); the
connection and its transaction are the caller's; the engine's ``before_cursor_execute`` and
``after_cursor_execute`` listeners are called as ``Connection.execute`` would call them; a
driver error is SQLAlchemy's error (``IntegrityError``, ``OperationalError``), raised through
the connection's own handler, which also marks a lost connection invalid.

A statement this cannot plan (a default computed in Python, a parameter that is neither given
nor fixed in the statement, an IN list given to an executemany or left empty) runs through
``Connection.execute`` as before.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import NoResultFound

Params = Mapping[str, Any]
Processor = Callable[[Any], Any] | None


@dataclass(slots=True)
class Plan:
    """One statement compiled for one dialect and one set of parameter names."""

    sql: str
    #: each parameter the SQL takes, in its order: (its name in the SQL, its key in the
    #: parameters given or None, its value fixed in the statement when the key is None, the
    #: conversion to the driver's type or None)
    slots: tuple[tuple[str, str | None, Any, Processor], ...]
    names: tuple[str, ...]  # the slots' names in the SQL
    positional: bool
    #: the result's column names and types (empty: the statement returns no rows)
    columns: tuple[str, ...] = ()
    column_types: tuple[Any, ...] = ()
    #: the conversions of the result's columns, set at the first result (they may depend on
    #: the driver's description of the columns)
    converters: tuple[Processor, ...] | None = None
    row_type: Any = None
    dialect: Dialect | None = field(default=None, repr=False)
    #: the parameters that are lists (``x IN (…)``): the SQL has a token for each, made into
    #: one placeholder per item when the statement runs
    expanding: frozenset[str] = frozenset()
    #: the SQL made for each count of items of the lists, in their order (a few kept)
    spread: dict[tuple[int, ...], str] = field(default_factory=dict, repr=False, compare=False)

    def has_empty_list(self, given: Params) -> bool:
        """Whether a list parameter of ``given`` (or of the statement) has no item."""
        return any(
            not (given[key] if key is not None else value)
            for name, key, value, _ in self.slots
            if name in self.expanding
        )

    def expanded(self, given: Params) -> tuple[str, Any]:
        """The SQL and the driver's parameters for ``given``, each list parameter spread over
        as many placeholders as it has items."""
        flat: list[Any] = []
        named: dict[str, Any] = {}
        counts = []
        for (name, *_), value in zip(self.slots, self._values(given), strict=True):
            if name not in self.expanding:
                flat.append(value)
                named[name] = value
                continue
            flat.extend(value)
            counts.append(len(value))
            if not self.positional:
                named.update((f"{name}_{i}", v) for i, v in enumerate(value, 1))
        shape = tuple(counts)
        sql = self.spread.get(shape)
        if sql is None:
            sql = self._spread(shape)
        return sql, tuple(flat) if self.positional else named

    def _spread(self, counts: tuple[int, ...]) -> str:
        """The SQL with its lists of these counts of items (kept for the next time)."""
        sql = self.sql
        lists = (name for name, *_ in self.slots if name in self.expanding)
        for name, count in zip(lists, counts, strict=True):
            if self.positional:
                marks = ", ".join("?" * count)
            else:
                marks = ", ".join(f"%({name}_{i})s" for i in range(1, count + 1))
            sql = sql.replace(f"__[POSTCOMPILE_{name}]", marks)
        if len(self.spread) >= MOST_SPREADS:  # (lists of ever new lengths: the oldest go)
            with suppress(RuntimeError, StopIteration):  # (another thread changed it meanwhile)
                self.spread.pop(next(iter(self.spread)), None)
        self.spread[counts] = sql
        return sql

    def parameters(self, given: Params) -> Any:
        """The driver's parameters for one row of ``given``."""
        values = self._values(given)
        if self.positional:
            return tuple(values)
        return dict(zip(self.names, values, strict=True))

    def _values(self, given: Params) -> list[Any]:
        """Each slot's value for ``given``, converted to the driver's type (a list parameter's
        items each)."""
        values = []
        for name, key, value, convert in self.slots:
            if key is not None:
                value = given[key]
            if convert is not None:
                value = [convert(v) for v in value] if name in self.expanding else convert(value)
            values.append(value)
        return values

    def rows(self, raw: list[Any], cursor: Any) -> list[Any]:
        """The driver's rows as named tuples of Python values (``cursor``: the one that read
        them, whose description gives the columns' types the first time)."""
        if self.converters is None:
            assert self.dialect is not None
            description = cursor.description
            codes = [d[1] for d in description] if description else [None] * len(self.columns)
            self.converters = tuple(
                kind._cached_result_processor(self.dialect, code)
                for kind, code in zip(self.column_types, codes, strict=True)
            )
        make = self.row_type._make
        converters = self.converters
        if not any(converters):
            return [make(r) for r in raw]
        return [
            make([v if c is None else c(v) for v, c in zip(r, converters, strict=True)])
            for r in raw
        ]


class Rows:
    """What a planned statement answered: its rows (named tuples), and how many it changed.

    The part of SQLAlchemy's ``Result`` the store uses."""

    __slots__ = ("_rows", "rowcount")

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    def __iter__(self) -> Iterator[Any]:
        return iter(self._rows)

    def all(self) -> list[Any]:
        return list(self._rows)

    def first(self) -> Any:
        return self._rows[0] if self._rows else None

    def one(self) -> Any:
        if len(self._rows) != 1:
            raise NoResultFound(f"expected one row, the statement answered {len(self._rows)}")
        return self._rows[0]

    def scalar(self) -> Any:
        return self._rows[0][0] if self._rows else None

    def scalars(self) -> list[Any]:
        return [r[0] for r in self._rows]


def plan(statement: Any, dialect: Dialect, keys: Sequence[str], *, many: bool) -> Plan | None:
    """``statement`` compiled for ``dialect`` with parameters named ``keys`` (None: it needs
    what only ``Connection.execute`` does)."""
    compiled: Any = statement.compile(
        dialect=dialect, column_keys=sorted(keys), for_executemany=many
    )
    expanding = frozenset(compiled.bind_names[b] for b in compiled.post_compile_params)
    if (
        compiled.literal_execute_params
        or compiled.update_prefetch
        or compiled.schema_translate_map
        or (many and (compiled._insertmanyvalues or expanding))  # (done by SQLAlchemy)
        or "~~" in compiled.string  # an IN list whose items take an SQL expression
        or (expanding and dialect.paramstyle not in ("qmark", "pyformat"))
    ):
        return None
    given = set(keys)
    prefetch = {c.key: c for c in compiled.insert_prefetch}
    sources: dict[str, tuple[str | None, Any]] = {}
    for bind, name in compiled.bind_names.items():
        if bind.key in given:
            sources[name] = (bind.key, None)
        elif name in given:
            sources[name] = (name, None)
        elif name in prefetch:  # a column left out: its default, if a plain value
            default = prefetch[name].default
            if default is None or not default.is_scalar:
                return None
            sources[name] = (None, default.arg)
        elif bind.required or bind.callable:
            return None
        else:
            sources[name] = (None, bind.value)
    processors = compiled._bind_processors
    escaped = compiled.escaped_bind_names
    order = compiled.positiontup if compiled.positional else list(sources)
    slots = tuple((escaped.get(name, name), *sources[name], processors.get(name)) for name in order)
    result = compiled._result_columns
    names = tuple(c[0] for c in result)
    return Plan(
        sql=compiled.string,
        slots=slots,
        names=tuple(slot[0] for slot in slots),
        positional=bool(compiled.positional),
        columns=names,
        column_types=tuple(c[3] for c in result),
        row_type=namedtuple("Row", names, rename=True) if names else None,
        dialect=dialect,
        expanding=expanding,
    )


MOST_PLANS = 500  # the store has under a hundred statements and shapes
MOST_SPREADS = 32  # SQL texts kept per statement with lists, one per count of their items
_plans: dict[tuple[int, str, tuple[str, ...], bool], tuple[Any, Plan | None]] = {}


def _plan_for(statement: Any, dialect: Dialect, keys: tuple[str, ...], many: bool) -> Plan | None:
    key = (id(statement), f"{dialect.name}+{dialect.driver}", keys, many)
    found = _plans.get(key)
    if found is None or found[0] is not statement:  # (the statement kept: its id stays its)
        if len(_plans) >= MOST_PLANS:  # a statement built anew at each call: planned anew
            _plans.clear()
        found = _plans[key] = (statement, plan(statement, dialect, keys, many=many))
    return found[1]


def execute(
    conn: Connection, statement: Any, params: Params | Sequence[Params] | None = None
) -> Rows:
    """Run ``statement`` on ``conn`` in its transaction: its plan if it has one, else as
    ``conn.execute`` does."""
    rows_given: Sequence[Params] = params if isinstance(params, list | tuple) else [params or {}]  # type: ignore[list-item]
    many = len(rows_given) > 1
    found = _plan_for(statement, conn.dialect, tuple(rows_given[0]), many) if rows_given else None
    if found is None or (found.expanding and found.has_empty_list(rows_given[0])):
        # (an empty IN list is SQLAlchemy's own "empty set" expression)
        result = conn.execute(statement, params)
        return Rows(list(result) if result.returns_rows else [], result.rowcount)
    sql = found.sql
    try:
        if found.expanding:
            sql, driver_params = found.expanded(rows_given[0])
        elif many:
            driver_params = [found.parameters(r) for r in rows_given]
        else:
            driver_params = found.parameters(rows_given[0])
    except Exception as exc:  # a value its type refuses: SQLAlchemy's StatementError
        conn._handle_dbapi_exception(exc, sql, params, None, None)
    return _send(conn, found, sql, driver_params, many)


def _send(conn: Connection, found: Plan, sql: str, driver_params: Any, many: bool) -> Rows:
    fairy: Any = conn.connection  # in the caller's transaction (begun if need be)
    cursor = fairy.cursor()
    events = conn._has_events or conn.engine._has_events
    before = events and conn.dispatch.before_cursor_execute  # (empty but for counting tests)
    after = events and conn.dispatch.after_cursor_execute
    try:
        if before:
            for listener in before:
                sql, driver_params = listener(conn, cursor, sql, driver_params, None, many)
        if many:
            cursor.executemany(sql, driver_params)
        else:
            cursor.execute(sql, driver_params)
        if after:
            for listener in after:
                listener(conn, cursor, sql, driver_params, None, many)
        # only a statement with columns answers rows: psycopg makes its description anew
        # each time it is asked (an object per column), so it is asked once, for the types;
        # but after an executemany, where a driver may keep no rows (psycopg keeps none)
        answers = bool(found.columns) and (not many or cursor.description is not None)
        done = Rows(found.rows(cursor.fetchall(), cursor) if answers else [], cursor.rowcount)
    except conn.dialect.loaded_dbapi.Error as exc:
        conn._handle_dbapi_exception(exc, sql, driver_params, cursor, None)
    finally:
        cursor.close()
    return done
