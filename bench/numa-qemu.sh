#!/bin/bash
# A functional multi-node run of `archscope numa` on a one-node machine: boots a qemu guest with
# NODES emulated NUMA nodes of one CPU each and a SLIT (10 local, 21 remote), whose initramfs holds
# archscope, its libraries and a shell script that runs numa matrix, numa load --predict and
# numa model, then powers off. The figures are an emulator's (all nodes share the host's memory):
# the run checks placement, the n x n shapes, the SLIT and every pair, not hardware.
# Usage: KERNEL=/path/to/vmlinuz bench/numa-qemu.sh   (NODES=2 or 4; about 1-3 minutes under TCG;
# ACCEL=tcg or kvm: the default is kvm where /dev/kvm is writable)
#   A kernel with CONFIG_NUMA: the newest /boot/vmlinuz-*, or Debian's unpacked without installing:
#   apt-get download linux-image-6.1.0-56-amd64 && dpkg-deb --fsys-tarfile linux-image-*.deb | tar -x ./boot/
set -eu
cd "$(dirname "$0")/.."
benchdir=$PWD/bench
A=${ARCHSCOPE:-build/archscope}
NODES=${NODES:-2}
KERNEL=${KERNEL:-$(ls /boot/vmlinuz-* 2>/dev/null | tail -n 1)}
[ -x "$A" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
[ -n "$KERNEL" ] && [ -f "$KERNEL" ] || { echo "skip: no kernel image; give KERNEL=PATH (see the header)"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "skip: no qemu-system-x86_64"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir=$tmp/ir
mkdir -p "$ir/bin" "$ir/proc" "$ir/sys" "$ir/dev" "$ir/tmp"
cp "$A" "$ir/bin/archscope"
cp "$(command -v dash)" "$ir/bin/sh"
cp "$(command -v mount)" "$ir/bin/mount"
for l in $(ldd "$A" "$(command -v dash)" "$(command -v mount)" | awk '/=> \// { print $3 } /^\t\// { print $1 }' | sort -u); do
	mkdir -p "$ir${l%/*}"
	cp -L "$l" "$ir$l"
done
last=$((NODES - 1))
cat >"$ir/init" <<INIT
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
export PATH=/bin
cd /tmp
echo "== archscope numa matrix --quick --size 16MiB"
archscope numa matrix --quick --size 16MiB -q
archscope numa matrix --quick --size 16MiB -q --json >/tmp/m.json && echo "(--json written: /tmp/m.json)"
echo "== archscope numa load 0:$last:1 $last:0:1 --duration 2 --size 8MiB --kernel load --predict /tmp/m.json"
archscope numa load 0:$last:1 $last:0:1 --duration 2 --size 8MiB --kernel load --predict /tmp/m.json
echo "== archscope numa model --matrix /tmp/m.json --flow 0:0:1 --flow $last:0:1"
archscope numa model --matrix /tmp/m.json --flow 0:0:1 --flow $last:0:1
echo "== archscope numa load 0:$NODES:1 (a node this guest lacks)"
archscope numa load 0:$NODES:1; echo "exit \$?"
echo o >/proc/sysrq-trigger # power off (else init ends: a panic, and -no-reboot ends qemu)
INIT
chmod +x "$ir/init"
# The initramfs in the "newc" cpio format the kernel reads (no cpio program needed).
python3 "$benchdir/newc-cpio.py" "$ir" "$tmp/ir.cpio"
numa=()
for ((i = 0; i < NODES; i++)); do
	numa+=(-object "memory-backend-ram,id=m$i,size=512M" -numa "node,nodeid=$i,cpus=$i,memdev=m$i")
done
for ((i = 0; i < NODES; i++)); do
	for ((j = i + 1; j < NODES; j++)); do numa+=(-numa "dist,src=$i,dst=$j,val=21"); done
done
accel=${ACCEL:-tcg} # ACCEL=tcg where a nested KVM guest hangs (seen on the Xeon 6/207 guest)
[ -z "${ACCEL:-}" ] && [ -w /dev/kvm ] && accel=kvm
echo "qemu: $NODES nodes of 1 CPU and 512 MiB, SLIT 10/21, accel $accel, kernel $(basename "$KERNEL")"
timeout 900 qemu-system-x86_64 -accel "$accel" -cpu max -m $((NODES * 512))M -smp "$NODES" "${numa[@]}" \
	-nographic -no-reboot -kernel "$KERNEL" -initrd "$tmp/ir.cpio" \
	-append "console=ttyS0 quiet panic=-1 transparent_hugepage=madvise" </dev/null |
	tr -d '\r' | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' | awk '/Kernel panic|sysrq: |reboot: / { exit } /== / && !on { on = 1; sub(/^.*== /, "== ") } on'
