"""Seeded prose-like text for the benches: lines of 4 to 14 words drawn from a vocabulary of 4096
random words of 2 to 10 letters (compressible like prose).
    python3 bench/prose.py FILE MIB SEED"""
import random
import sys


def write(path, mib, rng):
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 10))) for _ in range(4096)]
    with open(path, "w") as f:
        size = 0
        while size < mib << 20:
            line = " ".join(rng.choice(words) for _ in range(rng.randint(4, 14))) + "\n"
            f.write(line)
            size += len(line)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: prose.py FILE MIB SEED")
    write(sys.argv[1], int(sys.argv[2]), random.Random(int(sys.argv[3])))
