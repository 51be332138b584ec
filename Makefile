# The two commands of the compendium (see README.md):
#   make test                 set up .venv if needed, then run the test suite
#   make book [PROFILE=paper] set up .venv if needed, execute every notebook with papermill
#                             at the given parameter profile, build the book (-W), then
#                             check it offline and in headless Chromium
#                             (LAYOUT=warn: tables wider than the text column, shrunk or
#                             too tall figures, overlapping labels, long legends and
#                             captions, cut-off code are reported as warnings, not failures)
PROFILE ?= paper
LAYOUT ?= fail
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
NB ?=
CHROMIUM ?= /usr/bin/chromium
WEKA_JAR ?= /usr/share/java/weka.jar
WEKA_TIMER := build/weka/WekaTimer.class
export WEKA_JAR

.PHONY: test book notebooks notebook html clean setup weka

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[book,test]'
	touch $(STAMP)

test: $(STAMP) weka
	$(PY) -m pytest

# Execute every notebook listed in book/_toc.yml at PROFILE, then build the HTML book.
book: notebooks html

notebooks: $(STAMP) weka
	$(PY) book/execute.py --profile $(PROFILE)

# One notebook: make notebook NB=datasets PROFILE=smoke
notebook: $(STAMP) weka
	$(PY) book/execute.py --profile $(PROFILE) --only $(NB)

html: $(STAMP) $(CHROMIUM)
	$(VENV)/bin/jupyter-book build book --warningiserror --keep-going
	$(PY) book/check_offline.py book/_build/html
	$(PY) book/check_browser.py book/_build/html --chromium $(CHROMIUM) --layout $(LAYOUT)

# Headless Chromium (Debian package) opens every built page in book/check_browser.py.
$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else \
	  echo "The browser check needs Chromium at $(CHROMIUM): install the Debian package 'chromium' (or set CHROMIUM=/path/to/chromium)" >&2; exit 1; \
	fi

# Weka 3.6 and a JDK (Debian packages) for the performance chapter's comparison with
# Weka: installed when missing if make runs as root; otherwise the chapter leaves the
# Weka columns out, so a failure here does not stop the build.
weka:
	@$(MAKE) -s --no-print-directory $(WEKA_TIMER) || \
	  echo "Weka or a JDK is missing: the performance chapter will leave the Weka columns out" >&2

$(WEKA_TIMER): benchmarks/weka/WekaTimer.java
	@if [ ! -f $(WEKA_JAR) ] || ! command -v javac >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq weka default-jdk-headless; \
	  else \
	    echo "The comparison with Weka needs $(WEKA_JAR) and javac: install the Debian packages 'weka' and 'default-jdk-headless' (or set WEKA_JAR=/path/to/weka.jar)" >&2; exit 1; \
	  fi; \
	fi
	mkdir -p $(@D)
	javac -cp $(WEKA_JAR) -d $(@D) $<

clean:
	rm -rf book/_build book/generated build results .pytest_cache .hypothesis
