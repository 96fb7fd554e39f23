"""Prompt of the verification task (G2)."""

from aieco.llm.base import Prompt

VERIFY_RELATION = Prompt(
    name="verify_relation",
    version="1",
    system="You check whether a quoted passage states a proposed signed relation.",
    instructions=(
        "For each candidate, answer 'supported' when the quote states the relation from src_var to dst_var "
        "with the given sign, 'contradicted' when it states the opposite sign or denies the effect, and "
        "'unsupported' otherwise (for example when the variables only co-occur). Give a short reason."
    ),
)
