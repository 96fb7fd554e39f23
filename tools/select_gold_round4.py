"""Sentence selection of the fourth labelling round of the extraction gold set (issue 15).

``python3 tools/select_gold_round4.py FOLDER > selection.json`` reads the round's web pages from
FOLDER (files named in ``tools/build_extraction_gold.py``: ROUND4_DOCUMENTS) as the workbench reads
an HTML source (``aieco.sources.text.html_to_text``, one passage per paragraph, page 1), splits them
with the candidate screen's splitter and keeps, in document order:

- every sentence naming two vocabulary variables (plain synonym match, ``Vocabulary.mentions``);
- every sentence naming one with a causal cue (CAUSAL_CUE below);
- a seeded sample (seed 15) of SAMPLE_PER_DOCUMENT other sentences of each page.

A sentence repeated on a page is taken once. Ids continue after START. Only the sentence screen and
the vocabulary are used: no reader, parser or model runs here.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

from aieco.extraction.screen import split_sentences
from aieco.sources.text import html_to_text
from aieco.vocab import load_vocabulary

#: Words that state or suggest an effect (the screen's causal cue, fixed before reading the pages).
CAUSAL_CUE = re.compile(
    r"\b(?:lead(?:s|ing)?\s+to|led\s+to|caus\w*|result(?:s|ed|ing)?\s+in|as\s+a\s+result|because|due\s+to|"
    r"driv\w*|weigh\w*|boost\w*|support\w*|rais\w*|lower\w*|reduc\w*|increas\w*|decreas\w*|push\w*|"
    r"pressure\w*|affect\w*|impact\w*|effect\w*|contribut\w*|dampen\w*|amplif\w*|exacerbat\w*|spill\w*|"
    r"transmi\w*|pass(?:ed|es)?[\s-]+through|feed(?:s|ing)?\s+(?:into|through)|fed\s+(?:into|through)|"
    r"reflect\w*|stem\w*|hit\w*|hurt\w*|damp\w*|fuel\w*|tighten\w*|eas(?:e|ed|es|ing)\b|curb\w*|"
    r"stimulat\w*|slow\w*|fall\w*|fell|rise|rising|rose|risen|decline\w*|would|could|may|might)\b",
    re.IGNORECASE,
)
SEED = 15
SAMPLE_PER_DOCUMENT = 6
START = 708


def page_sentences(path: Path) -> list[str]:
    paras = re.split(r"\n\s*\n", html_to_text(path.read_text(encoding="utf-8")))
    return [s for p in paras for s in split_sentences(p)]


def select(folder: Path, files: list[str], start: int = START, read=None) -> list[dict]:
    """The screen's rows for ``files`` in FOLDER; ``read`` (a path's sentences) defaults to ``page_sentences``."""
    read = read or page_sentences
    vocab = load_vocabulary()
    rng = random.Random(SEED)
    rows: list[dict] = []
    for name in files:
        seen: set[str] = set()
        kept, others = [], []
        for s in read(folder / name):
            if s in seen:
                continue
            seen.add(s)
            named = {m.variable_id for m in vocab.mentions(s)}
            if len(named) >= 2 or (len(named) == 1 and CAUSAL_CUE.search(s)):
                kept.append(s)
            else:
                others.append(s)
        sample = set(rng.sample(others, min(SAMPLE_PER_DOCUMENT, len(others))))
        order = [s for s in dict.fromkeys(kept + list(sample))]
        position: dict[str, int] = {}
        for i, s in enumerate(read(folder / name)):
            position.setdefault(s, i)
        for s in sorted(order, key=lambda t: position[t]):
            rows.append({"file": name, "page": 1, "text": s})
    for i, r in enumerate(rows):
        r["id"] = f"g{start + i:03d}"
    return rows


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.build_extraction_gold import ROUND4_FILES

    json.dump(select(Path(sys.argv[1]), ROUND4_FILES), sys.stdout, ensure_ascii=False, indent=1)
