# isojson: build, test, benchmark and CI entry points.
#
#   make demo        build, then show isojson in own-GIL sub-interpreters
#   make test        every test (go vet, go test -race, cross-architecture, the wheel, the sdist,
#                    pytest on the installed wheel, on debug and ASan builds, pip installs), then one summary
#   make wheel       dist/isojson-V-cp314-cp314-manylinux_2_17_x86_64.whl (make sdist: the sdist)
#   make bench       Go and Python benchmarks; results land in bench/results/
#   make bench-callgrind  instructions per call of each benchmark row (isojson, orjson, msgspec)
#   make fuzz        every Go fuzz target for FUZZTIME each
#   make fuzz-long   every Go fuzz target for FUZZTIME_LONG each, two at a time, keeping seeds
#   make help        this list with the knobs
#
# Works on a fresh Debian 12 machine as root with Go at /usr/local/go, gcc and python3: Python 3.14 (a
# cached Debian sid root, scripts/py314-env), the wheels' Debian 11 build root (scripts/wheel-root-env)
# and qemu-user are provisioned on first use; PYTHON=python3.14 uses the host's Python instead of the
# Python root (scripts/host-python-check says which Debian packages it needs).

# Recipes are bash with -e -u -o pipefail so that a failure anywhere in a pipeline fails the target.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

# A fresh machine has Go at /usr/local/go but not always on PATH; the scripts call `go` too, so export it.
export PATH := $(PATH):/usr/local/go/bin
GO ?= go

# go test -race over the whole module on 2 shared cores takes minutes; the timeout is per test binary.
GO_TEST_FLAGS ?= -race -timeout 20m
# Go fuzzing: time per target, a regexp choosing targets (default all) — `make fuzz FUZZTIME=10m FUZZ=FuzzParse`.
FUZZTIME ?= 30s
FUZZ ?= .
# Go benchmarks (scripts/bench-go) and cross-architecture checks (scripts/cross-test) take their knobs from
# the environment, with defaults in those scripts: BENCH_COUNT, BENCH_TIME, BENCH (a regexp); CROSS_ARCHES,
# CROSS_PKGS. Variables given on make's command line reach them too: `make bench-go BENCH_COUNT=10`.

PY := scripts/py
# Where `make test` keeps each part's log and one-line result for the summary it prints last.
RESULTS := build/test-results

.PHONY: help build wheel sdist notices py-env demo test test-vet test-go test-cross test-build test-py \
        test-py-writer test-install test-bench-py test-summary qemu arm64-env build-arm64 wheel-arm64 \
        test-arm64-wheel test-arm64-quick test-arm64 test-pydbg test-pydev test-asan test-variants test-pyft \
        bench bench-go bench-py bench-callgrind fuzz fuzz-long clean

help:
	@sed -n '3,11p' Makefile | sed 's/^# *//'
	@echo
	@echo 'Parts: build, wheel, sdist, notices, py-env, qemu, test-vet, test-go, test-cross, test-build, test-py,'
	@echo '       test-py-writer, test-install, test-bench-py, bench-go, bench-py, bench-callgrind, bench-ft,'
	@echo '       bench-callgrind-ft (3.14t beside the GIL build, instructions per call), clean'
	@echo 'arm64: arm64-env, build-arm64, wheel-arm64, test-arm64-wheel (and its tag check), test-arm64-quick'
	@echo '       (a bounded part on the installed wheel), test-arm64 (the whole suite, hours under emulation)'
	@echo 'Variants (in make test; make test-variants runs only them): test-pydbg (python3.14-dbg, C asserts),'
	@echo '       test-pydev (PYTHONMALLOC=debug, -X dev), test-asan (ASan + UBSan), each a sample of the suite'
	@echo '       (VARIANT_SAMPLE, PYDBG_SAMPLE, VARIANT_PYTEST)'
	@echo 'Knobs: PYTHON=python3.14 (host Python), GO_TEST_FLAGS, FUZZTIME, FUZZTIME_LONG, FUZZ, FUZZ_JOBS,'
	@echo '       FUZZ_KEEP, BENCH_COUNT, BENCH_TIME, BENCH (regexp), BENCH_ROWS (regexp), BENCH_PY_ARGS,'
	@echo '       CALLGRIND_ARGS, CROSS_ARCHES, CROSS_PKGS, ARM64_QUICK, ARM64_PYTEST (pytest arguments)'

