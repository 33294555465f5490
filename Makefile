# FrameLink — the two commands a newcomer needs are `make demo` and `make test`.
# Every target installs what it needs on a fresh Debian machine (run as root, as CI does).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

SWIFT ?= swift
APT_PACKAGES := libsdl2-dev libsdl2-image-dev libsdl2-ttf-dev xvfb xauth fonts-dejavu-core valgrind xdotool python3
OUT := out
DEMO_FRAMES ?= 600
LINT_PATHS := Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Benchmarks Examples/MinimalGame/Package.swift \
  Examples/MinimalGame/Sources Fuzz/Package.swift Fuzz/Sources
FUZZ_SECONDS ?= 600
PACE_FRAMES ?= 6000
PACE_PACERS ?=

.PHONY: help deps build lint test snippets example fuzz sweep bench pace docs api-check leaks demo plot clean

help:
	@echo "make demo   run AnimDemo (a window if there is a display, else under Xvfb or headless)"
	@echo "make test   install dependencies, lint, build without warnings, run every test"
	@echo "make snippets  compile every Swift snippet of README.md and the DocC articles (part of make test)"
	@echo "make fuzz   fuzz frame-log reading and the pacing sources, 10 minutes each (FUZZ_SECONDS=N to change)"
	@echo "make sweep  PresentSource on 100,000 random simulated displays, judged against the ground truth"
	@echo "make bench  frame-loop benchmarks (package-benchmark, mallocs counted)"
	@echo "make pace   deadline pacing, quiet and under CPU load, against ../shared/probes/vs.c (PACE_FRAMES=N, PACE_PACERS=list)"
	@echo "make docs   DocC documentation (warnings are errors) into out/docs"
	@echo "make plot   plot FrameLink's vsync timestamps against a simulated display's true vsync (SVG)"
	@echo "make api-check  public API compared with the newest version in CHANGELOG.md (breaking changes fail)"
	@echo "make leaks  AnimDemo and the XCTest suites under valgrind (LEAKS_ASAN=1 adds Swift Testing under LSan)"
	@echo "make lint   swift-format lint with the checked-in .swift-format"

# System packages: installed only when missing (apt-get update first, as a fresh machine needs).
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "error: need root to apt-get install$$missing" >&2; exit 1; fi; \
	  DEBIAN_FRONTEND=noninteractive apt-get update -qq; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# Builds everything (tests included) and fails on any warning in our own code.
build: deps
	@mkdir -p $(OUT)
	$(SWIFT) build --build-tests 2>&1 | tee $(OUT)/build.log
	@if grep -E "^$(CURDIR)/(Sources|Tests)/.*warning:" $(OUT)/build.log; then \
	  echo "error: the build has warnings (see above); FrameLink builds warning-free" >&2; exit 1; fi

lint:
	swift-format lint --strict --recursive $(LINT_PATHS)

# Every test: logic on virtual time (Swift Testing + XCTest), SDL with the dummy driver, and a real
# window under Xvfb (xvfb-run gives the test process a display).
test: deps lint build
	@status=0; xvfb-run -a -s "-screen 0 1280x720x24" $(SWIFT) test --skip-build 2>&1 | tee $(OUT)/test.log || status=$$?; \
	if [ $$status != 0 ]; then \
	  echo "error: swift test failed (exit $$status); the failures, from $(OUT)/test.log:" >&2; \
	  grep -E "error: |[: ]failed|✘|Fatal error|Crash|Segmentation|signal [0-9]|Exited with" $(OUT)/test.log | grep -v "passed after" | tail -40 >&2; \
	  exit $$status; fi
	@echo "QueueTimer tests again under the thread sanitizer:"
	$(SWIFT) test --scratch-path .build-tsan --sanitize=thread --filter QueueTimerTests 2>&1 | tee $(OUT)/test-tsan.log
	@if grep -q "ThreadSanitizer" $(OUT)/test-tsan.log; then echo "error: ThreadSanitizer reported races" >&2; exit 1; fi
	$(MAKE) --no-print-directory example
	$(MAKE) --no-print-directory snippets
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=60
	$(MAKE) --no-print-directory sweep SWEEP_SCENARIOS=1000 SWEEP_ALLOWED_FAILURES=$(SWEEP_CEILING)
	$(MAKE) --no-print-directory docs
	@swift_testing=$$(grep -oE "Test run with [0-9]+ tests" $(OUT)/test.log | tail -1 | grep -oE "[0-9]+"); \
	xctest=$$(grep -oE "Executed [0-9]+ tests" $(OUT)/test.log | tail -1 | grep -oE "[0-9]+"); \
	tsan=$$(grep -oE "Test run with [0-9]+ tests" $(OUT)/test-tsan.log | tail -1 | grep -oE "[0-9]+"); \
	echo "(Swift Testing $$swift_testing, XCTest $$xctest, QueueTimer under TSan $$tsan; example, doc snippets and docs built;" \
	  "frame logs fuzzed for 60 s: $$(grep -oE "Done [0-9]+ runs" $(OUT)/fuzz/FrameLogFuzz.log | tail -1 | grep -oE "[0-9]+") inputs," \
	  "pacing sources for 60 s: $$(grep -oE "Done [0-9]+ runs" $(OUT)/fuzz/PacingFuzz.log | tail -1 | grep -oE "[0-9]+") inputs, no crash;" \
	  "pacing sweep: $$(grep -oE "^[0-9]+ of [0-9]+ scenarios pass" $(OUT)/sweep.log), at most $(SWEEP_CEILING) may fail)"; \
	echo "tests: $$((swift_testing + xctest + tsan)) passed, 0 failed"

