"""qipu serve in a real browser: the scenarios of issue #18, each checked against the
command line (convert --to fen, explore --format json), not against the API the page uses."""
import json
import os
import re

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import SAMPLE


def until(browser, condition, timeout=60):
    """Waits for condition(browser). The page redraws its lists as answers arrive: an
    element read while it is replaced is stale, and the condition is simply asked again."""
    return WebDriverWait(browser, timeout, ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def wait(browser, css, timeout=60):
    return until(browser, lambda b: b.find_element(By.CSS_SELECTOR, css), timeout)


def open_view(browser, url):
    """Loads a view by its hash and waits until the page says it is drawn. When it is not,
    fails with what the page shows instead: a timeout under load once left nothing to go on."""
    browser.get(url)
    hash_ = url[url.index("#"):] if "#" in url else ""
    try:
        until(browser,
            lambda b: (b.execute_script("return document.body.dataset.ready") or "").startswith(hash_))
    except TimeoutException:
        shown = browser.execute_script(
            "return {url: location.href, ready: document.body.dataset.ready || '',"
            " error: (document.querySelector('#error') || {}).textContent || ''}")
        raise AssertionError(f"the view {hash_} was not drawn in 60 s; the page: {shown}; "
                             f"its console: {console(browser)}") from None
    wait(browser, "#view > *")


def console(browser):
    """The page's console messages, where the driver keeps them (conftest asks Chromium to)."""
    try:
        return [entry["message"] for entry in browser.get_log("browser")]
    except Exception as e:  # a driver without logs: say so, the failure is still reported
        return f"not available ({e.__class__.__name__})"


def set_notation(browser, code):
    Select(browser.find_element(By.ID, "notation")).select_by_value(code)


def board_fen(browser):
    return browser.find_element(By.CSS_SELECTOR, ".board").get_attribute("data-fen")


def fens_of_game(qipu, n):
    """The FEN after each ply of the n-th game of the sample, from qipu convert --to fen."""
    games = qipu.run("convert", "--to", "fen", SAMPLE).split("\n\n")
    return games[n - 1].split("\n")


def test_search_player_and_open_game(browser, server, qipu):
    open_view(browser, server + "#search")
    wait(browser, "#search-form input[name=player]").send_keys("Carlsen")
    browser.find_element(By.CSS_SELECTOR, "#search-form button[type=submit]").click()
    until(browser, lambda b: "player=Carlsen" in b.current_url and b.find_elements(By.CSS_SELECTOR, "#results tbody tr"))
    count = int(qipu.db_run("search", "--player", "Carlsen", "--count"))
    # The total comes after the page, from /api/count.
    until(browser, lambda b: b.find_element(By.ID, "total").text.endswith(f"of {count:,} games"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")
    assert rows and all("Carlsen" in r.text for r in rows)
    game_id = rows[0].get_attribute("data-id")
    rows[0].click()
    wait(browser, "#moves .mv")
    assert f"#game/{game_id}" in browser.current_url
    assert "Carlsen" in browser.find_element(By.TAG_NAME, "h1").text


def test_pages_go_on_to_the_last_and_stop(browser, server, qipu):
    count = int(qipu.db_run("search", "--count"))
    last = (count - 1) // 50 * 50  # the last page's offset, 50 games a page
    assert last >= 50
    open_view(browser, server + f"#search?offset={last - 50}")
    until(browser, lambda b: b.find_element(By.ID, "total").text ==
          f"{last - 49:,}–{last:,} of {count:,} games")
    following = browser.find_element(By.CSS_SELECTOR, ".pager button:last-child")
    assert following.is_enabled()
    following.click()
    until(browser, lambda b: b.find_element(By.ID, "total").text ==
          f"{last + 1:,}–{count:,} of {count:,} games")
    assert not browser.find_element(By.CSS_SELECTOR, ".pager button:last-child").is_enabled()
    ids = [int(r.get_attribute("data-id")) for r in browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")]
    assert ids[-1] == int(qipu.db_run("search", "--sort", "id", "--desc", "--limit", "1", "--format", "csv")
                          .splitlines()[1].split(",")[0])


def test_step_with_keys_matches_convert_to_fen(browser, server, qipu, screenshots):
    game = 7
    open_view(browser, server + f"#game/{game}")
    wait(browser, "#moves .mv")
    body = browser.find_element(By.ID, "view")
    for _ in range(12):
        body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_LEFT)
    fens = fens_of_game(qipu, game)
    assert board_fen(browser) == fens[10]  # 11 plies played
    assert browser.find_element(By.ID, "fen").get_attribute("value") == fens[10]
    body.send_keys(Keys.END)
    assert board_fen(browser) == fens[-1]
    body.send_keys(Keys.HOME)
    assert board_fen(browser).startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    browser.find_elements(By.CSS_SELECTOR, "#moves .mv")[20].click()
    assert board_fen(browser) == fens[20]
    browser.save_screenshot(os.path.join(screenshots, "viewer-en.png"))


def test_chinese_moves(browser, server, screenshots):
    open_view(browser, server + "#game/1?ply=21")
    set_notation(browser, "zh")
    until(browser, lambda b: "马" in b.find_element(By.ID, "moves").text)
    text = browser.find_element(By.ID, "moves").text
    assert re.search(r"马x?[a-h][1-8]", text), text[:200]  # 马f3, not 马 f3 or Nf3
    assert not re.search(r"\bN[a-h]?x?[a-h][1-8]", text)
    browser.save_screenshot(os.path.join(screenshots, "viewer-zh.png"))
    set_notation(browser, "en")


def click_square(browser, square):
    browser.find_element(By.CSS_SELECTOR, f'.board rect[data-square="{square}"]').click()


def test_explorer_counts_match_qipu_explore(browser, server, qipu, screenshots):
    open_view(browser, server + "#explore")
    line = []
    for (a, b), san in zip([("e2", "e4"), ("c7", "c5"), ("g1", "f3"), ("d7", "d6")], ["e4", "c5", "Nf3", "d6"]):
        wait(browser, "#explore-total")
        click_square(browser, a)
        click_square(browser, b)
        line.append(san)
        until(browser, lambda br: br.current_url.endswith(
            "moves=" + "+".join(line)) and br.execute_script("return document.body.dataset.ready") == "#explore?moves=" + "+".join(line))
    expected = json.loads(qipu.db_run("explore", "--moves", "1.e4 c5 2.Nf3 d6", "--format", "json"))
    total = browser.find_element(By.ID, "explore-total")
    assert int(total.get_attribute("data-games")) == expected["games"] > 0
    rows = browser.find_elements(By.CSS_SELECTOR, "#explore-moves tbody tr")
    assert [int(r.get_attribute("data-games")) for r in rows] == [m["games"] for m in expected["moves"]]
    assert [r.find_element(By.TAG_NAME, "td").text for r in rows] == [m["move"] for m in expected["moves"]]
    crumbs = browser.find_element(By.ID, "crumbs").text
    assert "1.e4" in crumbs and "2…d6" in crumbs
    if "eco" in expected:
        assert expected["opening"] in browser.find_element(By.ID, "opening").text
    browser.save_screenshot(os.path.join(screenshots, "explorer-en.png"))
    set_notation(browser, "zh")
    until(browser, lambda b: "马" in b.find_element(By.ID, "explore-moves").text)
    browser.save_screenshot(os.path.join(screenshots, "explorer-zh.png"))
    set_notation(browser, "en")


def test_upload_with_illegal_move_shows_error(browser, server, tmp_path):
    pgn = tmp_path / "bad.pgn"
    pgn.write_text('[Event "Upload test"]\n[White "Alpha"]\n[Black "Beta"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n')
    open_view(browser, server + "#import")
    wait(browser, "#import-file").send_keys(str(pgn))
    browser.find_element(By.ID, "import-start").click()
    table = wait(browser, "#import-errors", timeout=30)
    text = table.text
    assert "Alpha – Beta" in text
    assert "6:" in text  # the line of the move
    assert "Ke3" in text and "illegal_move" in text
    assert "1 rejected" in browser.find_element(By.ID, "import-summary").text
