"""d20 Advanced checks (seed 002, RULES §3 A1–A12): pure functions over a Roller, frozen results.

Modules: ``checks`` (DC checks, condition modifiers, tools, take 1/10/20), ``opposed`` (opposed
and comparison checks), ``aid`` (aid another), ``attack`` (attack rolls), ``pools`` (dice
pools), ``resistances``, ``conditions`` (the five condition tracks), ``actions`` (the round's
action budget). Every result carries its numbers and an ``outcome`` of ``"success"`` or
``"failure"`` with a ``reason`` code.
"""
