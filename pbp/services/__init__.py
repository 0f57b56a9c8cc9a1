"""The shell around the pure core: handle posts, close rounds, replay, export."""
