# Two commands for a fresh clone: `make run` starts the app, `make test` runs every test.
# Both install what they need into .venv inside the checkout.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# `make run` and `make test` may start together on a fresh clone: one installs, the other waits
# for this lock and then finds the install done.
INSTALL_LOCK := .install.lock
PORT ?= 8501
# `make run` serves this computer only: the app holds every learner's answers, names and rooms.
# `make run LAN=1` opens it to the network (0.0.0.0), so phones on the same Wi-Fi can join a
# room (docs/rooms.md).
LAN ?=
ADDRESS := $(if $(filter 1,$(LAN)),0.0.0.0,127.0.0.1)
# More `streamlit run` options, e.g. ARGS="--server.headless false".
ARGS ?=
# `make serve`: this many app processes behind HAProxy, at most one per core (more than 1
# needs DB, a PostgreSQL URL, or COUP_TRAINER_DB_URL exported; docs/rooms.md).
WORKERS ?= 2
DB ?=
# A C compiler here means the engine must be compiled; without one the plain-Python build is fine.
HAVE_CC := $(shell command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 && echo 1)

.PHONY: install run serve test screenshots lint typecheck layers engine-check wheel-check chromium \
	haproxy bench fuzz check golden clean

install:
	@flock $(INSTALL_LOCK) $(MAKE) --no-print-directory $(STAMP)

# The engine (trainer/engine/game.py) is compiled with mypyc when possible; if the C build fails the
# package is installed as plain Python, which behaves identically, only slower (`make test` then
# fails if a C compiler is present: see engine-check).
$(STAMP): pyproject.toml setup.py trainer/engine/game.py trainer/engine/observation.py \
		trainer/engine/frozen.py trainer/policies/personas.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,bench,fast]' || \
		COUP_TRAINER_PURE_PYTHON=1 $(PY) -m pip install --quiet -e '.[dev,bench,fast]'
	$(PY) -c "from trainer.engine.build import engine_build; print('engine build:', engine_build())"
	touch $(STAMP)

run: install
	$(VENV)/bin/streamlit run streamlit_app.py --server.port $(PORT) --server.address $(ADDRESS) \
		--browser.gatherUsageStats false $(ARGS)

# For a school: `make serve WORKERS=2 DB=postgresql+psycopg://user:password@host/db [LAN=1]`
# serves the app from WORKERS processes behind HAProxy, sticky by a cookie, sharing one
# PostgreSQL database (python -m trainer serve; docs/rooms.md). The URL reaches the command
# in its environment, not its arguments, which every user of the machine can read in `ps`.
serve: install haproxy
	@$(if $(DB),COUP_TRAINER_DB_URL='$(DB)') $(PY) -m trainer serve --workers $(WORKERS) \
		--port $(PORT) $(if $(filter 1,$(LAN)),--lan) $(if $(ARGS),-- $(ARGS))

chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "Installing Debian's chromium for the browser tests"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; \
	fi

# Debian's HAProxy, for `make serve` with several workers and for its tests.
haproxy:
	@if ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ]; then \
		echo "Installing Debian's haproxy for make serve and its tests"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq haproxy; \
	fi

lint: install
	$(PY) -m ruff check .

# mypy --strict on trainer/ (settings in pyproject.toml).
typecheck: install
	$(PY) -m mypy

# The layers of docs/architecture.md, as import-linter contracts in pyproject.toml.
layers: install
	$(VENV)/bin/lint-imports

# With a C compiler at hand, a plain-Python engine means the mypyc build failed: an error here.
engine-check: install
	@build=$$($(PY) -c "from trainer.engine.build import engine_build; print(engine_build())") || exit 1; \
	if [ "$(HAVE_CC)" = 1 ] && [ "$$build" != compiled ]; then \
		echo "error: a C compiler is present but the engine runs as $$build: the mypyc build of"; \
		echo "  trainer/engine/game.py failed (its error is in the install output above). Fix it, then"; \
		echo "  run 'rm $(STAMP) && make test' to install again."; \
		exit 1; \
	fi; \
	echo "engine build: $$build"

# The release: the sdist and the wheel, the wheel installed in a clean environment and used.
wheel-check: install
	PYTHON=$(PYTHON) scripts/check-wheel.sh $(PY)

# Every test and check: ruff, mypy, import-linter, the main test run (nothing skipped for want
# of PostgreSQL or the compiled engine), the rule tests again on the plain-Python engine and the
# wheel check, the last two beside the rest (scripts/make-test.sh says why and how).
test: install engine-check chromium haproxy
	@scripts/make-test.sh $(PY) $(HAVE_CC)

# The browser tests again, saving screenshots of every page they visit at every size to
# artifacts/screenshots/ for people to look at (a plain `make test` measures the same pages
# without writing the images).
screenshots: install chromium
	COUP_TRAINER_SCREENSHOTS=1 $(PY) -m pytest -n 2 --dist loadfile tests/browser

# Every lesson and every rule case (scenarios/rules/: not lessons, but checked the same way).
check: install
	$(PY) -m trainer check scenarios/*.yaml scenarios/rules/*.yaml

fuzz: install
	$(PY) -m trainer fuzz --games 100000

# Perft counts and golden playthroughs (tests/data/) written anew: only after a deliberate rules
# change, reviewing the diff (`python -m trainer golden --check` compares without writing).
golden: install
	$(PY) -m trainer golden

bench: install
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis artifacts build dist *.egg-info
