"""The index, search, show and eval commands through click's CliRunner."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from faq_bot.cli import main
from faq_bot.corpus import load_corpus


@pytest.fixture
def run(built_index):
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(main, [*args], input=input, catch_exceptions=False)

    return invoke


def with_index(built_index, *args: str) -> list[str]:
    return [args[0], "--index", str(built_index), *args[1:]]


# a FAQ of two entries, one reference resolved ("vgl. Alpha"), one not ("s. Gamma")
SMALL_FAQ = (
    "FAQ\n\nSTAND: 1. Januar 2020\n\n"
    "Alpha\nErster Satz. s. Gamma\n\n\xa0\n\nBeta\nText, vgl. Alpha.\n"
)
SMALL_FAQ_MANIFEST = """
[[documents]]
id = "faq"
file = "faq.txt"
title = "Test-FAQ"
game = "Testspiel"
kind = "faq"
language = "de"
date = "2020-01-01"
date_text = "1. Januar 2020"
splitter = "faq"
precedence = true
notes = ""
"""


def test_index_command_prints_counts_and_unresolved_warnings(tiny_corpus, tmp_path):
    """Two documents (the round rules and a small FAQ): counts and the unresolved reference."""
    (tiny_corpus / "faq.txt").write_text(SMALL_FAQ, encoding="utf-8")
    with (tiny_corpus / "manifest.toml").open("a", encoding="utf-8") as manifest:
        manifest.write(SMALL_FAQ_MANIFEST)
    result = CliRunner().invoke(
        main, ["index", "--corpus", str(tiny_corpus), "--index", str(tmp_path / "ix")]
    )
    assert result.exit_code == 0, result.output
    entries = list(load_corpus(tiny_corpus).entries())
    paragraphs = sum(1 for e in entries for p in e.plain_paragraphs if p)
    counts = f"2 Dokumente, {len(entries)} Einträge, {paragraphs} Absätze, 1 Querverweise"
    assert counts in result.stdout and len(entries) == 10
    assert "1 nicht aufgelöst" in result.stdout
    assert "Warnung: Unaufgelöster Querverweis in „alpha“: „s. Gamma“" in result.stderr
    assert (tmp_path / "ix" / "current").is_symlink()


@pytest.mark.parametrize("stderr", ["closed", "full"])
def test_index_builds_when_its_progress_cannot_be_written(tiny_corpus, tmp_path, stderr):
    """A CLI probe: with stderr closed (2>&-) the build ended on sys.stderr.isatty() of
    None, and with a full one (2>/dev/full) after its first phase line: what reports on
    the work stopped the work."""
    import subprocess
    import sys

    index_dir = tmp_path / "ix"
    args = [sys.executable, "-m", "faq_bot", "index", "--corpus", str(tiny_corpus)]
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*args, "--index", str(index_dir)],
            stdout=subprocess.PIPE,
            stderr=full if stderr == "full" else None,
            preexec_fn=(lambda: os.close(2)) if stderr == "closed" else None,
            timeout=300,
        )
    assert done.returncode == 0, done.stdout
    assert b"gebaut" in done.stdout and (index_dir / "current").is_symlink()


def test_index_command_reports_a_corpus_error_in_german(corpus_copy, tmp_path):
    (corpus_copy / "manifest.toml").write_text("kaputt = [", encoding="utf-8")
    result = CliRunner().invoke(
        main, ["index", "--corpus", str(corpus_copy), "--index", str(tmp_path / "ix")]
    )
    assert result.exit_code == 3
    assert "Fehler: Der Index kann nicht gebaut werden" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("corpus", ["/gibt/es/nicht"])
def test_a_search_that_cannot_build_its_index_says_so_as_json_too(tmp_path, corpus):
    # a CLI probe: --json printed nothing on stdout when the automatic build failed on
    # the corpus (exit 3); /dev/null as the corpus was called a damaged index (exit 4),
    # and is now refused as no folder, as a file is (test_cli_usage_errors)
    args = ["search", "--json", "--index", str(tmp_path / "ix"), "--corpus", corpus, "Bombe"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 3, result.output
    assert json.loads(result.stdout)["error"] == "corpus_error"
    assert "beschädigt" not in result.stderr


def test_search_text_lists_ranked_titles(run, built_index):
    result = run(*with_index(built_index, "search", "wer", "bezahlt", "die", "227er"))
    assert result.exit_code == 0
    first = result.stdout.splitlines()[0]
    assert first.startswith(" 1. 227-Pfund Bombe (Basisausbau)")
    assert "<mark>" not in result.stdout


def test_search_text_says_where_a_word_stands_only_in_longer_words(run, built_index):
    result = run(*with_index(built_index, "search", "Fernkampf"))
    assert "„Fernkampf“ steht in den Dokumenten nur in längeren Wörtern: „Fernkampfphase“." in (
        result.stdout + result.stderr
    )


def test_search_text_says_how_it_read_a_slip(run, built_index):
    # it said „Meinten Sie: Radarstation?“ over hits it had already found as that
    result = run(*with_index(built_index, "search", "Radarstatoin"))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "„Radarstatoin“ wurde gelesen als „Radarstation“."


def test_search_as_typed_reads_no_slip_otherwise(run, built_index):
    """As the search page's „Stattdessen wie getippt suchen“ (genau=1) and the API's."""
    result = run(*with_index(built_index, "search", "--as-typed", "Radarstatoin"))
    assert result.exit_code == 1
    assert "gelesen als" not in result.stdout + result.stderr
    assert "Keine Treffer für „Radarstatoin“." in result.stderr
    batch = run(
        *with_index(built_index, "search", "--as-typed", "--json", "--batch"),
        input="Radarstatoin\n",
    )
    assert json.loads(batch.stdout) == []  # the batch reads it so too


def test_search_text_says_back_only_the_words_of_a_question_it_read_otherwise(run, built_index):
    # a question with one slip was printed back whole, cut at 80 characters: the slip
    # could fall behind the cut
    question = "Was passiert mit einer Einheit auf dem Aktionstapel, wenn der Gegner sie zerstört?"
    result = run(*with_index(built_index, "search", *question.split()))
    assert result.stdout.splitlines()[0] == "„Aktionstapel“ wurde gelesen als „Aktionsstapel“."


def test_search_says_only_the_slip_of_a_question_pasted_with_a_soft_hyphen(run, built_index):
    # a code review: a soft hyphen (a PDF's) split „Ein­heit“ in the query as typed, the
    # words no longer lined up with the reading, and the whole question came back cut
    question = (
        "Was passiert mit einer Ein\u00adheit auf dem Aktionstapel, wenn der Gegner sie zerstört?"
    )
    result = run(*with_index(built_index, "search", *question.split()))
    assert result.stdout.splitlines()[0] == "„Aktionstapel“ wurde gelesen als „Aktionsstapel“."


def test_search_says_only_the_slip_of_a_long_query(run, built_index):
    # a probe: „Gelesen als:“ printed 442 characters of a query, its spaces kept
    result = run(*with_index(built_index, "search", "Feurwehr    " + "Aktionsstapel " * 30))
    assert result.stdout.splitlines()[0] == "„Feurwehr“ wurde gelesen als „Feuerwehr“."


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--doc", "sow", "Bombercokpit"], "„Bombercockpit“"),  # a review: „Bombercokpit“
        (["xqzvbnwq  kjhgfd"], "„xqzvbnwq kjhgfd“"),  # not „… (mit Leer- … gesendet)“
    ],
)
def test_search_that_finds_nothing_names_the_query_as_it_read_it(run, built_index, words, said):
    result = run(*with_index(built_index, "search", "--mode", "lexical", *words))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == f"Fehler: Keine Treffer für {said}."


def test_search_json_prints_an_array_of_hits(run, built_index):
    result = run(*with_index(built_index, "search", "--json", "-n", "3", "Stapel"))
    hits = json.loads(result.stdout)
    assert len(hits) == 3
    assert hits[0]["id"] == "aktionsstapel"
    assert set(hits[0]) >= {"id", "doc", "title", "url", "score", "snippet", "text"}


def test_search_json_nothing_found_prints_an_empty_array_and_exits_1(run, built_index):
    """Exit codes are the same with --json: 1 says nothing found, as in text and as
    `check --json` says an illegal stack."""
    result = run(*with_index(built_index, "search", "--json", "xyzqqq"))
    assert result.exit_code == 1
    assert json.loads(result.stdout) == []


def test_search_json_bad_query_prints_the_error_shape_and_exits_2(run, built_index):
    """A script reading --json gets JSON on an error too: the shape of a --batch line
    and of the API's errors, beside the German message on stderr."""
    result = run(*with_index(built_index, "search", "--json", "x" * 600))
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["error"] == "bad_query" and "zu lang" in data["detail"]
    assert result.stderr.startswith("Fehler: ")


