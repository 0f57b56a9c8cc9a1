"""Run `pbp` with praw's and prawcore's waits skipped (their retry back-off and rate-limit
sleeps): how the Reddit shell tests start the bot, so that a chaotic fake Reddit stays fast.

    python tests/reddit/pbp_without_sleeps.py poll --once

``PBP_TEST_PRAW_TIMEOUT=1`` also makes every request to Reddit time out after 1 s (prawcore's
own is 16 s), so the fake's slow answers come after praw gave up on them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for fake_reddit

import praw.reddit
import prawcore.rate_limit
import prawcore.sessions
from fake_reddit import SleepRecorder

from pbp.cli import main

if __name__ == "__main__":
    for module in (prawcore.sessions, prawcore.rate_limit, praw.reddit):
        module.time = SleepRecorder()  # type: ignore[attr-defined]
    if os.environ.get("PBP_TEST_PRAW_TIMEOUT"):
        defaults = prawcore.sessions.Session.request.__kwdefaults__
        assert defaults is not None and "timeout" in defaults, "prawcore changed"
        defaults["timeout"] = float(os.environ["PBP_TEST_PRAW_TIMEOUT"])
    main()
