"""The Room page in a real browser: a presenter screen and three phones. The host makes a room
that hides answers until the reveal; phones join by the typed code and by the QR link, answer,
keep their seat across reloads; the screen shows no chart before the reveal while answers
arrive, counts them within seconds, then reveals; each phone sees only itself. Then the same
pages with every request off this machine refused: a class or a shop may have no internet."""

from __future__ import annotations

import contextlib
import json
import re
import time
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser.live import PHONE, screenshots_wanted, settle_for_screenshot, until, wait_idle
from tests.browser.test_quiz_browser import GRADE

pytestmark = pytest.mark.browser

SCREEN = {"width": 1366, "height": 768}
CHART = '[data-testid="stVegaLiteChart"]'
# The titles of the screen's charts (trainer/views/room_charts.py): none may reach the page
# before the reveal in a room that hides answers until then.
CHART_WORDS = ("Chance of a bluff, as the room says", "chance of a bluff they gave",
               "Moves chosen", "Grades of the moves")
YOU_ARE = re.compile(r"your name in the room: (.+)$")
# A theme whose every question judges a claim: the phones give a chance of a bluff, and the
# screen has the histogram of those chances to hold back until the reveal.
CLAIMS = "Challenging a block"

# Runs in the presenter's page: samples the DOM on every change and every 250 ms, and records
# any chart or chart title, and each answer count it saw.
WATCH = """(words) => {
  const w = window.__roomWatch = {samples: 0, charts: 0, words: [], counts: []};
  const look = () => {
    w.samples++;
    if (document.querySelector('[data-testid="stVegaLiteChart"]')) w.charts++;
    const dom = document.documentElement.outerHTML;
    for (const t of words) if (dom.includes(t) && !w.words.includes(t)) w.words.push(t);
    const count = document.querySelector('p.room-count');
    const said = count ? count.textContent.trim() : null;
    if (said && w.counts[w.counts.length - 1] !== said) w.counts.push(said);
  };
  w.observer = new MutationObserver(look);
  w.observer.observe(document.documentElement, {subtree: true, childList: true,
                                                characterData: true, attributes: true});
  w.timer = setInterval(look, 250);
  look();
}"""
STOP_WATCH = """() => { const w = window.__roomWatch; w.observer.disconnect();
  clearInterval(w.timer); return {samples: w.samples, charts: w.charts, words: w.words,
  counts: w.counts}; }"""
# Marks each chart and the question's line, and counts removals of any of them from the page:
# the screen's polls must redraw in place.
KEEP_WATCH = """(chart) => {
  const marked = [...document.querySelectorAll(chart),
                  ...document.querySelectorAll('p.room-big-question')];
  const w = window.__keepWatch = {marked, removed: 0};
  w.observer = new MutationObserver(records => { for (const r of records)
    for (const n of r.removedNodes) for (const m of marked)
      if (n === m || (n.contains && n.contains(m))) w.removed++; });
  w.observer.observe(document.body, {childList: true, subtree: true});
}"""
KEEP_STOP = """() => { const w = window.__keepWatch; w.observer.disconnect();
  return {marked: w.marked.length, kept: w.marked.filter(m => m.isConnected).length,
          removed: w.removed}; }"""
# Runs in a phone's page, and again after each reload: on every change of the DOM and every
# 250 ms, reports any of `secret` (the other phones' names and seat tokens, the host key)
# found anywhere in the page to the test, through the exposed function roomLeak.
PRIVACY_WATCH = """(secret) => {
  if (window.__privacyWatch) return;
  const seen = new Set();
  const look = () => {
    const dom = document.documentElement ? document.documentElement.outerHTML : '';
    for (const s of secret) if (!seen.has(s) && dom.includes(s)) { seen.add(s);
      window.roomLeak(s); }
  };
  window.__privacyWatch = new MutationObserver(look);
  window.__privacyWatch.observe(document, {subtree: true, childList: true,
                                           characterData: true, attributes: true});
  setInterval(look, 250);
  look();
}"""


def _query(page) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()}


def choose(page, key: str, option: str) -> None:
    """Pick `option` in the selectbox with widget key `key`."""
    from playwright.sync_api import expect

    box = page.locator(f".st-key-{key}")
    box.click()
    page.get_by_role("option", name=option, exact=True).click()
    expect(box.get_by_role("combobox")).to_have_value(option)
    wait_idle(page)


