PY ?= python3

.PHONY: install test lint bench demo app

install:
	$(PY) -m pip install -e '.[test]'

test:
	$(PY) -m pytest

lint:
	$(PY) -m ruff check aieco tests app.py dashboard pages tools
	$(PY) -m ruff format --check aieco tests app.py dashboard pages tools
	lint-imports

bench:
	aieco bench --json

demo:
	aieco demo
