"""Markhorspire skirmishes and battles (seed 004, RULES §4 M1–M9).

Pure functions over frozen values and a :class:`~pbp.rules.dice.source.Roller`. Modules:
``pools`` (skirmish and battle HP/WP, damage, casting, healing), ``initiative`` (turn order),
``advantage`` (advantage and disadvantage), ``actions`` (battle AP and reactions),
``skirmish`` (end states, fate of foes, one course of action per turn), ``errors``.
"""
