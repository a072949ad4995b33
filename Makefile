# Two commands for a fresh clone: `make run` starts the app, `make test` runs every test.
# Both install what they need into .venv inside the checkout.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PORT ?= 8501

.PHONY: install run test lint chromium bench fuzz check golden clean

install: $(STAMP)

# The engine (trainer/engine/game.py) is compiled with mypyc when possible; if the C build fails the
# package is installed as plain Python, which behaves identically, only slower.
$(STAMP): pyproject.toml setup.py trainer/engine/game.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,bench]' || \
		COUP_TRAINER_PURE_PYTHON=1 $(PY) -m pip install --quiet -e '.[dev,bench]'
	$(PY) -c "from trainer.engine.build import engine_build; print('engine build:', engine_build())"
	touch $(STAMP)

run: install
	$(VENV)/bin/streamlit run streamlit_app.py --server.port $(PORT) --browser.gatherUsageStats false

chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "Installing Debian's chromium for the browser tests"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; \
	fi

lint: install
	$(PY) -m ruff check .

# The storage tests also run against a throwaway PostgreSQL when one can be started (see
# scripts/test-postgres.sh); it is stopped afterwards whatever pytest's result, which is kept.
test: install chromium lint
	@pg_url=$$(scripts/test-postgres.sh start | tail -n 1); \
	if [ -n "$$pg_url" ]; then export COUP_TRAINER_TEST_PG_URL="$$pg_url"; \
	else echo "PostgreSQL unavailable: the storage tests run on SQLite only"; fi; \
	trap 'scripts/test-postgres.sh stop' INT TERM; \
	status=0; $(PY) -m pytest || status=$$?; \
	scripts/test-postgres.sh stop; \
	exit $$status
	@echo "The same rule and property tests against the plain-Python build of the engine:"
	COUP_TRAINER_PURE_PYTHON=1 $(PY) -m pytest tests/test_rules_*.py tests/test_properties.py

check: install
	$(PY) -m trainer check scenarios/*.yaml

fuzz: install
	$(PY) -m trainer fuzz --games 100000

bench: install
	$(PY) bench/engine.py

# The perft files and golden playthroughs in tests/data, written from the engine as it is: only
# after a deliberate rules change, then review `git diff tests/data` (docs/engine.md).
golden: install
	$(PY) -m trainer golden

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis artifacts
