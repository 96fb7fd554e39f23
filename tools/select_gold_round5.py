"""Sentence selection of the fifth labelling round of the extraction gold set (issue 15, development).

``python3 tools/select_gold_round5.py FOLDER > selection.json`` applies the fourth round's screen
(``tools/select_gold_round4.select``: two vocabulary variables, or one with a causal cue, plus a
seeded sample of six other sentences per page) unchanged to the fifth round's pages
(``tools/build_extraction_gold.py``: ROUND5_DOCUMENTS); ids continue after g951. No reader, parser
or model runs here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

START = 952

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.build_extraction_gold import ROUND5_FILES
    from tools.select_gold_round4 import select

    json.dump(select(Path(sys.argv[1]), ROUND5_FILES, start=START), sys.stdout, ensure_ascii=False, indent=1)
