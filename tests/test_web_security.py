"""Headers, escaping and sanitizing: nothing from a user or the corpus runs as script."""

from __future__ import annotations

import base64
import hashlib
import re
from html.parser import HTMLParser
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from faq_bot.web import STATIC_DIR
from faq_bot.web.render import (
    first_sentence,
    link_in_html,
    markdown_to_html,
    render_text,
    sanitize,
)

PAGES = ["/", "/search?q=Bombe", "/entry/aktionsstapel", "/docs/how-faq", "/entry/nope", "/check"]
API = ["/api/search?q=Bombe", "/api/entries/aktionsstapel", "/api/openapi.json", "/healthz"]


class ActiveMarkup(HTMLParser):
    """Collects what would run script if a browser parsed the page."""

    DANGEROUS_TAGS = {"script", "svg", "img", "iframe", "object", "embed", "math", "base", "form"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script" and re.fullmatch(
            r"/static/app\.js\?v=[0-9a-f]+", values.get("src") or ""
        ):
            return
        if tag == "form" and (values.get("action") or "").startswith("/"):
            return
        if tag in self.DANGEROUS_TAGS:
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"{tag} {name}=")
            if name in ("href", "src", "action") and _scheme(value) == "javascript":
                self.found.append(f"{tag} {name}={value}")


def _scheme(url: str | None) -> str:
    """The scheme a browser would see (it ignores control characters and spaces)."""
    cleaned = re.sub(r"[\x00-\x20]", "", url or "").lower()
    return cleaned.split(":", 1)[0] if re.match(r"^[a-z][a-z0-9+.-]*:", cleaned) else ""


def active_markup(html: str) -> list[str]:
    parser = ActiveMarkup()
    parser.feed(html)
    parser.close()
    return parser.found


# ---------------------------------------------------------------- headers


@pytest.mark.parametrize("path", PAGES + API + ["/api/nope", "/opensearch.xml"])
def test_security_headers_on_every_response(client, path):
    response = client.get(path)
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert "'unsafe-inline'" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] in ("strict-origin-when-cross-origin", "no-referrer")


