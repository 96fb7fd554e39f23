"""aieco.sources."""
