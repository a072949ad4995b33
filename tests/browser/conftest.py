"""A live `streamlit run` of the app and Debian's chromium, shared by every browser test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.live import (
    CHROMIUM,
    CHROMIUM_ARGS,
    SCREENSHOTS,
    screenshots_wanted,
    serve_app,
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is missing: `make chromium` installs Debian's "
                                   "chromium for the browser tests")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """One server for the whole session."""
    with serve_app() as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session", autouse=True)
def screenshots_only_when_asked() -> Iterator[None]:
    """The browser tests save screenshots of what a visitor sees for people to look at
    (`make screenshots`, or COUP_TRAINER_SCREENSHOTS=1). Encoding them is about a third of the
    browser's CPU in a walk through the pages, so a plain test run measures every page at every
    size but writes no image: a screenshot asked for with a `path` is then not taken (one
    asked for without a path returns its bytes, as a test may read them)."""
    if screenshots_wanted():
        yield
        return
    from playwright.sync_api import Locator, Page

    real = {cls: cls.screenshot for cls in (Page, Locator)}

    def skipping(cls: type) -> object:
        def screenshot(self: object, *args: object, **kwargs: object) -> bytes:
            if kwargs.get("path") is None:
                return real[cls](self, *args, **kwargs)  # type: ignore[operator]
            return b""
        return screenshot

    for cls in real:
        cls.screenshot = skipping(cls)  # type: ignore[method-assign]
    try:
        yield
    finally:
        for cls, method in real.items():
            cls.screenshot = method  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
