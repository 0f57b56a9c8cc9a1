"""Condition tracks (RULES A10): five independent ordered tracks, steps loaded from data.

The seed names the tracks and how each recovers, but not their steps; the steps are data (a
campaign may load its own). ``DEFAULT_TRACKS`` is a neutral placeholder: "normal" then numbered
steps, until the published tables are found.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum

from pbp.values import frozen_value, replace


class Track(StrEnum):
    """The five condition tracks of the seed."""

    INJURY = "injury"
    COMBAT_ADVANTAGE = "combat_advantage"
    ACTION = "action"
    CHECK = "check"
    MOVEMENT = "movement"


class Recovery(StrEnum):
    """How a track improves (RULES A10)."""

    REST_OR_CARE = "rest_or_care"  # injury: rest and medical care
    ACTION_AND_OPPOSED_CHECK = "action_and_opposed_check"  # reclaiming combat advantage
    FREE_ACTION_EACH_ROUND = "free_action_each_round"  # one attempt per round


RECOVERY: dict[Track, Recovery] = {
    Track.INJURY: Recovery.REST_OR_CARE,
    Track.COMBAT_ADVANTAGE: Recovery.ACTION_AND_OPPOSED_CHECK,
    Track.ACTION: Recovery.FREE_ACTION_EACH_ROUND,
    Track.CHECK: Recovery.FREE_ACTION_EACH_ROUND,
    Track.MOVEMENT: Recovery.FREE_ACTION_EACH_ROUND,
}


@frozen_value
class TrackDefinition:
    """One track's steps, best first: step 0 is unaffected, the last the worst."""

    track: Track
    steps: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.steps) < 2 or len(set(self.steps)) != len(self.steps):
            raise ValueError(f"the {self.track.value} track needs 2 or more distinct steps")


TrackSet = Mapping[Track, TrackDefinition]


def load_tracks(data: Mapping[str, Sequence[str]]) -> dict[Track, TrackDefinition]:
    """Build the five tracks from data (``{"injury": ["normal", ...], ...}``); all five needed."""
    missing = {track.value for track in Track} - set(data)
    unknown = set(data) - {track.value for track in Track}
    if missing or unknown:
        raise ValueError(f"condition tracks: missing {sorted(missing)}, unknown {sorted(unknown)}")
    return {track: TrackDefinition(track=track, steps=tuple(data[track.value])) for track in Track}


DEFAULT_TRACKS: dict[Track, TrackDefinition] = load_tracks(
    {track.value: ("normal", "step 1", "step 2", "step 3", "step 4") for track in Track}
)


@frozen_value
class Conditions:
    """Where a character stands on each track (0 = unaffected)."""

    injury: int = 0
    combat_advantage: int = 0
    action: int = 0
    check: int = 0
    movement: int = 0

    def position(self, track: Track) -> int:
        """The step index on ``track``."""
        value: int = getattr(self, track.value)
        return value

    def name(self, track: Track, *, tracks: TrackSet = DEFAULT_TRACKS) -> str:
        """The name of the current step on ``track``."""
        return tracks[track].steps[self.position(track)]


def step(
    conditions: Conditions, *, track: Track, by: int, tracks: TrackSet = DEFAULT_TRACKS
) -> Conditions:
    """Move along one track: ``by`` > 0 worsens, < 0 improves; held within the track's steps.

    The other tracks are untouched: the tracks are independent (RULES A10).
    """
    last = len(tracks[track].steps) - 1
    moved = min(max(conditions.position(track) + by, 0), last)
    return replace(conditions, **{track.value: moved})


def recovery_attempt_allowed(*, track: Track, attempts_this_round: int) -> bool:
    """Whether a free-action recovery attempt is allowed now (RULES A10: one per round)."""
    return RECOVERY[track] is Recovery.FREE_ACTION_EACH_ROUND and attempts_this_round < 1
