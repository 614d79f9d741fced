#!/bin/sh
# Checks pairing_dutch() against bbpPairings: simulates N Swiss tournaments
# with build/bin/simulate-swiss and has `$BBP_PAIRINGS --dutch FILE -c`
# re-pair every round; a tournament is accepted when the checker lists no
# difference.  When our engine finds no legal pairing for a round, the
# checker is asked to pair that round (-p): the tournament counts as
# agreed if it fails too.  Not part of the test suite.
#   BBP_PAIRINGS=/path/to/bbpPairings.exe tests/tools/check_dutch.sh [N] [--plain | --mixed] [FIRST]
# Tournaments FIRST..FIRST+N-1 (FIRST defaults to 1) have 8..60 players,
# 5..9 rounds and seed i.  Env: SIMULATE_SWISS (default
# build/bin/simulate-swiss); KEEP=dir keeps the rejected reports there.
# Exit 0 after the report (also when skipped).
set -u
if [ -z "${BBP_PAIRINGS:-}" ]; then
	echo "skipped: BBP_PAIRINGS not set"
	exit 0
fi
count=${1:-50}
mode=${2:-}
first=${3:-1}
here=$(cd "$(dirname "$0")/../.." && pwd)
sim=${SIMULATE_SWISS:-$here/build/bin/simulate-swiss}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
accepted=0 rounds_ok=0 rounds=0 skipped=0 nopair=0
i=$first
while [ "$i" -lt $((first + count)) ]; do
	players=$((8 + i * 7 % 53))
	nrounds=$((5 + i % 5))
	file=$dir/t$i.trf
	"$sim" --players "$players" --rounds "$nrounds" --seed "$i" $mode >"$file" 2>"$dir/err"
	rc=$?
	if [ "$rc" -eq 3 ]; then
		# Small fields with withdrawals can run out of legal pairings.
		if "$BBP_PAIRINGS" --dutch "$file" -p "$dir/out" >/dev/null 2>&1; then
			echo "tournament $i ($players players): we found no pairing, the checker did: $(cat "$dir/err")"
			[ -n "${KEEP:-}" ] && cp "$file" "$KEEP/nopair$i.trf"
		else
			nopair=$((nopair + 1))
		fi
		skipped=$((skipped + 1))
		i=$((i + 1))
		continue
	elif [ "$rc" -ne 0 ]; then
		echo "tournament $i ($players players): not simulated: $(cat "$dir/err")"
		skipped=$((skipped + 1))
		i=$((i + 1))
		continue
	fi
	out=$("$BBP_PAIRINGS" --dutch "$file" -c 2>&1)
	# The checker names every round, then a table for each round it pairs differently.
	bad=$(printf '%s\n' "$out" | grep -c 'Checker pairings')
	rounds=$((rounds + nrounds))
	rounds_ok=$((rounds_ok + nrounds - bad))
	if [ "$bad" -eq 0 ]; then
		accepted=$((accepted + 1))
	else
		echo "tournament $i ($players players, $nrounds rounds): $bad rounds differ:" \
		    $(printf '%s\n' "$out" | grep -B1 'Checker pairings' | sed -n 's/.*Round #//p')
		[ -n "${KEEP:-}" ] && cp "$file" "$KEEP/t$i.trf"
	fi
	i=$((i + 1))
done
echo "bbpPairings accepted $accepted of $((count - skipped)) tournaments, $rounds_ok of $rounds rounds" \
    "($skipped not simulated: $nopair of them unpairable for the checker too)"
