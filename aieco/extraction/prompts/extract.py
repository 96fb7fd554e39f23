"""Prompt of the relation-extraction task (G0)."""

from aieco.llm.base import Prompt

EXTRACT_RELATIONS = Prompt(
    name="extract_relations",
    version="1",
    system=(
        "You read euro-area macro-financial texts and record signed economic relations between "
        "variables of a controlled vocabulary. You never invent relations a sentence does not state."
    ),
    instructions=(
        "For each statement, list every relation it states between two distinct vocabulary variables. "
        "src_var and dst_var are vocabulary ids. sign is '+' when an increase in src_var raises dst_var, "
        "'-' when it lowers it, 'absent' when the text denies an effect, 'non-monotone' or 'ambiguous' "
        "otherwise. quote is the exact statement text. evidence_class is 'descriptive' unless the statement "
        "reports an estimate (predictive, structural or causal with stated identification), an identity "
        "(accounting) or a rule (institutional); a verb such as 'causes' never makes a relation causal. "
        "confidence is in [0, 1]; lower it for hedged statements. Co-occurrence is not a relation."
    ),
)
