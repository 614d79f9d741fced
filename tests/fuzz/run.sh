#!/bin/sh
# Runs every fuzz_* program in DIR for SECONDS each, from a fresh corpus
# under /tmp (seeded where we have seeds, with NAME.dict when it exists).
# Exits 1 if any of them crashed, leaking its work directory for the report.
#   tests/fuzz/run.sh build-fuzz/bin 60
set -u

if [ $# -ne 2 ]; then
	echo "usage: $0 DIR SECONDS" >&2
	exit 2
fi
dir=$1
seconds=$2
case $seconds in
''|*[!0-9]*) echo "$0: SECONDS must be a number" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../data

# Sanitizer reports must stop the run, not scroll by.
UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS ASAN_OPTIONS

# seed NAME CORPUS: starting inputs for the targets that have some.
seed() {
	case $1 in
	fuzz_fen)
		[ -f "$data/perft.epd" ] || return 0
		i=0
		sed -e 's/ *;.*//' "$data/perft.epd" | while IFS= read -r fen; do
			i=$((i + 1))
			printf '%s' "$fen" > "$2/seed$i"
		done
		;;
	fuzz_move)
		[ -f "$data/san.tsv" ] || return 0
		i=0
		grep -v '^#' "$data/san.tsv" | cut -f3 | while IFS= read -r text; do
			i=$((i + 1))
			# First byte: position (0-7) and language; second: promotion.
			printf "\\$(printf '%03o' $((i % 16)))\\000%s" "$text" > "$2/seed$i"
		done
		;;
	esac
}

status=0
found=0
for bin in "$dir"/fuzz_*; do
	[ -f "$bin" ] && [ -x "$bin" ] || continue
	name=$(basename "$bin")
	found=$((found + 1))
	work=$(mktemp -d "/tmp/$name.XXXXXX")
	mkdir "$work/corpus" "$work/artifacts"
	seed "$name" "$work/corpus"
	set -- -max_len=512 -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
	    -artifact_prefix="$work/artifacts/"
	if [ -f "$here/$name.dict" ]; then
		set -- "$@" -dict="$here/$name.dict"
	fi
	echo "== $name: ${seconds}s"
	if "$bin" "$@" "$work/corpus" > "$work/log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
		cov=$(grep -o 'cov: [0-9]*' "$work/log" | tail -n 1)
		echo "   ok: ${runs:-?} runs, $cov"
		rm -rf "$work"
	else
		echo "   FAILED: log, corpus and crashing input kept in $work"
		tail -n 40 "$work/log"
		status=1
	fi
done
if [ "$found" -eq 0 ]; then
	echo "$0: no fuzz_* programs in $dir" >&2
	exit 2
fi
exit $status
