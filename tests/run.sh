#!/usr/bin/env bash
# Builds and runs every test: the Release build with -Werror, the same tests
# under AddressSanitizer + UBSan (portable build, so the magic-bitboard path
# is tested too), and each libFuzzer target for FUZZ_SECONDS under ASan.
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZ_SECONDS=${FUZZ_SECONDS:-30}
jobs=$(nproc)
passed=0
failed=0

# Runs ctest in a build tree and adds its counts to the totals.
run_ctest() {
	local dir=$1 log
	log=$(mktemp)
	if ctest --test-dir "$dir" --output-on-failure -j"$jobs" | tee "$log"; then :; fi
	local total bad
	total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n1)
	bad=$(sed -n 's/.*, \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -n1)
	rm -f "$log"
	if [ -z "$total" ]; then
		echo "run.sh: ctest in $dir printed no summary" >&2
		failed=$((failed + 1))
		return
	fi
	passed=$((passed + total - bad))
	failed=$((failed + bad))
}

echo "== Release build (-Werror)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCHESS_WERROR=ON >/dev/null
cmake --build build -j"$jobs"
run_ctest build

echo "== ASan + UBSan build"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCHESS_SANITIZE=ON -DCHESS_NATIVE=OFF \
	-DCHESS_WERROR=ON >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 run_ctest build-asan

if [ "$FUZZ_SECONDS" -gt 0 ]; then
	echo "== libFuzzer targets, ${FUZZ_SECONDS}s each"
	CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCHESS_FUZZ=ON \
		-DCHESS_NATIVE=OFF -DCHESS_WERROR=ON >/dev/null
	cmake --build build-fuzz -j"$jobs"
	fuzzers=$(ls build-fuzz/bin/fuzz_* | wc -l)
	if [ "$fuzzers" -gt 0 ] && bash tests/fuzz/run.sh build-fuzz/bin "$FUZZ_SECONDS"; then
		passed=$((passed + fuzzers))
	else
		echo "run.sh: a fuzz target failed (or none was built)" >&2
		failed=$((failed + 1))
	fi
fi

echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
