"""A corpus of N byte-distinct copies of the default workspace's real ESRB document (benchmarks, tests).

Each copy is the shipped PDF with one PDF comment line appended after ``%%EOF`` (``%aieco copy i``):
readers ignore it, the text and pages are the original's, and the bytes — hence the Source ids —
differ, so every copy is registered and parsed as its own document.
"""

from __future__ import annotations

from pathlib import Path

import tomli_w

CORPUS = Path(__file__).resolve().parents[1] / "default" / "corpus"
DOCUMENT = CORPUS / "esrb-2018-adverse-scenario.pdf"


def write_copies(folder: Path, n: int) -> Path:
    """Write ``n`` copies and their manifest into ``folder``; returns the manifest path."""
    folder.mkdir(parents=True, exist_ok=True)
    data = DOCUMENT.read_bytes()
    entries = []
    for i in range(1, n + 1):
        name = f"esrb-2018-copy-{i:04d}.pdf"
        (folder / name).write_bytes(data + f"\n%aieco copy {i}\n".encode())
        entries.append(
            {
                "path": name,
                "title": f"Adverse macro-financial scenario for the 2018 EU-wide banking sector stress test (copy {i})",
                "publisher": "ESRB",
                "publication_date": "2018-01-16",
                "role": "generation",
                "jurisdiction": "EU",
                "note": "Byte-distinct copy of the real ESRB document (benchmark corpus).",
            }
        )
    manifest = folder / "sources.toml"
    manifest.write_text(tomli_w.dumps({"source": entries}), encoding="utf-8")
    return manifest
