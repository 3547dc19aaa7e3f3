#!/usr/bin/env python3
"""An initramfs for the guests of bench/numa-qemu.sh and bench/probe-big-guest.sh: every file under
ROOT in the "newc" cpio format the kernel reads (no cpio program needed).
Usage: newc-cpio.py ROOT OUT"""
import os, stat, sys
root, out = sys.argv[1], sys.argv[2]
ino = 1
with open(out, "wb") as f:
    def entry(name, st, data):
        global ino
        hdr = "070701" + "".join("%08x" % v for v in (ino, st.st_mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name) + 1, 0))
        ino += 1
        f.write(hdr.encode() + name.encode() + b"\0")
        f.write(b"\0" * ((4 - (110 + len(name) + 1) % 4) % 4))
        f.write(data)
        f.write(b"\0" * ((4 - len(data) % 4) % 4))
    for d, dirs, files in os.walk(root):
        for n in sorted(dirs) + sorted(files):
            p = os.path.join(d, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            entry(rel, st, open(p, "rb").read() if stat.S_ISREG(st.st_mode) else b"")
    class S: st_mode = 0
    entry("TRAILER!!!", S, b"")