def test_search_prints_on_a_terminal_that_cannot_show_every_character(built_index):
    """PYTHONIOENCODING=latin-1 (an old terminal): „ and “ cannot be written; the hits
    come out with a stand-in character, not as a UnicodeEncodeError traceback."""
    import subprocess
    import sys

    env = {**os.environ, "PYTHONIOENCODING": "latin-1"}
    args = ["search", "--index", str(built_index), "-n", "3", "Stapel"]
    done = subprocess.run(
        [sys.executable, "-m", "faq_bot", *args], env=env, capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr.decode("latin-1")
    assert b"Traceback" not in done.stderr
    assert done.stdout.decode("latin-1").startswith(" 1. ")


def test_search_hybrid_on_a_lexical_index_names_the_mode_as_the_cli_takes_it(run, built_index):
    """The message served the web's parameter („bitte mode=lexical verwenden“) to the CLI
    too; it names the mode, which both take."""
    result = run(*with_index(built_index, "search", "--mode", "hybrid", "Stapel"))
    assert result.exit_code == 2
    assert "bitte den Suchmodus „lexical“ wählen" in result.stderr
    assert "mode=" not in result.stderr


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_search_batch_reads_a_file_with_a_byte_order_mark_line_by_line(
    built_index, tmp_path, encoding
):
    """A CLI probe: a UTF-16 file (PowerShell's `>`) gave one error line per line and one
    more; a byte order mark says how the file is written, as `check` and `eval` read it.
    (utf-16-le/-be: the mark written by hand, as Windows tools do.)"""
    import subprocess
    import sys

    text = "Stapel\n227er\n"
    data = text.encode(encoding)
    if encoding == "utf-16-le":
        data = b"\xff\xfe" + data
    elif encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    args = ["search", "--index", str(built_index), "--json", "--batch", "-n", "1"]
    done = subprocess.run(
        [sys.executable, "-m", "faq_bot", *args], input=data, capture_output=True, timeout=120
    )
    out = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert [hits[0]["id"] for hits in out] == ["aktionsstapel", "227-pfund-bombe-basisausbau"]


def test_search_batch_refuses_an_overlong_line_without_holding_it(run, built_index):
    """A CLI probe: a 50 MB line was read whole (200 MB of memory; stdin without a newline
    grows without end). A line is read up to its limit; the rest is skipped, the next
    line answered."""
    from faq_bot.cli import MAX_BATCH_LINE

    lines = "x" * (MAX_BATCH_LINE * 3) + "\nStapel\n"
    result = run(*with_index(built_index, "search", "--json", "--batch", "-n", "1"), input=lines)
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 2
    assert out[0] == {
        "error": "bad_query",
        "detail": f"Die Zeile ist zu lang (mehr als {MAX_BATCH_LINE} Zeichen).",
    }
    assert out[1][0]["id"] == "aktionsstapel"


def test_search_batch_reads_many_lines_ended_by_a_carriage_return_alone(run, built_index):
    """A review: lines were split at CR only after reading up to an LF, so a CR-only
    file over the line limit was refused whole."""
    from faq_bot.cli import MAX_BATCH_LINE

    count = MAX_BATCH_LINE + 10  # empty lines: each an error line, no search
    result = run(
        *with_index(built_index, "search", "--json", "--batch", "-n", "1"),
        input="\r" * count + "Flak\r",
    )
    out = result.stdout.splitlines()
    assert len(out) == count + 1 and json.loads(out[-1])[0]["title"]


def test_search_batch_reads_lines_ended_by_a_carriage_return_alone(run, built_index):
    """A CLI probe: „Feuerwehr\\rBombe\\r“ (an old Mac's line ends) was one line: one
    answer for two queries, and every later answer on the wrong line."""
    result = run(
        *with_index(built_index, "search", "--json", "--batch", "-n", "1"),
        input="Stapel\r227er\r",
    )
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [hits[0]["id"] for hits in out] == ["aktionsstapel", "227-pfund-bombe-basisausbau"]


def test_search_json_error_raised_past_the_command_prints_the_error_shape(run, built_index):
    """A review: an error that leaves the command (an unknown --doc, a damaged index) was
    caught in the group's context, which has no --json: stdout stayed empty."""
    result = run(*with_index(built_index, "search", "--json", "--doc", "nosuch", "Zug"))
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"] == "bad_request"


def test_search_batch_answers_every_line_in_order(run, built_index):
    lines = ["Stapel", "", "x" * 600, "227er", "AND OR NOT"]
    result = run(
        *with_index(built_index, "search", "--json", "--batch", "-n", "2"),
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == len(lines)
    assert out[0][0]["id"] == "aktionsstapel"
    assert out[1]["error"] == "bad_query" and out[2]["error"] == "bad_query"
    assert out[3][0]["id"] == "227-pfund-bombe-basisausbau"
    assert isinstance(out[4], list)


@pytest.mark.parametrize(
    "args",
    [
        ["search"],
        ["search", "--batch"],
        ["search", "--json", "--batch", "Stapel"],
        ["search", "--doc", "gibtsnicht", "Stapel"],
        ["search", "   "],
    ],
)
def test_search_usage_errors_exit_2_in_german(run, built_index, args):
    result = run(*with_index(built_index, *args))
    assert result.exit_code == 2
    assert result.stderr.startswith("Fehler: ")


def test_search_without_an_index_says_where_it_builds_one_and_shows_its_phases(
    tiny_corpus, tmp_path
):
    """A mistyped --index builds a new index there: the message names the folder (no
    "please run faq-bot index" next to "it is built now"), and stderr that is no terminal
    (a log) gets one line per phase instead of minutes of silence."""
    target = tmp_path / "tippfehler"
    result = CliRunner().invoke(
        main, ["search", "--corpus", str(tiny_corpus), "--index", str(target), "Befehl"]
    )
    assert result.exit_code == 0, result.output
    assert f"Kein Index in {target} gefunden: Er wird jetzt aus {tiny_corpus} gebaut" in (
        result.stderr
    )
    assert "Bitte zuerst" not in result.stderr
    assert "Einträge indexieren:" in result.stderr  # a phase line
    assert "runde-befehl" in result.stdout or "Befehl" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["show", "abc\nFehler: gefälscht"],
        ["show", "x" * 100_000],
        ["search", "--doc", "abc\nFehler: gefälscht", "Bombe"],
    ],
    ids=["show-line-feed", "show-100k", "doc-line-feed"],
)
def test_an_argument_echoed_in_a_message_stays_on_one_short_line(run, built_index, args):
    """A CLI probe: a line feed in an argument was echoed raw (a second „Fehler:“ line
    anyone could forge), and `show` echoed a 100,000-character id whole."""
    result = run(*with_index(built_index, *args))
    assert result.exit_code in (1, 2), result.output
    message = result.stderr.strip()
    assert "\n" not in message and message.startswith("Fehler: "), message
    assert len(message) < 700