## Build ###################################################################################################

# The Python 3.14 root is made once (debootstrap, about a minute) and cached in /var/cache/isojson; with
# PYTHON set the host's interpreter is used (after scripts/host-python-check) and no Python root is made.
py-env:
	@if [[ -n "$${PYTHON:-}" ]]; then echo "py-env: using PYTHON=$$PYTHON"; scripts/host-python-check "$$PYTHON"; \
	else echo "py-env: Python 3.14 root at $$(scripts/py314-env)"; fi

# One builder (build_backend/isojson_build, also behind `pip install .`), run by scripts/build:
# `build` puts the Go engine and the C extension into build/python/isojson/ (scripts/py puts
# build/python on PYTHONPATH); `wheel` compiles them in the Debian 11 root (glibc 2.31, gcc 10) with
# Python 3.14's headers, stripped, into dist/; `sdist` vendors the Go modules; `notices` rewrites
# THIRD_PARTY_NOTICES.md from the Go module cache.
build: py-env
	scripts/build

wheel: py-env
	scripts/build wheel

sdist:
	scripts/build sdist

notices:
	scripts/build notices

demo: build
	$(PY) bench/python/demo.py

## Tests ###################################################################################################

# $(call part,NAME) runs the shell in NAME_cmd for `make test`, showing its output and keeping it in
# $(RESULTS)/NAME.log, then records PASS or FAIL, the time taken and the output of NAME_summary (shell that
# reads $$log and prints the runner's own summary lines) in $(RESULTS)/NAME.result; test-summary prints
# those at the end. (Commands live in variables because commas would split $(call) arguments.)
define part
@mkdir -p $(RESULTS); log=$(RESULTS)/$(1).log; rm -f $(RESULTS)/$(1).result; \
echo "==== make test: $(1)"; t0=$$(date +%s); rc=0; \
{ $($(1)_cmd); } 2>&1 | tee $$log || rc=$$?; \
status=PASS; [[ $$rc == 0 ]] || status=FAIL; \
{ printf '%s  %-8s %5ss  exit %s\n' $$status $(1) $$(( $$(date +%s) - t0 )) $$rc; \
  { $($(1)_summary); } | sed 's/^/      /' || true; } > $(RESULTS)/$(1).result; \
exit $$rc
endef

# make -k runs every part even when one fails, so that one broken area does not hide the state of the
# others; the summary then repeats each runner's own result lines, and the exit status is the parts'.
# TEST_JOBS parts run at once, taken in TEST_PARTS order (two by default: the Go parts are mostly
# compiling and the race detector, the Python parts mostly one interpreter at a time, so the two overlap
# well on two cores); --output-sync prints each part's output whole when it ends instead of interleaving,
# and every part's log stays in $(RESULTS)/NAME.log. TEST_JOBS=1 runs them one after another.
TEST_JOBS ?= 2
# The order pairs a part that keeps both cores busy with one that mostly keeps one: test-go (the
# longest, Go compiling and the race detector) runs beside build, pytest, pywriter, install and then
# the build variants pydbg and asan (one interpreter each, "Build variants" below); test-cross (Go
# and qemu) follows test-go rather than running beside it, and pydev, benchpy and pyft beside it.
# arm64q comes last: it waits for the arm64 root made in the background. Times: DEVELOPERS.md.
TEST_PARTS = test-vet test-py test-go test-py-writer test-install test-pydbg test-asan test-cross \
  test-pydev test-bench-py test-pyft test-arm64-wheel test-arm64-quick
