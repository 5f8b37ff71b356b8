"""The offline copy (written at index time) and the routes of the installable app."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faq_bot.lexicon import load_synonyms
from faq_bot.offline import OFFLINE_JSON, entry_terms
from faq_bot.spelling import sound_key
from faq_bot.text import fold, slugify

BOMB = "227-pfund-bombe-basisausbau"


@pytest.fixture(scope="module")
def data(built_index):
    current = built_index / "current"
    return json.loads((current / OFFLINE_JSON).read_text(encoding="utf-8"))


def test_every_entry_is_in_the_offline_copy_with_its_paragraphs(data, index):
    by_id = {e["id"]: e for e in data["entries"]}
    assert set(by_id) == {e.id for e in index.entries()}
    bomb = by_id[BOMB]
    assert bomb["paragraphs"] == list(index.entry(BOMB).plain_paragraphs)
    assert data["version"] == index.version


def test_the_copy_opens_every_address_the_server_resolves_to_an_entry(data, index):
    """Old ids and the slugs of titles and aliases: what `Index.canonical_id` resolves
    (the offline page and the headword search look them up in ``alias_ids``)."""
    for entry in data["entries"]:
        assert all(index.canonical_id(a) == entry["id"] for a in entry["alias_ids"])
    by_id = {e["id"]: e for e in data["entries"]}
    for record in index.entries():
        for slug in {slugify(n) for n in (record.title, *record.aliases)}:
            found = index.canonical_id(slug)
            if found is not None and found != slug:  # not itself an entry's id
                assert slug in by_id[found]["alias_ids"]
    normal = by_id["uebersicht-bewegungsphase-einheiten-bewegen-normale-bewegung"]
    assert "normale-bewegung" in normal["alias_ids"]


def test_terms_come_from_the_server_analysis(data):
    by_id = {e["id"]: e for e in data["entries"]}
    assert {"227", "pfund", "bombe", "basisausbau"} <= set(by_id[BOMB]["t"])
    # compound parts: "Aktionsstapel" is also found by "stapel"
    assert "stapel" in by_id["aktionsstapel"]["t"]
    # stop words are not terms; umlauts are folded
    assert "der" not in by_id[BOMB]["x"]
    assert all(term == fold(term) for e in data["entries"] for term in e["x"])
    assert data["synonyms"]["227er"] == ["227", "pfund", "bombe"]


def test_abbreviations_in_a_text_add_what_they_stand_for():
    terms = entry_terms(["Kostet 1 TW."], frozenset(), load_synonyms())
    assert "tw" in terms and "technologiewert" in terms


NODE = shutil.which("node")
LETTERS = "aäAÄoöOÖuüÜßeEqéÉ227erTWçñ"


# the offline page's fold, run in node with the data's rules: offline-search.js as it ships,
# loaded as a module (it exports its search when there is no window), a line of JSON words
# in, a line of folded out
OFFLINE_SEARCH_JS = Path(__file__).resolve().parent.parent / "faq_bot/static/offline-search.js"
FOLD_JS = f"""
const {{ makeFold }} = require({json.dumps(str(OFFLINE_SEARCH_JS))});
const fold = makeFold(JSON.parse(process.argv[1]));
require("readline")
  .createInterface({{ input: process.stdin }})
  .on("line", (line) => console.log(JSON.stringify(JSON.parse(line).map(fold))));
