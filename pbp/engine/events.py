"""What happens to a thread: the inputs of ``step``."""

from __future__ import annotations

from datetime import datetime

from pbp.values import frozen_value


@frozen_value
class PostArrived:
    """A post the bot reads for the first time."""

    post_id: str
    author: str
    at: datetime
    body: str


@frozen_value
class PostEdited:
    """A new version of a post already read."""

    post_id: str
    at: datetime
    body: str


@frozen_value
class PostDeleted:
    """A post was deleted."""

    post_id: str
    at: datetime


@frozen_value
class Tick:
    """Time passes (deadlines and reminders fall due)."""

    at: datetime


@frozen_value
class CampaignMoved:
    """The campaign moved to thread ``to``: its GM bound that thread with ``!campaign`` (a
    campaign runs in one thread at a time, SPEC §1); this thread is read no more."""

    at: datetime
    to: str


@frozen_value
class SheetPosted:
    """The cheat sheet was posted for round ``round_number``: a thread the bot began to watch
    in its middle posts nothing for the rounds closed before, and its cheat sheet publishes
    the seal of the round open then (SPEC §6). Its later edits keep that round."""

    at: datetime
    round_number: int


Event = PostArrived | PostEdited | PostDeleted | Tick | CampaignMoved | SheetPosted
