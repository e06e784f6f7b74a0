#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for make test-slurm: installs
# Debian's slurm-wlm and munge when they are missing, writes a slurm.conf for
# this host (process tracking by /proc, no task plugin, so it needs no cgroups
# and runs in a container), generates a munge key, starts munged, slurmctld
# and slurmd, and waits for the node to be idle. Needs root.
#
# It keeps the PID of each daemon it starts in a pid file of its state
# directory, and stop ends those processes only: on a shared machine other
# people's slurmd, slurmctld and munged are not its own. A munged already
# running is used, not replaced; a slurmctld or slurmd already running that
# this script did not start is an error.
#
#   deploy/slurm/localcluster.sh start | stop
#
# STARLAB_SLURM_STATE names another state directory (a test's).
set -euo pipefail
conf=/etc/slurm/slurm.conf
state=${STARLAB_SLURM_STATE:-/var/lib/starlab-slurm}

# ours prints the PID in the pid file of daemon $1 when that process is
# still daemon $1 (a PID reused by another process is not ours).
ours() {
	local pid
	pid=$(cat "$state/$1.pid" 2>/dev/null) || return 1
	[[ $pid =~ ^[0-9]+$ ]] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ] && echo "$pid"
}

stop() {
	local d pid
	for d in slurmd slurmctld munged; do
		if pid=$(ours "$d"); then
			kill "$pid" 2>/dev/null || true
			for _ in $(seq 50); do
				kill -0 "$pid" 2>/dev/null || break
				sleep 0.2
			done
		fi
		rm -f "$state/$d.pid"
	done
}

# foreign fails when daemon $1 runs but is not the one this script started.
foreign() {
	local pids mine
	pids=$(pgrep -x "$1" || true)
	mine=$(ours "$1" || true)
	for pid in $pids; do
		if [ "$pid" != "$mine" ]; then
			echo "localcluster: a $1 this script did not start is running (pid $pid); stop it, or use another machine" >&2
			return 1
		fi
	done
}

# started waits for daemon $1 to write its pid file $2 and copies it to the
# state directory, where stop finds it.
started() {
	for _ in $(seq 50); do
		if [ -s "$2" ]; then
			[ "$2" = "$state/$1.pid" ] || cp "$2" "$state/$1.pid"
			ours "$1" >/dev/null && return 0
		fi
		sleep 0.2
	done
	echo "localcluster: $1 did not start (no pid file $2)" >&2
	return 1
}

start() {
	if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		apt-get install -y -qq slurm-wlm munge >/dev/null
	fi
	mkdir -p "$state"
	stop
	foreign slurmctld
	foreign slurmd
	host=$(hostname -s)
	cpus=$(nproc)
	mem=$(awk '/MemTotal/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
	mkdir -p /etc/slurm "$state/ctld" "$state/d" /var/log/slurm /run/munge /var/lib/munge /var/log/munge /etc/munge
	cat >"$conf" <<CONF
ClusterName=starlab-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
	if [ ! -s /etc/munge/munge.key ]; then
		dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
	fi
	chown -R munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge 2>/dev/null || true
	chmod 0400 /etc/munge/munge.key
	chmod 0700 /etc/munge
	if pgrep -x munged >/dev/null; then
		echo "localcluster: using the munged already running"
	elif id munge >/dev/null 2>&1; then
		rm -f /run/munge/munged.pid # a stale one would name another process
		runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid
		started munged /run/munge/munged.pid
	else
		/usr/sbin/munged --force --pid-file="$state/munged.pid"
		started munged "$state/munged.pid"
	fi
	slurmctld
	started slurmctld "$state/slurmctld.pid"
	slurmd
	started slurmd "$state/slurmd.pid"
	for _ in $(seq 60); do
		if sinfo -h -o %T 2>/dev/null | grep -qx idle; then
			echo "localcluster: node $host idle, $cpus CPUs"
			return 0
		fi
		sleep 1
	done
	echo "localcluster: the node did not become idle in 60 s:" >&2
	sinfo >&2 || true
	tail -n 20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
	return 1
}

case ${1:-} in
start) start ;;
stop) stop ;;
*) echo "usage: localcluster.sh start | stop" >&2; exit 2 ;;
esac
