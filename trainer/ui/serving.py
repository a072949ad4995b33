"""Keep Python's garbage collector off the long-lived heap of a serving app process.

Why: every click reruns a page, and a run allocates many short-lived containers, so Python's
cyclic collector runs often. With Streamlit's collection after every run turned off
(`runner.postScriptGC = false` in .streamlit/config.toml, which made a quiz run 3 to 4 times
cheaper), a full collection still comes now and then on its own, and it walks every tracked
object: about 290,000 once the pages have been opened, nearly all of them imported modules and
the cached question bank and lessons, which live as long as the process. Each such collection
took 0.14 to 0.4 s of CPU while no other run could go on (bench/serve.py, 15 to 60 users;
2-core machine). `gc.freeze()` moves what is alive into a generation the collector never
walks: the longest then took 0.01 to 0.02 s on Quiz and 0.03 to 0.08 s on Learn, and a
Quiz or Learn run 5 to 20 % less CPU. Garbage made after a freeze is collected as before, so
memory stays bounded with no periodic collection: the server's memory after 1,200 runs was the
same as with a collection after every run. See docs/serving.md.

The collector never looks at a frozen object again, so a reference cycle frozen while alive is
never freed once it dies (reference counting still frees everything else). So the freeze
happens only when a run finds modules imported since the last freeze (a page opened for the
first time in this process, whose run also filled its caches), at most `MAX_FREEZES` times per
process: what sessions hold in cycles at those moments (a few tabs in the first minutes) stays.
"""

from __future__ import annotations

import gc
import os
import sys
import threading

ENV = "COUP_TRAINER_GC_FREEZE"  # "0" turns the freeze off (bench/serve.py compares both)
MAX_FREEZES = 8  # one per page first opened, and a few lazy imports

_lock = threading.Lock()
_modules_frozen = 0  # len(sys.modules) at the last freeze
_freezes = 0


def freeze_loaded_heap() -> bool:
    """Call at the top of every script run. When modules were imported since the last freeze
    (so the run before this one loaded a page's code and filled its caches), collect once and
    freeze everything alive, so later collections skip it. True when it froze.

    Cheap when there is nothing to do (two comparisons); safe from concurrent script threads.
    `COUP_TRAINER_GC_FREEZE=0` in the environment turns it off."""
    global _modules_frozen, _freezes
    if len(sys.modules) <= _modules_frozen or _freezes >= MAX_FREEZES:
        return False
    if os.environ.get(ENV, "1").strip() == "0":
        return False
    with _lock:
        loaded = len(sys.modules)
        if loaded <= _modules_frozen or _freezes >= MAX_FREEZES:
            return False
        gc.collect()
        gc.freeze()
        _modules_frozen, _freezes = loaded, _freezes + 1
    return True
