"""The rules of each game system: pure functions and frozen values, stdlib only."""
