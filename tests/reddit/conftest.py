"""Fixtures of the Reddit tests: a fake Reddit on 127.0.0.1 and real praw pointed at it.

- ``fake_reddit``: a started ``fake_reddit.FakeReddit`` (empty; account ``pbp_bot``/``pw``),
  stopped after the test; the test errors if the fake raised inside (``internal_errors``).
- ``praw_ini``: the path of a ``praw.ini`` in ``tmp_path`` with a site ``[pbp-test]`` pointing
  at the fake (``check_for_updates = False``, ``timeout = 1``: praw 8.0.3 ignores that one, see
  ``short_timeout``).
- ``reddit``: ``praw.Reddit("pbp-test")`` built in that folder (the test runs chdir'ed there, with
  praw's process-wide praw.ini cache emptied and no user-wide praw.ini).
- ``no_sleep``: prawcore's retry sleeps (``prawcore.sessions``: 0-2 s before the 2nd attempt,
  2-4 s before the 3rd), its rate-limit waits (``prawcore.rate_limit``) and praw's RATELIMIT
  waits (``praw.reddit``) are recorded in ``no_sleep.calls`` instead of slept. Ask for it in
  every test that makes prawcore retry or that gets a 429. Only those modules' ``time`` is
  replaced, so the fake's own waits (timeouts) still happen.
- ``short_timeout``: every prawcore API request times out after 0.2 s (instead of prawcore's 16 s),
  for tests of the ``timeout`` faults; the fake holds such answers ``timeout_hold`` (2 s, released
  at once when the fake stops).

Shared helpers live in ``fake_reddit.py`` (this module is imported as ``conftest``, like every
other conftest, so nothing should import from it).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import praw
import pytest
from fake_reddit import (
    FakeReddit,
    SleepRecorder,
    patch_sleeps,
    patch_timeout,
    use_praw_ini,
    write_praw_ini,
)

SHORT_TIMEOUT = 0.2


@pytest.fixture
def fake_reddit() -> Iterator[FakeReddit]:
    """A running fake Reddit, stopped after the test (which fails if the fake broke)."""
    with FakeReddit() as fake:
        yield fake
    assert not fake.internal_errors, "the fake Reddit failed inside"


@pytest.fixture
def praw_ini(tmp_path: Path, fake_reddit: FakeReddit) -> Path:
    """``tmp_path/praw.ini`` with the site ``[pbp-test]`` pointing at the fake."""
    return write_praw_ini(tmp_path, fake_reddit, site="pbp-test")


@pytest.fixture
def reddit(praw_ini: Path, monkeypatch: pytest.MonkeyPatch) -> praw.Reddit:
    """``praw.Reddit("pbp-test")``, read from ``praw_ini`` (the test runs in its folder)."""
    use_praw_ini(monkeypatch, praw_ini.parent)
    return praw.Reddit("pbp-test")


@pytest.fixture
def no_sleep(monkeypatch: pytest.MonkeyPatch) -> SleepRecorder:
    """praw's and prawcore's sleeps, recorded in ``.calls`` instead of slept."""
    return patch_sleeps(monkeypatch)


@pytest.fixture
def short_timeout(monkeypatch: pytest.MonkeyPatch) -> float:
    """prawcore API requests time out after 0.2 s; returns that timeout."""
    patch_timeout(monkeypatch, SHORT_TIMEOUT)
    return SHORT_TIMEOUT
