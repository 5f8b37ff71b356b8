"""End to end in a real chromium against a real server: what a person does on the site."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, _context, offline

BOMB = "227-pfund-bombe-basisausbau"
LONG_ENTRY = "schadenverteilungsphase"  # many paragraphs: anchors must scroll
TABLE_ENTRY = "uebersicht-attacken-ausfuehren-verwundungswurf"  # an HTML table row

pytestmark = pytest.mark.browser


def no_horizontal_scroll(page) -> tuple[int, int]:
    return page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )


def test_browser_search_from_start_page_and_open_ruling(page, shots):
    page.goto("/")
    expect(page.locator("#q")).to_be_focused()  # autofocus
    page.screenshot(path=shots / "start.png", full_page=True)
    page.locator("#q").fill("Aktionsstapel")
    page.locator("#q").press("Enter")
    expect(page).to_have_url(re.compile(r"/search\?q=Aktionsstapel"))
    expect(page.locator("#result-count")).to_contain_text("Treffer für „Aktionsstapel“")
    expect(page.locator("mark").first).to_be_visible()
    page.screenshot(path=shots / "search.png", full_page=True)
    page.locator(".hit-title a", has_text=re.compile(r"^Aktionsstapel$")).click()
    expect(page).to_have_url(re.compile(r"/entry/aktionsstapel"))
    expect(page.locator("h1")).to_have_text("Aktionsstapel")
    page.screenshot(path=shots / "ruling.png", full_page=True)


def test_browser_follow_reference_and_see_backlink(page):
    page.goto(f"/entry/{BOMB}")
    link = page.locator(".ruling-body a.xref[href='/entry/aktionsstapel']")
    expect(link).to_be_visible()
    link.click()
    expect(page.locator("h1")).to_have_text("Aktionsstapel")
    backlinks = page.locator(".backlinks")
    # at the paragraph that refers to the Aktionsstapel
    back = backlinks.locator(f"a[href^='/entry/{BOMB}#p']")
    expect(back).to_be_visible()
    back.click()
    expect(page.locator("h1")).to_have_text("227-Pfund Bombe (Basisausbau)")


def test_browser_reference_preview_shows_on_keyboard_focus(page):
    page.goto(f"/entry/{BOMB}")
    link = page.locator(".ruling-body a.xref").first
    preview = link.get_attribute("data-preview")
    assert preview
    box = page.locator(".xref-preview")
    expect(box).to_have_count(0)
    page.keyboard.press("Tab")  # keyboard mode, so focus() matches :focus-visible
    link.focus()
    expect(box).to_be_visible()
    expect(box).to_have_text(preview)


def test_browser_paragraph_anchor_scrolls_paragraph_into_view(page):
    page.goto(f"/entry/{LONG_ENTRY}#p12")
    target = page.locator("#p12")
    expect(target).to_be_in_viewport()
    top = target.evaluate("el => el.getBoundingClientRect().top")
    assert 0 <= top < page.viewport_size["height"] / 2
    assert page.evaluate("window.scrollY") > 0


def test_browser_copy_link_copies_the_paragraph_permalink(page, base_url, index):
    from faq_bot.text import paragraph_path

    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    page.goto(f"/entry/{BOMB}")
    page.locator("#p1").hover()
    page.locator("#p1 .para-num").click()
    expect(page).to_have_url(f"{base_url}/entry/{BOMB}#p1")  # the address follows the mark
    plain = index.entry(BOMB).plain_paragraphs[1]
    assert page.evaluate("navigator.clipboard.readText()") == base_url + paragraph_path(
        BOMB, 1, plain
    )


def test_browser_cite_button_copies_citation(page, base_url):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    page.goto(f"/entry/{BOMB}")
    page.locator(".cite summary").click()
    button = page.locator("button[data-copy-text]")
    expect(button).to_be_visible()  # JS unhides it
    button.click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("„227-Pfund Bombe (Basisausbau)“ – HoW FAQ, Stand: 30. November 2012.")
    assert copied.endswith(f"/entry/{BOMB}")


def test_browser_slash_jumps_to_search_box(page):
    page.goto(f"/entry/{BOMB}")
    page.locator("h1").click()
    page.keyboard.press("/")
    expect(page.locator("#header-q")).to_be_focused()
    page.keyboard.type("Flak")
    expect(page.locator("#header-q")).to_have_value("Flak")  # the "/" was not typed


def test_browser_the_slash_shortcut_can_be_turned_off_and_on(page):
    """An accessibility review: the one-key shortcut „/“ could not be turned off (WCAG 2.1.4:
    a speech-input user's „slash“ moves the focus). The footer's tip turns it off and on,
    for later pages too."""
    page.goto(f"/entry/{BOMB}")
    toggle = page.get_by_role("button", name="Tastenkürzel „/“ ausschalten")
    toggle.click()
    page.locator("h1").click()
    page.keyboard.press("/")
    expect(page.locator("#header-q")).not_to_be_focused()
    page.goto("/")
    expect(page.locator(".kbd-tip [data-shortcut-on]").first).to_be_hidden()
    page.locator("h1").first.click()
    page.keyboard.press("/")
    expect(page.locator("#q")).not_to_be_focused()
    page.get_by_role("button", name="Tastenkürzel „/“ einschalten").click()
    page.locator("h1").first.click()
    page.keyboard.press("/")
    expect(page.locator("#q")).to_be_focused()


def test_browser_title_suggestions_fill_the_datalist(page):
    page.goto("/")
    page.locator("#q").press_sequentially("Aktions", delay=30)
    options = page.locator("#title-suggestions option")
    expect(options.first).to_be_attached()
    values = options.evaluate_all("els => els.map(e => e.value)")
    assert "Aktionsstapel" in values


def test_browser_title_suggestions_offer_each_title_once(page):
    """A QA review: „Runde“ was offered twice (two entries of that title), „FLUGZEUGE“ beside
    „Flugzeuge“; a suggestion only fills the box, so the same words once are enough."""
    page.goto("/")
    page.locator("#q").press_sequentially("Runde", delay=30)
    options = page.locator("#title-suggestions option")
    expect(page.locator('#title-suggestions option[value="Runde"]')).to_have_count(1)
    values = options.evaluate_all("els => els.map(e => e.value.toLowerCase())")
    assert len(values) == len(set(values)), values
    box = page.locator("#q")
    box.fill("")
    box.press_sequentially("Flugzeug", delay=30)
    expect(page.locator('#title-suggestions option[value="Flugzeuge"]')).to_have_count(1)
    assert page.locator('#title-suggestions option[value="FLUGZEUGE"]').count() == 0


def test_browser_a_document_pages_box_suggests_that_documents_titles(page):
    """A QA review: „In „HoW FAQ“ suchen“ offered the rulebooks' titles too."""
    page.goto("/docs/how-faq")
    page.locator("main #q").press_sequentially("Runde", delay=30)
    options = page.locator("#title-suggestions option")
    expect(options.first).to_be_attached()
    page.wait_for_timeout(400)  # the answer to the whole word
    values = options.evaluate_all("els => els.map(e => e.value)")
    assert "Runde" in values and "Rundenablauf" not in values  # (SoW's)


def test_browser_title_suggestions_of_earlier_typing_go_when_the_field_is_cleared(page):
    page.goto("/")
    box = page.locator("#q")
    box.press_sequentially("Aktions", delay=30)
    options = page.locator("#title-suggestions option")
    expect(options.first).to_be_attached()
    for _ in range(len("Aktions") - 1):
        box.press("Backspace")  # one letter left: too short to suggest titles for
    expect(options).to_have_count(0)


def test_browser_script_in_query_stays_text(page):
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    query = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    page.goto("/search?q=" + query.replace("<", "%3C").replace(">", "%3E"))
    expect(page.locator("#q")).to_have_value(query)
    expect(page.locator("#result-count")).to_contain_text("<script>alert(1)</script>")
    page.goto("/entry/%3Cscript%3Ealert(3)%3C%2Fscript%3E")
    assert dialogs == []
    assert page.locator("main script, main img").count() == 0
    assert page.evaluate("document.scripts.length") == 1  # only /static/app.js


PHONE_PAGES = [
    ("start", "/"),
    ("search", "/search?q=Bombe+Radarstation"),
    ("ruling", f"/entry/{BOMB}"),
    ("table", f"/entry/{TABLE_ENTRY}"),
    ("long", f"/entry/{LONG_ENTRY}"),
    ("faq-contents", "/docs/how-faq"),
    ("rules-contents", "/docs/sow"),
    ("not-found", "/entry/kartenziehen"),
    ("sow-table", "/entry/sow-rekrutierung-und-unterhalt"),
    ("checker", "/check"),
]


@pytest.mark.parametrize(("name", "path"), PHONE_PAGES)
def test_browser_phone_width_scrolls_only_vertically(phone, shots, name, path):
    phone.goto(path)
    scroll_width, client_width = no_horizontal_scroll(phone)
    if name in ("start", "search", "ruling", "table"):
        phone.screenshot(path=shots / f"phone-{name}.png", full_page=True)
    assert client_width == 360
    assert scroll_width <= client_width, f"{path} scrolls sideways ({scroll_width}px)"


# the checker: its card buttons did not wrap at 200 % (416 px of 360, a phone review)
LARGE_TEXT = ("start", "search", "ruling", "faq-contents", "checker")
LARGE_TEXT_PAGES = [p for p in PHONE_PAGES if p[0] in LARGE_TEXT]


@pytest.mark.parametrize(("name", "path"), LARGE_TEXT_PAGES)
def test_browser_phone_with_doubled_text_size_scrolls_only_vertically(phone, name, path):
    # a reader who sets the browser's text size to 200 %: long German words (document titles,
    # compounds in links) must wrap instead of widening the page, and the skip link stays hidden
    phone.goto(path)
    phone.evaluate("document.documentElement.style.fontSize = '200%'")  # CSSOM: CSP allows it
    scroll_width, client_width = no_horizontal_scroll(phone)
    assert scroll_width <= client_width, f"{path} scrolls sideways ({scroll_width}px)"
    skip = phone.locator(".skip-link")
    if skip.count():
        assert skip.evaluate("el => el.getBoundingClientRect().bottom") <= 0


BUTTONS_PAST_THE_SCREEN = """[...document.querySelectorAll('button')]
  .filter(b => b.offsetParent && b.getBoundingClientRect().right > innerWidth + 1)
  .map(b => b.textContent.trim() + ' ' + Math.round(b.getBoundingClientRect().width))"""


@pytest.mark.parametrize("path", ["/check", "/", "/search?q=Bombe"])
def test_browser_every_button_fits_a_phone_at_doubled_text_size(phone, path):
    phone.goto(path)
    phone.evaluate("document.documentElement.style.fontSize = '200%'")
    assert phone.evaluate(BUTTONS_PAST_THE_SCREEN) == []


# one-word labels of visible buttons broken over lines though the word would fit a line
# of its column (a word wider than that has to break)
WORDS_BROKEN = """[...document.querySelectorAll('button')]
  .filter(b => b.offsetParent && /^\\S+$/.test(b.textContent.trim()))
  .filter(b => {
    const range = document.createRange();
    range.selectNodeContents(b);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (tops.size < 2) return false;
    const style = getComputedStyle(b);
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
    probe.style.font = style.font;
    probe.textContent = b.textContent.trim();
    document.body.appendChild(probe);
    const word = probe.getBoundingClientRect().width;
    probe.remove();
    const frame = b.offsetWidth - b.clientWidth + parseFloat(style.paddingLeft) +
      parseFloat(style.paddingRight);
    const parent = b.parentElement;
    const room = parent.clientWidth - parseFloat(getComputedStyle(parent).paddingLeft) -
      parseFloat(getComputedStyle(parent).paddingRight);
    return word + frame <= room;
  })
  .map(b => b.textContent.trim())"""


@pytest.mark.parametrize("path", ["/", "/search?q=Bombe", "/ask", "/check"])
@pytest.mark.parametrize("width", [320, 360])
def test_browser_a_one_word_button_keeps_its_word_whole_at_doubled_text_size(phone, path, width):
    """An accessibility review: on the start page at 320 px and 200 % text the two buttons
    were 137 px wide and their labels broke mid-word, „Suc/hen“ and „Fra/gen“."""
    phone.set_viewport_size({"width": width, "height": 740})
    phone.goto(path)
    phone.evaluate("document.documentElement.style.fontSize = '200%'")
    assert phone.evaluate(WORDS_BROKEN) == []
    assert phone.evaluate(BUTTONS_PAST_THE_SCREEN) == []


def test_browser_the_chat_s_retry_button_fits_a_phone_at_doubled_text_size(phone):
    """A phone review: with no connection, the chat's „Noch einmal versuchen“ was 506 px
    wide at 200 % text in a 296 px column, so the page scrolled sideways."""
    phone.goto("/ask")
    phone.evaluate("document.documentElement.style.fontSize = '200%'")
    with offline(phone.context):
        phone.fill("#chat-q", "Was passiert mit der Feuerwehr?")
        phone.locator("#chat-form button[type=submit]").click()
        expect(phone.locator("#chat-retry")).to_be_visible()
        assert phone.evaluate(BUTTONS_PAST_THE_SCREEN) == []
        scroll_width, client_width = no_horizontal_scroll(phone)
        assert scroll_width <= client_width


def test_browser_dark_mode_screenshot(browser, base_url, shots):
    context = browser.new_context(base_url=base_url, viewport={"width": 800, "height": 900})
    page = context.new_page()
    page.emulate_media(color_scheme="dark")
    page.goto(f"/entry/{BOMB}")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.screenshot(path=shots / "ruling-dark.png", full_page=True)
    context.close()
    assert background != "rgb(251, 250, 247)"  # not the light background


def _luminance(rgb: str) -> float:
    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


FIELDS = "input:not([type=hidden]):not([type=checkbox]), select, textarea, .chips .chip"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["/", "/search?q=Flak", "/ask", "/check"])
def test_browser_every_field_has_an_edge_of_3_to_1_against_the_page(
    browser, base_url, scheme, path
):
    """A phone review: fields' borders were 1.4:1 against the page (WCAG 1.4.11 asks 3:1
    for a control's edge); in a bright hall the fields disappeared."""
    context = browser.new_context(base_url=base_url, viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.emulate_media(color_scheme=scheme)
    page.goto(path)
    page_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    edges = page.locator(FIELDS).evaluate_all(
        "els => els.filter(e => e.getClientRects().length)"
        ".map(e => [e.id || e.name || e.className, getComputedStyle(e).borderTopColor])"
    )
    context.close()
    assert edges
    weak = [(name, color) for name, color in edges if _contrast(color, page_bg) < 3]
    assert not weak, f"{path} ({scheme}): {weak}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_browser_the_phones_bar_takes_the_headers_colour(browser, base_url, scheme):
    """A phone colours its address bar by ``theme-color``: a blue (#1d4ed8) the page never
    shows sat on a white header, and on a dark page too (a phone review)."""
    context = browser.new_context(base_url=base_url, viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.emulate_media(color_scheme=scheme)
    page.goto("/")
    header = page.evaluate(
        "getComputedStyle(document.querySelector('.site-header')).backgroundColor"
    )
    # the meta whose media query holds in this scheme (the first, as a browser takes it)
    theme = page.evaluate(
        "[...document.querySelectorAll('meta[name=theme-color]')]"
        ".filter(m => !m.media || matchMedia(m.media).matches)[0].content"
    )
    probe = page.evaluate(
        "c => { const d = document.createElement('div'); d.style.color = c;"
        " document.body.append(d); const v = getComputedStyle(d).color; d.remove(); return v }",
        theme,
    )
    context.close()
    assert probe == header, (scheme, theme, header)


def test_browser_ruling_citation_opened_at_doubled_text_size_stays_on_screen(phone):
    """A phone review: „Zitieren“ opened at 200 % text put „Zitat kopieren“ past the box
    and the screen (390 px of 360); every button in it wraps or shrinks to fit."""
    phone.goto("/entry/aktionsstapel/absatz/4")
    phone.evaluate("document.documentElement.style.fontSize = '200%'")  # CSSOM: CSP allows it
    phone.locator("details.cite summary").click()
    expect(phone.locator("details.cite button")).to_be_visible()
    scroll_width, client_width = no_horizontal_scroll(phone)
    assert scroll_width <= client_width, f"scrolls sideways ({scroll_width}px)"
    right = phone.locator("details.cite button").evaluate("b => b.getBoundingClientRect().right")
    box = phone.locator("details.cite").evaluate("d => d.getBoundingClientRect().right")
    assert right <= box


@pytest.mark.parametrize("path", ["/", "/ask", "/search?q=Bombe", "/entry/aktionen"])
def test_browser_placeholders_fit_their_fields_on_a_phone(phone, path):
    """At 360 px the start page's placeholder read „Stichwort oder Frage, z. B. Akti“ and
    the chat's „z. B. Wer bezahlt, wenn“: a hint cut off mid-word."""
    phone.goto(path)
    cut = phone.evaluate(
        """() => {
      const ruler = document.createElement("canvas").getContext("2d");
      return Array.from(document.querySelectorAll("input[placeholder]"))
        .filter((input) => input.offsetWidth && !input.value)
        .filter((input) => {
          const style = getComputedStyle(input);
          ruler.font = style.font;
          const room =
            input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return ruler.measureText(input.placeholder).width > room + 0.5;
        })
        .map((input) => `#${input.id}: "${input.placeholder}"`);
    }"""
    )
    assert not cut, cut


@pytest.mark.parametrize(
    ("path", "field"),
    [("/ask", "#chat-q"), ("/search?q=Bombe", "#q"), ("/entry/aktionen", "#header-q")],
)
def test_browser_the_question_and_search_fields_stay_wide_at_doubled_text_size(phone, path, field):
    """A phone review: at 200 % text the chat's question field and the search page's own
    field shrank to about 90 px beside their buttons (the placeholder read „z.“); the
    button goes below instead, as on the start page."""
    phone.goto(path)
    phone.evaluate("document.documentElement.style.fontSize = '200%'")  # CSSOM: CSP allows it
    width = phone.locator(field).evaluate("e => e.getBoundingClientRect().width")
    assert width >= 200, f"{field} is {width:.0f}px wide"
    scroll_width, client_width = no_horizontal_scroll(phone)
    assert scroll_width <= client_width, f"scrolls sideways ({scroll_width}px)"


@pytest.mark.parametrize("width", [360, 390, 430, 1024])
def test_browser_the_header_search_keeps_its_button_beside_its_field(browser, base_url, width):
    """A phone review: at 390 px (an iPhone 12 to 15) the header's search stood beside the
    site's name, too narrow for its button, which went below the field (a header of two
    lopsided lines, the field 228 px). The search goes beside the name only where the
    field and its button fit there, else on a line of its own."""
    context = _context(
        browser, base_url, viewport={"width": width, "height": 800}, is_mobile=width < 600
    )
    try:
        page = context.new_page()
        page.goto("/entry/aktionen")
        field = page.locator("#header-q").bounding_box()
        button = page.locator(".header-search button").bounding_box()
        assert field and button
        assert abs(button["y"] - field["y"]) < 2, f"button below the field at {width}px"
        assert field["width"] >= 180, f"field {field['width']:.0f}px wide at {width}px"
    finally:
        context.close()


def test_browser_a_hits_link_opens_its_ruling_at_the_sentence_its_snippet_shows(browser, base_url):
    """A phone review at 320 x 568: a hit's link opened its ruling at the paragraph, whose
    matched words stood 743 px down. The link names the snippet's sentence in a text
    fragment; the browser scrolls to it (it is off the first screen without it)."""
    from urllib.parse import unquote

    from tests.e2e.test_chat_e2e import SENTENCE_TOP

    context = _context(
        browser, base_url, viewport={"width": 320, "height": 568}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        page.goto("/search?q=Karte+ziehen&n=50")
        link = page.locator(".hit-title a[href^='/entry/sabotage-basisausbau?']")
        href = link.get_attribute("href")
        assert href and re.search(r"#p\d+:~:text=", href), href
        named = href.split(":~:text=", 1)[1].split(",")
        if named[0].endswith("-"):  # the words before the sentence, its prefix
            named = named[1:]
        words = " ".join(unquote(named[0]).split()[:3])
        height = page.viewport_size["height"]
        page.goto(href.split(":~:", 1)[0])  # the paragraph's anchor alone
        top = page.evaluate(SENTENCE_TOP, words)
        assert top is not None and top >= height, f"on the first screen anyway ({top})"
        page.goto("/")
        page.goto(href)
        page.wait_for_function("scrollY > 0")
        top = page.evaluate(SENTENCE_TOP, words)
        assert top is not None and 0 <= top < height, top
    finally:
        context.close()


def test_browser_without_javascript_search_and_ruling_work(nojs, shots):
    nojs.goto("/")
    nojs.locator("#q").fill("Radarstation")
    nojs.locator("#q").press("Enter")
    expect(nojs).to_have_url(re.compile(r"/search\?q=Radarstation"))
    expect(nojs.locator("#result-count")).to_contain_text("Treffer")
    expect(nojs.locator("select[name=doc]")).to_be_hidden()  # folded on a result page
    nojs.locator(".filter-box summary").click()
    nojs.locator("select[name=doc]").select_option("how-faq")
    nojs.locator(".filters button").click()
    expect(nojs).to_have_url(re.compile(r"doc=how-faq"))
    expect(nojs.locator(".filter-box summary")).to_have_text("Filter: HoW FAQ")
    nojs.locator(".hit-title a").first.click()
    expect(nojs).to_have_url(re.compile(r"/entry/"))
    expect(nojs.locator(".ruling-body .para").first).to_be_visible()
    nojs.locator(".cite summary").click()
    expect(nojs.locator(".citation")).to_be_visible()
    expect(nojs.locator("button[data-copy-text]")).to_be_hidden()
    link = nojs.locator(".para-num").first
    anchor = link.get_attribute("href")
    link.click()
    assert nojs.url.endswith(anchor)
    nojs.screenshot(path=shots / "phone-ruling-nojs.png", full_page=True)


def test_browser_a_linked_paragraph_says_which_entry_document_and_date_it_is_from(phone):
    # a forum link to /entry/x#p12 opens scrolled past the title: the paragraph itself says
    phone.goto(f"/entry/{LONG_ENTRY}#p12")
    context = phone.locator("#p12 .para-context")
    expect(context).to_be_in_viewport()
    expect(context).to_contain_text("Schadenverteilungsphase")
    expect(context).to_contain_text("Stand: 30. November 2012")
    expect(phone.locator("#p11 .para-context")).to_be_hidden()  # only the one linked
    phone.goto(f"/entry/{LONG_ENTRY}")
    assert phone.locator(".para-context:visible").count() == 0


def test_browser_paragraph_number_says_copy_only_with_javascript(page, nojs):
    page.goto(f"/entry/{BOMB}")
    expect(page.locator("#p1 button.para-num")).to_have_attribute(
        "aria-label", "Absatz 2: Link kopieren"
    )
    nojs.goto(f"/entry/{BOMB}")
    label = nojs.locator("#p1 a.para-num").get_attribute("aria-label")
    assert label == "Absatz 2: Link zu diesem Absatz"


FAKE_SHARE = "navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };"


@pytest.mark.parametrize(
    ("path", "shared"),
    [
        (f"/entry/{BOMB}", f"/entry/{BOMB}"),
        (f"/entry/{LONG_ENTRY}?h=Schaden#p12", f"/entry/{LONG_ENTRY}#p12"),
        ("/entry/aktionsstapel/absatz/4", "/entry/aktionsstapel/absatz/4"),
    ],
)
def test_browser_a_ruling_opens_the_phones_share_sheet_with_its_own_address(
    phone, base_url, path, shared
):
    """A phone review: a ruling page offered only copying, where the checker opens the
    phone's share sheet (a forum, a messenger). „Teilen“ hands over the ruling's own
    address (its canonical one: no search words; the paragraph a hash names kept); the
    sheet itself is the system's and stood in for here."""
    phone.add_init_script(FAKE_SHARE)
    phone.goto(path)
    button = phone.get_by_role("button", name="Teilen", exact=True)
    expect(button).to_be_visible()
    button.click()
    data = phone.wait_for_function("window.__shared").json_value()
    assert data["url"] == base_url + shared
    assert data["title"] == phone.title()


def test_browser_a_ruling_offers_no_share_button_where_the_browser_cannot_share(page, nojs):
    page.add_init_script("delete Navigator.prototype.share; delete navigator.share;")
    for tab in (page, nojs):
        tab.goto(f"/entry/{BOMB}")
        expect(tab.locator(".ruling-head h1")).to_be_visible()
        expect(tab.get_by_role("button", name="Teilen", exact=True)).to_have_count(0)


def test_a_printed_ruling_keeps_its_paragraph_numbers_and_notes_and_drops_screen_hints(page):
    """A QA review of a ruling on paper: the document's note printed folded without its
    text, „Markiert: Wörter aus …“ printed, the paragraph numbers did not (a judge cites by
    them), and a paragraph's permalink printed the paragraph twice."""
    page.emulate_media(media="print")
    page.goto("/entry/aktionsstapel?h=tappen")
    expect(page.locator(".notes p").first).to_be_visible()
    expect(page.locator(".marked-note")).to_be_hidden()
    expect(page.locator(".para-num").first).to_be_visible()
    expect(page.locator(".para-num").first).to_have_text("Absatz 1")
    expect(page.locator(".para-cite").first).to_be_hidden()
    page.goto("/entry/aktionsstapel/absatz/2")
    expect(page.locator(".linked-quote")).to_be_hidden()
    expect(page.locator("#linked-h")).to_be_visible()  # which paragraph the link meant
    expect(page.locator(".para.is-target .para-num")).to_have_text("Absatz 2")


def test_a_printed_chat_answer_and_checker_result_carry_their_addresses(page):
    """A link review: a printed chat answer named its paragraph without an address (its
    citation sat in the hidden actions); a printed checker result ran on into the whole
    editor form, with „Link teilen“ as a bare label and no address."""
    page.emulate_media(media="print")
    page.goto("/ask?q=" + "Wer bezahlt, wenn meine 227er gekontert wird?".replace(" ", "+"))
    citation = page.locator("#chat-log .chat-cite .citation").last
    expect(citation).to_be_visible()
    expect(citation).to_contain_text("/absatz/")
    expect(page.locator("#chat-log .chat-cite summary").last).to_be_hidden()
    page.emulate_media(media="screen")  # a sample is tapped on the screen
    page.goto("/check")
    page.locator("#samples a").first.click()
    expect(page.locator("#timeline")).to_be_visible()
    page.emulate_media(media="print")
    expect(page.locator(".check-result .print-url")).to_be_visible()
    expect(page.locator(".check-result .print-url")).to_contain_text("/check?s=")
    expect(page.locator("#check-form")).to_be_hidden()
    expect(page.locator("#share-link")).to_be_hidden()


def test_without_javascript_the_pages_promise_no_shortcut_or_suggestions(browser, base_url, page):
    """An accessibility review: without JavaScript the footer still said „Mit / springen Sie
    ins Suchfeld“ and the home page „Vorschläge erscheinen beim Tippen“; neither works."""
    context = _context(browser, base_url, viewport=DESKTOP, java_script_enabled=False)
    try:
        bare = context.new_page()
        bare.goto("/")
        expect(bare.locator(".hint")).to_be_visible()
        assert "Vorschläge" not in bare.locator(".hint").inner_text()  # as rendered
        expect(bare.get_by_text("springen Sie ins Suchfeld")).to_be_hidden()
    finally:
        context.close()
    page.goto("/")  # with the script (a desktop with a mouse) both are said
    assert "Vorschläge erscheinen beim Tippen." in page.locator(".hint").inner_text()
    expect(page.get_by_text("springen Sie ins Suchfeld")).to_be_visible()
