"""Runs a program on copies of an input file with random bytes changed.

usage: mutate.py FILE COUNT BYTES SEED -- PROGRAM ARGS... ({} is the copy)

Fails (exit 1) if any run dies of a signal or hangs; prints a summary of how
the runs ended (refused: non-zero exit; accepted: exit 0)."""
import os
import random
import subprocess
import sys
import tempfile


def main():
    sep = sys.argv.index("--")
    path, count, nbytes, seed = sys.argv[1:sep]
    command = sys.argv[sep + 1:]
    data = open(path, "rb").read()
    rng = random.Random(int(seed))
    crashed = refused = accepted = 0
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, os.path.basename(path))
        for run in range(int(count)):
            b = bytearray(data)
            for _ in range(int(nbytes)):
                b[rng.randrange(len(b))] = rng.randrange(256)
            with open(copy, "wb") as f:
                f.write(b)
            argv = [copy if a == "{}" else a for a in command]
            try:
                r = subprocess.run(argv, capture_output=True, timeout=120)
            except subprocess.TimeoutExpired:
                print("run %d: hung" % run)
                crashed += 1
                continue
            if r.returncode < 0:
                print("run %d: died of signal %d: %s" % (run, -r.returncode, r.stderr[-300:]))
                crashed += 1
            elif r.returncode:
                refused += 1
            else:
                accepted += 1
    print("mutated runs: %d crashed, %d refused, %d accepted" % (crashed, refused, accepted))
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
