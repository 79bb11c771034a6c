#!/bin/sh
# tests/fuzz/campaign.sh BINDIR TARGET TOTAL JOBS [SECONDS] — a long crash-fuzzing campaign of
# one target on JOBS cores: JOBS libFuzzer processes of BINDIR/fuzz_TARGET (built by run.sh;
# with NJ_FUZZ_STATIC=1 they run on a machine without LLVM), each with its own copy of the
# target's seed corpus, its own mutation seed (1 .. JOBS) and TOTAL/JOBS inputs (-runs), or
# SECONDS of time if given first.  Prints the inputs each process ran, their sum, and any
# sanitizer report; the crashing inputs stay in WORK/TARGET-J/ (WORK: NJ_FUZZ_WORK or
# /tmp/nj-campaign).  Exit status 0 when every process ended clean.
set -eu
cd "$(dirname "$0")/../.."
bin=$1 t=$2 total=$3 jobs=$4 secs=${5:-0}
corpus=tests/fuzz/corpus_$t
[ "$t" = parser ] && corpus=tests/fuzz/corpus
work=${NJ_FUZZ_WORK:-/tmp/nj-campaign}
exe=$(cd "$bin" && pwd)/fuzz_$t
per=$((total / jobs))
j=1
while [ $j -le "$jobs" ]; do
    d=$work/$t-$j
    rm -rf "$d" && mkdir -p "$d" && cp -r "$corpus" "$d/corpus"
    limit="-runs=$per"
    [ "$secs" -gt 0 ] && limit="-max_total_time=$secs"
    (cd "$d" && ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1} "$exe" corpus \
        -max_len=${NJ_FUZZ_MAX_LEN:-4096} $limit -seed=$j -timeout=${NJ_FUZZ_TIMEOUT:-10} \
        -rss_limit_mb=4096 -print_final_stats=1 >fuzz.log 2>&1; echo $? >rc) &
    j=$((j + 1))
done
wait
sum=0 bad=0 j=1
while [ $j -le "$jobs" ]; do
    d=$work/$t-$j
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/fuzz.log" | tail -1)
    rc=$(cat "$d/rc")
    sum=$((sum + ${n:-0}))
    if [ "$rc" != 0 ]; then
        bad=$((bad + 1))
        echo "== $t job $j: exit $rc"
        grep -m3 "ERROR: \|SUMMARY: \|Test unit written" "$d/fuzz.log" || tail -5 "$d/fuzz.log"
    fi
    j=$((j + 1))
done
echo "campaign $t: $sum inputs in $jobs processes, $bad with a report"
[ $bad -eq 0 ]