# The result names test-summary prints, one per part (each part's $(call part,NAME)).
TEST_SUMMARY_NAMES = vet gotest cross build pytest pywriter pydbg asan pydev install benchpy pyft arm64w arm64q
# The arm64 root (scripts/arm64-env) is made in the background from the start, niced: cold, it is the
# slowest step of all (15-60 min under emulation, by load) and mostly one emulated process, so it overlaps
# the other parts; arm64q's own scripts/arm64-env call waits for it (the root's lock), and make test
# waits for it before its summary, so that nothing of it outlives the run.
test:
	@rm -rf $(RESULTS); mkdir -p $(RESULTS); rc=0; \
	$(if $(filter test-arm64-quick,$(TEST_PARTS)),{ nice -n 10 scripts/arm64-env > $(RESULTS)/arm64-env.log 2>&1 & } ;) \
	$(MAKE) --no-print-directory -k -j$(TEST_JOBS) --output-sync=target $(TEST_PARTS) || rc=$$?; \
	wait; $(MAKE) --no-print-directory test-summary; exit $$rc

vet_cmd = $(GO) vet ./...
vet_summary = if [[ $$rc == 0 ]]; then echo "go vet: no problems"; else grep -v '^\#' $$log | head -20; fi
test-vet:
	$(call part,vet)

# The benchmarks run once each too (-benchtime 1x, no race detector), so that they cannot rot unnoticed.
# The engine is built with GOEXPERIMENT=simd (scripts/build): the parser and the packages that run it are
# tested both with it (what ships) and without it (the portable build).
gotest_cmd = $(GO) test $(GO_TEST_FLAGS) ./... && \
  GOEXPERIMENT=simd $(GO) test $(GO_TEST_FLAGS) ./backend/... ./conformance/... ./pyshim/engine/ && \
  GOEXPERIMENT=simd $(GO) test -run '^$$' -bench . -benchtime 1x ./bench/
gotest_summary = echo "go test: packages ok: $$(grep -c '^ok ' $$log), failed: $$(grep -c '^FAIL'$$'\t' $$log)"; \
  grep -E '^(FAIL|--- FAIL|panic:)' $$log | head -30 || true
test-go:
	$(call part,gotest)

cross_cmd = scripts/cross-test
cross_summary = grep '^cross-test:' $$log || tail -n 5 $$log
test-cross: qemu
	$(call part,cross)

# The wheel and the sdist as a part of their own, so that a broken build is named in the summary; then
# the tag check (each object's NEEDED libraries and glibc symbol versions against the wheel's manylinux
# tag, and its RECORD) and whether THIRD_PARTY_NOTICES.md is current. The later parts use dist/.
WHEEL_FILE = $$(ls dist/isojson-$$(scripts/build version)-cp314-cp314-manylinux_*_x86_64.whl)
build_cmd = rm -f dist/isojson-*x86_64.whl dist/isojson-*.tar.gz; $(MAKE) --no-print-directory wheel sdist && \
  scripts/build check-wheel dist/isojson-*x86_64.whl && scripts/build notices --check
build_summary = grep -E '^(wheel:|sdist:|check-wheel:|  isojson|  problem:|notices:|build:.*failed)|error:' \
  $$log | sed 's|$(CURDIR)/||' | head -16 || true
test-build: py-env
	+$(call part,build)

# pytest on the installed wheel: a fresh venv of the Python 3.14 (with the distribution's orjson, numpy,
# pytest, hypothesis through --system-site-packages; isojson itself must come from the venv), pytest run
# from outside the tree with no PYTHONPATH into it, so that a file missing from the wheel fails
# (scripts/venv-test). pytest exits 5 when it collected no tests; that is a failure here, said plainly.
pytest_cmd = [[ -d tests ]] || { echo "test-py: FAIL: there is no tests/ directory" >&2; exit 5; }; \
  r=0; scripts/venv-test --label wheel "$(WHEEL_FILE)" -- -q tests/ || r=$$?; \
  [[ $$r != 5 ]] || echo "test-py: FAIL: pytest collected no tests (exit 5) from tests/" >&2; exit $$r
# pytest's own result line, the log's last ("1 failed, 693 passed, 2 skipped, 3291 deselected in 290.11s"):
# counts joined by ", ", then the time; or "no tests ran". (The looser match before missed the line of a
# run with deselected tests, which ends in "deselected in", and took an ASan warning's "failed to
# allocate" for it instead.)
pytest_result = grep -E '^(=+ )?[0-9]+ [a-z]+(, [0-9]+ [a-z]+)* in [0-9.]+s|no tests ran' $$log | tail -n 1 || true
# (Node ids under tests/, each once: tests that run pytest in a child echo its summary lines too.)
pytest_summary = { grep -E '^(FAILED|ERROR) [^ ]*tests/' $$log | sed -E 's@^(FAILED|ERROR) [^ ]*tests/@\1 tests/@' || true; } | \
  awk '!seen[$$0]++' | head -40; \
  grep -E '^(test-py|installed-check): (FAIL|.*isojson .* imported)' $$log || true; \
  $(pytest_result)
