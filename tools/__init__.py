"""Reproducible builders of shipped data files, and the record of past experiments.

Not part of the library: ``aieco`` never imports ``tools`` (import-linter contract in pyproject.toml),
and each tool is a script run from the repository root. ``tests/test_tools.py`` imports every one and
runs what is cheap to run.

====================================================  ======================================================
command                                               what it does
====================================================  ======================================================
``python3 tools/build_extraction_gold.py [SEL.json]``  rebuild ``aieco/data/extraction_gold.jsonl`` from the
                                                      sentence selection (default: the current file's rows)
                                                      and the hand labels it holds (docs/labelling-guide.md)
``python3 tools/select_gold_roundN.py FOLDER``         the sentence selection of labelling round N (4-7) from
                                                      the round's pages in FOLDER, as JSON on stdout
``python3 tools/default_corpus.py PDF | --pages``      re-derive the default workspace's corpus files
                                                      (docs/default-workspace.md)
``python3 -m tools.bank_spec_search``                  the bank specification search table of
                                                      docs/bank-validation.md
``python3 -m tools.experiment_pair_classifier [C]``    experiments of issue 15 (docs/labelling-guide.md,
``python3 -m tools.experiment_pair_prior [N S CUE]``   "Experiments"): readers tried and not used; their
``tools/experiment_dependency_reader.py``              documented figures are of the reader of their session
====================================================  ======================================================

Run from the repository root with the checkout first on the path (``PYTHONPATH=.``, or ``python3 -m
tools.X``), as the README runs ``aieco``. The gold selection scripts also run as ``python3 tools/X.py``
without it: they put the checkout on the path themselves, in their ``__main__`` block only.
"""