"""


def _in_node(script: str, rules: Any) -> Iterator[Callable[[list[str]], list[str]]]:
    """A node process running `script` with `rules` (JSON) as its argument, for all examples
    of a test: a JSON list of words in, the list it maps them to out."""
    if NODE is None:
        if os.environ.get("CI"):
            pytest.fail("node fehlt")  # in CI a missing node is a broken install step
        pytest.skip("node fehlt")
    node = subprocess.Popen(
        [NODE, "-e", script, json.dumps(rules)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    assert node.stdin is not None and node.stdout is not None

    def in_node(words: list[str]) -> list[str]:
        node.stdin.write(json.dumps(words) + "\n")
        node.stdin.flush()
        return json.loads(node.stdout.readline())

    yield in_node
    node.stdin.close()
    node.stdout.close()
    node.wait(timeout=10)


@pytest.fixture(scope="module")
def js_fold(data_rules) -> Iterator[Callable[[list[str]], list[str]]]:
    yield from _in_node(FOLD_JS, data_rules)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        # with styled and full-width letters, which the server reads in their compatibility
        # form first (a review: offline.js lowered them first and kept the capital)
        st.text(alphabet="aäAÄoöOÖuüÜßeEqéÉ227erTWçñ𝐅𝐞𝔘𝔢ＦｅＵ", min_size=1, max_size=12),
        min_size=1,
    )
)
def test_javascript_fold_from_the_data_equals_python_fold(js_fold, words):
    assert js_fold(words) == [fold(w) for w in words]


@pytest.fixture(scope="module")
def data_rules(data):
    return data["fold"]


# offline-search.js's sound key from the data's rules, in node as the fold above
SOUND_JS = f"""
const {{ makeSoundKey }} = require({json.dumps(str(OFFLINE_SEARCH_JS))});
const key = makeSoundKey(JSON.parse(process.argv[1]));
require("readline")
  .createInterface({{ input: process.stdin }})
  .on("line", (line) => console.log(JSON.stringify(JSON.parse(line).map(key))));