test-py: test-build
	$(call part,pytest)

# The dumps parity files again, on the installed wheel, with the reference writer (writer/reference) in the
# engine instead of the fast one: the same bytes as orjson's, through the Python API (90 s with the venv, 27 s
# of CPU, at load 14 on December 2, 2026; the debug-allocator rerun of test_dumps_output.py is left to test-py,
# which runs it with the default writer).
pywriter_cmd = ISOJSON_WRITER=reference scripts/venv-test --label wheel "$(WHEEL_FILE)" -- -q -p no:cacheprovider \
  -m 'not debug_malloc' tests/test_parity_dumps.py tests/test_dumps_output.py
pywriter_summary = { grep -E '^(FAILED|ERROR) [^ ]*tests/' $$log | sed -E 's,^(FAILED|ERROR) [^ ]*tests/,\1 tests/,' || true; } | \
  awk '!seen[$$0]++' | head -20; \
  $(pytest_result)
test-py-writer: test-build
	$(call part,pywriter)

# What users' installs do, each in a fresh venv with no network: pip install ., the sdist (with an
# empty Go module cache: vendor/ only), the wheel, each imported from / and in a strict sub-interpreter
# with its versions checked; and pip install . without Go, with an old Go, without a C compiler
# (scripts/install-test).
install_cmd = scripts/install-test
install_summary = grep -E '^(venv-test: .*(ok in|installed in)|install-test: (FAIL|ok: pip install \. with))|FAIL' $$log | head -12 || true
test-install: test-build
	$(call part,install)

# The benchmark scripts' own tests (report rendering, workloads), so that `make bench` cannot rot
# unnoticed; on the installed wheel too.
benchpy_cmd = scripts/venv-test --no-check --label wheel "$(WHEEL_FILE)" -- -q -p no:cacheprovider bench/python/
benchpy_summary = $(pytest_result)
test-bench-py: test-build
	$(call part,benchpy)

# Each part writes its result when it finishes; a part that never ran (its prerequisite, such as the
# build, failed) is reported as such rather than left out.
test-summary:
	@echo; echo "==== make test summary"; \
	for p in $(TEST_SUMMARY_NAMES); do \
	  if [[ -f $(RESULTS)/$$p.result ]]; then cat $(RESULTS)/$$p.result; \
	  else printf 'FAIL  %-8s did not run: a prerequisite failed (see above)\n' $$p; fi; done

# qemu-user runs the cross-compiled test binaries; Debian's qemu-user package provides both emulators.
# Without its recommendation qemu-user-binfmt, which conflicts with qemu-user-static (the arm64 root's
# emulator, scripts/arm64-env): the two packages' emulators live side by side.
qemu:
	@if ! command -v qemu-s390x >/dev/null || ! command -v qemu-aarch64 >/dev/null; then \
	  echo "qemu: installing qemu-user (qemu-s390x, qemu-aarch64)"; \
	  scripts/apt-wait update -qq && DEBIAN_FRONTEND=noninteractive scripts/apt-wait install -y -qq --no-install-recommends qemu-user >/dev/null; fi

## arm64 ###################################################################################################

# The Python suite on aarch64: the package cross-built here (scripts/build-arm64: Go's cgo and C with
# Debian's aarch64-linux-gnu-gcc) and run by the Python 3.14 of an arm64 Debian root under
# qemu-aarch64-static (scripts/arm64-env makes the root once, cached like the Python 3.14 root). There
# the SSE/AVX paths are absent, so the portable ones run. Emulation is slow (docs/platforms.md has the
# times): ISOJSON_TEST_TIME_SCALE (scripts/py-arm64 sets 20) stretches the suite's deadlines, and the
# runs are niced, the CPU being shared.
arm64-env:
	@echo "arm64-env: arm64 root at $$(scripts/arm64-env)"

