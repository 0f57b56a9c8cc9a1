"""Fixtures of the round-engine tests (the helpers are in ``engine_helpers``)."""

from __future__ import annotations

import pytest
from engine_helpers import make_campaign

from pbp.campaign.model import Campaign


@pytest.fixture
def campaign() -> Campaign:
    """The test campaign (visibility hide-npcs)."""
    return make_campaign()


@pytest.fixture
def open_campaign() -> Campaign:
    """The test campaign with visibility open."""
    return make_campaign("open")
