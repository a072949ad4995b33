"""How long the known-role end-game table takes to read and to look up, in CPU time.

Why this exists: the app and the reviews look up known-role values during a game, so a lookup
must cost next to nothing and the stored file must be read once, not once a pair. The tests
check that behaviour (one read, no solve); the figures live here, where a slow or busy machine
cannot fail a test. CPU time (`time.process_time`) is reported, as the machine may be shared.

    python bench/known_lookup.py [--lookups 20000]

The last line is ``read_ms <CPU ms to read the stored file and every pair's table>
lookup_us <mean CPU microseconds of one value and one count of turns>``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainer.endgame import known, tables  # noqa: E402
from trainer.engine.cards import Character as C  # noqa: E402
from trainer.engine.variants import get_variant  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lookups", type=int, default=20_000,
                        help="lookups timed after the first read (default 20000)")
    args = parser.parse_args(argv)
    if args.lookups < 1:
        parser.error("--lookups must be at least 1")
    chars = get_variant("base").characters

    start = time.process_time()
    for x in chars:
        for y in chars:
            tables.known_values((x, y))
    read_ms = 1000 * (time.process_time() - start)

    top = known.MAX_COINS + 1
    start = time.process_time()
    for i in range(args.lookups):
        kv = tables.known_values((C.CONTESSA, C.ASSASSIN))
        coins = (i % top, (7 * i) % top)
        kv.value((C.DUKE, C.CAPTAIN), coins, i % 2)
        kv.turns((C.DUKE, C.CAPTAIN), coins, i % 2)
    lookup_us = 1e6 * (time.process_time() - start) / args.lookups

    print(f"stored file and {len(chars) ** 2} ordered pairs read in {read_ms:.1f} ms of CPU")
    print(f"one value and one count of turns: {lookup_us:.2f} us of CPU "
          f"(mean of {args.lookups:,} lookups)")
    print(f"read_ms {read_ms:.1f} lookup_us {lookup_us:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
