"""Matrix cache benchmark: digests of the en table (12972 × 2315, 30 MB) side by side, and the
load from the cache with and without the digest check, in one run.

    .venv/bin/python bench/bench_cache.py              # 30 runs of each, after a warm-up
    .venv/bin/python bench/bench_cache.py --runs 50

Digests: xxh3-128 and xxh3-64 and xxh64 (PyPI ``xxhash``, the one used), BLAKE2b and
SHA-256 (hashlib), zlib's CRC-32, and two numpy-only folds (a sum and an xor of the bytes
as uint64: cheap, but blind to swapped blocks, so no digest). Loads: a fresh memory map of
the cache file each run (``_LOADED`` cleared, the file in the page cache), timed through
``load_matrix`` as a hint does; "before" skips the digest (header, size and the 258 spot
checks stay), "after" is the code as it is. Prints min and median milliseconds.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import numpy as np
import xxhash

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from raten.engine import cache, matrix
from raten.wordlists.presets import load_words

TARGET_MS = 10.0


def timed(f: Callable[[], object], runs: int) -> tuple[float, float]:
    """Min and median milliseconds of ``runs`` calls after one untimed call."""
    f()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        f()
        times.append((time.perf_counter() - t0) * 1e3)
    return min(times), statistics.median(times)


def main() -> None:
    """Print the digest and load figures for en."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    words = load_words("en")
    with tempfile.TemporaryDirectory() as folder, mock.patch.dict("os.environ", {"RATEN_CACHE_DIR": folder}):
        matrix._LOADED.clear()
        table = np.ascontiguousarray(matrix.load_matrix(words).data)
        buf = memoryview(table).cast("B")
        u64 = np.frombuffer(buf[: len(buf) // 8 * 8], dtype=np.uint64)
        load_avg = os.getloadavg()[0]
        print(f"en table {table.shape[0]}×{table.shape[1]}, {len(buf) / 1e6:.1f} MB, xxhash {xxhash.VERSION}")
        print(f"load average {load_avg:.1f} on {os.cpu_count()} cores (medians suffer first on a busy machine)")
        digests = {
            "xxh3_128 (xxhash, chosen)": lambda: xxhash.xxh3_128_hexdigest(buf),
            "xxh3_64 (xxhash)": lambda: xxhash.xxh3_64_hexdigest(buf),
            "xxh64 (xxhash)": lambda: xxhash.xxh64_hexdigest(buf),
            "blake2b-128 (hashlib)": lambda: hashlib.blake2b(buf, digest_size=16).hexdigest(),
            "sha256 (hashlib)": lambda: hashlib.sha256(buf).hexdigest(),
            "crc32 (zlib)": lambda: zlib.crc32(buf),
            "numpy uint64 sum (no digest)": lambda: int(u64.sum()),
            "numpy uint64 xor (no digest)": lambda: int(np.bitwise_xor.reduce(u64)),
        }
        print(f"\n{'digest of the table in memory':34s} {'min ms':>8s} {'median':>8s} {'GB/s':>6s}")
        for name, f in digests.items():
            lo, med = timed(f, args.runs)
            print(f"{name:34s} {lo:8.2f} {med:8.2f} {len(buf) / med / 1e6:6.1f}")

        def load() -> None:
            matrix._LOADED.clear()
            matrix.load_matrix(words)

        real_digest = cache.digest
        meta = cache.read_meta(matrix.cache_path(words))

        def no_digest(data: np.ndarray) -> str:
            return meta["digest"] if data.shape == table.shape else real_digest(data)

        print(f"\n{'load en from the cache (fresh mmap)':34s} {'min ms':>8s} {'median':>8s}")
        with mock.patch.object(cache, "digest", no_digest):
            before = timed(load, args.runs)
        after = timed(load, args.runs)
        for name, (lo, med) in (("before: no digest check", before), ("after: xxh3_128 of every byte", after)):
            print(f"{name:34s} {lo:8.2f} {med:8.2f}")
        print(
            f"digest check adds {after[1] - before[1]:.2f} ms (median); load target {TARGET_MS:.0f} ms: "
            + ("met" if after[1] <= TARGET_MS else "MISSED")
        )


if __name__ == "__main__":
    main()