def open_screen(remote, screen) -> None:
    """The screen view, opened in `screen` from the remote's link to it (no host key)."""
    from playwright.sync_api import expect

    link = remote.get_by_role("link", name="Open the screen view (project this)")
    expect(link).to_be_visible(timeout=20_000)
    screen.goto(str(link.evaluate("a => a.href")))
    expect(screen.locator("p.room-code, .room-code-small, h2").first).to_be_visible(
        timeout=30_000)


def make_room(page, app_url: str, theme: str | None = None) -> tuple[str, str]:
    """The host's form with answers hidden until the reveal, questions from the Mixed drill or
    from one theme; (room code, host key). The page becomes the room's remote."""
    from playwright.sync_api import expect

    page.goto(f"{app_url}/room?host")
    make = page.locator(".st-key-room_make button")
    expect(make).to_be_enabled(timeout=30_000)
    wait_idle(page)
    if theme is not None:
        choose(page, "room_new_drill", "One theme")
        choose(page, "room_new_theme", theme)
    live = page.get_by_role("radiogroup", name="The room's answers on the screen")
    live.get_by_text("Hidden until you reveal").click()
    expect(live.get_by_role("radio", name="Hidden until you reveal")).to_be_checked()
    wait_idle(page)
    make.click()
    page.wait_for_url(re.compile(r"[?&]code=[A-Z0-9]{6}&host="), timeout=20_000)
    query = _query(page)
    return query["code"], query["host"]


def join_by_typing(page, code: str) -> None:
    """Step one without the QR, on the Room page already open: the code typed, Next."""
    from playwright.sync_api import expect

    box = page.get_by_role("textbox", name="Room code")
    expect(box).to_be_visible(timeout=30_000)
    wait_idle(page)
    box.fill(code.lower())  # typed as a phone's keyboard gives it; the page upper-cases it
    page.get_by_role("button", name="Next").click()
    page.wait_for_url(re.compile(rf"[?&]code={code}"), timeout=15_000)


def take_seat(page, code: str) -> tuple[str, str]:
    """Step two: Join; (the seat token, the name the phone was given)."""
    from playwright.sync_api import expect

    expect(page.get_by_role("heading", name=f"Join room {code}")).to_be_visible(
        timeout=30_000)
    wait_idle(page)
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(re.compile(r"[?&]seat="), timeout=15_000)
    return _query(page)["seat"], seat_name(page, code)


def seat_name(page, code: str) -> str:
    from playwright.sync_api import expect

    caption = page.get_by_text(re.compile(rf"^Room {code} · your name in the room: "))
    expect(caption).to_be_visible(timeout=20_000)
    found = YOU_ARE.search(caption.inner_text().strip())
    assert found, caption.inner_text()
    return found.group(1)


def wait_for_options(page) -> None:
    from playwright.sync_api import expect

    expect(page.locator(".st-key-room_option_0_0 button")).to_be_enabled(timeout=20_000)
    wait_idle(page)


def answer(page, steps: int) -> str | None:
    """The chance of a bluff moved `steps` from 50% when the question has one, then the first
    move; the percentage said, or None. `page.answered_at` is when the move was clicked."""
    from playwright.sync_api import expect

    said = None
    slider = page.get_by_role("slider", name="Chance it is a bluff")
    if slider.count():
        slider.focus()
        for _ in range(steps):
            page.keyboard.press("ArrowRight")
        said = str(50 + steps)
        expect(slider).to_have_value(said)
        page.wait_for_timeout(400)  # the slider sends its value after a short debounce
        wait_idle(page)

    def click() -> None:
        page.locator(".st-key-room_option_0_0 button").click()
        page.answered_at = time.monotonic()

    until(click, lambda t: expect(page.get_by_text("Your answer is in")).to_be_visible(
        timeout=t), timeout=8_000)
    if said is not None:
        expect(page.get_by_text(f"the chance of a bluff was {said}%")).to_be_visible()
    return said


def assert_private(phones: list, names: list[str], seats: list[str], host: str,
                   when: str) -> None:
    """No phone's page holds another phone's name or seat token, nor the host key."""
    for i, page in enumerate(phones):
        if page is None:
            continue
        dom = page.content()
        assert host not in dom, f"phone {i} holds the host key {when}"
        for j, (name, seat) in enumerate(zip(names, seats, strict=True)):
            if j == i or name is None:
                continue
            assert name not in dom, f"phone {i} shows phone {j}'s name {name!r} {when}"
            assert seat not in dom, f"phone {i} holds phone {j}'s seat token {when}"


