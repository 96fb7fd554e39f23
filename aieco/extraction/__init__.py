"""aieco.extraction."""