def test_show_lists_links_and_backlinks(run, built_index):
    result = run(*with_index(built_index, "show", "227-pfund-bombe-basisausbau"))
    assert result.exit_code == 0
    assert result.stdout.startswith("227-Pfund Bombe (Basisausbau)")
    assert "→ Aktionsstapel (aktionsstapel)" in result.stdout
    assert "Verweise hierher" in result.stdout


@pytest.mark.parametrize(
    "link",
    [
        "/entry/aktionsstapel",
        "http://localhost:5000/entry/aktionsstapel",
        "https://regeln.example/faq/entry/aktionsstapel/absatz/2?v=0123abcd",
        "/entry/aktionsstapel#p1",
        "entry/Aktionsstapel/",
    ],
)
def test_show_reads_the_address_of_an_entrys_page_as_pasted(run, built_index, link):
    """A CLI probe: `faq-bot show /entry/aktionsstapel`, the path `search` prints, was
    „gibt es nicht“, and a pasted permalink gave unrelated suggestions."""
    result = run(*with_index(built_index, "show", link))
    assert result.exit_code == 0, result.output
    assert (
        result.stdout.startswith("Aktionsstapel\n")
        or "leitet weiter auf aktionsstapel" in (result.stdout.splitlines()[0])
    )


def test_show_names_the_paragraph_a_table_reference_links_to(run, built_index, index):
    result = run(*with_index(built_index, "show", "sow-schiffsbewegung"))
    ships = index.entry("sow-allgemeine-regeln-fuer-schiffe")
    assert f"→ {ships.title}, Absatz 2 ({ships.id})" in result.stdout


