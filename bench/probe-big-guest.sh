#!/bin/bash
# The full probe, numa and stack on a machine bigger than this one: boots a KVM (else TCG) guest
# with VCPUS vCPUs (default "16 64", one guest after the other) in 2 sockets of 2 NUMA nodes each
# (SMT 2; SLIT 10 local, 12 to the other node of the socket, 21 across), whose initramfs holds
# archscope and a script that runs topology, probe --plan, the full probe, contexts with every
# team size (the full sweep beside the search), numa matrix and stack, writing each JSON to a
# second serial port, then powers off. Functional checks on the host: the shapes and ranks of the
# answers, the placement, the c2c classes against the guest's topology, and the trap: the vCPUs
# share this machine's cores, so contexts must answer the host's cores (2 here), not the vCPUs.
# The figures are those of vCPUs time-sharing the host's cores, not of a big machine.
#
# Usage: KERNEL=/path/to/vmlinuz bash bench/probe-big-guest.sh [OUTDIR]
#   (VCPUS="16 64", MEM_MIB=1024 per node, GUEST_TIMEOUT=3000 s per guest, ACCEL=auto|kvm|tcg,
#   FULL_MAX=16: under TCG, guests of more vCPUs run probe --quick). A kernel with
#   CONFIG_NUMA: the newest /boot/vmlinuz-*, or Debian's unpacked without installing:
#   apt-get download linux-image-6.1.0-56-amd64 && dpkg-deb --fsys-tarfile linux-image-*.deb | tar -x ./boot/
#   Run it under `flock /tmp/archscope-quiet.lock` on a shared machine. OUTDIR keeps every JSON.
set -eu
cd "$(dirname "$0")/.."
benchdir=$PWD/bench
# An emulated CPU (TCG) lacks the build machine's vector extensions: give a build whose generated
# kernels target it (cmake -B build-guest -DARCHSCOPE_KERNEL_MARCH=x86-64-v2; ninja -C build-guest
# archscope archscope-preload stack-parallel), else the instr probe dies of SIGILL.
A=${ARCHSCOPE:-build/archscope}
VCPUS=${VCPUS:-16 64}
MEM_MIB=${MEM_MIB:-1024}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-3000}
KERNEL=${KERNEL:-$(ls /boot/vmlinuz-* 2>/dev/null | tail -n 1)}
[ -x "$A" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
[ -n "$KERNEL" ] && [ -f "$KERNEL" ] || { echo "skip: no kernel image; give KERNEL=PATH (see the header)"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "skip: no qemu-system-x86_64 (Debian qemu-system-x86)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=${1:-$tmp/out}
mkdir -p "$out"
host_cpus=$(nproc)

# The initramfs: archscope, the preload library and an example program for stack, a shell and the
# few programs the script needs, with their libraries.
ir=$tmp/ir
mkdir -p "$ir/bin" "$ir/proc" "$ir/sys" "$ir/dev" "$ir/tmp"
cp "$A" "$ir/bin/archscope"
cp "$(dirname "$A")/libarchscope-preload.so" "$ir/bin/"
cp "$(dirname "$A")/stack-parallel" "$ir/bin/"
progs="dash mount timeout date cat tail"
for p in $progs; do cp "$(command -v "$p")" "$ir/bin/"; done
mv "$ir/bin/dash" "$ir/bin/sh"
for l in $(ldd "$A" "$(dirname "$A")/stack-parallel" "$(dirname "$A")/libarchscope-preload.so" $(for p in $progs; do command -v "$p"; done) |
	awk '/=> \// { print $3 } /^\t\// { print $1 }' | sort -u); do
	mkdir -p "$ir${l%/*}"
	cp -L "$l" "$ir$l"
done
cat >"$ir/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
export PATH=/bin
cd /tmp
n=$(cat /sys/devices/system/cpu/online)
echo "guest up: cpus $n"
# step NAME SECONDS CMD...: CMD's stdout to the second serial port between markers
step() {
	name=$1 limit=$2
	shift 2
	echo "== $name: $*"
	t0=$(date +%s.%N)
	echo "=== begin $name" >/dev/ttyS1
	timeout "$limit" "$@" >/tmp/step.out 2>/tmp/step.err
	rc=$?
	cat /tmp/step.out >/dev/ttyS1
	t1=$(date +%s.%N)
	echo "=== end $name rc=$rc t0=$t0 t1=$t1" >/dev/ttyS1
	echo "   rc $rc; last stderr: $(tail -n 1 /tmp/step.err)"
}
step topology 60 archscope topology --json
step plan 60 archscope probe --plan --json
# the full probe; with archscope_quick=1 on the kernel's command line (guests of more vCPUs than
# FULL_MAX under TCG, where a full c2c of emulated vCPUs sharing two cores takes hours) --quick
quick=
case " $(cat /proc/cmdline) " in *" archscope_quick=1 "*) quick=--quick ;; esac
step probe 1800 archscope probe $quick --json -q
step contexts-all 900 archscope probe contexts $quick --all-teams --json -q
step numa 300 archscope numa matrix --quick --size 16MiB --json -q
ncpu=${n#0-}
ncpu=$((ncpu + 1))
step stack 300 archscope stack -q -t "1,2,4,$ncpu" -r 1 --json -- stack-parallel '{T}' 2000
echo o >/proc/sysrq-trigger
while :; do :; done # until the power is off (init must not exit)
INIT
chmod +x "$ir/init"
# The initramfs in the "newc" cpio format the kernel reads (no cpio program needed).
python3 "$benchdir/newc-cpio.py" "$ir" "$tmp/ir.cpio"

# KVM where a guest boots under it (a kernel without a root panics within seconds; nested KVM on
# some hosts hangs after the decompressor), else TCG with one host thread per vCPU.
accel=tcg,thread=multi cpu=${TCG_CPU:-max,vendor=GenuineIntel}
if [ "${ACCEL:-auto}" = kvm ] || { [ "${ACCEL:-auto}" = auto ] && [ -w /dev/kvm ] &&
	timeout 30 qemu-system-x86_64 -accel kvm -cpu host -m 512M -smp 1 -display none -monitor none -serial stdio \
		-no-reboot -kernel "$KERNEL" -append "console=ttyS0 panic=-1" </dev/null 2>&1 | grep -q "Kernel panic"; }; then
	accel=kvm cpu=host
fi
echo "# host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $host_cpus CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# kernel $(basename "$KERNEL"), accel $accel, -cpu $cpu"
status=0
for v in $VCPUS; do
	per=$((v / 4))
	numa=()
	for ((i = 0; i < 4; i++)); do
		numa+=(-object "memory-backend-ram,id=m$i,size=${MEM_MIB}M" -numa "node,nodeid=$i,cpus=$((i * per))-$((i * per + per - 1)),memdev=m$i")
	done
	for ((i = 0; i < 4; i++)); do
		for ((j = i + 1; j < 4; j++)); do
			numa+=(-numa "dist,src=$i,dst=$j,val=$([ $((i / 2)) -eq $((j / 2)) ] && echo 12 || echo 21)")
		done
	done
	q=0
	[ "${accel%%,*}" = tcg ] && [ "$v" -gt "${FULL_MAX:-16}" ] && q=1
	echo "# guest: $v vCPUs (2 sockets x $((v / 4)) cores x 2 threads), 4 nodes of $MEM_MIB MiB; probe $([ $q = 1 ] && echo --quick || echo full)"
	rm -f "$tmp/ttyS1"
	start=$(date +%s)
	timeout "$GUEST_TIMEOUT" qemu-system-x86_64 -accel "$accel" -cpu "$cpu" -m $((4 * MEM_MIB))M \
		-smp "$v,sockets=2,cores=$((v / 4)),threads=2" "${numa[@]}" \
		-display none -monitor none -serial stdio -serial "file:$tmp/ttyS1" -no-reboot \
		-kernel "$KERNEL" -initrd "$tmp/ir.cpio" \
		-append "console=ttyS0 quiet panic=-1 transparent_hugepage=madvise archscope_quick=$q" </dev/null >"$out/console-$v.txt" 2>&1 || true
	tr -d '\r' <"$out/console-$v.txt" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' | awk '/Kernel panic|sysrq: |reboot: / { exit } /guest up|== |   rc/ { print "#   " $0 }' || true
	echo "# guest of $v vCPUs ran $(($(date +%s) - start)) s"
	python3 - "$tmp/ttyS1" "$out/guest-$v" <<'PY'
import os, sys
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
name, buf = None, []
for line in open(src, "rb").read().decode("utf-8", "replace").replace("\r", "").split("\n"):
    if line.startswith("=== begin "):
        name, buf = line[10:], []
    elif line.startswith("=== end ") and name:
        open(os.path.join(dst, name + ".json"), "w").write("\n".join(buf))
        open(os.path.join(dst, name + ".status"), "w").write(line[8:] + "\n")
        name = None
    elif name:
        buf.append(line)
PY
	python3 bench/probe-big-guest-check.py "$out/guest-$v" "$v" "$host_cpus" || status=1
done
exit $status
