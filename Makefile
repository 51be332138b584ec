# The two commands of the compendium (see README.md):
#   make test                 set up .venv if needed, then run the test suite
#   make book [PROFILE=paper] set up .venv if needed, execute every notebook with papermill
#                             at the given parameter profile, build the book (-W), then
#                             check it offline and in headless Chromium
#                             (LAYOUT=warn: tables wider than the text column, shrunk or
#                             too tall figures, overlapping labels, long legends and
#                             captions, cut-off code are reported as warnings, not failures)
PROFILE ?= paper
# notebooks executed at once by `make notebooks` (book/execute.py --jobs)
JOBS ?= 2
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
# The peer tools (the Weka IP plugin's sources, JNCC2's jar): outside the project, never
# copied into it (the chapter reads $CREDAL_PEERS, by default the same folder).
PEERS_DIR ?= ../shared/peers
IP_PLUGIN_SRC := $(PEERS_DIR)/weka-ip-plugin/weka-3.7-IP-Plugin-src
JNCC2_JAR := $(PEERS_DIR)/jncc2/jncc2Rel1.11/jncc2-rel1.11.jar
IP_TIMER := build/ip-plugin/weka/classifiers/credalClassifiers/credalNB/IpPluginTimer.class
JNCC2_TIMER := build/jncc2/jncc20/Jncc2Timer.class
export CREDAL_PEERS := $(abspath $(PEERS_DIR))

.PHONY: test book notebooks notebook html clean setup weka peers

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[book,test]'
	touch $(STAMP)

test: $(STAMP) weka peers
	$(PY) -m pytest

# Execute every notebook listed in book/_toc.yml at PROFILE, then build the HTML book.
book: notebooks html

notebooks: $(STAMP) weka peers
	$(PY) book/execute.py --profile $(PROFILE) --jobs $(JOBS)

# One notebook: make notebook NB=datasets PROFILE=smoke
notebook: $(STAMP) weka peers
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

# The timers of the Weka IP plugin (compiled with the plugin's sources against Weka's jar)
# and of JNCC2 1.11, for the performance chapter's peer table; without them the chapter
# leaves those rows out, so a failure here does not stop the build.
peers: weka
	@$(MAKE) -s --no-print-directory $(IP_TIMER) || \
	  echo "The Weka IP plugin's timer was not built: the performance chapter will leave its rows out" >&2
	@$(MAKE) -s --no-print-directory $(JNCC2_TIMER) || \
	  echo "The JNCC2 timer was not built: the performance chapter will leave its rows out" >&2

$(IP_TIMER): benchmarks/ip_plugin/IpPluginTimer.java
	@test -f $(WEKA_JAR) && test -d $(IP_PLUGIN_SRC) && command -v javac >/dev/null 2>&1 || \
	  { echo "The Weka IP plugin's timer needs $(WEKA_JAR), javac and the plugin's sources in $(IP_PLUGIN_SRC)" >&2; exit 1; }
	mkdir -p build/ip-plugin
	javac -encoding ISO-8859-1 -nowarn -cp $(WEKA_JAR) -sourcepath $(IP_PLUGIN_SRC) -d build/ip-plugin $<

$(JNCC2_TIMER): benchmarks/jncc2/Jncc2Timer.java
	@test -f $(JNCC2_JAR) && command -v javac >/dev/null 2>&1 || \
	  { echo "The JNCC2 timer needs javac and $(JNCC2_JAR)" >&2; exit 1; }
	mkdir -p build/jncc2
	javac -cp $(JNCC2_JAR) -d build/jncc2 $<

clean:
	rm -rf book/_build book/generated build results .pytest_cache .hypothesis
