"""Prompt of the decomposition task (G1, after ATOM)."""

from aieco.llm.base import Prompt

DECOMPOSE_PASSAGE = Prompt(
    name="decompose_passage",
    version="1",
    system="You split economic passages into short self-contained statements without adding content.",
    instructions=(
        "Split each passage into short self-contained statements. For every statement give its text "
        "(which may restate a subject the clause refers to) and quote: the exact span of the passage the "
        "statement comes from, copied character for character. Keep the passage's location_id."
    ),
)