def test_show_aktionsstapel_lists_the_227er_among_backlinks(run, built_index):
    result = run(*with_index(built_index, "show", "aktionsstapel"))
    assert "← 227-Pfund Bombe (Basisausbau) (227-pfund-bombe-basisausbau)" in result.stdout


def test_show_marks_unresolved_references(run, built_index, index):
    source = next(r for r in index.entries() if any(not li["target"] for li in r.links))
    result = run(*with_index(built_index, "show", source.id))
    assert "(nicht aufgelöst)" in result.stdout


def test_show_json_and_alias_ids(run, built_index, index):
    record = next(r for r in index.entries() if r.alias_ids)
    result = run(*with_index(built_index, "show", "--json", record.alias_ids[0]))
    data = json.loads(result.stdout)
    assert data["id"] == record.id
    assert data["document"]["id"] == record.doc


def test_show_unknown_id_exits_1(run, built_index):
    result = run(*with_index(built_index, "show", "gibt-es-nicht-xyz"))
    assert result.exit_code == 1
    assert "gibt es nicht" in result.stderr


@pytest.mark.parametrize("empty", ["", "   "])
def test_show_without_an_id_is_a_usage_error(run, built_index, empty):
    """Exit 1 says "not found"; nothing asked for is a usage error (2)."""
    result = run(*with_index(built_index, "show", empty))
    assert result.exit_code == 2
    assert "Bitte eine Eintrags-ID" in result.stderr