build-arm64:
	scripts/build-arm64

# dist/isojson-V-cp314-cp314-manylinux_2_NN_aarch64.whl (the builder's tag: what the objects need).
wheel-arm64:
	scripts/build-arm64 wheel

# make test's arm64 parts. arm64w: the aarch64 wheel (the builder's own tag from what its objects
# need; compiled in the Debian 11 root like the x86_64 one) and the tag check on it.
ARM64_WHEEL_FILE = $$(ls dist/isojson-$$(scripts/build version)-cp314-cp314-manylinux_*_aarch64.whl)
arm64w_cmd = rm -f dist/isojson-*aarch64.whl; scripts/build-arm64 wheel && scripts/build check-wheel $(ARM64_WHEEL_FILE)
arm64w_summary = grep -E '^(wheel:|check-wheel:|  isojson|  problem:|scripts/build-arm64:)|error:' $$log | \
  sed 's|$(CURDIR)/||' | head -12 || true
test-arm64-wheel:
	$(call part,arm64w)

# The suite on the installed aarch64 wheel, as test-py runs it natively (scripts/venv-test): a fresh venv
# of the arm64 root's Python 3.14, under qemu (scripts/chroot-arm64), the wheel installed into it by
# this machine's own pip (--native-pip: pip under emulation took most of 6 min), the installed-package
# checks, then pytest with every deadline stretched (ISOJSON_TEST_TIME_SCALE) and niced.
arm64_venv_test = r=0; ISOJSON_TEST_TIME_SCALE=$${ISOJSON_TEST_TIME_SCALE:-20} nice -n 10 scripts/venv-test \
  --python python3.14 --run $(CURDIR)/scripts/chroot-arm64 --native-pip --label aarch64 "$(ARM64_WHEEL_FILE)" -- -q $(1) || r=$$?; \
  [[ $$r != 5 ]] || echo "test-arm64: FAIL: pytest collected no tests (exit 5)" >&2; exit $$r

# arm64q, a bounded part: strict import in six own-GIL sub-interpreters and the isolation of their
# module state (each its own exception class), JSONTestSuite with every input type and its decisions,
# a dumps parity sample (two option sets, every float bit-pattern class), fork (children and
# grandchildren after use, a child forked before first use). Chosen by their times under emulation
# (docs/platforms.md): concurrent sub-interpreters, fork under busy threads and random round trips cost
# 1-2.5 min each there.
ARM64_QUICK ?= \
  tests/test_subinterpreters.py::test_strict_import_in_six_subinterpreters \
  tests/test_subinterpreters.py::test_errors_inside_a_subinterpreter \
  tests/test_parity_loads.py::test_suite_is_complete tests/test_parity_loads.py::test_json_test_suite \
  tests/test_parity_loads.py::test_json_test_suite_decisions \
  'tests/test_parity_dumps.py::test_dumps_matches_orjson[none]' \
  'tests/test_parity_dumps.py::test_dumps_matches_orjson[INDENT_2|SORT_KEYS|NON_STR_KEYS]' \
  tests/test_parity_dumps.py::test_every_float_bit_pattern_class \
  tests/test_engine_loader.py::test_children_and_grandchildren_after_use \
  tests/test_fork_round_trips.py::test_fork_before_first_use
arm64q_cmd = { $(call arm64_venv_test,--durations=10 $(ARM64_QUICK)); }
arm64q_summary = $(pytest_summary)
test-arm64-quick: test-arm64-wheel
	$(call part,arm64q)

# The whole suite on the installed aarch64 wheel (hours under emulation; not part of make test).
# ARM64_SHARD=K/N runs shard K of N instead (ISOJSON_TEST_SHARD, tests/conftest.py: the N shards are
# the suite, each test in one of them): N runs, one after another or side by side, each with its own
# RESULTS (make test-arm64 ARM64_SHARD=1/2 RESULTS=build/test-results-arm64-1 & ... 2/2 ...).
ARM64_PYTEST ?= tests/
ARM64_SHARD ?=
arm64_cmd = scripts/build-arm64 wheel && { $(if $(ARM64_SHARD),export ISOJSON_TEST_SHARD=$(ARM64_SHARD);) \
  $(call arm64_venv_test,--durations=30 $(ARM64_PYTEST)); }
