"""The Reddit forum, through praw: the only module that imports praw and prawcore.

- One ``r/<sub>/comments`` listing per subreddit per poll, whatever the number of threads
  watched; comments are told apart by id (the cursor remembers the ids seen lately), never by
  ``before=`` paging, which misses comments when one is removed. A listing that cannot reach
  back to a comment seen before says so (``complete=False``); what to read then is the
  caller's to decide.
- ``survey`` asks ``/api/info`` for submissions, 100 a request: each one's text (the opening
  post) and its number of comments, so a thread is read from its comment tree
  (``backfill``, ``replace_more`` included) only when its comments are not accounted for.
- Re-reads go through ``/api/info``, 100 at a time (praw batches them), the posts of several
  threads in the same requests (``reread_many``).
- Text is cleaned on the way in (``clean_text``): no NUL, no lone surrogate.
- Every reply carries its key in an invisible link, ``[](#pbp:KEY)``; comment POSTs go out
  without prawcore's own retry (a comment that committed but answered 502 would be posted
  twice), and before a retry ``find_reply`` looks for the key where the reply would be: among
  the answers to the post it answers (one request), or for a reply in the thread among the
  bot's comments back to the first attempt (page by page, however many came since; past the
  1,000 Reddit lists, among the thread's newest top-level comments), deleting any duplicate.
- Private messages go through ``/api/compose`` with the thread and key in the same invisible
  link (``[](#pbp:THREAD/KEY)``), sent once without retry; ``find_private`` looks for that
  marker among the bot's sent messages (``/message/sent``) back to the first attempt.
- praw and prawcore errors become ``ForumError`` in one table: temporary ones are tried again
  on a later poll, permanent ones are reported.
- Reddit's rate-limit answers pace the bot (``reddit_pacing``): after a 429 nothing is asked
  before its ``Retry-After`` has passed, and a used-up window holds the bot until it resets
  instead of sleeping inside a poll.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import UTC, datetime
from typing import Any

import praw
import prawcore
from praw.exceptions import PRAWException, RedditAPIException
from prawcore.sessions import RetryStrategy

from pbp.errors import ForumError
from pbp.forums.base import ForumLimits, ForumPost, Listing, ThreadSurvey, clean_text
from pbp.forums.reddit_pacing import Pacing

log = logging.getLogger(__name__)

LISTING_LIMIT = 100  # Reddit's page size for r/<sub>/comments
LISTING_REACH = 1000  # the furthest back Reddit's listings go
CLOCK_SLACK = 3600.0  # seconds: comments may show up in the listing a little late
SEEN_LIMIT = 2000  # comment ids remembered between polls
_MARKER = re.compile(r"\[\]\(#pbp:([^)\s]+)\)")
# Reddit's answers that no retry will change (RedditAPIException error types)
_PERMANENT_API_ERRORS = frozenset(
    {
        "THREAD_LOCKED",
        "TOO_OLD",
        "DELETED_COMMENT",
        "DELETED_LINK",
        "NOT_AUTHOR",
        "USER_REQUIRED",
        "SUBREDDIT_NOEXIST",
        "BANNED_FROM_SUBREDDIT",
        "TOO_LONG",
        "COMMENT_UNREPLIABLE",
        "INVALID_PARENT",
        "USER_DOESNT_EXIST",
        "NOT_WHITELISTED_BY_USER_MESSAGE",
        "NO_SUBJECT",
        "NO_TEXT",
    }
)
SINCE_SLACK = 600.0  # seconds: Reddit's clock and the bot's may differ a little
TREE_LIMIT = 500  # comments asked for in one request of a comment tree (Reddit's most)
COMMENT_LIMIT = 10_000  # characters of a comment or a message's text, its hidden key included
KEY_ROOM = 100  # characters kept for the hidden key (``marked``) a reply carries
LIMITS = ForumLimits(
    reply_chars=COMMENT_LIMIT - KEY_ROOM,
    subject_chars=100,  # a private message's subject
    mentions_per_post=3,  # Reddit notifies no one past the third mention of a comment
)


class _NoRetry(RetryStrategy):
    """prawcore's retry, switched off (for comment POSTs)."""

    def _sleep_seconds(self) -> float | None:
        return None

    def consume_available_retry(self) -> _NoRetry:
        return self

    def should_retry_on_failure(self) -> bool:
        return False


