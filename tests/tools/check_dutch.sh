#!/bin/sh
# Checks pairing_dutch() against bbpPairings: simulates N Swiss tournaments
# with build/bin/simulate-swiss and has `$BBP_PAIRINGS --dutch FILE -c`
# re-pair every round; a tournament is accepted when the checker lists no
# difference.  Not part of the test suite.
#   BBP_PAIRINGS=/path/to/bbpPairings.exe tests/tools/check_dutch.sh [N] [--plain]
# Env: SIMULATE_SWISS (default build/bin/simulate-swiss).  Exit 0 after the
# report (also when skipped).
set -u
if [ -z "${BBP_PAIRINGS:-}" ]; then
	echo "skipped: BBP_PAIRINGS not set"
	exit 0
fi
count=${1:-50}
plain=${2:-}
here=$(cd "$(dirname "$0")/../.." && pwd)
sim=${SIMULATE_SWISS:-$here/build/bin/simulate-swiss}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
accepted=0 rounds_ok=0 rounds=0 skipped=0
i=1
while [ "$i" -le "$count" ]; do
	players=$((8 + i * 7 % 53))
	nrounds=$((5 + i % 5))
	file=$dir/t$i.trf
	if ! "$sim" --players "$players" --rounds "$nrounds" --seed "$i" $plain >"$file" 2>"$dir/err"; then
		# Small fields with withdrawals can run out of legal pairings.
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
		echo "tournament $i ($players players, $nrounds rounds): $bad rounds differ"
	fi
	i=$((i + 1))
done
echo "bbpPairings accepted $accepted of $((count - skipped)) tournaments, $rounds_ok of $rounds rounds ($skipped not simulated)"
