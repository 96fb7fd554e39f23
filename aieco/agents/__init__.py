"""aieco.agents."""
