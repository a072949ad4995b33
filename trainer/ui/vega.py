"""Vega-Lite specs whose rows are already in the form `st.vega_lite_chart` sends them in.

Why: `st.vega_lite_chart` turns each named dataset of a spec (rows of JSON) into Arrow bytes
on every run, through pandas and pyarrow, about a millisecond a dataset whatever its size. The
Calibration page draws six charts of nine datasets on every click, so a fifth of a rerun's CPU
went to converting rows that had not changed since the learner's last answer
(`bench/serve.py`). A dataset that is bytes already is passed through as it is (that is how
`st.altair_chart` hands over its own data), so a page that caches its specs can convert them
once, with the very function Streamlit would call, and send the same bytes ever after.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from streamlit import dataframe_util

# How Altair names a dataset it was given: "data-" and a hash of its rows. In these specs such a
# dataset is a chart's fixed rows (a diagonal, a reference line), the same for every learner.
_ALTAIR_NAME = re.compile(r"data-[0-9a-f]{32}")


def with_arrow_datasets(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec with each named dataset as the Arrow bytes Streamlit would make of it; the
    spec's other keys and the datasets' rows are left as they are (the spec is not changed).

    A chart's fixed rows are converted once per process, not once per learner."""
    datasets = spec.get("datasets")
    if not datasets:
        return spec
    return {**spec, "datasets": {name: _arrow(name, rows) for name, rows in datasets.items()}}


def _arrow(name: str, rows: Any) -> bytes:
    if isinstance(rows, bytes):
        return rows
    if _ALTAIR_NAME.fullmatch(name):
        return _arrow_once(json.dumps(rows))
    return dataframe_util.convert_anything_to_arrow_bytes(rows)


@functools.lru_cache(maxsize=64)
def _arrow_once(rows_json: str) -> bytes:
    """The Arrow bytes of a few rows, kept by their JSON text (JSON gives back the same
    values: numbers, strings, booleans and None)."""
    return dataframe_util.convert_anything_to_arrow_bytes(json.loads(rows_json))
