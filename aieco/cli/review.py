"""`aieco review RELATION_ID`: an analyst accepts, rejects or corrects a relation."""

from __future__ import annotations

import click

from aieco.cli.base import CliState, common, emit, main, pass_state
from aieco.errors import InputError


@main.command()
@click.argument("relation_id")
@click.option("--accept", "accept", is_flag=True, help="Confirm the relation.")
@click.option("--reject", "reject", is_flag=True, help="Take the relation out of every path and report.")
@click.option(
    "--sign",
    "sign",
    type=click.Choice(["+", "-", "non-monotone", "ambiguous", "absent"]),
    default=None,
    help="Correct the sign (writes a corrected relation; both records stay).",
)
@click.option(
    "--vars", "variables", nargs=2, default=None, metavar="SRC DST", help="Correct the source and target variables."
)
@click.option("--note", default="", help="The reason for the decision.")
@click.option("--analyst", default=None, help="Who decides (default: $AIECO_ANALYST or the login name).")
@common
@pass_state
def review(
    state: CliState,
    relation_id: str,
    accept: bool,
    reject: bool,
    sign: str | None,
    variables: tuple[str, str] | None,
    note: str,
    analyst: str | None,
) -> None:
    """Accept, reject or correct one relation; the decision is an append-only ReviewDecision."""
    from aieco.review import review_relation

    correct = sign is not None or bool(variables)
    if accept + reject + correct != 1:
        raise InputError(
            "give exactly one of --accept, --reject, or a correction (--sign, --vars)",
            where="aieco review",
            fix="e.g. `aieco review rel_… --sign - --note 'reads downside risk'`",
        )
    action = "accept" if accept else "reject" if reject else "correct"
    src, dst = variables if variables else (None, None)
    with state.store(create=False) as store:
        d = review_relation(store, relation_id, action, sign=sign, src_var=src, dst_var=dst, note=note, analyst=analyst)
    emit(
        state,
        d.model_dump(mode="json"),
        lambda r: (
            f"{r['decision_id']}: {r['action']} {r['relation_id']} by {r['analyst']} at {r['decided_at']}"
            + (f" → {r['corrected_relation_id']}" if r["corrected_relation_id"] else "")
        ),
    )


@main.command("review-queue")
@click.option("--analysis", "analysis_id", default=None, help="Analysis id (default: the latest analysis).")
@common
@pass_state
def review_queue_cmd(state: CliState, analysis_id: str | None) -> None:
    """The relations an analysis rests on (its restrictions' support, its reports' citations), unreviewed first."""
    from aieco.records import Analysis
    from aieco.review import review_queue

    with state.store(create=False) as store:
        if analysis_id is None:
            analyses = sorted(store.all(Analysis), key=lambda a: (a.created_at, a.analysis_id))
            if not analyses:
                raise InputError(
                    "the workspace has no analysis",
                    where=str(store.path),
                    fix="run one first: `aieco analyze REQUEST.toml` or `aieco default`",
                )
            analysis_id = analyses[-1].analysis_id
        elif store.get(Analysis, analysis_id) is None:
            raise InputError(
                f"no analysis {analysis_id!r} in this workspace",
                where="--analysis",
                fix="give the id `aieco analyze` or `aieco default` printed, or leave --analysis out (the latest)",
            )
        rows = review_queue(store, analysis_id)

    def text(rs: list[dict]) -> str:
        if not rs:
            return f"{analysis_id}: no stored restriction or report rests on a relation"
        out = [f"{analysis_id}: {sum(r['decision'] is None for r in rs)} of {len(rs)} relations not reviewed"]
        for r in rs:
            out.append(f"{r['relation_id']}  {r['src_var']} {r['sign']}→ {r['dst_var']}  [{r['reading']}]")
            out.append(f"    “{r['quote']}”")
            out.append(f"    reader: {r['reader']}")
            out.append("    used by: " + "; ".join(r["uses"]))
        out.append("decide with `aieco review RELATION_ID --accept | --reject | --sign … --note …`")
        return "\n".join(out)

    emit(state, {"analysis_id": analysis_id, "relations": rows}, lambda d: text(d["relations"]))
