"""Versioned prompt constants, one module per extraction task."""
