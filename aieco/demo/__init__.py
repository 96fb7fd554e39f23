"""aieco.demo."""