def test_security_headers_on_304(client):
    etag = client.get("/entry/aktionsstapel").headers["ETag"]
    response = client.get("/entry/aktionsstapel", headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert (
        response.headers["Content-Security-Policy"]
        == (client.application.config["CONTENT_SECURITY_POLICY"])
    )


@pytest.mark.parametrize("path", PAGES)
def test_pages_have_no_inline_script_no_style_attribute_and_no_external_resource(client, path):
    html = client.get(path).get_data(as_text=True)
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "inline script"
    assert " style=" not in html
    for url in re.findall(r'(?:src|href)="([^"]*)"', html):
        assert not url.startswith(("//", "https://", "http://")) or url.startswith(
            "http://localhost/"
        ), url


@pytest.mark.parametrize("path", PAGES + ["/ask?q=Wer+bezahlt+die+Bombe"])
def test_inline_stylesheets_are_the_static_files_allowed_by_their_hash(client, path):
    """A page's <style> elements are the app's own files, each allowed by its SHA-256 in
    the CSP; the CSP allows no other inline style."""
    response = client.get(path)
    csp = response.headers["Content-Security-Policy"]
    styles = re.findall(r"<style>(.*?)</style>", response.get_data(as_text=True), re.S)
    assert styles, "the page's stylesheet is inline (one round trip to the first paint)"
    files = {
        (STATIC_DIR / n).read_text(encoding="utf-8") for n in ("app.css", "chat.css", "check.css")
    }
    for text in styles:
        assert text in files
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp
    assert "'unsafe-inline'" not in csp and "'unsafe-hashes'" not in csp


def test_a_changed_stylesheet_gets_a_new_hash_at_the_next_start(tmp_path):
    from faq_bot.web.assets import load_inline_styles

    for name in ("app.css", "chat.css", "check.css"):
        (tmp_path / name).write_text("main { color: red; }\r\n", encoding="utf-8")
    before = load_inline_styles(tmp_path)["app.css"]
    (tmp_path / "app.css").write_text("main { color: blue; }\n", encoding="utf-8")
    after = load_inline_styles(tmp_path)["app.css"]
    assert before[0] == "main { color: red; }\n"  # as the browser hashes it
    assert before[1] != after[1] and after[1].startswith("'sha256-")


def test_a_stylesheet_that_would_end_its_style_element_is_refused(tmp_path):
    from faq_bot.web.assets import load_inline_styles

    for name in ("app.css", "chat.css", "check.css"):
        (tmp_path / name).write_text("a { color: red; }", encoding="utf-8")
    (tmp_path / "chat.css").write_text('a::after { content: "</STYLE>"; }', encoding="utf-8")
    with pytest.raises(ValueError, match="chat.css"):
        load_inline_styles(tmp_path)


def test_static_files_have_versioned_urls_and_long_cache(client):
    html = client.get("/").get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    assert {a.split("?")[0] for a in assets} >= {"/static/print.css", "/static/app.js"}
    for url in assets:
        assert re.search(r"\?v=[0-9a-f]{12}$", url), url
        with client.get(url) as response:
            assert response.status_code == 200
            assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"


def test_static_file_without_version_is_not_cached_for_a_year(client):
    with client.get("/static/app.css") as response:
        assert response.status_code == 200
        assert "immutable" not in response.headers["Cache-Control"]


@pytest.mark.parametrize(
    "path", ["/static/app.css/", "/static/./app.css", "/static/x/../app.css", "/static/.//app.css"]
)
def test_a_static_file_is_served_under_its_own_address_only(client, path):
    # werkzeug's safe_join normalised each of these to app.css and served it: copies
    with client.get(path) as response:
        assert response.status_code == 404
        assert "Seite nicht gefunden" in response.get_data(as_text=True)
        assert response.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize(
    "url",
    [
        "/static/app.js?v=bogus",  # another release's file (a rolling update) or made up
        "/static/app.js?v=000000000000",
        "/static/nope.js?v=abc",  # a file that is not there (yet): a 404
    ],
)
def test_a_static_url_whose_version_is_not_the_files_is_not_cached_for_a_year(client, url):
    with client.get(url) as response:
        assert "immutable" not in response.headers["Cache-Control"]
        assert "31536000" not in response.headers["Cache-Control"]


@pytest.mark.parametrize(
    ("path", "policy"),
    [
        ("/opensearch.xml", "no-cache"),
        ("/offline", "no-cache"),
        ("/api/openapi.json", "no-cache"),
        ("/openapi.json", "no-cache"),  # a 301 to /api/openapi.json
        ("/entry/nope", "no-store"),
        ("/api/entry/nope", "no-store"),
        ("/nope", "no-store"),
        ("/api/search?q=", "no-store"),
    ],
)
def test_a_response_without_its_own_cache_policy_gets_one(client, path, policy):
    # these had none: a 404 is cacheable by default, and the next build may have the entry
    with client.get(path) as response:
        assert response.headers["Cache-Control"] == policy


@pytest.mark.parametrize("path", ["/", "/ask?q=Bombe", "/entry/spiel", "/api/search?q=Bombe"])
def test_a_websocket_upgrade_offer_is_ignored_and_the_page_served(client, path):
    # werkzeug's routing looked for WebSocket routes: a 400 on "/", a 405 on GET /ask
    upgrade = {"Connection": "Upgrade", "Upgrade": "websocket"}
    response = client.get(path, headers=upgrade)
    assert response.status_code == 200
    assert response.get_data() == client.get(path).get_data()


@pytest.mark.parametrize("path", ["/static/app.css", "/sw.js", "/offline-data.json"])
def test_an_if_match_that_fails_gets_a_german_412_without_the_file(client, path):
    with client.get(path, headers={"If-Match": '"nicht-diese"'}) as response:
        assert response.status_code == 412
        page = response.get_data(as_text=True)
    assert "Vorbedingung nicht erfüllt" in page
    # the error page, not the file with a 412 status (werkzeug's send_file sends it whole)
    assert response.mimetype == "text/html" and "<h1>" in page
    assert "ETag" not in response.headers and "Last-Modified" not in response.headers


@pytest.mark.parametrize("path", ["/static/app.css", "/sw.js"])
def test_if_match_star_gets_the_file(client, path):
    # "*" matches any current representation (RFC 9110 13.1.1); werkzeug fails it
    with client.get(path) as whole:
        expected = whole.get_data()
    with client.get(path, headers={"If-Match": "*"}) as response:
        assert response.status_code == 200
        assert response.get_data() == expected


# ---------------------------------------------------------------- user input


@pytest.mark.parametrize(
    "query",
    [
        "<script>alert(1)</script>",
        '"><img src=x onerror=alert(1)>',
        "javascript:alert(1)",
        "</title><svg onload=alert(1)>",
    ],
)
def test_query_is_escaped_on_search_and_404_pages(client, query):
    for path in (f"/search?q={quote(query)}", f"/entry/{quote(query, safe='')}"):
        html = client.get(path).get_data(as_text=True)
        assert not active_markup(html), (path, active_markup(html))


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.text(max_size=80))
def test_any_query_gives_a_page_or_a_clear_400_never_a_500(client, query):
    response = client.get("/search", query_string={"q": query})
    assert response.status_code in (200, 400)
    assert not active_markup(response.get_data(as_text=True))
    api = client.get("/api/search", query_string={"q": query})
    assert api.status_code in (200, 400)
    if api.status_code == 400:
        assert set(api.get_json()) == {"error", "detail"}


