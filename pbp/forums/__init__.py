"""Forums: where posts come from and replies go (the local forum and Reddit)."""