def marked(text: str, key: str) -> str:
    """A reply's text with its key, invisible on Reddit."""
    return f"{text.rstrip()}\n\n[](#pbp:{key})"


def key_of(body: str) -> str | None:
    """The key a reply carries, if any."""
    found = _MARKER.search(body)
    return found.group(1) if found else None


def unmarked(body: str) -> str:
    """A reply's text without its key."""
    return _MARKER.sub("", body).rstrip()


def translate(exc: Exception) -> ForumError:
    """A praw or prawcore error as a ForumError: temporary or permanent (one table)."""
    match exc:
        case RedditAPIException():
            kinds = {item.error_type for item in exc.items}
            if kinds & _PERMANENT_API_ERRORS:
                return ForumError(f"Reddit refused: {exc}", temporary=False)
            return ForumError(f"Reddit said: {exc}", temporary=True)  # RATELIMIT and the like
        case prawcore.TooManyRequests():
            return ForumError("Reddit is rate-limiting the bot (429)", temporary=True)
        case prawcore.ServerError() | prawcore.RequestException():
            return ForumError(f"Reddit did not answer properly: {exc}", temporary=True)
        case prawcore.NotFound() | prawcore.Forbidden() | prawcore.BadRequest():
            return ForumError(f"Reddit refused: {exc}", temporary=False)
        case prawcore.OAuthException() | prawcore.InvalidToken() | prawcore.ResponseException():
            status = getattr(getattr(exc, "response", None), "status_code", None)
            temporary = status is not None and status >= 500
            return ForumError(
                f"Reddit refused the bot's credentials or request: {exc}", temporary=temporary
            )
        case _:
            return ForumError(f"Reddit failed: {type(exc).__name__}: {exc}", temporary=True)


def _when(stamp: float) -> datetime:
    return datetime.fromtimestamp(stamp, UTC)


def open_reddit(*, site: str | None) -> praw.Reddit:
    """A praw session configured the praw way: the praw.ini ``site`` (praw's DEFAULT when
    None) and praw_* environment variables. praw's update check is always off."""
    try:
        return praw.Reddit(site or "DEFAULT", check_for_updates=False)
    except prawcore.PrawcoreException as exc:
        raise translate(exc) from exc
    except Exception as exc:  # praw's own configuration errors: a missing site or client_id
        raise ForumError(
            f"praw could not be configured from site {site or 'DEFAULT'!r}: {exc} "
            "(see praw.ini in the README)",
            temporary=False,
        ) from exc


