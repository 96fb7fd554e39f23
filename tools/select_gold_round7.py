"""Sentence selection of the seventh labelling round of the extraction gold set (issue 15, held back).

``python3 tools/select_gold_round7.py FOLDER > selection.json``: the sixth round's selection
(``tools/select_gold_round6.py``: the fourth round's screen, then sentences repeating an earlier
round's sentence dropped) on the seventh round's pages (``tools/build_extraction_gold.py``:
ROUND7_DOCUMENTS); ids continue after g1418 and earlier rounds are rounds 1-6. No reader, parser or
model runs here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

START = 1419

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.build_extraction_gold import OUT, ROUND7_FILES
    from tools.select_gold_round4 import select
    from tools.select_gold_round6 import earlier_sentences, repeats

    earlier = earlier_sentences(OUT, START)
    rows = [r for r in select(Path(sys.argv[1]), ROUND7_FILES, start=START) if not repeats(r["text"], earlier)]
    json.dump(rows, sys.stdout, ensure_ascii=False, indent=1)