def test_a_presenter_and_three_phones_run_a_hidden_room(browser, app_url, screenshots):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    started = time.monotonic()
    screen_ctx = browser.new_context(viewport=SCREEN)
    phone_ctxs = [browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
                  for _ in range(3)]
    try:
        screen, remote = screen_ctx.new_page(), screen_ctx.new_page()
        phones: list = [ctx.new_page() for ctx in phone_ctxs]
        for page in phones[1:]:  # the Room page loads on two phones while the host sets up
            page.goto(f"{app_url}/room", wait_until="commit")
        code, host = make_room(remote, app_url, theme=CLAIMS)
        open_screen(remote, screen)
        expect(screen.locator("p.room-code")).to_have_text(code, timeout=15_000)
        expect(screen.locator("img.coup-qr")).to_be_visible()
        expect(screen.get_by_text(f"Room {code} · Theme: {CLAIMS} · Coup (base game)"))\
            .to_be_visible()

        # Joining: phone 0 by the QR's link, phones 1 and 2 by typing the code. The joins one
        # after the other, as each join page suggests a name not yet taken.
        names: list = [None, None, None]
        seats: list = [None, None, None]
        phones[0].goto(f"{app_url}/room?code={code}")
        for i, page in enumerate(phones):
            if i:
                join_by_typing(page, code)
            seats[i], names[i] = take_seat(page, code)
            expect(page.get_by_text("The host will start soon")).to_be_visible()
            assert_private(phones, names, seats, host, f"after phone {i} joined")
        assert len(set(names)) == 3 and len(set(seats)) == 3, (names, seats)
        # From now on each phone watches its own page for the others' names and tokens,
        # reloads included.
        leaks: list[str] = []
        for i, (ctx, page) in enumerate(zip(phone_ctxs, phones, strict=True)):
            secret = [x for j in range(3) if j != i for x in (names[j], seats[j])] + [host]
            ctx.expose_function("roomLeak", lambda found, i=i: leaks.append(
                f"phone {i} holds {found!r}"))
            ctx.add_init_script(f"({PRIVACY_WATCH})({json.dumps(secret)})")
            page.evaluate(PRIVACY_WATCH, secret)

        expect(screen.locator("p.room-count")).to_have_text("3 joined", timeout=10_000)
        for name in names:
            expect(screen.locator(".room-names span", has_text=name)).to_have_count(1)
        settle_for_screenshot(screen, 300)
        screen.screenshot(path=str(screenshots / "room_presenter_lobby.png"))

        # Start: the screen shows the question and counts; the phones follow by their poll.
        # From here to the reveal, the screen's DOM is watched for any chart.
        screen.evaluate(WATCH, list(CHART_WORDS))
        remote.locator(".st-key-room_start button").click()
        expect(remote.locator(".st-key-room_reveal button")).to_be_visible(timeout=10_000)
        expect(screen.get_by_text(re.compile(r"^Question 1 of \d+$"))).to_be_visible(
            timeout=10_000)  # the screen follows by its poll
        wait_idle(screen)  # until then the lobby's count may still stand beside the new one
        count = screen.locator("p.room-count")
        expect(count).to_have_text("0 of 3 answered")
        expect(screen.get_by_text("Answers stay hidden until you reveal them.")).to_be_visible()
        for page in phones:
            wait_for_options(page)
            expect(page.get_by_text(re.compile(r"^Question 1 of \d+$"))).to_be_visible()
        assert_private(phones, names, seats, host, "when the question opened")
        settle_for_screenshot(phones[1], 400)
        phones[1].screenshot(path=str(screenshots / "room_phone_question.png"))
        screen.screenshot(path=str(screenshots / "room_presenter_question.png"))

        def screen_clean(when: str) -> None:
            assert screen.locator(CHART).count() == 0, f"a chart on the screen {when}"
            dom = screen.content()
            shown = [w for w in CHART_WORDS if w in dom]
            assert not shown, f"chart titles on the screen {when}: {shown}"

        screen_clean("before any answer")
        # Phone 1 reloads before answering (the same seat, the same question): it loads again
        # while phone 0 answers.
        phones[1].reload(wait_until="commit")
        said = [answer(phones[0], steps=2)]
        screen_clean("after the first answer")
        expect(count).to_have_text("1 of 3 answered", timeout=5_000)

        wait_for_options(phones[1])
        assert seat_name(phones[1], code) == names[1]
        assert _query(phones[1])["seat"] == seats[1]
        expect(phones[1].get_by_text(re.compile(r"^Question 1 of \d+$"))).to_be_visible()
        expect(phones[1].get_by_text("Your answer is in")).to_have_count(0)
        said.append(answer(phones[1], steps=4))
        screen_clean("after the second answer")
        assert_private(phones, names, seats, host, "while answers arrive")
        expect(count).to_have_text("2 of 3 answered", timeout=5_000)

        # And reloads again after answering, while phone 2 answers: the answer is still there
        # (read below, in the last poll's wait).
        phones[1].reload(wait_until="commit")
        said.append(answer(phones[2], steps=6))
        confirmed = time.monotonic()  # the phone says the answer is in: it is stored
        assert said == ["52", "54", "56"], f"a question without a claim in {CLAIMS!r}: {said}"
        expect(count).to_have_text("3 of 3 answered", timeout=5_000)
        counted = time.monotonic()

        expect(phones[1].get_by_text("Your answer is in")).to_be_visible(timeout=20_000)
        assert seat_name(phones[1], code) == names[1]
        expect(phones[1].get_by_text(f"the chance of a bluff was {said[1]}%")).to_be_visible()
        expect(phones[1].locator(".st-key-room_option_0_0")).to_have_count(0)
        wait_idle(phones[1])

        # One more poll of the screen with every answer in: 1.2 s after the count.
        screen.wait_for_timeout(max(0.0, 1_200 - (time.monotonic() - counted) * 1000))
        screen_clean("with every answer in")
        watch = screen.evaluate(STOP_WATCH)
        assert watch["charts"] == 0 and not watch["words"], watch
        assert watch["samples"] >= 20, watch
        assert "3 of 3 answered" in watch["counts"], watch
        assert_private(phones, names, seats, host, "before the reveal")
        assert not leaks, leaks

        # The reveal: the charts on the screen, each phone its own grade.
        remote.locator(".st-key-room_reveal button").click()
        expect(screen.locator(CHART).first).to_be_visible(timeout=15_000)
        expect(screen.locator(CHART)).to_have_count(3)  # grades, chances of a bluff, moves
        expect(screen.get_by_text(re.compile(r"^Best move: "))).to_be_visible()
        expect(screen.get_by_text(re.compile(r"^The truth: "))).to_be_visible()
        # (52 + 54 + 56) / 3: the phones' sliders reached the room
        expect(screen.get_by_text("The room's average chance of a bluff: 54% (3 answers)."))\
            .to_be_visible()
        expect(remote.locator(".st-key-room_next button")).to_be_visible()
        for page, percent in zip(phones, said, strict=True):
            expect(page.get_by_text(GRADE)).to_be_visible(timeout=10_000)
            expect(page.get_by_text("The next question is coming.")).to_be_visible()
            expect(page.get_by_text(f"the chance of a bluff was {percent}%")).to_be_visible()
        assert_private(phones, names, seats, host, "after the reveal")
        assert not leaks, leaks
        wait_idle(screen)
        # The charts draw after the rerun: the titles the watch looked for are there then.
        drawn = "(words) => words.every(w => document.documentElement.outerHTML.includes(w))"
        with contextlib.suppress(PlaywrightTimeout):  # the assert below says which are missing
            screen.wait_for_function(drawn, arg=list(CHART_WORDS), polling=100, timeout=15_000)
        dom = screen.content()
        assert all(w in dom for w in CHART_WORDS), [w for w in CHART_WORDS if w not in dom]
        # The screen redraws itself every second: the charts must stay the same elements
        # through those redraws (no flicker on the projector), and so must the question.
        screen.evaluate(KEEP_WATCH, CHART)
        screen.wait_for_timeout(3_500)  # three polls and more
        kept = screen.evaluate(KEEP_STOP)
        assert kept == {"marked": 4, "kept": 4, "removed": 0}, kept
        settle_for_screenshot(screen, 1_500)
        screen.screenshot(path=str(screenshots / "room_presenter_reveal.png"))
        if screenshots_wanted():
            screen.set_viewport_size({"width": SCREEN["width"], "height": 2000})
            screen.wait_for_timeout(1_000)
            screen.screenshot(path=str(screenshots / "room_presenter_reveal_tall.png"))
        settle_for_screenshot(phones[0], 300)
        phones[0].screenshot(path=str(screenshots / "room_phone_reveal.png"))
        print(f"\nroom {code}: {names}; 3 of 3 on the screen "
              f"{counted - phones[2].answered_at:.1f} s after the last click, "
              f"{counted - confirmed:.1f} s after that phone confirmed it; "
              f"{watch['samples']} samples of the screen saw {watch['counts']}; "
              f"{time.monotonic() - started:.1f} s in all")
    finally:
        for ctx in (screen_ctx, *phone_ctxs):
            ctx.close()


