# The two commands of the README quick start:
#   make run   - the whole service on the embedded defaults (SQLite, filesystem broker)
#   make test  - install the test tools and run the whole suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint
run: $(VENV)/.installed
	$(BIN)/python manage.py serve

test: $(VENV)/.installed-dev
	$(BIN)/python tests/run.py $(ARGS)

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

$(VENV)/.installed: requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python manage.py compiletranslations
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	$(BIN)/python manage.py compiletranslations
	touch $(VENV)/.installed $@
