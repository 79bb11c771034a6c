#!/bin/sh
# tests/fuzz/campaign.sh BINDIR TARGET TOTAL JOBS [SECONDS] — a long crash-fuzzing campaign of
# one target on JOBS cores: JOBS libFuzzer processes of BINDIR/fuzz_TARGET (built by run.sh;
# with NJ_FUZZ_STATIC=1 they run on a machine without LLVM), each with its own copy of the
# target's seed corpus, its own mutation seed (1 .. JOBS) and TOTAL/JOBS inputs (-runs), or
# SECONDS of time if given.  Prints the inputs each process ran, their sum, and any
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
# one job: libFuzzer runs until it has done its share of inputs (or its time); a timeout
# (a script that loops forever, as it would under Python too) ends a libFuzzer process, so the
# job starts it again on the grown corpus, with the next seed, for what is left (at most 50
# times), and keeps each timeout's input for a look
job() {
    d=$work/$t-$1 done_=0 round=0 rc=0 start=$(date +%s)
    rm -rf "$d" && mkdir -p "$d" && cp -r "$corpus" "$d/corpus"
    while [ $round -lt 50 ]; do
        limit="-runs=$((per - done_))"
        if [ "$secs" -gt 0 ]; then
            left=$((secs - ($(date +%s) - start)))
            [ $left -gt 0 ] || break
            limit="-max_total_time=$left"
        fi
        rc=0
        (cd "$d" && ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1} "$exe" corpus \
            -max_len=${NJ_FUZZ_MAX_LEN:-4096} $limit -seed=$(($1 + 1000 * round)) \
            -timeout=${NJ_FUZZ_TIMEOUT:-10} -rss_limit_mb=4096 -print_final_stats=1 \
            >"fuzz$round.log" 2>&1) || rc=$?
        n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/fuzz$round.log" | tail -1)
        [ -n "$n" ] || n=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$d/fuzz$round.log" | tail -1)
        done_=$((done_ + ${n:-0}))
        round=$((round + 1))
        if [ $rc -ne 0 ] && ! grep -q "ERROR: libFuzzer: timeout" "$d/fuzz$((round - 1)).log"; then
            break  # a sanitizer report or a crash: keep it and stop this job
        fi
        [ $rc -eq 0 ] && [ "$secs" -eq 0 ] && break
        [ "$secs" -eq 0 ] && [ $done_ -ge $per ] && break
    done
    echo "$done_ $rc" >"$d/result"
}

j=1
while [ $j -le "$jobs" ]; do
    job $j &
    j=$((j + 1))
done
wait
sum=0 bad=0 slow=0 j=1
while [ $j -le "$jobs" ]; do
    d=$work/$t-$j
    read -r n rc <"$d/result" || { n=0; rc=?; }
    sum=$((sum + n))
    slow=$((slow + $(ls "$d" | grep -c '^timeout-' || true)))
    if [ "$rc" != 0 ] && ! ls "$d" | grep -q '^timeout-'; then
        bad=$((bad + 1))
        echo "== $t job $j: exit $rc"
        cat "$d"/fuzz*.log | grep -m3 "ERROR: \|SUMMARY: \|Test unit written" || true
    fi
    j=$((j + 1))
done
echo "campaign $t: $sum inputs in $jobs processes, $bad with a report, $slow inputs over the timeout (in WORK/$t-J/timeout-*)"
[ $bad -eq 0 ]
