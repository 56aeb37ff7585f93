# slurm.sh: a one-node Slurm cluster of the test's own, for the ENGINE=slurm
# tests; source after lib.sh.
#
#   slurm_start [--gpus N] [--private DIR]
#              start munged (its own key and socket), slurmctld and slurmd
#              (their own slurm.conf, ports, state and spool folders) in a
#              folder of their own, as root, in the foreground of this
#              shell: each is started and stopped by its PID, at exit
#              (after every job of the cluster is cancelled). No cgroups:
#              proctrack/linuxproc, task/none, select/cons_tres by CPU.
#              Finished jobs are written to $SLURM_DIR/jobcomp.txt
#              (jobcomp/filetxt: no accounting database). --gpus N gives
#              the node N fake GPUs (gres.conf, files under $SLURM_DIR/dev).
#              --private DIR: slurmd runs in a mount namespace of its own
#              with an empty tmpfs over DIR, a node that does not see what
#              is written there. Exports SLURM_CONF; sets $SLURM_DIR and
#              $SLURM_NODE. Skips the whole test (skip_all) when not root
#              or Slurm and munge are not installed.
#   slurm_jobs prints the jobs the controller has in its queue, "ID STATE"
#              a line (none: nothing queued or running)
#   slurm_idle waits until the queue is empty

slurm_pids=
SLURM_DIR=

slurm_start() {
	local gpus=0 private='' cmd tries=0 i gres='' st
	while [ $# -gt 0 ]; do
		case $1 in
		--gpus) gpus=$2; shift 2 ;;
		--private) private=$2; shift 2 ;;
		*) echo "Bail out! slurm_start: unknown option '$1'"; exit 1 ;;
		esac
	done
	[ "$(id -u)" = 0 ] ||
		skip_all "not root: the Slurm tests start a cluster of their own (munged, slurmctld and slurmd) as root"
	for cmd in munged mungekey slurmctld slurmd sbatch squeue scancel scontrol; do
		command -v "$cmd" >/dev/null 2>&1 ||
			skip_all "Slurm is not installed ('$cmd': the slurmctld, slurmd, slurm-client and munge packages; sh mk/deps.sh install test)"
	done
	# Its own folder, short (munge's socket path), outside $T: the
	# daemons' files go before $T does.
	SLURM_DIR=$(mktemp -d /tmp/prof-slurm.XXXXXX) || exit 1
	chmod 755 "$SLURM_DIR"
	# munged refuses folders others may write, whatever the umask.
	mkdir -p -m 755 "$SLURM_DIR/munge" "$SLURM_DIR/state" \
		"$SLURM_DIR/spool" "$SLURM_DIR/log"
	trap 'slurm_stop; rm -rf "$T"' EXIT
	# Nothing of a Slurm job this test may run in reaches the cluster.
	for i in $(env | sed -n 's/^\(SLURM_[A-Z_]*\)=.*/\1/p'); do
		unset "$i"
	done
	unset SBATCH_ACCOUNT SBATCH_PARTITION SBATCH_TIMELIMIT SQUEUE_FORMAT
	mungekey -c -k "$SLURM_DIR/munge/munge.key" ||
		{ echo "Bail out! mungekey failed"; exit 1; }
	munged -F --key-file="$SLURM_DIR/munge/munge.key" \
		--socket="$SLURM_DIR/munge/socket" \
		--pid-file="$SLURM_DIR/munge/munged.pid" \
		--seed-file="$SLURM_DIR/munge/seed" \
		--log-file="$SLURM_DIR/log/munged.log" \
		>"$SLURM_DIR/log/munged.out" 2>&1 &
	slurm_pids=$!
	until [ -S "$SLURM_DIR/munge/socket" ]; do
		slurm_alive "$slurm_pids" "$SLURM_DIR/log/munged.log"
		sleep 0.05
	done
	SLURM_NODE=$(hostname -s)
	if [ "$gpus" -gt 0 ]; then
		mkdir -p "$SLURM_DIR/dev"
		: >"$SLURM_DIR/gres.conf"
		for i in $(seq 0 $((gpus - 1))); do
			# a character device (gres.conf takes no other), as
			# /dev/null is: the fake backend never opens it
			mknod "$SLURM_DIR/dev/gpu$i" c 1 3 ||
				skip_all "cannot make a device file (mknod) for the fake GPU"
			echo "NodeName=$SLURM_NODE Name=gpu File=$SLURM_DIR/dev/gpu$i" \
				>>"$SLURM_DIR/gres.conf"
		done
		gres=" Gres=gpu:$gpus"
	fi
	export SLURM_CONF=$SLURM_DIR/slurm.conf
	# Two ports no other process listens on; slurmctld is started again
	# on others if one was taken in between.
	while :; do
		slurm_conf "$gres" "$gpus"
		slurmctld -D -f "$SLURM_CONF" >"$SLURM_DIR/log/slurmctld.out" 2>&1 &
		st=$!
		until scontrol ping 2>/dev/null | grep -q 'is UP'; do
			kill -0 "$st" 2>/dev/null || break
			sleep 0.05
		done
		if kill -0 "$st" 2>/dev/null; then
			slurm_pids="$slurm_pids $st"
			break
		fi
		wait "$st"
		tries=$((tries + 1))
		if [ $tries -ge 5 ]; then
			sed 's/^/# /' "$SLURM_DIR/log/slurmctld.log" >&2
			echo "Bail out! slurmctld did not start"
			exit 1
		fi
	done
	if [ -n "$private" ]; then
		mkdir -p "$private"
		unshare --mount --propagation private sh -c \
			'mount -t tmpfs tmpfs "$1" && shift && exec "$@"' sh \
			"$private" slurmd -D -f "$SLURM_CONF" \
			>"$SLURM_DIR/log/slurmd.out" 2>&1 &
	else
		slurmd -D -f "$SLURM_CONF" >"$SLURM_DIR/log/slurmd.out" 2>&1 &
	fi
	slurm_pids="$slurm_pids $!"
	until [ "$(sinfo -h -n "$SLURM_NODE" -o %t 2>/dev/null)" = idle ]; do
		slurm_alive "$!" "$SLURM_DIR/log/slurmd.log"
		sleep 0.05
	done
}

