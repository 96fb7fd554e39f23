"""aieco.scenario."""
