"""The tag reader: post text -> typed tags, commands and problems (pure)."""
