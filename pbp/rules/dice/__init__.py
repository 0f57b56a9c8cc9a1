"""Dice: the keyed source every roll comes from (SPEC §6), and dice notation."""