# Examples/MinimalGame: an outside package depending on FrameLink by path; built and run headless.
example: deps
	cd Examples/MinimalGame && $(SWIFT) build 2>&1 | tee ../../$(OUT)/example-build.log
	@if grep -E "warning:" $(OUT)/example-build.log | grep -v "/.build/"; then echo "error: the example has warnings" >&2; exit 1; fi
	cd Examples/MinimalGame && ./.build/debug/MinimalGame --headless --frames 120 --log ../../$(OUT)/minimal-frames.csv
	@# Bad input is refused before the run, with exit status 2.
	@cd Examples/MinimalGame && for args in "--headless" "--headless --frames 5 --log /nonexistent-folder/f.csv" \
	  "--headless --frames 5 --log ../../$(OUT)"; do \
	  status=0; ./.build/debug/MinimalGame $$args >/dev/null 2>&1 || status=$$?; \
	  if [ $$status -ne 2 ]; then echo "error: MinimalGame $$args exited with $$status, not 2" >&2; exit 1; fi; \
	done; echo "MinimalGame refuses bad arguments (exit status 2)"
	$(SWIFT) build --product framelink 2>&1 | tail -1
	$$($(SWIFT) build --show-bin-path)/framelink replay $(OUT)/minimal-frames.csv | tail -1

# Documentation that cannot drift: every Swift snippet of README.md and the DocC articles is compiled
# (scripts/check-snippets.py: each block carries a <!-- snippet: … --> marker saying how).
snippets: deps
	@mkdir -p $(OUT)
	python3 scripts/check-snippets.py 2>&1 | tee $(OUT)/snippets.log

