#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for make test-slurm: installs
# Debian's slurm-wlm and munge when they are missing, writes a slurm.conf for
# this host (process tracking by /proc, no task plugin, so it needs no cgroups
# and runs in a container), generates a munge key, starts munged, slurmctld
# and slurmd, and waits for the node to be idle. Needs root.
#
#   deploy/slurm/localcluster.sh start | stop
set -euo pipefail
conf=/etc/slurm/slurm.conf
state=/var/lib/starlab-slurm

stop() {
	pkill -x slurmd 2>/dev/null || true
	pkill -x slurmctld 2>/dev/null || true
	pkill -x munged 2>/dev/null || true
}

start() {
	if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		apt-get install -y -qq slurm-wlm munge >/dev/null
	fi
	stop
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
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
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
	if id munge >/dev/null 2>&1; then
		runuser -u munge -- /usr/sbin/munged
	else
		/usr/sbin/munged --force
	fi
	slurmctld
	slurmd
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
