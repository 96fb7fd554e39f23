"""Sentence selection of the sixth labelling round of the extraction gold set (issue 15, the new held-back part).

``python3 tools/select_gold_round6.py FOLDER > selection.json`` applies the fourth round's screen
(``tools/select_gold_round4.select``: two vocabulary variables, or one with a causal cue, plus a
seeded sample of six other sentences per page) unchanged to the sixth round's pages
(``tools/build_extraction_gold.py``: ROUND6_DOCUMENTS); ids continue after g1155.

Then it drops every selected sentence that repeats a sentence of rounds 1-5 (``repeats``): central
banks reuse their own wording from one statement to the next (a testimony's template, a press
statement's paragraph echoed in the deliberations), and a repeated sentence in the held-back part
would score the reader on text it was developed on. The rule reads sentence texts only, never a
label or a reader's output; it was fixed before any reader ran on the round. Ids stay those of the
screen, so a dropped sentence leaves a gap. No reader, parser or model runs here.
"""

from __future__ import annotations

import difflib
import json
import re
import sys
from functools import cache
from pathlib import Path

START = 1156
#: A sentence repeats an earlier one when the two share at least half of the shorter one's words and
#: their normalised texts (lower case, words only) match with a ``difflib`` ratio of at least
#: REPEAT_RATIO (autojunk off, so long sentences compare fully). The word test only saves time.
REPEAT_RATIO = 0.8
SHARED_WORDS = 0.5


@cache
def _norm(text: str) -> tuple[str, frozenset[str]]:
    """The normalised text and its words; cached, since every candidate is compared with the same earlier rounds."""
    a = re.sub(r"\W+", " ", text.lower()).strip()
    return a, frozenset(a.split())


def repeats(text: str, earlier: list[str]) -> bool:
    """Whether ``text`` repeats one of ``earlier`` (shared words, then normalised ``difflib`` ratio)."""
    a, words = _norm(text)
    for e in earlier:
        b, other = _norm(e)
        if len(words & other) < SHARED_WORDS * min(len(words), len(other)):
            continue
        if difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= REPEAT_RATIO:
            return True
    return False


def earlier_sentences(gold_file: Path, start: int = START) -> list[str]:
    """Texts of the gold file's sentences before id ``start`` (the earlier rounds)."""
    rows = (json.loads(line) for line in gold_file.read_text(encoding="utf-8").splitlines())
    return [r["text"] for r in rows if int(r["id"][1:]) < start]


if __name__ == "__main__":
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    from tools.build_extraction_gold import OUT, ROUND6_FILES
    from tools.select_gold_round4 import select

    earlier = earlier_sentences(OUT)
    rows = [r for r in select(Path(sys.argv[1]), ROUND6_FILES, start=START) if not repeats(r["text"], earlier)]
    json.dump(rows, sys.stdout, ensure_ascii=False, indent=1)