# Fuzzing under libFuzzer and AddressSanitizer (Fuzz/), two targets for FUZZ_SECONDS each:
# FrameLogFuzz (frame-log reading, writing and replay; seeds in Fuzz/Corpus) and PacingFuzz (the
# pacing sources and the loop's waiter on virtual time, driven by arbitrary present returns,
# presentation reports and display rates; seeds in Fuzz/PacingCorpus). New inputs go to
# out/fuzz/<target>/corpus; the checked-in seeds, with every crash found so far, are run first. A
# crash, an overflow, a broken invariant, a leak or an input slower than 10 s (a hang) fails, and
# its input is saved in out/fuzz/<target>/crashes/ (add it to the seeds once fixed).
FUZZ_TARGETS := FrameLogFuzz:Corpus:-dict=Fuzz/framelog.dict PacingFuzz:PacingCorpus:
fuzz: deps
	cd Fuzz && $(SWIFT) build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -DFRAMELINK_LIBFUZZER 2>&1 \
	  | grep -v "Cannot export local symbol '__asan_extra_spill_area'"
	@for spec in $(FUZZ_TARGETS); do \
	  target=$${spec%%:*}; rest=$${spec#*:}; seeds=$${rest%%:*}; flags=$${rest#*:}; \
	  mkdir -p $(OUT)/fuzz/$$target/corpus $(OUT)/fuzz/$$target/crashes; \
	  echo "$$target for $(FUZZ_SECONDS) s (seeds: Fuzz/$$seeds)"; \
	  Fuzz/.build/release/$$target $(OUT)/fuzz/$$target/corpus Fuzz/$$seeds $$flags \
	    -max_total_time=$(FUZZ_SECONDS) -timeout=10 -artifact_prefix=$(OUT)/fuzz/$$target/crashes/ -print_final_stats=1 \
	    > $(OUT)/fuzz/$$target.log 2>&1 || true; \
	  grep -E "^(#[0-9]+ +(INITED|DONE)|Done|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written|Fatal error)" \
	    $(OUT)/fuzz/$$target.log || true; \
	  if ! grep -qE "^Done [0-9]+ runs" $(OUT)/fuzz/$$target.log; then \
	    echo "error: $$target found a failing input (see $(OUT)/fuzz/$$target.log and $(OUT)/fuzz/$$target/crashes/)" >&2; exit 1; fi; \
	done

# The pacing sweep: PresentSource on SWEEP_SCENARIOS random simulated displays and workloads (fixed
# 30-240 Hz and variable refresh, 2 and 3 buffers, present delays, frame costs, overruns, hitches,
# hidden windows, moves, feedback), each judged against the display lab's ground truth (drops,
# never faster than the display, timestamps on the true vsync, whole-period deltas, targets when
# shown). Prints the failures per check and one line to reproduce each failing scenario
# (`PacingSweep --seed S --scenario K`). Exits 1 while any scenario fails.
# make test runs 1,000 of them and fails when more than SWEEP_CEILING fail: a ratchet, lowered as
# fixes land, on the way to zero (issue 29).
SWEEP_SCENARIOS ?= 100000
SWEEP_SEED ?= 1
SWEEP_ALLOWED_FAILURES ?= 0
SWEEP_CEILING := 121
sweep: deps
	$(SWIFT) build -c release --product PacingSweep 2>&1 | tail -1
	@mkdir -p $(OUT)
	@status=0; $$($(SWIFT) build -c release --show-bin-path)/PacingSweep --seed $(SWEEP_SEED) \
	  --scenarios $(SWEEP_SCENARIOS) --show 20 --allowed-failures $(SWEEP_ALLOWED_FAILURES) > $(OUT)/sweep.log 2>&1 \
	  || status=$$?; cat $(OUT)/sweep.log; exit $$status

bench: deps
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

# DocC: the FrameLink catalog (articles + every public symbol); a warning fails the build.
docs:
	@mkdir -p $(OUT)/docs
	$(SWIFT) package --allow-writing-to-directory $(OUT)/docs generate-documentation --target FrameLink \
	  --warnings-as-errors --output-path $(OUT)/docs/FrameLink --transform-for-static-hosting
	$(SWIFT) package --allow-writing-to-directory $(OUT)/docs generate-documentation --target FrameLinkSDL \
	  --warnings-as-errors --output-path $(OUT)/docs/FrameLinkSDL --transform-for-static-hosting
	@echo "Documentation: $(CURDIR)/$(OUT)/docs/FrameLink and $(CURDIR)/$(OUT)/docs/FrameLinkSDL"

# API hygiene: breaking changes of FrameLink and FrameLinkSDL against the newest version recorded in
# CHANGELOG.md ("## X.Y.Z — commit SHA"; git tags do not travel with this repository).
api-check: deps
	@entry=$$(grep -m1 -E '^## [0-9]+\.[0-9]+\.[0-9]+ — commit [0-9a-f]{7,40}$$' CHANGELOG.md || true); \
	if [ -z "$$entry" ]; then echo "error: CHANGELOG.md records no version (## X.Y.Z — commit SHA)" >&2; exit 1; fi; \
	version=$$(echo "$$entry" | awk '{print $$2}'); commit=$$(echo "$$entry" | awk '{print $$NF}'); \
	if ! git cat-file -e "$$commit^{commit}" 2>/dev/null; then \
	  echo "error: $$version's commit $$commit is not in this clone's history (a shallow clone? git fetch --unshallow)" >&2; exit 1; fi; \
	echo "api-check: comparing with $$version (commit $$commit, from CHANGELOG.md)"; \
	$(SWIFT) package diagnose-api-breaking-changes "$$commit" --products FrameLink FrameLinkSDL

# Leaks: a headless demo and the XCTest suites under valgrind memcheck; suppressions are documented
# in scripts/valgrind.supp and scripts/lsan.supp.
leaks: deps
	scripts/leaks.sh --out $(OUT) $(if $(LEAKS_ASAN),--asan)

# Pacing precision: FrameLink's DeadlineSource (real-time scheduling on and off, and as an
# unprivileged user in a child process) and the C probes (hybrid, sdldelay), interleaved, quiet and
# under one and two busy-loop processes; misses counted per 10,000 frames (about 31 minutes with the
# default 6,000 frames per pacer and load). PACE_PACERS=list picks the pacers (FramePace --help names
# them; `all` adds the unprivileged user with a real-time limit, with rtkit's grants, which need a
# system bus, rtkit-daemon and polkit, and with a short fair-scheduler slice).
PROBES := $(firstword $(wildcard ../shared/probes) $(wildcard shared/probes))
pace: deps
	@mkdir -p $(OUT)
	@test -n "$(PROBES)" || { echo "error: ../shared/probes not found (vs.c is the yardstick)" >&2; exit 1; }
	gcc -O2 -include scripts/vs-intervals.h $(PROBES)/vs.c -o $(OUT)/vs $$(pkg-config --cflags --libs sdl2) -lm
	$(SWIFT) build -c release --product FramePace
	$$($(SWIFT) build -c release --show-bin-path)/FramePace --frames $(PACE_FRAMES) --probe $(OUT)/vs \
	  $(if $(PACE_PACERS),--pacers $(PACE_PACERS)) --intervals $(OUT)/pace-intervals.txt 2>&1 | tee $(OUT)/pace.txt

# The display-lab plots (LabPlot): FrameLink's vsync timestamps and the raw present returns against
# a simulated display's true vsync, on virtual time. Written to out/, then copied to the DocC catalog
# and docs/ (the pacing article and the README show them); the runs are seeded, so an unchanged
# FrameLink gives the same files.
PLOT_COPIES := Sources/FrameLink/FrameLink.docc/Resources docs
plot:
	@mkdir -p $(OUT)
	$(SWIFT) build -c release --product LabPlot
	@bin=$$($(SWIFT) build -c release --show-bin-path)/LabPlot; \
	$$bin --output $(OUT)/lab-vsync.svg; \
	$$bin --rate 144 --jitter 0.5 --work 2 --frames 1100 --move-at 600 --move-to 60 --output $(OUT)/lab-vsync-move.svg
	@for folder in $(PLOT_COPIES); do mkdir -p $$folder; cp $(OUT)/lab-vsync.svg $(OUT)/lab-vsync-move.svg $$folder/; done
	@echo "Plots: $(CURDIR)/$(OUT)/lab-vsync.svg and lab-vsync-move.svg (copied to $(PLOT_COPIES))"

# The demo: a window when there is a display; without one, under Xvfb; without Xvfb, headless.
demo: deps
	@mkdir -p $(OUT)
	$(SWIFT) build -c release --product AnimDemo
	@bin=$$($(SWIFT) build -c release --show-bin-path)/AnimDemo; \
	if [ -n "$${DISPLAY:-}" ]; then \
	  echo "Running AnimDemo in a window (Esc quits)"; \
	  $$bin --report $(OUT)/demo-report.json --screenshot $(OUT)/demo.png; \
	elif command -v xvfb-run >/dev/null; then \
	  echo "No display: running AnimDemo under Xvfb for $(DEMO_FRAMES) frames"; \
	  xvfb-run -a -s "-screen 0 1280x720x24" $$bin --frames $(DEMO_FRAMES) \
	    --report $(OUT)/demo-report.json --screenshot $(OUT)/demo.png; \
	else \
	  echo "No display and no Xvfb: running AnimDemo headless for $(DEMO_FRAMES) frames"; \
	  $$bin --headless --frames $(DEMO_FRAMES) --report $(OUT)/demo-report.json --screenshot $(OUT)/demo.png; \
	fi; \
	echo "Screenshot: $(CURDIR)/$(OUT)/demo.png"; \
	echo "Report:     $(CURDIR)/$(OUT)/demo-report.json"

clean:
	rm -rf .build .build-tsan $(OUT) Benchmarks/.build Examples/MinimalGame/.build
