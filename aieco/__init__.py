"""aieco: an evidence-traceable workbench for economic and financial scenario analysis."""

__version__ = "0.1.0"
