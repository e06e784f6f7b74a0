#!/usr/bin/env bash
# Submit one starlab stage as a Slurm job array of N shards and a merge job
# that runs when every shard has finished:
#
#   deploy/slurm/submit.sh N DIR COMMAND [ARGS...]
#   deploy/slurm/submit.sh 4 /shared/runs/cpc match cpc:nodes=20000 staretc:nodes=20000 -games 20000 -seed 3
#
# DIR must be on storage every node sees. Shard i runs into DIR/shard-<i>;
# the merged run is DIR/merged, with DIR/merged/report.html. COMMAND is one
# of the stages that take -shard: match, analyze, rollout, collect, bench,
# tune. The binary is
# $STARLAB (an absolute path on shared storage is best) or starlab on PATH.
# Extra sbatch options go in SBATCH_ARGS (e.g. "--partition=long --time=4:00:00").
# Prints the two job ids: the array's, then the merge's.
set -euo pipefail
n=${1:?usage: submit.sh N DIR COMMAND [ARGS...]}
dir=${2:?usage: submit.sh N DIR COMMAND [ARGS...]}
cmd=${3:?usage: submit.sh N DIR COMMAND [ARGS...]}
shift 3
case $n in '' | *[!0-9]* | 0) echo "submit.sh: N=$n: want a shard count of 1 or more" >&2; exit 2 ;; esac
case $cmd in match | analyze | rollout | collect | bench | tune) ;; *) echo "submit.sh: $cmd does not take -shard (match, analyze, rollout, collect, bench and tune do)" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir/logs"
dir=$(cd "$dir" && pwd)
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="0-$((n - 1))" \
	--output="$dir/logs/shard-%a.out" "$here/shard.sbatch" "$dir" "$cmd" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency="afterok:$array" --kill-on-invalid-dep=yes \
	--output="$dir/logs/merge.out" "$here/merge.sbatch" "$dir")
echo "$array ${merge%%;*}"
