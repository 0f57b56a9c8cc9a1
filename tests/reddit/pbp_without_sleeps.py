"""Run `pbp` with praw's and prawcore's waits skipped (their retry back-off and rate-limit
sleeps): how the Reddit shell tests start the bot, so that a chaotic fake Reddit stays fast.

    python tests/reddit/pbp_without_sleeps.py poll --once
"""

from __future__ import annotations

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
    main()
