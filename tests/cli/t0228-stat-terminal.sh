# On a terminal (issue 35, with common/interrupt.h's own process group for the program): a program
# that reads the terminal gets it (it is not stopped by SIGTTIN in the background, with archscope
# waiting for ever), and Ctrl-C typed there ends stat, regress and phases as an interrupt (130)
# and gives the terminal back. Run under a pseudo-terminal made by Python's pty module.
. "$(dirname "$0")/lib.sh"
cat >"$TMP/onterm.py" <<'PY'
import os, pty, select, sys, time
A = sys.argv[1]

def run(args, feed=None, ctrl_c=False, timeout=30):
    """Runs archscope ARGS on a new pty; after the program prints 'ready', types FEED or Ctrl-C."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(A, [A] + args)
    out, sent, t0 = b"", False, time.time()
    while time.time() - t0 < timeout:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                b = os.read(fd, 4096)
            except OSError:
                b = b""
            out += b
        if b"ready" in out and not sent:
            time.sleep(0.3)
            os.write(fd, b"\x03" if ctrl_c else feed)
            sent = True
        wp, st = os.waitpid(pid, os.WNOHANG)
        if wp:
            try:
                while select.select([fd], [], [], 0.2)[0]:
                    b = os.read(fd, 4096)
                    if not b:
                        break
                    out += b
            except OSError:
                pass
            return os.waitstatus_to_exitcode(st), out.decode(errors="replace")
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    return None, out.decode(errors="replace")

fails = []
if sys.argv[2] == "read":
    rc, out = run(["stat", "-q", "-r", "1", "-e", "task-clock", "--", "sh", "-c", "echo ready; read x; echo got:$x"], b"hello\n")
    if rc != 0 or "got:hello" not in out:
        fails.append("stat: a program reading the terminal (rc %s): %s" % (rc, out[-300:]))
else:
    cmd = {"stat": ["stat", "-q", "-r", "3", "-e", "task-clock"], "phases": ["phases", "-q", "--interval", "5", "-e", "task-clock"],
           "regress": ["regress", "-q", "--param", "N=1,2", "-r", "2", "-e", "task-clock"]}[sys.argv[2]]
    rc, out = run(cmd + ["--", "sh", "-c", "echo ready {N}; sleep 20"] if cmd[0] == "regress" else
                  cmd + ["--", "sh", "-c", "echo ready; sleep 20"], ctrl_c=True)
    if rc != 130:
        fails.append("%s: Ctrl-C on the terminal gave %s, not 130: %s" % (cmd[0], rc, out[-300:]))
if fails:
    print("\n".join(fails))
sys.exit(1 if fails else 0)
PY
test_expect_success 'a program that reads the terminal gets it' '
	python3 "$TMP/onterm.py" "$ARCHSCOPE" read || fail "on a terminal"
'
for cmd in stat phases regress; do
	test_expect_success "Ctrl-C on the terminal ends $cmd as an interrupt (130)" '
		python3 "$TMP/onterm.py" "$ARCHSCOPE" "$cmd" || fail "on a terminal"
	'
done
test_done
