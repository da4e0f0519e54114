"""The page in Debian's Chromium, headless, driven by Playwright against a real server.

It types a 9x9 puzzle, clicks Check and reads the verdict; then uploads a
200-puzzle file and waits for the job.  The screenshots go to the folder
``CP_SUDOKU_SCREENSHOTS`` names (``docs/img`` refreshes the README's), or a temporary one.
Skipped when Chromium is absent (``apt-get install -y chromium chromium-driver``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

import pytest
from service_support import TUTORIAL, TUTORIAL_SOLUTION, served

from cp_sudoku.datasets import data_dir
from cp_sudoku.model import PuzzleError

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
#: Where the screenshots go: the folder CP_SUDOKU_SCREENSHOTS names (``docs/img`` to
#: refresh the README's pictures), else a temporary folder, so a test run edits no file.
SHOTS = Path(os.environ.get("CP_SUDOKU_SCREENSHOTS") or tempfile.mkdtemp(prefix="cp-sudoku-shots-"))
WAIT_MS = 120_000  # anti-hang bound, not a timing test

if not CHROMIUM.exists() or shutil.which("chromium") is None:
    pytest.skip(
        "Chromium is absent: apt-get install -y chromium chromium-driver",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason='pip install -e ".[browser]"')


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    db = tmp_path_factory.mktemp("browser") / "jobs.sqlite3"
    profile = tmp_path_factory.mktemp("chromium-profile")  # a fresh user data dir
    elsewhere: list[str] = []
    with served(db, 1) as (url, _), sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            headless=True,
            args=ARGS,
            viewport={"width": 1100, "height": 900},
        )
        host = urlparse(url).netloc

        def only_ours(route: Route) -> None:
            request = route.request
            if urlparse(request.url).netloc == host or request.url.startswith("data:"):
                route.continue_()
            else:
                elsewhere.append(request.url)
                route.abort()

        context.route("**/*", only_ours)
        browser_page = context.new_page()
        errors: list[str] = []
        browser_page.on("pageerror", lambda error: errors.append(str(error)))
        browser_page.goto(url + "/")
        yield browser_page
        context.close()
    assert not elsewhere, f"the page fetched from elsewhere: {elsewhere}"
    assert not errors, f"script errors: {errors}"


def test_type_a_9x9_click_check_read_the_verdict(page: Page) -> None:
    page.wait_for_selector("#backend-sat", timeout=WAIT_MS)  # the back ends are listed
    page.click("#g-0-0")
    page.keyboard.type(TUTORIAL)  # '.' leaves a cell blank
    page.click("#check")
    page.wait_for_selector("#verdict[data-status]", timeout=WAIT_MS)
    assert page.inner_text("#verdict") == "Unique: exactly one solution."
    solution = page.locator("#drawings figure").nth(1).locator("td")
    assert "".join(solution.all_inner_texts()) == TUTORIAL_SOLUTION
    rows = page.locator("#backend-table tbody tr").all_inner_texts()
    assert [row.split("\t")[:2] for row in rows] == [
        ["sat", "unique"],  # the boxes left at the default: the default cross-check
        ["kernel", "unique"],
    ]
    page.click("#prove")
    page.wait_for_function("document.getElementById('certificate').textContent", timeout=WAIT_MS)
    said = page.inner_text("#certificate")
    assert said.startswith("Proved unique (checked by") or "not available" in said, said
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "service-check.png"), full_page=True)


def test_changed_back_end_boxes_name_the_back_ends_that_run(page: Page) -> None:
    page.wait_for_selector("#backend-kernel", timeout=WAIT_MS)
    # cpsat is ticked: by default it joins on puzzles whose rules the kernel declines
    assert page.is_checked("#backend-cpsat") and page.is_checked("#backend-kernel")
    listed = page.inner_text("#backends")  # the star says so in words, not only on hover
    assert "cpsat*" in listed and "sat*" not in listed.replace("cpsat*", "")
    assert "* by default only on puzzles with rules the kernel declines" in listed
    page.uncheck("#backend-kernel")  # now the ticked ones run, cpsat included
    page.click("#g-0-0")
    page.keyboard.type(TUTORIAL)
    page.click("#check")
    page.wait_for_selector("#verdict[data-status]", timeout=WAIT_MS)
    rows = page.locator("#backend-table tbody tr").all_inner_texts()
    assert [row.split("\t")[:2] for row in rows] == [["cpsat", "unique"], ["sat", "unique"]]


def test_upload_a_200_puzzle_file_and_wait_for_the_job(
    page: Page, tmp_path: Path, data: Path
) -> None:
    try:
        source = data_dir() / "sudoku" / "royle-17clue.txt"
    except PuzzleError as error:
        pytest.skip(f"shared data absent: {error}")
    with open(source) as handle:
        text = "".join(next(handle) for _ in range(200))
    upload = tmp_path / "royle-200.txt"
    upload.write_text(text)
    page.set_input_files("#job-file", str(upload))
    page.click("#job-start")
    page.wait_for_selector('#job-state[data-state="done"]', timeout=WAIT_MS)
    assert page.inner_text("#job-state").startswith("done: 200 / 200 puzzles")
    assert page.inner_text("#job-counts") == "unique 200"
    rows = page.locator("#job-table tbody tr")
    assert rows.count() == 25  # one page of the table
    assert page.inner_text("#job-page") == "page 1 of 8 (25 rows a page)"
    height = page.evaluate("document.documentElement.scrollHeight")
    page.click("#job-next")
    page.wait_for_function(
        "document.querySelector('#job-table tbody td').textContent === '26'", timeout=WAIT_MS
    )
    assert rows.count() == 25
    assert page.inner_text("#job-page") == "page 2 of 8 (25 rows a page)"
    assert page.evaluate("document.documentElement.scrollHeight") == height  # paged, not grown
    page.click("#job-prev")
    page.wait_for_function(
        "document.querySelector('#job-table tbody td').textContent === '1'", timeout=WAIT_MS
    )
    assert (page.get_attribute("#job-download", "href") or "").endswith("/results")
    page.screenshot(path=str(SHOTS / "service-job.png"))


def test_workbench_view_marks_differences_candidates_and_the_core(page: Page) -> None:
    multiple = "8.........95.......76.........426798...571243...893165......916....3.487....1.532"
    page.wait_for_selector("#backend-sat", timeout=WAIT_MS)
    page.click("#tab-text")
    page.fill("#text", multiple)
    page.click("#workbench")
    page.wait_for_selector("#workbench-notes .suggestion", timeout=WAIT_MS)
    assert page.inner_text("#verdict").startswith("Multiple: at least 2 solutions")
    assert page.locator("#drawings figure").count() == 4  # puzzle, two solutions, candidates
    differing = page.locator("#drawings figure").nth(1).locator("td.differ").count()
    assert differing >= 4  # two solutions differ in at least a rectangle of four cells
    assert page.locator("#drawings figure").nth(2).locator("td.differ").count() == differing
    candidates = page.locator("#drawings figure").nth(3)
    assert candidates.locator(".candidate").count() > 81
    assert candidates.locator("td.suggested").count() >= 1
    assert "the cross-check says unique" in page.inner_text("#workbench-notes .suggestion")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "service-workbench-multiple.png"), full_page=True)
    hidden_none = (
        "8..6......95.......76.........426798...571243...893165......916....3.487....1.532"
    )
    page.fill("#text", hidden_none)
    page.click("#workbench")
    page.wait_for_selector("#workbench-notes .core", timeout=WAIT_MS)
    assert "cannot all hold" in page.inner_text("#workbench-notes .core")
    assert page.locator("#drawings figure").first.locator("td.core").count() > 0
    assert page.locator("#drawings figure").first.locator("td.core-given").count() == 5
    page.screenshot(path=str(SHOTS / "service-workbench-none.png"), full_page=True)
    page.click("#tab-grid")


def test_paste_an_fpuzzles_link_and_see_it_drawn(page: Page, data: Path) -> None:
    try:
        folder = data_dir() / "fpuzzles"
    except PuzzleError as error:
        pytest.skip(f"shared data absent: {error}")
    string = (folder / "rangsk-tangled-arrows.fpuzzles.txt").read_text().strip()
    page.click("#tab-text")
    page.fill("#text", f"https://www.f-puzzles.com/?load={string}")
    page.click("#check")
    page.wait_for_selector("#verdict[data-status]", timeout=WAIT_MS)
    assert page.inner_text("#verdict") == "Unique: exactly one solution."
    solution = page.locator("#drawings figure").nth(1).locator("td")
    expected = (folder / "rangsk-tangled-arrows.solution.txt").read_text().strip()
    assert "".join(solution.all_inner_texts()) == expected
    drawn = page.locator("#drawings figure").first
    assert drawn.locator("svg polyline").count() >= 8  # arrows and palindrome lines
    assert drawn.locator("svg circle").count() >= 8  # arrow circles and odd circles
    assert drawn.locator("svg rect").count() >= 1  # even squares
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#drawings").screenshot(path=str(SHOTS / "service-fpuzzles.png"))
