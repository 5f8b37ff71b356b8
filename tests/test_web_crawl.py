"""/robots.txt and /sitemap.xml: what a search engine reads to find each ruling page."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

import pytest

from faq_bot.web.crawl import SITEMAP_NS

HOST = "http://localhost"


def sitemap_locs(client, **where: str) -> list[str]:
    response = client.get("/sitemap.xml", **where)
    assert response.status_code == 200
    assert response.mimetype == "application/xml"
    root = ET.fromstring(response.get_data())
    assert root.tag == f"{{{SITEMAP_NS}}}urlset"
    return [loc.text for loc in root.iter(f"{{{SITEMAP_NS}}}loc")]


def test_the_sitemap_lists_the_start_page_every_document_and_every_entry(client, index):
    locs = sitemap_locs(client)
    entries = [e for d in index.documents for e in index.entries(d["id"])]
    assert len(locs) == len(set(locs)) == 1 + len(index.documents) + len(entries)
    assert locs[0] == HOST + "/"
    for record in entries:
        assert f"{HOST}/entry/{record.id}" in locs


def test_every_address_in_the_sitemap_is_a_page_not_a_redirect(client):
    """A sitemap must list canonical addresses: an alias or a trailing slash would be a 301
    that a crawler reports as an error."""
    for loc in sitemap_locs(client):
        response = client.get(urlsplit(loc).path)
        assert response.status_code == 200, loc
        assert response.mimetype == "text/html", loc


def test_robots_txt_keeps_crawlers_off_the_api_and_the_chat_and_names_the_sitemap(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    lines = response.get_data(as_text=True).splitlines()
    assert lines[0] == "User-agent: *"
    for path in ("/api/", "/ask"):
        assert f"Disallow: {path}" in lines
    assert f"Sitemap: {HOST}/sitemap.xml" in lines
    # no rule keeps a ruling page, a document or the checker from being crawled
    disallowed = [line.split(": ", 1)[1] for line in lines if line.startswith("Disallow:")]
    pages = ("/entry/", "/docs/", "/", "/check", "/static/")
    assert not any(p.startswith(d) for d in disallowed for p in pages)


@pytest.mark.parametrize("path", ["/search?q=Bombe", "/offline"])
def test_a_page_not_to_be_found_is_crawled_and_says_noindex(client, path):
    """A review: robots.txt first kept crawlers off these, so their noindex was never read
    and a forum's link to a search could be indexed as a bare address."""
    text = client.get("/robots.txt").get_data(as_text=True)
    assert not any(
        path.startswith(line.split(": ", 1)[1])
        for line in text.splitlines()
        if line.startswith("Disallow:")
    )
    assert '<meta name="robots" content="noindex">' in client.get(path).get_data(as_text=True)


def test_the_sitemap_is_sent_compressed(client):
    """A review: application/xml was not among the compressed types (2 MB on a ×100 corpus)."""
    response = client.get("/sitemap.xml", headers={"Accept-Encoding": "gzip"})
    assert response.headers.get("Content-Encoding") == "gzip"


def test_under_a_script_root_both_name_addresses_under_it(client):
    root = "/faq"
    locs = sitemap_locs(client, base_url=HOST + root)
    assert locs and all(loc.startswith(f"{HOST}{root}/") for loc in locs)
    text = client.get("/robots.txt", base_url=HOST + root).get_data(as_text=True)
    assert f"Disallow: {root}/api/" in text
    assert f"Sitemap: {HOST}{root}/sitemap.xml" in text


@pytest.mark.parametrize("path", ["/robots.txt", "/sitemap.xml"])
def test_a_crawler_revalidating_gets_304(client, path):
    tag = client.get(path).headers["ETag"]
    assert client.get(path, headers={"If-None-Match": tag}).status_code == 304
