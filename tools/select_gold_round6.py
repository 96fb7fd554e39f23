"""Sentence selection of the sixth labelling round of the extraction gold set (issue 15, the new held-back part).

``python3 tools/select_gold_round6.py FOLDER > selection.json`` applies the fourth round's screen
(``tools/select_gold_round4.select``: two vocabulary variables, or one with a causal cue, plus a
seeded sample of six other sentences per page) unchanged to the sixth round's pages
(``tools/build_extraction_gold.py``: ROUND6_DOCUMENTS); ids continue after g1155. No reader, parser
or model runs here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

START = 1156

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.build_extraction_gold import ROUND6_FILES
    from tools.select_gold_round4 import select

    json.dump(select(Path(sys.argv[1]), ROUND6_FILES, start=START), sys.stdout, ensure_ascii=False, indent=1)
