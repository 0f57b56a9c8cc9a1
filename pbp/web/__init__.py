"""``pbp serve``: the campaigns in the browser, over the store the bot writes (an adapter at
the edge, like the CLI; no core package imports it)."""
