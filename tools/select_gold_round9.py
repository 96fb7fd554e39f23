"""Sentence selection of the ninth labelling round of the extraction gold set (issue 30, the new blind held-back part).

``python3 tools/select_gold_round9.py FOLDER > selection.json``: the eighth round's selection
(``tools/select_gold_round8.py``: the fourth round's screen, then sentences repeating an earlier
round's sentence dropped) on the ninth round's pages (``tools/build_extraction_gold.py``:
ROUND9_DOCUMENTS); ids continue after g2018 and earlier rounds are rounds 1-8. No reader, parser or
model runs here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

START = 2019

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.build_extraction_gold import OUT, ROUND9_FILES
    from tools.select_gold_round4 import select
    from tools.select_gold_round6 import earlier_sentences, repeats

    earlier = earlier_sentences(OUT, START)
    rows = [r for r in select(Path(sys.argv[1]), ROUND9_FILES, start=START) if not repeats(r["text"], earlier)]
    json.dump(rows, sys.stdout, ensure_ascii=False, indent=1)
