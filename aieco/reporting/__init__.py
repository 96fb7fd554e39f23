"""Claims, OutputTests, numeric contract, token renderer, export and claim audit (§3.5).

- ``claims``: ``ClaimSpec``, ``register_output_tests`` (before the run), ``link_claims`` (after it),
  ``output_test_failures`` (Eq. outputtestpass), ``passed_claims``.
- ``contract``: ``check_numeric_contract`` — the one contract used at generation and after execution.
- ``render``: ``render_report`` (store + StageStopped on failure), ``check_report_draft``,
  ``resolve_claim``, ``direction_violations``, ``short_reference``, ``rebuild_report``, ``stored_draft``.
- ``writer``: ``write_report`` — the offline report Task; ``schema``: its input/output models.
- ``export``: ``export_report(store, report_id, fmt)`` and ``verify_bundle(bytes)``.
- ``audit``: ``audit_claims``, one of ``aieco.audit.CHECKS``.
"""