arm64_summary = $(pytest_summary)
test-arm64:
	$(call part,arm64)
	@cat $(RESULTS)/arm64.result

## Build variants: the debug interpreter, dev mode, the sanitizers #################################

# Bounded parts of the suite on builds that check more than the release does (docs/testing.md, "Build
# variants"): every test file, each parametrized test on a stable sample of its cases
# (ISOJSON_TEST_SAMPLE, tests/conftest.py: VARIANT_SAMPLE of them, at least one), the debug_malloc
# reruns left out (each of these runs has a debug allocator already).
#   pydbg  the debug variant (C asserts on, -UNDEBUG) for Debian's python3.14-dbg (Py_DEBUG: CPython's
#          own asserts, reference counts checked, the debug allocator), in a venv of it; thread
#          stacks unscaled: its frames are 282 bytes a level of the deep-nesting probe (161 in the
#          release build), and with asan's scale 512 KiB already held all 1024 levels
#   pydev  the release wheel under PYTHONMALLOC=debug and -X dev (PYTHONDEVMODE=1, which child
#          Pythons inherit)
#   asan   the asan variant (ASan + UBSan, the Go engine as it is) with libasan preloaded into the
#          release interpreter (scripts/asan-env: why detect_leaks=0, PYTHONMALLOC=malloc); thread
#          stacks of the deep-nesting tests 4 times larger (ISOJSON_TEST_STACK_SCALE): ASan's frames
# A sanitizer report ends its process, which fails the test; the summary greps for any report too.
# --capture=sys: pytest captures Python's sys.stdout and sys.stderr only, not fds 1 and 2, so that what
# C writes there (an ASan or UBSan report, a failed C or Py_DEBUG assert, a fatal error) reaches the
# log even when it ends the process in the middle of a test: with fd capture the asan run of 2026-12-02
# stopped at 66% with the report in pytest's capture file, never shown.
VARIANT_SAMPLE ?= 0.1
# pydbg samples more thinly: under Py_DEBUG every Python line costs several times more; its goal is
# 5 minutes, and at 0.1 it took 5.8 min of CPU, at 0.05 5.6 min by 2026-12-03 (docs/testing.md).
PYDBG_SAMPLE ?= 0.03
VARIANT_PYTEST ?= tests/
variant_pytest = -q --capture=sys -m 'not debug_malloc' --durations=10 $(VARIANT_PYTEST)
variant_summary = $(pytest_summary); \
  grep -E '^(==[0-9]+==ERROR: AddressSanitizer|SUMMARY: (Address|Undefined)|.*: runtime error: )' $$log | head -5 || true
pydbg_cmd = scripts/build wheel --variant debug && \
  ISOJSON_TEST_SAMPLE=$(PYDBG_SAMPLE) \
  scripts/venv-test --python python3.14-dbg --label debug \
  build/variants/debug/isojson-$$(scripts/build version)-cp314-cp314d-linux_x86_64.whl -- $(variant_pytest)
pydbg_summary = $(variant_summary)
test-pydbg: py-env
	$(call part,pydbg)

pydev_cmd = PYTHONMALLOC=debug PYTHONDEVMODE=1 ISOJSON_TEST_SAMPLE=$(VARIANT_SAMPLE) \
  scripts/venv-test --label 'wheel, dev mode' "$(WHEEL_FILE)" -- $(variant_pytest)
pydev_summary = $(variant_summary)
test-pydev: test-build
	$(call part,pydev)

