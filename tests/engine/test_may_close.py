"""Which posts may close the round as they are read (the shell re-reads the round first)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_helpers import make_campaign

from pbp.campaign.model import CampaignOptions
from pbp.engine.commands import may_close


@pytest.mark.parametrize(
    ("author", "body", "closes"),
    [
        ("gm_sam", "That's all.\n!close", True),
        ("gm_sam", "!encounter end", True),
        ("gm_sam", "!undo", True),
        ("gm_sam", "!deadline 2h\n!group Aria, Goblin", False),
        ("gm_sam", "!closet", False),  # not a command: nothing closes
        ("alice", "!close", False),  # only a GM closes
        ("gm_sam", "The goblins wait.", False),
    ],
)
def test_a_gms_closing_command_may_close_the_round(author: str, body: str, closes: bool) -> None:
    assert may_close(body, author=author, campaign=make_campaign()) is closes


def test_with_rules_d8_any_gm_post_may_close_the_round() -> None:
    campaign = make_campaign()
    campaign = replace(campaign, options=CampaignOptions(close_on_any_gm_post=True))
    assert may_close("The goblins wait.", author="gm_sam", campaign=campaign)
    assert not may_close("The goblins wait.", author="alice", campaign=campaign)
