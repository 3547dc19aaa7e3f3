# MPI runs for the cluster tests and bench/cluster-vs-netpipe.sh, on one machine: mpi_local runs
# ranks on this machine only (shared memory), and netns_up makes nodes of a cluster: each node a
# network namespace (and a UTS namespace, so its host name differs, and a mount namespace) joined to
# the others by a veth pair on a bridge that lives in a namespace of its own. Nothing is added to the
# namespace the test runs in: addresses exist only on the links made here (10.231.0.0/24), and the
# traffic of the MPI runs stays on them and on loopback (the network rule).
#
# Use: . tests/cli/mpi.sh; netns_up N || skip ...; netns_mpirun PER_NODE ARGS...; netns_down runs
# from a trap on exit, also after a failure. netns_up returns 1, with the reason in $NETNS_WHY,
# when namespaces cannot be made here.
#
# How Open MPI reaches the nodes: mpirun runs inside node 0's namespaces; for the others its rsh
# launcher (plm_rsh_agent) is $NETNS_DIR/agent, which maps the node's address to its namespaces and
# starts Open MPI's daemon there (`ip netns exec NS unshare --uts --mount ...`). Ranks are not bound
# (--bind-to none; NETNS_BIND=core for the default): each node's daemon would pin its first rank to CPU 0 of the one machine they
# share, and two ranks spinning on one CPU answer each other only at the scheduler's tick (4 ms).
# And a rank waiting for a message yields its CPU (mpi_yield_when_idle, MPI_YIELD=0 to leave it
# off): this one machine runs more ranks than it has CPUs, beside other work, and a spinning rank
# would keep its partner off the CPU for a time slice.

# Open MPI's own allocations are not archscope's leaks: the sanitized build's leak check is off here.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# mpi_local NP ARGS...: NP ranks on this machine, shared memory only (MPI_BIND=core to pin them).
mpi_local() {
	local np=$1; shift
	mpirun --allow-run-as-root --oversubscribe --bind-to "${MPI_BIND:-none}" --mca btl self,vader \
		--mca mpi_yield_when_idle "${MPI_YIELD:-1}" --mca oob_tcp_if_include lo -np "$np" "$@"
}

NETNS_PFX=${NETNS_PFX:-as$$}
NETNS_NET=10.231.0
NETNS_N=0
NETNS_DIR=
NETNS_WHY=

netns_down() {
	local i
	[ -n "$NETNS_DIR" ] || return 0
	for ((i = 0; i < NETNS_N; i++)); do
		# processes left in a node (a killed run's daemon) go with it
		ip netns pids "${NETNS_PFX}n$i" 2>/dev/null | xargs -r kill -9 2>/dev/null
		ip netns del "${NETNS_PFX}n$i" 2>/dev/null
	done
	ip netns del "${NETNS_PFX}h" 2>/dev/null
	rm -rf "$NETNS_DIR"
	NETNS_DIR=
}

# netns_up N: N nodes named node0..node<N-1>, addresses $NETNS_NET.1.. on their eth0.
netns_up() {
	local n=$1 i
	[ "$(id -u)" -eq 0 ] || { NETNS_WHY="making network namespaces needs root (uid $(id -u))"; return 1; }
	command -v ip >/dev/null || { NETNS_WHY="no 'ip' in PATH; Debian package iproute2"; return 1; }
	command -v unshare >/dev/null || { NETNS_WHY="no 'unshare' in PATH; Debian package util-linux"; return 1; }
	NETNS_DIR=$(mktemp -d /tmp/archscope-netns.XXXXXX)
	trap 'netns_down; rm -rf "${TMP:-}"' EXIT
	trap 'exit 130' INT TERM
	ip netns add "${NETNS_PFX}h" 2>"$NETNS_DIR/err" || { NETNS_WHY="ip netns add failed: $(head -c 200 "$NETNS_DIR/err")"; netns_down; return 1; }
	ip -n "${NETNS_PFX}h" link add br0 type bridge 2>"$NETNS_DIR/err" &&
	ip -n "${NETNS_PFX}h" link set br0 up ||
		{ NETNS_WHY="no bridge in a namespace: $(head -c 200 "$NETNS_DIR/err")"; netns_down; return 1; }
	for ((i = 0; i < n; i++)); do
		NETNS_N=$((i + 1))
		if ! { ip netns add "${NETNS_PFX}n$i" &&
		       ip -n "${NETNS_PFX}n$i" link add eth0 type veth peer name "v$i" netns "${NETNS_PFX}h" &&
		       ip -n "${NETNS_PFX}n$i" addr add "$NETNS_NET.$((i + 1))/24" dev eth0 &&
		       ip -n "${NETNS_PFX}n$i" link set eth0 up &&
		       ip -n "${NETNS_PFX}n$i" link set lo up &&
		       ip -n "${NETNS_PFX}h" link set "v$i" master br0 up; } 2>"$NETNS_DIR/err"; then
			NETNS_WHY="veth pair into a namespace failed: $(head -c 200 "$NETNS_DIR/err")"
			netns_down
			return 1
		fi
	done
	# The launcher: "agent HOST CMD..." runs CMD in HOST's namespaces with HOST's name, in a mount
	# namespace of its own, after the node's hook ($NETNS_DIR/hookI, see netns_hook) if there is one.
	cat >"$NETNS_DIR/agent" <<AGENT
#!/bin/sh
host=\$1; shift
i=\${host##*.}; i=\$((i - 1))
exec ip netns exec ${NETNS_PFX}n\$i unshare --uts --mount sh -c "hostname node\$i; [ -f $NETNS_DIR/hook\$i ] && . $NETNS_DIR/hook\$i; \$*"
AGENT
	chmod +x "$NETNS_DIR/agent"
	return 0
}

# netns_hook I TEXT: shell lines node I (not node 0, where mpirun runs) runs before Open MPI's
# daemon starts there: fewer CPUs (taskset -pc 0 $$), another executable (mount --bind A B).
netns_hook() {
	printf '%s\n' "$2" >"$NETNS_DIR/hook$1"
}

# netns_exec I CMD...: runs CMD in node I's namespaces (host name nodeI).
netns_exec() {
	local i=$1; shift
	ip netns exec "${NETNS_PFX}n$i" unshare --uts sh -c 'hostname "$0"; exec "$@"' "node$i" "$@"
}

# The options of an mpirun across the nodes: every node's address with `slots` slots.
netns_hosts() {
	local slots=$1 i hosts=
	for ((i = 0; i < NETNS_N; i++)); do hosts="$hosts${hosts:+,}$NETNS_NET.$((i + 1)):$slots"; done
	echo "$hosts"
}

# netns_mpirun PER_NODE ARGS...: mpirun in node 0 with PER_NODE ranks on every node, ranks
# numbered node by node; ARGS are mpirun's further options and the program.
netns_mpirun() {
	local per=$1; shift
	netns_exec 0 mpirun --allow-run-as-root --oversubscribe --bind-to "${NETNS_BIND:-none}" --mca btl self,vader,tcp \
		--mca mpi_yield_when_idle "${MPI_YIELD:-1}" \
		--mca plm_rsh_agent "$NETNS_DIR/agent" \
		--mca oob_tcp_if_include "$NETNS_NET.0/24" --mca btl_tcp_if_include "$NETNS_NET.0/24" \
		--host "$(netns_hosts "$per")" -np $((per * NETNS_N)) --map-by "ppr:$per:node" "$@"
}
