"""What can be wrong with a tag or a post (SPEC §2): typed values, one template each.

Each problem carries facts, not sentences; ``templates/problems/<code>.md.j2`` words it.
``tag`` is the tag as written (after normalisation), ``line``/``column`` are 1-based.
"""

from __future__ import annotations

from typing import ClassVar

from pbp.errors import Problem
from pbp.values import frozen_value


@frozen_value
class UnknownName(Problem):
    """A name that matches nothing; ``kind`` says what was looked for (character, talent…).

    ``near`` are the candidates it is one letter away from (a typo of), if any.
    """

    code: ClassVar[str] = "unknown_name"
    name: str
    kind: str = "name"
    candidates: tuple[str, ...] = ()
    near: tuple[str, ...] = ()


@frozen_value
class AmbiguousName(Problem):
    """A name that is the start of several names; ``candidates`` are those names."""

    code: ClassVar[str] = "ambiguous_name"
    name: str
    kind: str = "name"
    candidates: tuple[str, ...] = ()


NameProblem = UnknownName | AmbiguousName


@frozen_value
class CodeInTag(Problem):
    """A tag holding inline code (text between backticks), which hides what it says."""

    code: ClassVar[str] = "code_in_tag"
    verb: str


@frozen_value
class VerbTypo(Problem):
    """An unknown first word that is likely a typo of ``suggestion``."""

    code: ClassVar[str] = "verb_typo"
    word: str
    suggestion: str
    scene: str


@frozen_value
class WrongScene(Problem):
    """A verb that exists, but not in the thread's scene; ``scenes`` are where it does."""

    code: ClassVar[str] = "wrong_scene"
    verb: str
    scene: str
    scenes: tuple[str, ...]
    verbs: tuple[str, ...]


@frozen_value
class MissingTarget(Problem):
    """A verb or maneuver that needs a name (``what``: character, feature, talent, task)."""

    code: ClassVar[str] = "missing_target"
    verb: str
    maneuver: str = ""
    what: str = "target"


@frozen_value
class UnknownManeuver(Problem):
    """``[physical: …]`` whose body starts with no maneuver word; ``suggestion`` is the one
    ``word`` is likely a typo of ("" if none)."""

    code: ClassVar[str] = "unknown_maneuver"
    verb: str
    word: str
    maneuvers: tuple[str, ...]
    suggestion: str = ""


@frozen_value
class BadOption(Problem):
    """Words that are no option of this verb; ``allowed`` lists the options it has."""

    code: ClassVar[str] = "bad_option"
    verb: str
    option: str
    allowed: tuple[str, ...]


@frozen_value
class DuplicateOption(Problem):
    """The same option given twice."""

    code: ClassVar[str] = "duplicate_option"
    verb: str
    option: str


@frozen_value
class ConflictingOptions(Problem):
    """Two options that exclude each other (``body`` and ``mind``, ``spell`` and ``other``)."""

    code: ClassVar[str] = "conflicting_options"
    verb: str
    first: str
    second: str


@frozen_value
class BadNumber(Problem):
    """``option`` wants a number (``expected`` says which kind) and got ``value``."""

    code: ClassVar[str] = "bad_number"
    verb: str
    option: str
    value: str
    expected: str = "a whole number"


@frozen_value
class IncompleteTag(Problem):
    """A tag that stops before a part it needs (``missing``: e.g. ``vs DC``, ``on TASK``)."""

    code: ClassVar[str] = "incomplete_tag"
    verb: str
    missing: str


@frozen_value
class SplitWithoutShare(Problem):
    """A part of a split action without ``with N`` (RULES D7)."""

    code: ClassVar[str] = "split_without_share"
    verb: str
    part: str


@frozen_value
class SplitOfOnePart(Problem):
    """``with N`` on an action that has a single part: a split needs at least two."""

    code: ClassVar[str] = "split_of_one_part"
    verb: str


@frozen_value
class BonusOnSplit(Problem):
    """``bonus N`` on a split action, which SPEC §2.1 does not allow."""

    code: ClassVar[str] = "bonus_on_split"
    verb: str


@frozen_value
class SplitManeuver(Problem):
    """A split part that is no attack, restraint or talent (``feat``, ``escape``)."""

    code: ClassVar[str] = "split_maneuver"
    verb: str
    maneuver: str


@frozen_value
class BadDice(Problem):
    """Dice notation that cannot be read, is out of range or over the limits.

    ``cause`` is ``notation_syntax``, ``notation_invalid`` or ``notation_limit``; ``expected``
    what would have been right at 0-based ``position``.
    """

    code: ClassVar[str] = "bad_dice"
    expression: str
    cause: str = "notation_syntax"
    expected: str = ""
    position: int = 0


@frozen_value
class TooManyTags(Problem):
    """A post with more tags than its author may use: nothing in it acts."""

    code: ClassVar[str] = "too_many_tags"
    count: int
    limit: int


@frozen_value
class PostTooLong(Problem):
    """A post over the length limit: nothing in it acts."""

    code: ClassVar[str] = "post_too_long"
    length: int
    limit: int


TAG_PROBLEMS: tuple[type[Problem], ...] = (
    UnknownName, AmbiguousName, VerbTypo, WrongScene, MissingTarget, UnknownManeuver,
    BadOption, DuplicateOption, ConflictingOptions, BadNumber, IncompleteTag,
    SplitWithoutShare, SplitOfOnePart, BonusOnSplit, SplitManeuver, BadDice, TooManyTags,
    PostTooLong,
)  # fmt: skip