# Left out under ASan (they run in test-py, pydbg and pydev): six RSS-growth bounds, which ASan's
# quarantine of freed blocks (up to 256 MB) and shadow memory break. Measured on 2026-12-03: 242-425 MB
# over a million calls, 118 MB over 90 sub-interpreters, 138 MB over 50 key caches, 268 MB for a 32 MiB
# JSON Lines file read a line at a time. Node ids as pytest makes them, relative to tests/ (its rootdir,
# tests/pytest.ini), in the --deselect=ID form, which scripts/venv-test passes on as it is: it makes a
# path argument absolute, which then matches no node id, so until 2026-12-03 these ran (and failed) in
# every asan run. The RLIMIT_AS cap test once here passes under ASan (allocator_may_return_null=1 turns
# the failed mapping into MemoryError, as glibc does) and runs.
ASAN_DESELECT = --deselect=test_loads_adversarial.py::test_a_million_small_loads_do_not_grow \
  --deselect=test_loads_strs.py::test_each_interpreter_has_its_own_key_cache_freed_with_it \
  --deselect=test_memory.py::test_one_million_small_round_trips \
  --deselect=test_memory.py::test_failing_calls_and_options \
  --deselect=test_subinterpreters.py::test_create_use_destroy_200_cycles_in_child_process \
  --deselect=test_cli.py::test_json_lines_memory_stays_bounded
asan_cmd = scripts/build wheel --variant asan && \
  ISOJSON_TEST_SAMPLE=$(VARIANT_SAMPLE) ISOJSON_TEST_STACK_SCALE=4 \
  scripts/venv-test --run '$(CURDIR)/scripts/chroot314 $(CURDIR)/scripts/asan-env' --label asan \
  build/variants/asan/isojson-$$(scripts/build version)-cp314-cp314-linux_x86_64.whl -- $(ASAN_DESELECT) $(variant_pytest)
asan_summary = $(variant_summary)
test-asan: py-env
	$(call part,asan)

# make test-variants: only the three parts above, two at a time, with make test's summary (make test
# runs them among its other parts; docs/testing.md, "Build variants", has their times).
test-variants:
	@$(MAKE) --no-print-directory test TEST_PARTS='test-pydbg test-asan test-pydev' TEST_SUMMARY_NAMES='pydbg asan pydev'

## Free-threaded CPython 3.14t ############################################################################

# CPython 3.14.7 built with --disable-gil, unpacked from shared/python/ to /opt/cpython-3.14t by
# scripts/py314t-env (its sha256 checked). The builder runs under that interpreter for itself:
# cp314t, its EXT_SUFFIX, the host's gcc, -Werror as every build. build-ft stages the package in
# build/python-ft (build/python stays the GIL build's); wheel-ft compiles in the Debian 11 root as
# `make wheel` does, with the 3.14t headers, into dist/ (cp314-cp314t-manylinux_*).
.PHONY: py314t-env build-ft wheel-ft test-pyft bench-ft bench-callgrind-ft
py314t-env:
	@echo "py314t-env: free-threaded Python at $$(scripts/py314t-env)"

build-ft:
	py=$$(scripts/py314t-env); PYTHONPATH=build_backend $$py -m isojson_build build --python $$py --out build/python-ft

WHEEL_FT_DIST ?= dist
wheel-ft:
	py=$$(scripts/py314t-env); PYTHONPATH=build_backend $$py -m isojson_build wheel --python $$py \
	  --build-root "$$(scripts/wheel-root-env)" --cflag=-Wno-maybe-uninitialized --dist $(WHEEL_FT_DIST)

# make test's part on 3.14t: orjson writes the golden bytes in the GIL build first (tests/_ft_golden.py,
# in the sid root), then the cp314t wheel (built into build/dist-ft, out of test-build's way: it empties
# dist/ while it runs beside this part) is tested in a venv of 3.14t with the sid root's pytest and
# hypothesis (scripts/py314t-site). PYFT_TESTS: tests/test_free_threaded.py and the files of the suite
# chosen for their worth and time on 3.14t (docs/testing.md says which and why).
# test_stub.py is left out: mypy is compiled (mypyc) for the GIL ABI and cannot run on 3.14t.
PYFT_TESTS ?= tests/ --ignore tests/test_stub.py
pyft_cmd = golden=$(CURDIR)/$(RESULTS)/pyft-golden.json; $(PY) tests/_ft_golden.py $$golden && \
  rm -rf build/dist-ft && $(MAKE) --no-print-directory wheel-ft WHEEL_FT_DIST=build/dist-ft && \
  r=0; ISOJSON_FT_GOLDEN=$$golden scripts/venv-test --python "$$(scripts/py314t-env)" --site-dir "$$(scripts/py314t-site)" \
    --label cp314t build/dist-ft/isojson-*-cp314-cp314t-*.whl -- -q -rs --durations=15 $(PYFT_TESTS) || r=$$?; \
  [[ $$r != 5 ]] || echo "test-pyft: FAIL: pytest collected no tests (exit 5)" >&2; exit $$r
