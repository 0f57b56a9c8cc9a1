"""Each ruleset's tag grammar (its tag types, verbs and readers).

Only ``pbp.tags.registry`` names them.
"""