"""


@pytest.fixture(scope="module")
def js_sound_key(data) -> Iterator[Callable[[list[str]], list[str]]]:
    yield from _in_node(SOUND_JS, data["sound_alike"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="aeiouyhptdckzsfbnlr", min_size=1, max_size=14), min_size=1))
def test_the_sound_rules_in_the_data_mean_in_javascript_what_they_mean_in_python(
    js_sound_key, words
):
    """The offline copy corrects a slip spelt as a term sounds ("endfase") by the server's
    own rules (`faq_bot.spelling.SOUND_ALIKE`), carried in the data: applied in order by
    JavaScript's RegExp as offline-search.js applies them, they give Python's keys (the
    browser test of offline slips runs it in the page)."""
    assert js_sound_key(words) == [sound_key(w) for w in words]


# ---------------------------------------------------------------- routes


def test_service_worker_is_served_from_the_root_uncached_with_its_version(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    body = response.get_data(as_text=True)
    assert 'var CACHE_PREFIX = "regelsuche-";' in body  # at the root: the names as before
    assert "var CACHE = CACHE_PREFIX + VERSION;" in body
    precache = json.loads(body.split("var PRECACHE = ", 1)[1].split(";\n", 1)[0])
    assert "/" in precache and "/offline" in precache
    for url in precache:
        with client.get(url) as r:
            assert r.status_code == 200, url


def test_service_worker_waits_for_an_answer_as_long_as_the_chat_does(tiny_index):
    from faq_bot.web import create_app

    app = create_app({"TESTING": True, "INDEX_DIR": str(tiny_index), "CHAT_TIMEOUT_MS": 12345})
    body = app.test_client().get("/sw.js").get_data(as_text=True)
    assert 'var ASK_PATH = "/ask";' in body
    assert "var ANSWER_TIMEOUT_MS = 12345;" in body
    assert "var NETWORK_TIMEOUT_MS = 6000;" in body
    assert 'url.pathname === ASK_PATH && url.searchParams.has("q")' in body


def test_new_build_changes_the_service_worker(tiny_corpus, tmp_path):
    from faq_bot.indexbuild import build_index
    from faq_bot.web import create_app

    build_index(tiny_corpus, tmp_path)
    client = create_app({"TESTING": True, "INDEX_DIR": str(tmp_path)}).test_client()
    before = client.get("/sw.js").get_data(as_text=True)
    build_index(tiny_corpus, tmp_path)
    after = client.get("/sw.js").get_data(as_text=True)
    assert before != after


def test_offline_data_revalidates_and_is_compressed(client):
    first = client.get("/offline-data.json", headers={"Accept-Encoding": "br"})
    assert first.status_code == 200
    assert first.headers["Content-Encoding"] == "br"
    assert len(first.data) < 200_000
    again = client.get(
        "/offline-data.json",
        headers={"Accept-Encoding": "br", "If-None-Match": first.headers["ETag"]},
    )
    assert again.status_code == 304


@pytest.mark.parametrize("path", ["/offline-data.json", "/sw.js"])
def test_a_revalidation_with_any_encodings_tag_is_a_304_before_the_file_is_read(
    client, monkeypatch, path
):
    """A review and an HTTP probe: the 304 came only after the whole file was read and
    compressed again (47 ms for 389 KB each time a phone checked it), and a tag of
    another encoding the browser also takes ("…:gzip" asked with "br, gzip") got all of it
    again. A client that does not take gzip gets the 200 (a load probe: a shared cache
    would have handed it the gzip copy)."""
    from pathlib import Path as P

    gzip_tag = client.get(path, headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    assert gzip_tag.endswith(':gzip"')
    read = P.read_bytes
    monkeypatch.setattr(P, "read_bytes", lambda self: pytest.fail(f"read {self}") or read(self))
    again = client.get(path, headers={"Accept-Encoding": "br, gzip", "If-None-Match": gzip_tag})
    assert again.status_code == 304
    assert again.headers["ETag"] == gzip_tag
    assert again.headers["Cache-Control"] == "no-cache"
    monkeypatch.setattr(P, "read_bytes", read)
    other = client.get(path, headers={"Accept-Encoding": "br", "If-None-Match": gzip_tag})
    assert other.status_code == 200 and other.headers["Content-Encoding"] == "br"


def test_manifest_names_the_app_in_german(client):
    response = client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.data)
    assert manifest["lang"] == "de" and manifest["start_url"] == "/"
    assert manifest["icons"]


def test_favicon_ico_leads_to_the_pages_icon_not_a_404_page(client):
    """A client that reads no page asks /favicon.ico; it was a 19 KB 404 page."""
    response = client.get("/favicon.ico")
    # not permanent: the address it leads to changes with the icon
    assert response.status_code == 302
    assert response.headers["Cache-Control"] == "public, max-age=86400"
    icon = client.get(response.headers["Location"])
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"


def test_offline_shell_says_it_is_the_stored_version(client):
    html = client.get("/offline").get_data(as_text=True)
    assert "Offline oder keine Antwort vom Server – gespeicherte Fassung vom" in html
    assert '<a href="">Erneut versuchen</a>' in html  # the same address again
    assert 'id="offline-app" data-src="/offline-data.json?v=' in html
    assert "<script>" not in html  # CSP: no inline script


def test_pages_link_the_manifest(client):
    assert 'rel="manifest" href="/manifest.webmanifest"' in client.get("/").get_data(as_text=True)


def test_each_entry_carries_its_cross_references_for_the_offline_ruling_page(data, index):
    """Offline, a ruling lists what it refers to and what refers to it, as online: the
    resolved targets in order without repeats, and the entries linking here."""
    by_id = {e["id"]: e for e in data["entries"]}
    for record in index.entries():
        targets = [li["target"] for li in record.links if li.get("target") not in (None, record.id)]
        assert by_id[record.id]["see"] == list(dict.fromkeys(targets))
        assert by_id[record.id]["back"] == [b["id"] for b in record.backlinks]
    assert by_id[BOMB]["see"] == ["aktionsstapel"]
    # "s. Tabelle 1.0" names a paragraph of the entry itself: not a ruling to see besides
    ships = "sow-allgemeine-regeln-fuer-schiffe"
    assert any(li["target"] == ships for li in index.entry(ships).links)
    assert ships not in by_id[ships]["see"]
    assert by_id["sow-schiffsbewegung"]["see"] == [ships]
    assert BOMB in by_id["aktionsstapel"]["back"]


def test_each_document_carries_the_precedence_notes_its_rulings_show(data, index):
    """Offline, a ruling shows its document's notes as online (they were missing)."""
    from faq_bot.corpus import precedence_notes

    for doc in data["documents"]:
        online = next(d for d in index.documents if d["id"] == doc["id"])
        assert doc["precedence_notes"] == precedence_notes(index.documents, online)
