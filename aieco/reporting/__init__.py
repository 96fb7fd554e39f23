"""Claims, OutputTests, numeric contract, token renderer, export and claim audit (§3.5).

- ``claims``: ``ClaimSpec``, ``register_output_tests`` (before the run), ``link_claims`` (after it),
  ``output_test_failures`` (Eq. outputtestpass), ``passed_claims``.
- ``contract``: ``check_numeric_contract`` — the one contract used at generation and after execution.
- ``rules``: the one direction and attribution rule set (variable named vs claim, direction vs value and
  vs cited relation, plain-text ``[rel:ID]`` citations), applied through ``render.check_report_draft``
  by the report stage, ``check-report`` and the renderer alike.
- ``render``: ``render_report`` (store + StageStopped on failure), ``check_report_draft``,
  ``resolve_claim``, ``direction_violations``, ``short_reference``, ``rebuild_report``, ``stored_draft``.
- ``writer``: ``write_report`` — the offline report Task; ``schema``: its input/output models.
- ``export``: ``export_report(store, report_id, fmt)`` (with the fan chart in HTML and PDF) and
  ``verify_bundle(bytes)`` (CLI: ``aieco report verify``).
- ``audit``: ``audit_claims``, one of ``aieco.audit.CHECKS``.
"""
