"""Problem replies: each problem type has a template ``problems/<code>.md.j2``."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import weakref
from collections.abc import Sequence
from typing import Any

import jinja2
import jinja2.runtime

from pbp.errors import Problem
from pbp.render.disclosure import NOTHING_HIDDEN, Hidden, blanked
from pbp.render.environment import look_of
from pbp.tags.model import SceneKind
from pbp.tags.registry import COMMON_VERBS, SCENE_VERBS
from pbp.values import frozen_value

SEPARATOR = "\n\n-----\n\n"  # a thematic break between the problems of one reply


@frozen_value
class Examples:
    """What the examples of a problem reply are written with: the scene's own tag syntax and
    real names of it. ``target`` and ``other`` are characters to act on (foes first, never
    the author's own), ``ally`` a player character not the author's, ``own`` the author's,
    ``task`` and ``feature`` the scene's ("" when it has none), ``talent`` an active one of
    the author's (else of anyone's); ``verbs`` are the scene's. The defaults serve `pbp parse`
    without a campaign.
    Every name is safe inside a code span (no backtick)."""

    scene: str = "distat"
    verbs: tuple[str, ...] = tuple(sorted(SCENE_VERBS[SceneKind.DISTAT] | COMMON_VERBS))
    target: str = "Goblin"
    other: str = "Ogre"
    ally: str = "Aria"
    own: str = "Bram"
    task: str = "Breach the gate"
    feature: str = "Door"
    talent: str = "TALENT"
    names: tuple[str, ...] = ("Aria", "Bram", "Goblin", "Ogre")
    npcs: tuple[str, ...] = ("Goblin", "Ogre")
    mine: tuple[str, ...] = ("Bram",)

    @staticmethod
    def named(
        *,
        scene: str,
        target: str,
        other: str,
        ally: str,
        own: str,
        task: str,
        feature: str,
        talent: str,
        names: tuple[str, ...] = (),
        npcs: tuple[str, ...] = (),
        mine: tuple[str, ...] = (),
    ) -> Examples:
        """Examples with these names, made safe for code spans."""

        def safe(name: str) -> str:
            return name.replace("`", "'")

        return Examples(
            scene=scene,
            verbs=scene_verbs(scene),
            target=safe(target),
            other=safe(other),
            ally=safe(ally),
            own=safe(own),
            task=safe(task),
            feature=safe(feature),
            talent=safe(talent),
            names=tuple(safe(n) for n in names),
            npcs=tuple(safe(n) for n in npcs),
            mine=tuple(safe(n) for n in mine),
        )


@functools.cache  # one entry per scene kind
def scene_verbs(scene: str) -> tuple[str, ...]:
    """The tag words of a scene kind, in order: those of its own rules and the common ones."""
    return tuple(sorted(SCENE_VERBS[SceneKind(scene)] | COMMON_VERBS))


def render_problem(
    problem: Problem,
    *,
    env: jinja2.Environment,
    examples: Examples | None = None,
    hidden: Hidden = NOTHING_HIDDEN,
) -> str:
    """One problem in words: ``problems/{code}.md.j2`` with the problem's fields as variables
    and ``ex``, what its examples are written with. ``hidden``: the NPCs whose numbers the
    words leave out (SPEC §4.5), which its template then writes without them.

    Generic on purpose: any ``Problem`` subclass with a template renders, so the engine adds
    its own problems by adding templates.
    """
    template = env.get_template(f"problems/{problem.code}.md.j2")
    # the fields left out: the problem's own, and those of the rule it cites
    blank = (hidden.numbers_of(problem), hidden.numbers_of(getattr(problem, "violation", None)))
    return _RENDERED.words(template, problem, examples or Examples(), blank)


Blank = tuple[tuple[str, ...], tuple[str, ...]]
_MISSING = object()  # a field an example's template asked for and ``Examples`` has not


class _Reads:
    """``Examples`` as a template sees them, noting which fields it read and their values.

    A render that read these fields and no more gives the same words for any examples with
    the same values in them (a template is a pure function of what it reads): the reply, the
    summary's refusal line and the ledger's entry of one problem are written with different
    examples, and most problems' words read none of them. Anything else done with the whole
    value (printed, compared, iterated) counts as having read all of it."""

    __slots__ = ("_pbp_examples", "_pbp_read", "_pbp_whole")  # (no field of Examples)

    def __init__(self, examples: Examples) -> None:
        self._pbp_examples = examples
        self._pbp_read: dict[str, object] = {}
        self._pbp_whole = False

    def __getattr__(self, name: str) -> object:
        value = getattr(self._pbp_examples, name, _MISSING)
        self._pbp_read.setdefault(name, value)
        if value is _MISSING:
            raise AttributeError(name)
        return value

    def _all(self) -> Examples:
        self._pbp_whole = True
        return self._pbp_examples

    def __str__(self) -> str:
        return str(self._all())

    def __repr__(self) -> str:
        return repr(self._all())

    def __eq__(self, other: object) -> bool:
        return self._all() == other

    def __hash__(self) -> int:
        return hash(self._all())

    def __iter__(self) -> Any:
        whole: Any = self._all()
        return iter(whole)  # (raises, as Examples does)

    def __getitem__(self, key: object) -> Any:
        whole: Any = self._all()
        return whole[key]  # (raises, as Examples does)


# the template the words were written with (weakly); for each set of the problem's fields a
# render of it looked up (their names), those fields' values -> each such render's reads of the
# examples and its words
_Words = list[tuple[tuple[tuple[str, object], ...], str]]
_Renders = tuple[
    "weakref.ref[jinja2.Template]", dict[tuple[str, ...], dict[tuple[object, ...], _Words]]
]


class _Rendered:
    """Problems' words already written: for each template, kind of problem and blanked fields,
    the words of each render, with the values of the problem's fields it looked up and of the
    examples' fields it read (``_Reads``). A template is a pure function of what it reads, so
    any problem with the same values in those fields gets the same words: a problem's place in
    its post (its line and column), which no built-in template writes, tells no two renders
    apart. What a render looks up is what its context notes (``_LookingContext``); a template
    that includes another, or imports one with its context, counts as reading every field, and
    so does any render in an environment with a context or async rendering of its own.
    Bounded: the oldest key is forgotten past ``most``, of one key's renders the oldest past
    ``most_each``, and past ``most_words`` words kept in all, the oldest quarter of the keys
    (a thread repeats its mistakes, soon)."""

    def __init__(self, most: int = 1024, most_each: int = 256, most_words: int = 8192) -> None:
        self._most = most
        self._most_each = most_each
        self._most_words = most_words
        self._seen: dict[tuple[object, ...], _Renders] = {}
        self._words = 0  # the words kept, about (counted again at each shrink)

    def words(
        self, template: jinja2.Template, problem: Problem, examples: Examples, blank: Blank
    ) -> str:
        # a template reloaded is another object; one it includes may have changed since the
        # last look (a GM's override of ``slots/_action.md.j2``): the look is in the key. The
        # template is not: a template replaced is let go, with its environment (its id, and
        # the template itself weakly, tell the one the words were written with)
        key = (id(template), look_of(template.environment), type(problem), problem.code, blank)
        kept = self._seen.get(key)
        by_names = kept[1] if kept is not None and kept[0]() is template else None
        for names, by_values in tuple((by_names or {}).items()):  # (another thread may add)
            try:
                renders = by_values.get(tuple(getattr(problem, name) for name in names))
            except TypeError:  # a value that cannot be hashed
                continue
            for read, words in renders or ():
                if all(getattr(examples, name, _MISSING) == value for name, value in read):
                    return words
        seen = _Reads(examples)
        looked: set[str] = set()
        words = _render(template, problem, seen, blank, looked=looked)  # type: ignore[arg-type]
        if seen._pbp_whole:
            return words
        fields = [field.name for field in dataclasses.fields(problem)]
        names = tuple(name for name in fields if name in looked)
        values = tuple(getattr(problem, name) for name in names)
        try:
            hash(values)
        except TypeError:  # a field that cannot be hashed: rendered each time
            return words
        if by_names is None:
            if key not in self._seen and len(self._seen) >= self._most:
                _forget_oldest(self._seen)
            by_names = {}
            self._seen[key] = (weakref.ref(template), by_names)
        by_values = by_names.setdefault(names, {})
        renders = by_values.get(values)
        if renders is None:
            if len(by_values) >= self._most_each:
                _forget_oldest(by_values)
            renders = by_values[values] = []
        if len(renders) < 8:  # (examples that differ in what it reads: a few kept)
            renders.append((tuple(seen._pbp_read.items()), words))
            self._words += 1
            if self._words > self._most_words:
                self._shrink()
        return words

    def _shrink(self) -> None:
        """The oldest quarter of the keys forgotten, and the words kept counted again (what
        other threads kept or forgot meanwhile included: the count never drifts far)."""
        for key in list(self._seen)[: max(1, len(self._seen) // 4)]:  # (a copy made at once)
            self._seen.pop(key, None)
        self._words = sum(
            len(renders)
            for _template, by_names in list(self._seen.values())
            for by_values in list(by_names.values())
            for renders in list(by_values.values())
        )


def _forget_oldest(kept: dict[Any, Any]) -> None:
    """The oldest entry of ``kept`` taken out, unless another thread changed it meanwhile
    (then that thread's change stands: the bound is a soft one)."""
    with contextlib.suppress(RuntimeError, StopIteration):  # (changed as read, or emptied)
        kept.pop(next(iter(kept)), None)


_RENDERED = _Rendered()


class _LookingContext(jinja2.runtime.Context):
    """Jinja's context of one render, noting each name the template looks up in ``looked``
    (Jinja's own hook for a lookup of one's own). Every context made from it (an include, an
    import with its context) is given all of its variables (``get_all``): that counts as
    having looked up every one of them."""

    looked: set[str]

    def resolve_or_missing(self, key: str) -> Any:
        self.looked.add(key)
        return super().resolve_or_missing(key)

    def get_all(self) -> dict[str, Any]:
        every = super().get_all()
        self.looked.update(every)
        return every


def _render(
    template: jinja2.Template,
    problem: Problem,
    examples: Examples,
    blank: Blank = ((), ()),
    *,
    looked: set[str] | None = None,
) -> str:
    """The problem's words; ``looked``: the names the render looked up are added to it (every
    name, where the environment has a context or async rendering of its own: Jinja's plain
    context is the one known)."""
    fields = {field.name: getattr(problem, field.name) for field in dataclasses.fields(problem)}
    cause = getattr(type(problem), "cause", None)
    if isinstance(cause, str) and cause:  # a typed refusal: its cause names its template
        fields["cause"] = cause
    own, cited = blank
    fields.update(dict.fromkeys(own))
    if cited:  # a rule problem: the violation it cites, without the NPC's numbers
        fields["violation"] = blanked(fields["violation"], cited)
    variables = {"code": problem.code, "ex": examples, **fields}
    env = template.environment
    if looked is None or env.context_class is not jinja2.runtime.Context or env.is_async:
        if looked is not None:
            looked.update(variables)
        return template.render(variables).strip()
    # what ``Template.render`` does, in a context that notes what the template looks up
    context = _LookingContext(
        env, {**(template.globals or {}), **variables}, template.name, template.blocks,
        globals=template.globals,
    )  # fmt: skip
    context.looked = looked
    try:
        return env.concat(template.root_render_func(context)).strip()
    except Exception:
        env.handle_exception()
        raise  # (handle_exception raises it, with the template's lines in its traceback)


def render_problem_reply(
    problems: Sequence[Problem],
    *,
    env: jinja2.Environment,
    examples: Examples | None = None,
    hidden: Hidden = NOTHING_HIDDEN,
) -> str:
    """One reply listing every problem of a post, in post order (``hidden``: whose numbers
    it leaves out)."""
    return (
        SEPARATOR.join(
            render_problem(problem, env=env, examples=examples, hidden=hidden)
            for problem in problems
        )
        + "\n"
    )