class RedditForum:
    """Threads are submissions of the configured subreddits; posts are their comments."""

    kind = "reddit"
    lists_changes = False  # a listing shows new comments only: edits need re-reads
    reread_batch = 100  # fullnames per /api/info request
    in_bot_database = False  # each comment is on Reddit once its request returns
    limits = LIMITS

    def __init__(
        self,
        reddit: praw.Reddit,
        *,
        subreddits: Sequence[str],
        bot: str,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._reddit = reddit
        self._subreddits = tuple(subreddits)
        self._bot = bot
        self._pacing = Pacing(clock)

    @contextmanager
    def _asking(self, *, write: bool = False) -> Iterator[None]:
        """Requests to Reddit, unless it asked the bot to wait (then none, and a temporary
        ForumError); what its rate-limit answers say is kept, every praw error translated."""
        self._pacing.check(write=write)
        reddit: Any = self._reddit  # prawcore's sessions: private, pinned by the version range
        for core in (reddit._core, reddit._read_only_core, reddit._authorized_core):
            if core is not None:
                self._pacing.guard(core._rate_limiter)
        try:
            yield
        except (PRAWException, prawcore.PrawcoreException) as exc:
            self._pacing.heard(exc)
            raise translate(exc) from exc

    # -- reading ------------------------------------------------------------------------------

    def listing(self, *, cursor: str | None) -> Listing:
        """New comments of every thread of the subreddits: one listing request per subreddit
        when nothing much happened. The listing is followed page by page (``after=``) back to
        a comment already seen; when even Reddit's longest listing does not reach one (a long
        downtime, or more comments than it holds), the listing says it is not complete."""
        state: dict[str, Any] = json.loads(cursor) if cursor else {"seen": [], "newest": 0.0}
        seen: list[str] = list(state["seen"])
        known = set(seen)
        newest = float(state.get("newest", 0.0))
        posts: list[ForumPost] = []
        complete = True
        with self._asking():
            for sub in self._subreddits:
                page, reached = self._since(sub, known=known, newest=newest)
                complete = complete and reached
                for comment in page:
                    newest = max(newest, float(comment.created_utc))
                    posts.append(self._post(comment))
        posts = _unique_oldest_first(posts)
        seen = [*seen, *(p.id for p in posts if p.id not in known)][-SEEN_LIMIT:]
        return Listing(
            posts=tuple(posts),
            cursor=json.dumps({"seen": seen, "newest": newest}),
            complete=complete,
        )

    def survey(self, threads: Sequence[str]) -> dict[str, ThreadSurvey]:
        """Each submission's text and number of comments, through ``/api/info`` (100 a
        request); a submission Reddit does not know is left out."""
        names = [f"t3_{t}" for t in dict.fromkeys(threads)]
        found: dict[str, ThreadSurvey] = {}
        with self._asking():
            for thing in self._reddit.info(fullnames=names):
                if isinstance(thing, praw.models.Submission):
                    found[thing.id] = ThreadSurvey(
                        thread=thing.id,
                        opening=self._submission_post(thing),
                        posts=int(thing.num_comments or 0),
                    )
        return found

    def _since(self, sub: str, *, known: set[str], newest: float) -> tuple[list[Any], bool]:
        """The comments of ``sub`` newer than the ones seen, newest first, and whether the
        listing reached back to those (no gap). Without a cursor: the first page only (whole
        when the subreddit holds no more)."""
        limit = LISTING_LIMIT if not known else LISTING_REACH
        page: list[Any] = []
        for comment in self._reddit.subreddit(sub).comments(limit=limit):
            # a comment seen before, or clearly older than the newest seen (a deleted comment
            # drops out of the listing, so its id may never come back)
            if comment.id in known or float(comment.created_utc) < newest - CLOCK_SLACK:
                return page, True
            page.append(comment)
        return page, len(page) < limit

    def backfill(self, thread: str) -> tuple[ForumPost, ...]:
        """The submission and every comment of a thread (``replace_more`` included)."""
        with self._asking():
            return tuple(_unique_oldest_first(self._whole(thread)))

    def _whole(self, thread: str) -> list[ForumPost]:
        submission = self._reddit.submission(thread)
        submission.comments.replace_more(limit=None)
        out = [self._submission_post(submission)]
        out += [self._post(c) for c in submission.comments.list()]
        return out

    def reread(self, thread: str, post_ids: Sequence[str]) -> tuple[ForumPost, ...]:
        """The current version of each post, through ``/api/info`` (100 per request)."""
        return self.reread_many({thread: post_ids}).get(thread, ())

    def reread_many(self, wanted: Mapping[str, Sequence[str]]) -> dict[str, tuple[ForumPost, ...]]:
        """The current version of each post of each thread, through ``/api/info``: every
        thread's posts in the same requests, 100 a request (praw batches them)."""
        names = [
            f"t3_{i}" if i == thread else f"t1_{i}" for thread, ids in wanted.items() for i in ids
        ]
        if not names:
            return {}
        with self._asking():
            found = {thing.id: thing for thing in self._reddit.info(fullnames=names) if thing}
        now = datetime.now(UTC)
        out: dict[str, tuple[ForumPost, ...]] = {}
        for thread, ids in wanted.items():
            posts = []
            for post_id in ids:
                thing = found.get(post_id)
                if thing is None:  # gone without a trace
                    posts.append(
                        ForumPost(
                            id=post_id,
                            thread=thread,
                            author="[deleted]",
                            body="",
                            created_at=now,
                            deleted_at=now,
                        )
                    )
                elif isinstance(thing, praw.models.Submission):
                    posts.append(self._submission_post(thing))
                else:
                    posts.append(self._post(thing))
            out[thread] = tuple(posts)
        return out

    def _post(self, comment: Any) -> ForumPost:
        deleted = comment.author is None and comment.body in ("[deleted]", "[removed]")
        author = comment.author.name if comment.author is not None else "[deleted]"
        created = _when(comment.created_utc)
        edited = _when(comment.edited) if comment.edited else None
        parent = comment.parent_id
        key = key_of(comment.body) if author.casefold() == self._bot.casefold() else None
        body = "" if deleted else unmarked(comment.body) if key else comment.body
        return ForumPost(
            id=comment.id,
            thread=comment.link_id[3:],
            author=author,
            body=clean_text(body),
            created_at=created,
            edited_at=edited,
            deleted_at=(edited or created) if deleted else None,
            reply_to=parent[3:] if parent.startswith("t1_") else None,
            reply_key=key,
        )

    def _submission_post(self, submission: Any) -> ForumPost:
        deleted = submission.author is None and submission.selftext in ("[deleted]", "[removed]")
        created = _when(submission.created_utc)
        edited = _when(submission.edited) if submission.edited else None
        return ForumPost(
            id=submission.id,
            thread=submission.id,
            author=submission.author.name if submission.author is not None else "[deleted]",
            body="" if deleted else clean_text(submission.selftext),
            created_at=created,
            edited_at=edited,
            deleted_at=(edited or created) if deleted else None,
        )

    # -- writing ------------------------------------------------------------------------------

    @contextmanager
    def _without_retry(self) -> Iterator[None]:
        reddit: Any = self._reddit  # prawcore's sessions: private, pinned by the version range
        cores = [c for c in (reddit._core, reddit._authorized_core) if c is not None]
        saved = [c._retry_strategy_class for c in cores]
        for core in cores:
            core._retry_strategy_class = _NoRetry
        try:
            yield
        finally:
            for core, strategy in zip(cores, saved, strict=True):
                core._retry_strategy_class = strategy

    def sending(self) -> AbstractContextManager[None]:
        """Nothing to group: each comment is on Reddit once its request returns."""
        return nullcontext()

    def reply(self, *, thread: str, to: str | None, text: str, key: str) -> str:
        """A comment on the post it answers (or on the submission); sent once, no retry."""
        with self._asking(write=True), self._without_retry():
            parent = (
                self._reddit.comment(to) if to and to != thread else self._reddit.submission(thread)
            )
            comment = parent.reply(marked(text, key))
        if comment is None:
            raise ForumError("Reddit accepted the reply but returned no comment", temporary=True)
        return str(comment.id)

    def edit_reply(self, *, thread: str, reply_id: str, text: str, key: str) -> None:
        """Replace the text of one of the bot's comments (its key kept)."""
        del thread
        with self._asking(write=True), self._without_retry():
            self._reddit.comment(reply_id).edit(marked(text, key))

    def find_reply(self, *, thread: str, key: str, to: str | None, since: datetime) -> str | None:
        """The bot's comment carrying ``key`` where it would be: among the answers to comment
        ``to``, or (``to`` None: a comment on the submission) among the bot's comments back to
        ``since``, the time of the first attempt, however many came after it. Any duplicate is
        deleted, the oldest kept."""
        with self._asking():
            if to and to != thread:
                candidates = self._answers_to(thread, to)
            else:
                candidates = self._thread_replies(thread, since=since.timestamp())
            mine = [
                c
                for c in candidates
                if _by(c, self._bot) and c.link_id == f"t3_{thread}" and key_of(c.body) == key
            ]
            if not mine:
                return None
            mine.sort(key=lambda c: (c.created_utc, c.id))
            for duplicate in mine[1:]:
                log.warning(
                    "thread %s: deleting a duplicate reply %s (%s)", thread, duplicate.id, key
                )
                duplicate.delete()
            return str(mine[0].id)

    def _answers_to(self, thread: str, to: str) -> list[Any]:
        """Every answer to comment ``to`` (its whole list of replies, one request unless it
        has more than a page of them)."""
        submission = self._reddit.submission(thread)
        submission.comment_sort = "new"
        _, found = self._reddit.get(
            f"comments/{thread}/_/{to}", params={"limit": TREE_LIMIT, "sort": "new"}
        )
        parent = next(
            (c for c in found.children if isinstance(c, praw.models.Comment) and c.id == to), None
        )
        if parent is None:
            return []
        parent.submission = submission  # its replies' "more" links are read through it
        replies: Any = parent.replies
        replies.replace_more(limit=None)
        return [c for c in replies if isinstance(c, praw.models.Comment)]

    def _thread_replies(self, thread: str, *, since: float) -> list[Any]:
        """The bot's comments back to ``since`` (minus the clock's slack), newest first; if
        even Reddit's longest listing of them does not reach back so far, the submission's
        top-level comments back to then."""
        oldest = since - SINCE_SLACK
        found: list[Any] = []
        seen = 0
        for comment in self._reddit.redditor(self._bot).comments.new(limit=None):
            seen += 1
            if float(comment.created_utc) < oldest:
                return found
            found.append(comment)
        if seen < LISTING_REACH:
            return found  # the whole history: nothing is older
        return found + self._top_level_since(thread, oldest=oldest)

    def _top_level_since(self, thread: str, *, oldest: float) -> list[Any]:
        """The submission's top-level comments, newest first, back to ``oldest``."""
        submission = self._reddit.submission(thread)
        submission.comment_sort = "new"
        submission.comment_limit = TREE_LIMIT
        out: list[Any] = []
        comments: Any = submission.comments
        pending: list[Any] = list(comments)
        while pending:
            item = pending.pop(0)
            if isinstance(item, praw.models.MoreComments):
                more: Any = item.comments(update=False)
                pending = [
                    c for c in more if getattr(c, "parent_id", f"t3_{thread}") == f"t3_{thread}"
                ] + pending
                continue
            if float(item.created_utc) < oldest:
                break
            out.append(item)
        return out

    def send_private(self, *, thread: str, to: str, subject: str, text: str, key: str) -> str:
        """A private message through ``/api/compose`` (sent once, no retry). Reddit answers
        with no id, and a message is never edited: its marker stands for its id."""
        marker = _private_key(thread, key)
        with self._asking(write=True), self._without_retry():
            self._reddit.redditor(to).message(subject=subject, message=marked(text, marker))
        return marker

    @property
    def edits_private(self) -> bool:
        """Reddit cannot edit a private message once sent."""
        return False

    def edit_private(self, *, thread: str, message_id: str, text: str, key: str) -> None:
        """Never called: Reddit's private messages cannot be edited (``edits_private``)."""
        del thread, message_id, text, key
        raise ForumError("Reddit cannot edit a private message", temporary=False)

    def find_private(self, *, thread: str, to: str, key: str, since: datetime) -> str | None:
        """The private message to ``to`` carrying ``thread`` and ``key`` among the bot's sent
        messages back to ``since`` (the first attempt), however many came after it; its id as
        ``send_private`` gives it (the marker)."""
        wanted = _private_key(thread, key)
        oldest = since.timestamp() - SINCE_SLACK
        with self._asking():
            for message in self._reddit.inbox.sent(limit=None):
                if float(message.created_utc) < oldest:
                    return None
                dest = str(getattr(message, "dest", ""))
                if dest.casefold() == to.casefold() and key_of(message.body) == wanted:
                    return wanted  # what send_private answers for it
        return None


def _by(comment: Any, name: str) -> bool:
    """Whether ``comment`` was written by the user ``name``."""
    return comment.author is not None and str(comment.author.name).casefold() == name.casefold()


def _private_key(thread: str, key: str) -> str:
    """The marker of a private message: messages are not filed by thread, so it names it."""
    return f"{thread}/{key}"


def _unique_oldest_first(posts: Iterable[ForumPost]) -> list[ForumPost]:
    by_id: dict[str, ForumPost] = {}
    for post in posts:
        by_id[post.id] = post
    return sorted(by_id.values(), key=lambda p: (p.created_at, p.id))