# ------------------------------------------------------------------------ no internet
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}


def offline_context(browser, outside: list[str], **options):
    """A browser context in which only this machine answers; every other request is
    refused and recorded (page loads, fonts, scripts, images, web sockets)."""
    ctx = browser.new_context(**options)

    def route(r) -> None:
        url = r.request.url
        host = urlsplit(url).hostname or ""
        if url.startswith(("data:", "blob:")) or host in LOCAL_HOSTS:
            r.continue_()
        else:
            outside.append(f"{r.request.resource_type} {url}")
            r.abort()

    def socket(ws) -> None:
        if (urlsplit(ws.url).hostname or "") in LOCAL_HOSTS:
            ws.connect_to_server()
        else:
            outside.append(f"websocket {ws.url}")
            ws.close()

    ctx.route("**/*", route)
    ctx.route_web_socket(re.compile(".*"), socket)
    return ctx


def assert_qr_drawn(page) -> None:
    from playwright.sync_api import expect

    qr = page.locator("img.coup-qr").first
    expect(qr).to_be_visible(timeout=20_000)
    page.wait_for_function(
        "() => [...document.querySelectorAll('img.coup-qr')].every(i => i.complete)")
    assert qr.evaluate("i => i.naturalWidth") > 0


def test_the_room_and_the_kiosk_need_no_internet(browser, app_url, screenshots):
    """The presenter screen, a phone's seat and the kiosk, drawn with every request off this
    machine refused; nothing may try to leave."""
    from playwright.sync_api import expect

    outside: list[str] = []
    # One browser for the three pages, so the app's scripts load from its cache after the
    # first page; each page is a session of its own all the same.
    ctx = offline_context(browser, outside, viewport=SCREEN)
    try:
        screen, remote = ctx.new_page(), ctx.new_page()
        phone = ctx.new_page()
        phone.set_viewport_size(PHONE)
        kiosk = ctx.new_page()  # loads while the room is made
        kiosk.goto(f"{app_url}/kiosk", wait_until="commit")
        code, _host = make_room(remote, app_url)
        open_screen(remote, screen)
        phone.goto(f"{app_url}/room?code={code}", wait_until="commit")
        expect(screen.locator("p.room-code")).to_have_text(code, timeout=15_000)
        expect(screen.locator("p.room-code")).to_be_visible()
        assert_qr_drawn(screen)
        expect(screen.locator("p.room-count")).to_have_text("0 joined", timeout=10_000)

        take_seat(phone, code)  # the seat names the room: "Room … · your name in the room: …"
        expect(phone.get_by_text("The host will start soon")).to_be_visible()
        expect(screen.locator("p.room-count")).to_have_text("1 joined", timeout=10_000)
        remote.locator(".st-key-room_start button").click()
        expect(screen.locator(".room-code-small")).to_have_text(code, timeout=10_000)
        assert_qr_drawn(screen)  # the join strip's QR during the question
        wait_for_options(phone)

        expect(kiosk.locator(".st-key-kiosk_slide")).to_be_visible(timeout=20_000)
        assert_qr_drawn(kiosk)
        kiosk.wait_for_timeout(1_500)  # a tick or two of the loop, which moves by itself
        assert_qr_drawn(kiosk)
        kiosk.screenshot(path=str(screenshots / "room_offline_kiosk.png"))
        for page in (screen, remote, phone, kiosk):
            wait_idle(page)
        screen.wait_for_timeout(500)
    finally:
        ctx.close()

    # A `:material/...` page icon would be a favicon link to Google's font server: the app's
    # icon is an emoji, drawn in the browser, so nothing at all leaves this machine.
    assert not outside, f"requests that left this machine: {outside}"
