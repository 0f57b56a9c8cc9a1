"""How a campaign waits for its players (issue 29): standing orders' default, the early close,
the turn board in the thread's opening post, reminders and the GMs' private copies.

Pure: ``read_turns`` reads the keys of ``[campaign]`` into a frozen ``TurnOptions``; each bad
value is refused with what was expected and an example.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Literal

from pbp.campaign.tables import KeyPath, Reader, Table, shortened
from pbp.tags.times import parse_duration
from pbp.values import frozen_value

Remind = Literal["mention", "private", "off"]
PrivateCopies = Literal["off", "summaries", "all"]
StandingDefault = Literal["none", "hold"]

REMINDS: tuple[Remind, ...] = ("mention", "private", "off")
PRIVATE_COPIES: tuple[PrivateCopies, ...] = ("off", "summaries", "all")
STANDING_DEFAULTS: tuple[StandingDefault, ...] = ("none", "hold")
# the keys of [campaign] read here
KEYS = (
    "standing_default",
    "close_when_all_acted",
    "turn_board",
    "remind",
    "remind_at",
    "private_copies",
)
HALF_TIME = "50%"
_SHARE = re.compile(r"([0-9]{1,2})\s*%")
_BEFORE = re.compile(r"(.+?)\s+before", re.IGNORECASE)
_REMIND_AT_EXAMPLE = 'remind_at = ["50%", "2h before"]'


@frozen_value(kw_only=False)
class RemindAt:
    """One reminder time of a round with a deadline: a share of the round's time gone
    (``share``, 1 to 99 per cent) or a span before the deadline (``before``). ``text`` is
    how the campaign wrote it (it names the reminder)."""

    text: str
    share: int | None = None
    before: timedelta | None = None

    @property
    def slug(self) -> str:
        """A name for the reminder fit for a reply key ("50pct", "2h-before")."""
        return "-".join(self.text.replace("%", "pct").split()).casefold()


DEFAULT_REMIND_AT = (RemindAt(text=HALF_TIME, share=50),)


@frozen_value
class TurnOptions:
    """The campaign's say over waiting; the defaults are the bot's behaviour before any of it
    (no default order, no early close, one mention at half time, every private copy under
    hide-npcs), and the turn board on the opening post (``turn_board = false`` turns it off)."""

    standing_default: StandingDefault = "none"
    close_when_all_acted: bool = False
    turn_board: bool = True
    remind: Remind = "mention"
    remind_at: tuple[RemindAt, ...] = DEFAULT_REMIND_AT
    private_copies: PrivateCopies = "all"


def read_remind_at(text: str) -> RemindAt | None:
    """``"50%"`` or ``"2h before"`` (any duration the commands take), or None."""
    written = " ".join(text.split())
    share = _SHARE.fullmatch(written)
    if share is not None:
        value = int(share.group(1))
        return RemindAt(text=written, share=value) if 1 <= value <= 99 else None
    before = _BEFORE.fullmatch(written)
    if before is not None:
        span = parse_duration(before.group(1))
        return RemindAt(text=written, before=span) if span is not None else None
    return None


def read_turns(reader: Reader, head: Table) -> TurnOptions:
    """The keys of ``[campaign]`` that say how the campaign waits for its players."""
    at: KeyPath = ("campaign",)
    standing = reader.choice(
        head, at, "standing_default", choices=STANDING_DEFAULTS, default="none"
    )
    remind = reader.choice(head, at, "remind", choices=REMINDS, default="mention")
    copies = reader.choice(head, at, "private_copies", choices=PRIVATE_COPIES, default="all")
    return TurnOptions(
        standing_default=standing or "none",
        close_when_all_acted=reader.flag(head, at, "close_when_all_acted", default=False),
        turn_board=reader.flag(head, at, "turn_board", default=True),
        remind=remind or "mention",
        remind_at=_remind_at(reader, head, at),
        private_copies=copies or "all",
    )


def _remind_at(reader: Reader, head: Table, at: KeyPath) -> tuple[RemindAt, ...]:
    written = reader.strings(head, at, "remind_at")
    if written is None:
        return DEFAULT_REMIND_AT
    found: list[RemindAt] = []
    for index, text in enumerate(written):
        when = read_remind_at(text)
        if when is None:
            reader.fail(
                (*at, "remind_at", index),
                f'remind_at[{index}] = "{shortened(text)}" is no reminder time',
                f'a share of the round like "50%" (1% to 99%) or a span before the deadline '
                f'like "2h before", e.g. {_REMIND_AT_EXAMPLE}',
            )
        if any(w.text == when.text for w in found):
            reader.fail(
                (*at, "remind_at", index),
                f'remind_at names "{shortened(text)}" twice',
                f"each reminder time once, e.g. {_REMIND_AT_EXAMPLE}",
            )
        found.append(when)
    return tuple(found)
