"""Epic Path abstract encounters (seed 000, RULES §2 E1–E15): pure functions over a Roller.

Modules: ``pool`` (the interval's skill roll and action dice), ``payment`` (paying, banking,
the bot's ``auto`` choice, success under opposition), ``odds`` (exact odds of finishing a task
within some intervals), ``reaction`` (the Reaction Die order).
"""
