#!/usr/bin/env bash
# Submit the matches of the paper-11x11 recipe (the ChanceProbCut chapter's
# table 5.9: cpc at each t against staretc on 11x11/8, 100 ms per move,
# 20,000 games per t and 40,000 at t = 1.6) as one sharded match per t:
#
#   deploy/slurm/paper-11x11.sh N DIR
#
# Each match is N shards of one core each (-concurrency 1, as shard.sbatch
# asks for one CPU per task: two games on one core would halve each one's
# time) into DIR/cpc-t<t>/shard-<i>, merged into DIR/cpc-t<t>/merged with
# its report. cpc uses the built-in fit of the built-in net
# (search/dice/fits/11x11-8.json), which the recipe's collect and fit stages make
# again; the variants, games and seed are the recipe's otherwise (a test
# checks it). Compute: about 340 core-hours (docs/reproducing.md,
# "Reproducing the papers"); with N = 64 per t and 7 values of t, 448
# tasks of about 40 minutes each (80 at t = 1.6). STARLAB and SBATCH_ARGS are as for submit.sh.
set -euo pipefail
n=${1:?usage: paper-11x11.sh N DIR}
dir=${2:?usage: paper-11x11.sh N DIR}
here=$(cd "$(dirname "$0")" && pwd)
submit() { # t games
	echo "cpc-t$1: $("$here/submit.sh" "$n" "$dir/cpc-t$1" match "cpc:movetime=100ms,t=$1" staretc:movetime=100ms -n 11 -m 8 -games "$2" -seed 1 -concurrency 1)"
}
submit 3.2 20000
submit 1.6 40000
submit 0.8 20000
submit 0.4 20000
submit 0.2 20000
submit 0.1 20000
submit 0.05 20000
