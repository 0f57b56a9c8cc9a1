"""The round engine: a pure state machine over posts, edits, deletes, commands and time."""
