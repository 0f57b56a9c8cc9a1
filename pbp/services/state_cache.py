"""The engine states and round seeds this process committed, by thread: a thread whose log
has not moved since is not rebuilt (``history.load_state`` rebuilds the others from their
snapshot and log)."""

from __future__ import annotations

from collections.abc import Mapping

from pbp.campaign.model import Campaign
from pbp.engine.effects import SummaryContent
from pbp.engine.state import EngineState
from pbp.engine.step import initial_state
from pbp.rules.dice.seeded import SeededDice
from pbp.services.history import Cached, load_state
from pbp.store.records import ThreadRecord
from pbp.store.repository import CharacterState, Repository
from pbp.values import frozen_value


@frozen_value(kw_only=False)
class NewThreadState:
    """What a thread that has no state yet starts from: the bot's name, the ack setting and
    the mentions a post may hold on the forum (the engine's reminders are split by it)."""

    bot: str
    ack: str
    mentions_per_post: int


class StateCache:
    """Each thread's state as this process last committed it, and the seeds it knows."""

    def __init__(self, new: NewThreadState) -> None:
        self._new = new
        self._states: dict[int, Cached] = {}
        self._seeds: dict[int, dict[int, str]] = {}  # thread id -> round -> seed, as stored
        # thread id -> its character rows as its committed state's cycle left them (if known)
        self._characters: dict[int, Mapping[str, CharacterState]] = {}

    def state(
        self,
        repo: Repository,
        thread: ThreadRecord,
        campaign: Campaign,
        closed: list[SummaryContent] | None = None,
    ) -> EngineState:
        """A thread's engine state (from memory, or the snapshot and the log; the rounds the
        log closes again are added to ``closed``)."""
        return load_state(
            repo,
            thread,
            cached=self._states.get(thread.id),
            fresh=lambda: initial_state(
                campaign,
                bot=self._new.bot,
                ack=self._new.ack,
                mentions_per_post=self._new.mentions_per_post,
            ),
            dice=lambda number: SeededDice(_stored_seed(repo, thread, number)),
            closed=closed,
        )

    def committed_state(self, thread: ThreadRecord) -> EngineState | None:
        """The state this process's last cycle of the thread committed, if the thread's log
        has not moved since (no other worker, and nothing else, wrote to it meanwhile)."""
        cached = self._states.get(thread.id)
        return cached.state if cached is not None and cached.seq == thread.last_seq else None

    def stored_characters(self, thread: ThreadRecord) -> Mapping[str, CharacterState] | None:
        """What the thread's character rows hold, as the cycle that committed its state left
        them, if the thread's log has not moved since (and that cycle knew them)."""
        if self.committed_state(thread) is None:
            return None
        return self._characters.get(thread.id)

    def stored_seeds(self, thread_id: int) -> Mapping[int, str]:
        """The round seeds of a thread this process saw committed (a seed never changes)."""
        return self._seeds.get(thread_id, {})

    def committed(
        self,
        thread_id: int,
        *,
        seq: int,
        state: EngineState,
        seeds: Mapping[int, str],
        characters: Mapping[str, CharacterState] | None = None,
    ) -> None:
        """A cycle of the thread committed: its state at event ``seq``, its seeds, and what
        its character rows hold (None: not known)."""
        self._states[thread_id] = Cached(seq=seq, state=state)
        if characters is None:
            self._characters.pop(thread_id, None)
        else:
            self._characters[thread_id] = characters
        kept = set(sorted(seeds)[-SEEDS_KEPT:]) | {state.sheet_round}
        self._seeds[thread_id] = {number: seeds[number] for number in seeds if number in kept}


# Round seeds kept a thread: the newest rounds' (the open one, the ones `!undo` and a close
# reach) and the cheat sheet's (its seal is shown again at each edit of the turn board, the
# opening post); an older one is read from the store when a rebuild needs it. A running bot's
# memory does not grow with every round closed, nor a cycle's copy of them.
SEEDS_KEPT = 8


def _stored_seed(repo: Repository, thread: ThreadRecord, number: int) -> str:
    """A round's seed as stored: replaying the log rolls exactly the dice rolled then."""
    seed = repo.seed(thread.id, number)
    if seed is None:
        raise LookupError(
            f"thread {thread.key}: round {number} rolled dice but its seed is not in the database"
        )
    return seed
