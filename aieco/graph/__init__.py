"""aieco.graph."""
