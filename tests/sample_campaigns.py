"""Campaign files the service and forum tests share."""

from __future__ import annotations

TEST_KEEP = """
[campaign]
name = "Test Keep"
gms = ["gm_sam"]
visibility = "open"

[[characters]]
name = "Aria"
player = "alice"
body = 5
mind = 3

[[characters]]
name = "Bram"
player = "bob"
body = 3
mind = 4

[[characters]]
name = "Goblin"
body = 3
mind = 1
"""

D20_KEEP = """\
[campaign]
name = "Test Keep"
gms = ["gm_sam"]
ruleset = "d20"

[[characters]]
name = "Aria"
player = "alice"
side = "party"
body = 5
mind = 3

[[characters]]
name = "Bram"
player = "bob"
side = "party"
body = 3
mind = 4
"""