# ---------------------------------------------------------------- corpus content


@pytest.fixture
def evil_pages(evil_client):
    from faq_bot.index import open_index

    index_dir = evil_client.application.config["INDEX_DIR"]
    index = open_index(index_dir)
    pages = {"/": None, "/docs/faq": None, "/docs/ref": None, "/docs/num": None}
    for entry in index.entries():
        pages[f"/entry/{entry.id}"] = None
    pages["/search?q=alert"] = None
    pages["/search?q=Satz"] = None
    for path in pages:
        response = evil_client.get(path)
        assert response.status_code == 200, path
        pages[path] = response.get_data(as_text=True)
    return pages


def test_corpus_markup_is_inert_on_every_page(evil_pages):
    for path, html in evil_pages.items():
        assert not active_markup(html), (path, active_markup(html))


def test_corpus_text_entry_shows_markup_as_text(evil_pages):
    html = next(h for p, h in evil_pages.items() if p.startswith("/entry/alpha"))
    assert "&lt;img src=x onerror=alert(2)&gt;" in html
    assert "Alpha &lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Hinweis &lt;script&gt;" in html  # manifest notes


def test_corpus_reference_in_hostile_entry_still_links(evil_pages):
    html = next(h for p, h in evil_pages.items() if p.startswith("/entry/alpha"))
    assert '<a class="xref" href="/entry/beta"' in html
    beta = evil_pages["/entry/beta"]
    assert 'href="/entry/alpha' in beta.split("Verweise hierher", 1)[1]


def test_corpus_html_row_keeps_text_drops_script_and_handlers(evil_pages):
    html = next(h for p, h in evil_pages.items() if p.startswith("/entry/ref-"))
    # the rendered paragraphs (a citation quotes the plain text, escaped: the index's text)
    body = "".join(re.findall(r'<div class="para-text">(.*?)</div>', html, re.S))
    assert "Text" in body and "Link" in body
    assert "alert(5)" not in body


def test_corpus_markdown_keeps_emphasis_drops_script(evil_pages):
    html = evil_pages["/entry/num-einleitung"]
    body = "".join(re.findall(r'<div class="para-text">(.*?)</div>', html, re.S))
    assert "<strong>fett</strong>" in body  # the paragraphs were found
    assert "alert(8)" not in body


# ---------------------------------------------------------------- render helpers


def links_to(target, paragraph=None):
    if target == "missing":
        return None
    anchor = f"#p{paragraph}" if paragraph is not None else ""
    return (f"/entry/{target}{anchor}", f"Vorschau {target}")


def test_render_text_links_reference_spans_and_escapes_the_rest():
    plain = "a <b> s. Beta und s. Gamma"
    refs = [
        {"paragraph": 0, "start": 9, "end": 13, "text": "s. Beta", "target": "beta"},
        {"paragraph": 0, "start": 21, "end": 26, "text": "s. Gamma", "target": "missing"},
    ]
    html = render_text(plain, refs, links_to)
    assert html == (
        'a &lt;b&gt; s. <a class="xref" href="/entry/beta" data-preview="Vorschau beta" '
        'aria-describedby="vorschau-beta">Beta</a>'
        ' und s. <span class="xref-unresolved">Gamma</span>'
    )


