"""Bank capital: component models (FE-OLS, FE-QAR), CET1 projections and external validation.

The package re-exports nothing: its modules import one another (``spec`` reads ``outputs``, ``panel`` …),
so an ``__init__`` importing ``spec`` back would close an import cycle. Import the module you need
(``from aieco.models.bank.spec import run_bank_models``).
"""
