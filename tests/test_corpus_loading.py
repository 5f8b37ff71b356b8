"""`load_corpus`: the real corpus loads; a broken corpus gives a `CorpusError` naming the file."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from faq_bot.corpus import CorpusError, load_corpus

CORPUS_DIR = Path(__file__).resolve().parent.parent / "corpus"
FAQ_FILE = "000_6dfd36dc833f0c3c.txt"

FAQ_ONLY = f"""
[[documents]]
id = "how-faq"
file = "{FAQ_FILE}"
title = "HoW FAQ"
game = "HoW"
kind = "faq"
language = "de"
splitter = "faq"
"""


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """A writable copy of the whole corpus folder."""
    target = tmp_path / "corpus"
    shutil.copytree(CORPUS_DIR, target)
    return target


@pytest.fixture
def faq_only(tmp_path: Path) -> Path:
    """A corpus folder holding the FAQ and a manifest that lists only it."""
    target = tmp_path / "faq"
    target.mkdir()
    shutil.copy(CORPUS_DIR / FAQ_FILE, target / FAQ_FILE)
    (target / "manifest.toml").write_text(FAQ_ONLY, encoding="utf-8")
    return target


def test_corpus_real_corpus_loads_five_documents_with_entries():
    corpus = load_corpus(CORPUS_DIR)
    assert [d.id for d in corpus.documents] == ["how-faq", "beordern", "sow", "runde", "uebersicht"]
    for doc in corpus.documents:
        assert doc.entries, doc.id
        assert all(e.doc == doc.id for e in doc.entries)
        assert [e.position for e in doc.entries] == list(range(len(doc.entries)))
        assert all(e.title and e.paragraphs for e in doc.entries), doc.id
    ids = [e.id for e in corpus.entries()]
    assert len(ids) == len(set(ids))


def test_corpus_real_faq_document_carries_manifest_metadata_and_preamble():
    faq = load_corpus(CORPUS_DIR).document("how-faq")
    assert (faq.kind, faq.date, faq.precedence) == ("faq", "2012-11-30", True)
    assert faq.preamble[0] == "FAQ"
    assert len(faq.entries) == 152


def test_corpus_alias_ids_never_shadow_canonical_ids():
    corpus = load_corpus(CORPUS_DIR)
    canonical = {e.id for e in corpus.entries()}
    aliases = [a for e in corpus.entries() for a in e.alias_ids]
    assert not canonical & set(aliases)
    assert len(aliases) == len(set(aliases))
    # "Besatzungsmacht!" owns the slug, so "Besatzungsmacht (Basisausbau)" keeps no alias id
    basis = load_corpus(CORPUS_DIR).by_id()["besatzungsmacht-basisausbau"]
    assert basis.alias_ids == ()


def test_corpus_find_by_title_accepts_title_or_bare_name():
    corpus = load_corpus(CORPUS_DIR)
    assert corpus.find_by_title("227-pfund bombe").id == "227-pfund-bombe-basisausbau"
    assert corpus.find_by_title("Ziehen, Karte", doc="how-faq").id == "ziehen-karte"
    assert corpus.find_by_title("Gibt es nicht") is None


def test_corpus_faq_only_manifest_loads(faq_only):
    corpus = load_corpus(faq_only)
    assert [d.id for d in corpus.documents] == ["how-faq"]
    assert len(corpus.document("how-faq").entries) == 152


def test_corpus_crlf_and_bom_give_the_same_entries(faq_only):
    path = faq_only / FAQ_FILE
    expected = load_corpus(faq_only).document("how-faq").entries
    text = path.read_text(encoding="utf-8")
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    assert load_corpus(faq_only).document("how-faq").entries == expected


def test_corpus_file_not_utf8_names_the_file(faq_only):
    path = faq_only / FAQ_FILE
    path.write_bytes(path.read_text(encoding="utf-8").encode("latin-1", errors="replace"))
    with pytest.raises(CorpusError, match=FAQ_FILE) as info:
        load_corpus(faq_only)
    assert "UTF-8" in str(info.value)


def test_corpus_file_not_utf8_in_full_corpus_names_that_file(corpus_copy):
    victim = "003_392c06b39f773588.txt"
    (corpus_copy / victim).write_bytes(b"Runde\n\xe4\xf6\xfc ohne UTF-8\n")
    with pytest.raises(CorpusError, match=victim):
        load_corpus(corpus_copy)


def test_corpus_missing_file_names_the_file(corpus_copy):
    (corpus_copy / "002_cabdb8510c6358ab.txt").unlink()
    with pytest.raises(CorpusError, match="002_cabdb8510c6358ab.txt"):
        load_corpus(corpus_copy)


def test_corpus_missing_manifest(tmp_path):
    with pytest.raises(CorpusError, match="manifest.toml"):
        load_corpus(tmp_path)


@pytest.mark.parametrize(
    ("manifest", "problem"),
    [
        ("[[documents]\nid = ", "TOML"),
        ("title = 'no documents'\n", "„documents“ fehlt"),
        (FAQ_ONLY.replace('game = "HoW"\n', ""), "Pflichtfeld „game“ fehlt"),
        (FAQ_ONLY.replace('kind = "faq"', 'kind = "roman"'), "„kind“ muss eines von"),
        (FAQ_ONLY + FAQ_ONLY, "kommt zweimal vor"),
        # each once a traceback or silently accepted (issue 10)
        (FAQ_ONLY.replace('id = "how-faq"', "id = 5"), "„id“ muss Text"),
        (FAQ_ONLY.replace('id = "how-faq"', 'id = "how/faq"'), "„id“ darf nur Kleinbuchstaben"),
        (FAQ_ONLY.replace('kind = "faq"', 'kind = "faq"\ndate = 2012-11-30'), 'date = "2012'),
        (
            FAQ_ONLY.replace('kind = "faq"', 'kind = "faq"\nprecedence = "nein"'),
            "„precedence“ muss true oder false",
        ),
        (FAQ_ONLY.replace(f'file = "{FAQ_FILE}"', 'file = "/etc/passwd"'), "„file“ muss ein Datei"),
        (FAQ_ONLY.replace(f'file = "{FAQ_FILE}"', 'file = "../../etc/passwd"'), "hinaus"),
        (FAQ_ONLY.replace(f'file = "{FAQ_FILE}"', 'file = "a\\u0000b"'), "„file“ muss ein Datei"),
        ('documents = ["faq.txt"]\n', "Dokument #1: „documents“|muss eine Tabelle"),
        (FAQ_ONLY.replace('kind = "faq"', 'kind = "faq"\ncolour = "rot"'), "unbekanntes Feld"),
        (b"\xff\xfe[[documents]]", "nicht in UTF-8"),
        # a CLI probe: a month 13 passed the pattern; TOML errors were tomllib's English
        (FAQ_ONLY.replace('kind = "faq"', 'kind = "faq"\ndate = "2012-13-45"'), "kein gültiges"),
        ("x = [\n", r"kein gültiges TOML \(ungültiger Wert, am Ende der Datei\)"),
        ('[[documents]]\nid = "a"\nid = "b"\n', r"\(Schlüssel doppelt, Zeile 3, Spalte 9\)"),
        ("[[documents]\n", r"\(„\]\]“ am Ende der Überschrift erwartet, Zeile 1, Spalte 12\)"),
        ('x = "a\n', r"\(unerlaubtes Zeichen, Zeile 1, Spalte 7\)"),
        ("x = 1\ny\n", r"\(„=“ nach dem Schlüssel erwartet, Zeile 2, Spalte 2\)"),
    ],
)
def test_corpus_malformed_manifest_is_a_corpus_error(faq_only, manifest, problem):
    path = faq_only / "manifest.toml"
    if isinstance(manifest, bytes):
        path.write_bytes(manifest)
    else:
        path.write_text(manifest, encoding="utf-8")
    with pytest.raises(CorpusError, match=problem) as info:
        load_corpus(faq_only)
    assert "manifest.toml" in str(info.value)


@pytest.mark.parametrize("date", ["30.11.2012", "2012-13-45", "20121130"])
def test_a_bad_date_is_one_problem_saying_the_form(faq_only, date):
    # a review: „30.11.2012“ failed the pattern and the date format, two messages for one
    path = faq_only / "manifest.toml"
    path.write_text(FAQ_ONLY.replace('kind = "faq"', f'kind = "faq"\ndate = "{date}"'), "utf-8")
    with pytest.raises(CorpusError) as caught:
        load_corpus(faq_only)
    assert str(caught.value).count("„date“") == 1
    assert "kein gültiges Datum im Format JJJJ-MM-TT" in str(caught.value)


def test_a_manifest_saved_with_a_byte_order_mark_is_read(faq_only):
    # a CLI probe: a manifest an editor saved as „UTF-8 mit BOM“ was „kein gültiges TOML“
    path = faq_only / "manifest.toml"
    path.write_bytes("\ufeff".encode() + path.read_bytes())
    assert [d.id for d in load_corpus(faq_only).documents] == ["how-faq"]


def test_corpus_unknown_splitter_is_a_corpus_error(faq_only):
    path = faq_only / "manifest.toml"
    path.write_text(FAQ_ONLY.replace('splitter = "faq"', 'splitter = "gedicht"'), "utf-8")
    with pytest.raises(CorpusError, match="gedicht") as info:
        load_corpus(faq_only)
    assert FAQ_FILE in str(info.value)
    # in German only (a CLI probe read „… (unknown splitter 'gedicht' (known: …))“)
    assert "Bekannt sind: faq, " in str(info.value) and "unknown splitter" not in str(info.value)


def test_corpus_file_without_entries_is_a_corpus_error(faq_only):
    (faq_only / FAQ_FILE).write_text("Nur ein Satz ohne Eintrag.\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="keine Einträge"):
        load_corpus(faq_only)


def test_corpus_duplicate_entry_ids_across_documents_are_a_corpus_error(faq_only):
    shutil.copy(faq_only / FAQ_FILE, faq_only / "kopie.txt")
    second = FAQ_ONLY.replace('id = "how-faq"', 'id = "kopie"').replace(FAQ_FILE, "kopie.txt")
    (faq_only / "manifest.toml").write_text(FAQ_ONLY + second, encoding="utf-8")
    with pytest.raises(CorpusError, match="gibt es schon"):
        load_corpus(faq_only)


def test_corpus_manifest_naming_a_folder_as_file_is_a_corpus_error(faq_only):
    (faq_only / "ordner").mkdir()
    manifest = FAQ_ONLY.replace(f'file = "{FAQ_FILE}"', 'file = "ordner"')
    (faq_only / "manifest.toml").write_text(manifest, encoding="utf-8")
    with pytest.raises(CorpusError, match="ein Ordner, keine Datei"):
        load_corpus(faq_only)


def test_corpus_manifest_naming_a_pipe_as_file_is_not_called_a_folder(faq_only):
    # a FIFO is neither a folder nor a file one can read to the end (it would block)
    os.mkfifo(faq_only / "rohr")
    manifest = FAQ_ONLY.replace(f'file = "{FAQ_FILE}"', 'file = "rohr"')
    (faq_only / "manifest.toml").write_text(manifest, encoding="utf-8")
    with pytest.raises(CorpusError, match="keine gewöhnliche Datei") as caught:
        load_corpus(faq_only)
    assert "Ordner" not in str(caught.value)


@pytest.mark.parametrize("loop", ["self", "pair"])
def test_corpus_manifest_naming_a_symlink_loop_is_a_corpus_error(faq_only, loop):
    # a CLI probe: a document file linked to itself was a RuntimeError traceback from
    # Path.resolve() ("Symlink loop"), exit 1
    (faq_only / "kreis").symlink_to("kreis" if loop == "self" else "kreis2")
    if loop == "pair":
        (faq_only / "kreis2").symlink_to("kreis")
    manifest = FAQ_ONLY.replace(f'file = "{FAQ_FILE}"', 'file = "kreis"')
    (faq_only / "manifest.toml").write_text(manifest, encoding="utf-8")
    with pytest.raises(CorpusError, match="zu viele symbolische Links") as caught:
        load_corpus(faq_only)
    assert "kreis" in str(caught.value)


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda d: (d / "manifest.toml").symlink_to("/dev/zero"), "größer als"),
        (lambda d: (d / "manifest.toml").write_text("x = " + "[" * 5000 + "]" * 5000), "TOML"),
        (lambda d: (d / "manifest.toml").write_text("x = " + "9" * 5000), "TOML"),
    ],
    ids=["endless", "deep", "huge-number"],
)
def test_a_manifest_that_cannot_be_read_whole_is_a_corpus_error(tmp_path, make, reason):
    # a CLI probe: a manifest linked to /dev/zero read until the memory ran out; a deeply
    # nested array and a 5000-digit number were tracebacks
    make(tmp_path)
    with pytest.raises(CorpusError, match=reason):
        load_corpus(tmp_path)


@pytest.mark.parametrize("where", ["/dev/null", "loop"])
def test_a_corpus_folder_that_is_none_is_a_corpus_error_saying_why(tmp_path, where):
    # a CLI probe: `--corpus /dev/null` or a symlink loop was called a damaged index (exit 4)
    corpus = Path(where) if where.startswith("/") else tmp_path / where
    if where == "loop":
        corpus.symlink_to(corpus)
    with pytest.raises(CorpusError, match="kann nicht gelesen werden"):
        load_corpus(corpus)


# ---------------------------------------------------------------- corrections (misprints)


def test_a_correction_mends_the_text_and_keeps_the_entry_ids(faq_only):
    """A misprint of the source (the Spielrundenübersicht's „FERKAMPFPHASE“) is mended where
    readers and the search see it, title, section and paragraphs; ids stay the stable
    addresses they were."""
    before = {e.id: e for e in load_corpus(faq_only).entries()}
    manifest = faq_only / "manifest.toml"
    manifest.write_text(
        FAQ_ONLY
        + '\n[[documents.corrections]]\nwrong = "Aktionsstapel"\nright = "Aktionsstabel"\n',
        encoding="utf-8",
    )
    after = {e.id: e for e in load_corpus(faq_only).entries()}
    assert after.keys() == before.keys()
    stack = after["aktionsstapel"]
    assert stack.title == "Aktionsstabel" and stack.alias_ids == before["aktionsstapel"].alias_ids
    assert any("Aktionsstabel" in p for e in after.values() for p in e.paragraphs)
    assert not any("Aktionsstapel" in p for e in after.values() for p in e.paragraphs)


def test_a_correction_that_finds_nothing_is_a_corpus_error(faq_only):
    (faq_only / "manifest.toml").write_text(
        FAQ_ONLY + '\n[[documents.corrections]]\nwrong = "Fernkampfphase"\nright = "X"\n',
        encoding="utf-8",
    )
    with pytest.raises(CorpusError, match="„Fernkampfphase“ kommt im Text nicht vor"):
        load_corpus(faq_only)


def test_corrections_written_as_text_name_the_tables_they_must_be(faq_only):
    (faq_only / "manifest.toml").write_text(
        FAQ_ONLY + "corrections = \"{wrong = 'A', right = 'B'}\"\n", encoding="utf-8"
    )
    with pytest.raises(
        CorpusError,
        match=r"„corrections“ muss eine Liste von \[\[documents"
        r"\.corrections\]\]-Tabellen sein",
    ):
        load_corpus(faq_only)


def test_the_real_corpus_reads_fernkampfphase_where_the_source_misprints_it():
    corpus = load_corpus(CORPUS_DIR)
    shooting = [
        e for e in corpus.entries() if e.doc == "uebersicht" and e.title == "Wer kann schießen?"
    ]
    assert [e.section for e in shooting] == ["FERNKAMPFPHASE"]
    assert shooting[0].id == "uebersicht-ferkampfphase-wer-kann-schiessen"  # its address kept
