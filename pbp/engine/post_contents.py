"""What a post's one reply from the bot says (``engine.post_reply``): of its tags (a problem,
a confirmation, a fix, a strike or a delete) and, for a GM's post, what its commands did. Values
that name no engine state, so the state's record of a post can hold them."""

from __future__ import annotations

from dataclasses import field

from pbp.engine.done import Done
from pbp.engine.notes import Note
from pbp.errors import Problem
from pbp.values import frozen_value


@frozen_value
class ProblemsContent:
    """The problems of one post: an error reply. ``closed``: the close found them (the round
    is over: too late to edit; a wording, not a change of what it says, so left out of
    ``==``)."""

    post_id: str
    problems: tuple[Problem, ...]
    closed: bool = field(default=False, compare=False)
    # the GMs told here that every character has acted (the post that made it so gets one
    # reply, not two): said when the reply is first posted, not a change of what it says
    all_acted: tuple[str, ...] = field(default=(), compare=False)


@frozen_value
class ActedContent:
    """A post whose tags the rules refused when it was read acted at the close after all: at
    their turn they were valid (RULES §6)."""

    post_id: str


@frozen_value
class FixedContent:
    """A post whose problems an edit fixed: what it holds now. ``actions`` are its accepted
    tags (none: the edit took every tag out); ``listed``: the author asked for confirmations
    (``ack = "all"`` or ``!ack on``), so the reply lists them. ``closed``: the close read the
    fix (the reply is worded so; not a change of what it says, so it is left out of ``==``)."""

    post_id: str
    actions: tuple[str, ...] = ()
    listed: bool = False
    brackets: bool = False  # no tag left, but brackets read as prose (a tag without a colon)
    closed: bool = field(default=False, compare=False)
    notes: tuple[Note, ...] = ()  # the rulesets' warnings on its accepted tags


@frozen_value
class AckContent:
    """``ack = "all"`` or ``!ack on``: confirm what a good post will do (``actions``, its
    accepted tags; none once an edit took them all out). ``closed`` as ``FixedContent``'s.
    A post whose tags carry ``notes`` gets one whatever the ack setting: a warning is due."""

    post_id: str
    actions: tuple[str, ...]  # canonical tags accepted
    closed: bool = field(default=False, compare=False)
    notes: tuple[Note, ...] = ()  # the rulesets' warnings on them (``Ruleset.notes``)
    all_acted: tuple[str, ...] = field(default=(), compare=False)  # as ``ProblemsContent``'s


@frozen_value
class VoidedContent:
    """A post the GM struck with ``!void``: it does not count, and why."""

    post_id: str
    reason: str | None


@frozen_value
class DeletedContent:
    """A post deleted before the close: it does not count (SPEC §4.3)."""

    post_id: str


TagsContent = (
    ProblemsContent | AckContent | FixedContent | ActedContent | VoidedContent | DeletedContent
)
"""What a post's reply says of its tags (``engine.post_reply``)."""


@frozen_value
class DoneContent:
    """The reply of a GM post with commands: what they did, one line each; the closing
    commands it refused (``!undo`` with nothing to re-open); then what it says of the post's
    tags, as a player's post would get it (None: nothing to say of them)."""

    post_id: str
    done: tuple[Done, ...]
    refused: tuple[Problem, ...] = ()
    then: TagsContent | None = None
    all_acted: tuple[str, ...] = field(default=(), compare=False)  # as ``ProblemsContent``'s


PostContent = TagsContent | DoneContent
"""What a post's one reply says (``state.PostReply``)."""
