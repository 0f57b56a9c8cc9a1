"""Typed tags: what one bracketed instruction in a post means (SPEC §2.1 to §2.4).

Here are what every tag kind shares (``Source``), the tags every scene reads (``[pass]``,
``[roll]``) and the scene kinds; each ruleset's own tag kinds are in its tag grammar,
``pbp/rulesets/<name>/tags.py``, and ``pbp.tags.registry.Tag`` is what every kind is.

Every tag carries ``source`` (where it stood and how it was written) and ``as_name`` (the
``as NAME`` option, resolved to a roster name, or None). Names in tags are resolved against the
scene's names while parsing (exact, then unique prefix), so a tag that exists holds canonical
names only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from pbp.values import frozen_value


@frozen_value
class Source:
    """Where a tag or command stood in its post and how it was written.

    ``index`` counts the tags of the post from 0 (a split is one tag; commands count their own
    lines from 0): it is the tag's part of the dice key (SPEC §6).
    """

    index: int
    line: int
    column: int
    text: str


@frozen_value
class PassTag:
    """``[pass]``: the character is done for the round."""

    source: Source
    as_name: str | None = None


@frozen_value
class RollTag:
    """``[roll: 2d6+3]``: generic dice; ``expression`` is checked notation."""

    source: Source
    expression: str
    as_name: str | None = None


class _Kinds(type):
    """Iterating ``SceneKind`` gives every kind: the built-in ones in their order, then each
    other plugin's (``pbp.rulesets``)."""

    def __iter__(cls) -> Iterator[SceneKind]:
        from pbp.rulesets import plugins

        every = [*_MEMBERS.values()]
        every += [SceneKind(k) for p in plugins() for k in p.kinds if k not in _MEMBERS]
        return iter(every)


class SceneKind(str, metaclass=_Kinds):
    """What a thread is running now (SPEC §1); it fixes which verbs exist. A kind is one some
    ruleset's plugin runs (``SceneKind("coin")`` for a plugin's own); each kind is one object,
    so ``is`` compares them, and a snapshot's kinds unpickle to the same objects."""

    __slots__ = ()

    DISTAT: ClassVar[SceneKind]
    ABSTRACT: ClassVar[SceneKind]
    D20: ClassVar[SceneKind]
    SKIRMISH: ClassVar[SceneKind]
    BATTLE: ClassVar[SceneKind]

    def __new__(cls, value: str) -> SceneKind:
        found = _MEMBERS.get(value)
        if found is not None:
            return found
        from pbp.rulesets import plugins

        if not isinstance(value, str) or not any(value in p.kinds for p in plugins()):
            raise ValueError(f"{value!r} is not a valid SceneKind")
        found = _MEMBERS[value] = str.__new__(cls, value)
        return found

    @property
    def value(self) -> str:
        """The kind as written: ``distat``."""
        return str(self)

    def __repr__(self) -> str:
        return f"<SceneKind.{self.upper()}: {str(self)!r}>"

    def __reduce__(self) -> tuple[type[SceneKind], tuple[str]]:
        return SceneKind, (str(self),)  # unpickled through __new__: the one object of its kind


_MEMBERS: dict[str, SceneKind] = {}
for _name in ("distat", "abstract", "d20", "skirmish", "battle"):  # the built-in kinds, in order
    _MEMBERS[_name] = str.__new__(SceneKind, _name)
    setattr(SceneKind, _name.upper(), _MEMBERS[_name])


# Words a name may not be on its own (the campaign loader refuses them), and characters a name
# may not contain: they would make tags ambiguous (SPEC §2).
RESERVED_WORDS: frozenset[str] = frozenset(
    {
        # verbs and aliases
        "move", "physical", "mental", "identify", "pass", "roll", "abstract", "reaction",
        "check", "attack", "aid", "compare", "effect", "cast", "act", "p", "m",
        # maneuver words
        "restrain", "escape", "feat", "use", "on", "with", "vs",
        # option words
        "bonus", "as", "body", "mind", "away", "bailiwick", "other", "spend", "all", "bank",
        "auto", "take", "tools", "none", "improvised", "pool", "adv", "dis", "heal", "spell",
        "react",
    }
)  # fmt: skip
NAME_FORBIDDEN_CHARS: frozenset[str] = frozenset("[]|,;:/")
