#!/usr/bin/env bash
# Findings must not change when detection is made faster (issue 14): a SHA-256 of every finding and every cloaked
# result over src/test/resources/detection/** and the cloak benchmark's texts, PERSON on.
#   bash bench/findings-digest.sh                 # the working tree
#   BASE=<rev> bash bench/findings-digest.sh      # and the commit <rev>, same tool; says whether they match
# SPANS=<dir> writes every finding, one a line, to <dir>/spans[-<sha>].txt, to diff two builds.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/harness.sh
SOURCES=(src/test/java/dev/cloakgate/tools/FindingsDigest.java src/test/java/dev/cloakgate/cloak/eval/LabelledText.java bench/CloakBench.java)
harness_compile "${SOURCES[@]}"
args=()
[ -n "${SPANS:-}" ] && args=(--spans "$SPANS/spans.txt")
java -cp "$CP" dev.cloakgate.tools.FindingsDigest src/test/resources/detection "${args[@]}" | tee target/findings-digest.txt
if [ -n "${BASE:-}" ]; then
    harness_base "$BASE" "${SOURCES[@]}"
    [ -n "${SPANS:-}" ] && args=(--spans "$SPANS/spans-$BASE_SHA.txt")
    echo "at $BASE_SHA:"
    java -cp "$BASE_CP" dev.cloakgate.tools.FindingsDigest src/test/resources/detection "${args[@]}" | tee target/findings-digest-base.txt
    if diff -q <(grep '^all' target/findings-digest.txt) <(grep '^all' target/findings-digest-base.txt) > /dev/null; then
        echo "identical findings"
    else
        echo "FINDINGS DIFFER from $BASE_SHA"
        exit 1
    fi
fi