def test_eval_prints_recall_and_breakdowns(run, built_index, tmp_path):
    questions = tmp_path / "q.jsonl"
    rows = [
        {"id": "a", "q": "227er", "doc": "x.txt", "gold": ["Reaktion ist besser"], "kind": "k1"},
        {"id": "b", "q": "Stapel", "doc": "y.txt", "gold": ["Last In, First Out"], "kind": "k2"},
        {"id": "c", "q": "Bemalen", "doc": None, "gold": [], "kind": "unanswerable"},
    ]
    questions.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    result = run(*with_index(built_index, "eval", str(questions)))
    assert result.exit_code == 0
    assert "2 beantwortbar, 1 unbeantwortbar" in result.stdout
    assert "R@1=1.000" in result.stdout
    for label in ("nach Art:", "k1", "k2", "nach Dokument:", "x.txt"):
        assert label in result.stdout
    as_json = json.loads(run(*with_index(built_index, "eval", "--json", str(questions))).stdout)
    assert as_json["search"]["recall@1"] == 1.0


def test_eval_reads_its_question_file_once_so_a_pipe_works(built_index, tmp_path):
    """A CLI probe: `faq-bot eval <(head -5 FILE)` said the file held no questions (it
    was read twice, a pipe is empty the second time), and a FIFO hung."""
    import subprocess
    import sys

    line = {"id": "a", "q": "Wer bezahlt die 227er?", "doc": None, "gold": [], "kind": "x"}
    fifo = tmp_path / "fragen"
    os.mkfifo(fifo)
    args = ["eval", "--json", "--index", str(built_index), str(fifo)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "faq_bot", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    with open(fifo, "w", encoding="utf-8") as writer:
        writer.write(json.dumps(line) + "\n")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    assert json.loads(out)["questions"]["total"] == 1


@pytest.mark.parametrize("option", ["--index", "--corpus"])
def test_an_empty_folder_option_is_refused_not_read_as_the_working_folder(run, option):
    """A CLI probe: `--index ""` used the working folder and built an index into it."""
    result = run("search", option, "", "Stapel")
    assert result.exit_code == 2
    assert f"Ungültiger Wert für „{option}“: Der Pfad ist leer." in result.stderr


def test_an_empty_folder_setting_is_read_as_unset(monkeypatch):
    from faq_bot.config import ROOT, default_corpus_dir, default_index_dir

    monkeypatch.setenv("FAQ_BOT_INDEX", "")
    monkeypatch.setenv("FAQ_BOT_CORPUS", "")
    assert (default_index_dir(), default_corpus_dir()) == (ROOT / "index", ROOT / "corpus")


def test_eval_says_what_it_measures_while_it_runs(run, built_index, tmp_path):
    """A CLI probe: 1,360 questions ran for 2.5 minutes without a word; on a terminal a
    bar per section, elsewhere a line each."""
    path = tmp_path / "q.jsonl"
    line = {"id": "a", "q": "Wer bezahlt die 227er?", "doc": None, "gold": [], "kind": "x"}
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    result = run(*with_index(built_index, "eval", str(path)))
    assert result.exit_code == 0, result.output
    assert "Suche messen: 1 Frage …" in result.stderr
    assert "Chatbot messen: 1 Frage …" in result.stderr


def test_eval_bad_file_exits_2(run, built_index, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{kein json\n", encoding="utf-8")
    result = run(*with_index(built_index, "eval", str(bad)))
    assert result.exit_code == 2
    assert "Zeile 1" in result.stderr
    # in German, where it went wrong (a QA review: "(Expecting value)")
    assert "(Spalte 2: Name in doppelten Anführungszeichen erwartet)" in result.stderr
    assert "Expecting" not in result.stderr


def test_a_reader_closing_the_pipe_stops_search_quietly(built_index):
    """`faq-bot search … | head -1`: the reader leaves early; that is no broken index."""
    import os
    import subprocess
    import sys

    from faq_bot.cligerman import PIPE_CLOSED

    read_end, write_end = os.pipe()
    os.close(read_end)  # every write of the command fails with EPIPE
    try:
        run = subprocess.run(
            [sys.executable, "-c", "from faq_bot.cli import main; main()"]
            + with_index(built_index, "search", "-n", "20", "Phase"),
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=dict(os.environ, OPENBLAS_NUM_THREADS="1"),
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert run.returncode == PIPE_CLOSED
    assert run.stderr == b""


def test_a_batch_line_that_is_not_utf8_gets_its_error_line_and_the_batch_goes_on(built_index):
    """A Latin-1 line (an old export, a Windows editor) among UTF-8 ones: the contract of
    --batch, one JSON line per line, holds."""
    result = CliRunner().invoke(
        main,
        with_index(built_index, "search", "--json", "--batch", "-n", "1"),
        input="Depot\nZerst\xf6rer\nEndphase\r\n".encode("latin-1"),
    )
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.exit_code == 0
    assert [line[0]["id"] if isinstance(line, list) else line["error"] for line in lines] == [
        "depot",
        "bad_query",
        "endphase",
    ]
    assert "UTF-8" in lines[1]["detail"]


@pytest.mark.parametrize("command", ["search", "ask", "show"])
def test_an_argument_that_is_not_utf8_is_a_usage_error_not_a_traceback(built_index, command):
    latin1 = b"Zerst\xf6rer".decode("utf-8", "surrogateescape")  # as Python reads argv
    result = CliRunner().invoke(main, with_index(built_index, command, latin1))
    assert result.exit_code == 2
    assert "kein gültiges UTF-8" in result.output
    assert "Traceback" not in result.output


def test_output_that_cannot_be_written_is_said_so_not_called_a_broken_index(built_index):
    """A CLI probe: `faq-bot search … > /dev/full` (a full disk) said "Der Index kann nicht
    gelesen werden … beschädigt" (exit 4); `check` said so too, though it reads no index."""
    import os
    import subprocess
    import sys

    from faq_bot.cligerman import OUTPUT_FAILED

    with open("/dev/full", "wb") as full:
        run = subprocess.run(
            [sys.executable, "-c", "from faq_bot.cli import main; main()"]
            + with_index(built_index, "search", "-n", "1", "Bombe"),
            stdout=full,
            stderr=subprocess.PIPE,
            env=dict(os.environ, OPENBLAS_NUM_THREADS="1"),
            timeout=120,
        )
    stderr = run.stderr.decode("utf-8")
    assert run.returncode == OUTPUT_FAILED, stderr
    assert "Die Ausgabe lässt sich nicht schreiben" in stderr and "Index" not in stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize(
    "args", [["search", "-n", "1", "Bombe"], ["show", "--json", "aktionsstapel"]]
)
def test_a_closed_stdout_is_output_that_cannot_be_written_not_a_success(built_index, args):
    """A CLI probe: `faq-bot search Feuerwehr >&-` exited 0 with its result lost (click
    drops output when there is no stdout)."""
    import os
    import subprocess
    import sys

    from faq_bot.cligerman import OUTPUT_FAILED

    # started with stdout closed, as a shell's `>&-` does: Python's sys.stdout is None
    code = "from faq_bot.cli import main; main()"
    run = subprocess.run(
        ["bash", "-c", 'exec "$0" "$@" >&-', sys.executable, "-c", code]
        + with_index(built_index, *args),
        stderr=subprocess.PIPE,
        env=dict(os.environ, OPENBLAS_NUM_THREADS="1"),
        timeout=120,
    )
    stderr = run.stderr.decode("utf-8")
    assert run.returncode == OUTPUT_FAILED, stderr
    assert "die Standardausgabe ist geschlossen" in stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["search", "--help"]])
def test_help_that_cannot_be_written_is_said_so(args):
    """A CLI probe: `faq-bot --help > /dev/full` ended in an OSError traceback (exit 1):
    click writes the help while it parses, before any command runs."""
    import subprocess
    import sys

    from faq_bot.cligerman import OUTPUT_FAILED

    with open("/dev/full", "wb") as full:
        run = subprocess.run(
            [sys.executable, "-m", "faq_bot", *args], stdout=full, stderr=subprocess.PIPE
        )
    stderr = run.stderr.decode("utf-8")
    assert run.returncode == OUTPUT_FAILED, stderr
    assert "Die Ausgabe lässt sich nicht schreiben" in stderr and "Traceback" not in stderr


def test_a_utf8_argument_in_an_ascii_locale_is_read_as_utf8(built_index):
    """A CLI probe: with LC_ALL=C (and UTF-8 mode off) Python decodes „Zerstörung“ as ASCII
    with escapes, and the CLI called the UTF-8 argument Latin-1; its bytes are UTF-8, so
    that is how it is read. Bytes that are not UTF-8 are still refused."""
    import subprocess
    import sys

    env = dict(os.environ, LC_ALL="C", LANG="C", PYTHONUTF8="0", PYTHONCOERCECLOCALE="0")
    base = [sys.executable, "-m", "faq_bot", "search", "--index", str(built_index), "-n", "1"]
    utf8 = subprocess.run([*base, "Zerstörung".encode()], env=env, capture_output=True)
    assert utf8.returncode == 0, utf8.stderr.decode("utf-8", "replace")
    latin = subprocess.run([*base, "Zerstörung".encode("latin-1")], env=env, capture_output=True)
    assert latin.returncode == 2 and b"UTF-8" in latin.stderr


def test_a_utf8_path_in_an_ascii_locale_still_opens(tmp_path):
    """A review: arguments read as UTF-8 under LC_ALL=C made paths ones the system (its
    file names in ASCII, escaped) could not encode: `check Zerstörung.json` ended in a
    UnicodeEncodeError. Paths go to the system as their bytes."""
    import shutil
    import subprocess
    import sys

    from faq_bot.config import ROOT

    scenario = tmp_path / "Zerstörung.json"
    shutil.copy(ROOT / "tests" / "data" / "scenarios" / "example1_bomb_on_radar.json", scenario)
    env = dict(os.environ, LC_ALL="C", LANG="C", PYTHONUTF8="0", PYTHONCOERCECLOCALE="0")
    done = subprocess.run(
        [sys.executable, "-m", "faq_bot", "check", os.fsencode(scenario)],
        env=env,
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    corpus = subprocess.run(
        [
            sys.executable,
            "-m",
            "faq_bot",
            "index",
            "--corpus",
            os.fsencode(tmp_path / "Zerstörung"),
        ],
        env=env,
        capture_output=True,
    )
    assert corpus.returncode in (2, 3) and b"Traceback" not in corpus.stderr, corpus.stderr


@pytest.mark.parametrize(
    ("args", "code"), [(["search", "-n", "0", "x"], 2), (["check", "/gibt/es/nicht"], 2)]
)
def test_an_error_keeps_its_exit_code_when_stderr_is_full(args, code):
    """A CLI probe: with stderr on a full disk every error exited 1 ("nothing found"):
    writing the message raised, and so did the handling of that."""
    import subprocess
    import sys

    with open("/dev/full", "wb") as full:
        run = subprocess.run([sys.executable, "-m", "faq_bot", *args], stderr=full, timeout=120)
    assert run.returncode == code


ESCAPE = "\x1b]0;GEKAPERT\x07"  # sets a terminal's title: a corpus or an argument's text


def test_corpus_text_reaches_the_terminal_without_its_control_characters(tmp_path):
    """A CLI probe: an escape sequence in a corpus line went raw to the terminal through
    `show` and `search` (the web pages drop them: `faq_bot.text.printable`)."""
    from tests.conftest import TINY_FILE, write_tiny_corpus

    corpus = write_tiny_corpus(tmp_path / "corpus")
    text = (corpus / TINY_FILE).read_text(encoding="utf-8")
    marked = text.replace("Bewegt werden darf nur", f"Bewegt {ESCAPE}werden darf nur", 1)
    (corpus / TINY_FILE).write_text(marked, encoding="utf-8")
    base = ["--index", str(tmp_path / "ix"), "--corpus", str(corpus)]
    shown = CliRunner().invoke(main, ["show", *base, "runde-bewegung"])
    assert shown.exit_code == 0, shown.output
    assert "Bewegt" in shown.stdout and "\x1b" not in shown.stdout and "\x07" not in shown.stdout
    found = CliRunner().invoke(main, ["search", *base, "geraden", "Linien"])
    assert found.exit_code == 0 and "\x1b]" not in found.stdout


def test_an_argument_said_back_in_an_error_is_without_its_control_characters(tmp_path):
    result = CliRunner().invoke(main, ["show", "--index", str(tmp_path / "ix"), ESCAPE + "x"])
    assert result.exit_code != 0
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr


def readme_ask_examples() -> list[list[str]]:
    """The `faq-bot ask` lines of the README's examples, as arguments."""
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    lines = [line.split("  #")[0] for line in readme.splitlines()]
    return [shlex.split(line)[1:] for line in lines if line.startswith(".venv/bin/faq-bot ask ")]


def test_the_readme_ask_examples_are_answered(built_index):
    """A CLI review: the README's follow-up example (also in `ask --help`) was declined, its
    earlier question too: an example shows the product doing what it says."""
    examples = readme_ask_examples()
    assert len(examples) >= 2 and any("--after" in args for args in examples)
    help_text = CliRunner().invoke(main, ["ask", "--help"]).output
    for args in examples:
        if "--after" in args:  # the help shows the same follow-up
            assert args[args.index("--after") + 1] in " ".join(help_text.split())
        done = CliRunner().invoke(main, with_index(built_index, *args))
        assert done.exit_code == 0, (args, done.output)
        assert "keine sichere Antwort" not in done.output
