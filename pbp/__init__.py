"""pbp: a play-by-post moderator bot that reads action tags in forum posts and resolves rounds."""

__version__ = "0.1.0"
