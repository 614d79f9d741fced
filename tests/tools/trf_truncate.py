#!/usr/bin/env python3
"""Cuts a TRF-16 report down to its first K rounds (scores recomputed), so
that a pairing engine can pair round K + 1 from it.  Entries of round K + 1
that were not made by the pairing (requested byes H, Z, F and absences
'0000 - -') are kept, so that the same players are paired; so is a BBU
line (the value of a pairing-allocated bye).
  trf_truncate.py FILE K > OUT
Used with tests/tools/pair-trf and `bbpPairings --dutch OUT -p` to compare
one round's pairings."""
import sys

POINTS = {'1': 1.0, '=': 0.5, '0': 0.0, '+': 1.0, '-': 0.0, 'W': 1.0, 'D': 0.5,
          'L': 0.0, 'U': 1.0, 'H': 0.5, 'F': 1.0, 'Z': 0.0, ' ': 0.0}


def main():
    path, keep = sys.argv[1], int(sys.argv[2])
    with open(path) as f:
        lines = f.read().split('\n')
    bye_pts = 1.0
    for line in lines:
        if line.startswith('BBU'):
            bye_pts = float(line[3:].split()[0])
    for line in lines:
        if not line.startswith('001'):
            print(line)
            continue
        head, rounds = line[:91], line[91:]
        all_cells = [rounds[i:i + 10].ljust(10) for i in range(0, len(rounds), 10)]
        cells = all_cells[:keep]
        score = 0.0
        for c in cells:
            res = c[7]
            score += bye_pts if res == 'U' else POINTS.get(res, 0.0)
        if len(all_cells) > keep:
            nxt = all_cells[keep]
            if nxt[:4].strip() in ('0000', '0') and nxt[7] in 'HZF-':
                cells.append(nxt)
        head = head[:80] + ('%4.1f' % score) + head[84:]
        print((head + ''.join(c.ljust(10) for c in cells)).rstrip())


main()