@pytest.mark.parametrize(
    ("stored", "href"), [(1, "/entry/beta#p1"), ("1", "/entry/beta"), (True, "/entry/beta")]
)
def test_reference_to_a_paragraph_links_to_its_anchor_in_text_and_html(stored, href):
    ref = {"start": 3, "end": 12, "text": "s. Tabelle 1", "target_text": "Tabelle 1"}
    ref |= {"target": "beta", "target_paragraph": stored}
    assert f'href="{href}"' in render_text("s. Tabelle 1.", [ref], links_to)
    out = link_in_html("<p>s. Tabelle 1.</p>", [ref], links_to)
    assert f'<a class="xref" href="{href}"' in out and ">Tabelle 1</a>" in out


def test_render_text_ignores_overlapping_and_out_of_range_spans():
    refs = [
        {"start": 0, "end": 4, "text": "", "target": "x"},
        {"start": 2, "end": 6, "text": "", "target": "y"},
        {"start": 50, "end": 60, "text": "", "target": "z"},
    ]
    html = render_text("abcdefgh", refs, links_to)
    assert html.count("<a ") == 1
    assert "efgh" in html


def test_link_in_html_finds_reference_text_outside_tags():
    html = "<p>Siehe <strong>Beta</strong> und Beta</p>"
    refs = [{"start": 0, "end": 4, "text": "Beta", "target": "beta"}]
    out = link_in_html(html, refs, links_to)
    assert out.count('href="/entry/beta"') == 1
    assert out.startswith('<p>Siehe <strong><a class="xref"')


def test_link_in_html_links_the_target_name_within_the_reference():
    html = "<p>Abschnitt 6.5 gilt. Siehe Abschnitt 6.5 zum Handel.</p>"
    refs = [
        {
            "start": 28,
            "end": 41,
            "text": "Siehe Abschnitt 6.5 zum Handel",
            "target_text": "Abschnitt 6.5",
            "target": "sechs",
        }
    ]
    out = link_in_html(html, refs, links_to)
    assert out.startswith("<p>Abschnitt 6.5 gilt. Siehe <a class=")
    assert out.endswith(">Abschnitt 6.5</a> zum Handel.</p>")


def test_sanitize_keeps_allowed_tags_only_without_attributes():
    out = sanitize(
        '<p style="x" onclick="y">a<script>b</script><img src=x><math>2W6 &lt; MW</math></p>'
    )
    assert out == "<p>a2W6 &lt; MW</p>"


@pytest.mark.parametrize("glyph", ["•", "·", "▪", "◦"])
def test_sanitize_drops_an_item_s_own_bullet_but_not_other_text(glyph):
    source = f'<ul style="list-style-type: none"><li>{glyph} A</li><li>B {glyph} C</li></ul>'
    assert sanitize(source) == f"<ul><li>A</li><li>B {glyph} C</li></ul>"


def test_markdown_link_with_javascript_url_is_dropped():
    out = markdown_to_html("Noch [ein Link](javascript:alert(1)) hier.")
    assert "javascript" not in out
    assert "ein Link" in out


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("Erster Satz. Zweiter Satz.", "Erster Satz."),
        ("Er hat z.B. keine Bombe. Dann nicht.", "Er hat z.B. keine Bombe."),
        ("s. auch unter Aktionsstapel", "s. auch unter Aktionsstapel"),
        ("Frage? Antwort: Nein.", "Frage?"),
    ],
)
def test_first_sentence(text, sentence):
    assert first_sentence(text) == sentence


def test_first_sentence_shortens_long_text_at_a_word():
    out = first_sentence("wort " * 100, limit=50)
    assert len(out) <= 50 and out.endswith("…") and not out.endswith(" …")


def test_active_markup_checker_catches_what_it_should():
    assert active_markup("<p><img src=x onerror=alert(1)></p>")
    assert active_markup("<script>alert(1)</script>")
    assert active_markup('<a href=" JavaScript:alert(1)">x</a>')
    assert not active_markup("<p>&lt;script&gt;alert(1)&lt;/script&gt; onerror=x</p>")
    assert not active_markup('<a href="/search?q=javascript:alert(1)">x</a>')