pyft_summary = $(pytest_summary)
test-pyft: py-env
	+$(call part,pyft)

# Round trips per second with 1, 2, 4 threads against json, and per-call cost next to the GIL build
# (bench/python/free_threaded.py): bench/results/free-threaded.md. Wall-clock: run it when the machine is
# quiet (the report gives the load average).
bench-ft: build-ft build
	PYTHONPATH=build/python-ft /opt/cpython-3.14t/bin/python3.14t -W error bench/python/free_threaded.py measure build/bench-ft-314t.json $(BENCH_FT_ARGS)
	$(PY) bench/python/free_threaded.py measure build/bench-ft-gil.json $(BENCH_FT_ARGS)
	python3 bench/python/free_threaded.py report build/bench-ft-314t.json build/bench-ft-gil.json bench/results/free-threaded.md

## Benchmarks ##############################################################################################

bench: bench-go bench-py

# Raw output in bench/results/go-bench.txt, the benchstat table as Markdown in bench/results/go-bench.md.
bench-go:
	scripts/bench-go

# BENCH_ROWS: a regexp choosing rows of the benchmark set (bench/python/rows.py) for bench-py and
# bench-callgrind; BENCH_PY_ARGS: more flags of run_all.py (--quick, --only percall,firstcall, ...).
# A run limited to some rows or parts writes its results to a temporary directory, not bench/results.
BENCH_ROWS ?=
BENCH_PY_ARGS ?=
bench-py: build
	$(PY) bench/python/run_all.py $(if $(BENCH_ROWS),--rows '$(BENCH_ROWS)') $(BENCH_PY_ARGS)

# Instructions per call of each row under callgrind, isojson against orjson and msgspec, and the floors
# of a call (scripts/bench-callgrind, bench/python/callgrind.py): steady figures on a busy machine.
# CALLGRIND_ARGS: --libs isojson, --ops dumps, --full, --compare build/callgrind/before.json, ...
# The whole set took 15 minutes at load average 10; one row takes a minute or two.
CALLGRIND_ARGS ?=
bench-callgrind: build
	scripts/bench-callgrind $(if $(BENCH_ROWS),--rows '$(BENCH_ROWS)') $(CALLGRIND_ARGS)

# 3.14t beside the GIL build, every row that runs on 3.14t, isojson alone: bench/results/free-threaded-callgrind.md
# (scripts/bench-callgrind-ft; about 3 minutes).
bench-callgrind-ft: build-ft build
	scripts/bench-callgrind-ft $(CALLGRIND_ARGS)

## Fuzzing #################################################################################################

# scripts/fuzz finds every `func FuzzXxx` in a *_test.go file and gives each its own go test -fuzz run,
# with its working corpus under build/fuzz/corpus/ (not GOCACHE); a failing input is written under the
# package's testdata/fuzz/, where plain `go test` runs it from then on. `make fuzz`: FUZZTIME per target,
# one at a time. `make fuzz-long`: FUZZTIME_LONG per target, FUZZ_JOBS at a time (the cores shared among them), then
# the FUZZ_KEEP newest small corpus entries of each target are copied to its testdata/fuzz/ as seeds to
# commit. Both end with one summary line per target (executions, new inputs, corpus size, seeds kept).
FUZZTIME_LONG ?= 30m
FUZZ_JOBS ?= 2
FUZZ_KEEP ?= 8
fuzz:
	FUZZ_TIME=$(FUZZTIME) FUZZ='$(FUZZ)' FUZZ_JOBS=1 FUZZ_KEEP=0 scripts/fuzz

fuzz-long:
	FUZZ_TIME=$(FUZZTIME_LONG) FUZZ='$(FUZZ)' FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_KEEP=$(FUZZ_KEEP) scripts/fuzz

## Housekeeping ############################################################################################

# Keeps bench/results (committed measurements) and the cached roots (shared by every clone).
clean:
	rm -rf build dist
	$(GO) clean -testcache
