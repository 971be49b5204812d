#!/bin/sh
# The exact optima of the lists of other lengths (docs/lengths.md): every opener, normal and hard
# mode, each run resumable (rerun: the finished openers of the results file are skipped), niced.
# Usage: sh docs/optima/run.sh [LIST MODE]...   e.g.  sh docs/optima/run.sh de-4 normal de-4 hard
set -e
cd "$(dirname "$0")/../.."
while [ $# -ge 2 ]; do
  list=$1; mode=$2; shift 2
  hard=""; [ "$mode" = hard ] && hard="--hard"
  nice -n 10 .venv/bin/raten tree --words "$list" $hard --best --jobs "${JOBS:-1}" --memo-gb "${MEMO_GB:-0.5}" \
    --results "docs/optima/best-$list-$mode.jsonl" \
    --out "src/raten/data/trees/$list-$mode.txt" --table "src/raten/data/trees/$list-$mode-openers.tsv" --json \
    > "docs/optima/$list-$mode.json"
done
