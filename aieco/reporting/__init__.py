"""aieco.reporting."""