# slurm_conf GRES GPUS: slurm.conf on two free ports.
slurm_conf() {
	local p q
	while :; do
		p=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 40000))
		q=$((p + 1))
		[ -z "$(ss -Hltn "( sport = :$p or sport = :$q )" 2>/dev/null)" ] &&
			break
	done
	cat >"$SLURM_CONF" <<EOF
ClusterName=prof
SlurmctldHost=$SLURM_NODE(127.0.0.1)
SlurmctldPort=$p
SlurmdPort=$q
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SLURM_DIR/munge/socket
CredType=cred/munge
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/log/slurmctld.log
SlurmdLogFile=$SLURM_DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/filetxt
JobCompLoc=$SLURM_DIR/jobcomp.txt
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
KillWait=2
${2:+GresTypes=gpu}
NodeName=$SLURM_NODE NodeAddr=127.0.0.1 CPUs=$(nproc)$1 State=UNKNOWN
PartitionName=prof Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
	[ "$2" != 0 ] || sed -i '/^GresTypes=/d' "$SLURM_CONF"
}

# slurm_alive PID LOG: bail out with LOG when the daemon PID has ended.
slurm_alive() {
	kill -0 "$1" 2>/dev/null && return 0
	sed 's/^/# /' "$2" >&2
	echo "Bail out! a Slurm daemon ended (log: $2)"
	exit 1
}

slurm_jobs() {
	squeue -h -a -o '%i %T'
}

slurm_idle() {
	while [ -n "$(slurm_jobs)" ]; do
		sleep 0.1
	done
}

# slurm_stop: every job cancelled, then the daemons, last started first,
# by PID; the folder goes.
slurm_stop() {
	local p rev='' i
	[ -n "$SLURM_DIR" ] || return 0
	if [ -n "$slurm_pids" ]; then
		scancel --full -u root >/dev/null 2>&1
		i=0
		while [ -n "$(slurm_jobs 2>/dev/null)" ] && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	fi
	for p in $slurm_pids; do
		rev="$p $rev"
	done
	for p in $rev; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	slurm_pids=
	rm -rf "$SLURM_DIR"
	SLURM_DIR=
}
