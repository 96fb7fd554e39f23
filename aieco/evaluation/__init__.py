"""aieco.evaluation."""
