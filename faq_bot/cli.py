"""The `faq-bot` command line: thin wrappers that only call the stages.

Each command parses its options, calls one function of a stage module and
prints the result. Errors the user can fix end with a German message on stderr
and a non-zero exit code, never a traceback (the group class, the parameter
types and `fail` that see to it: `faq_bot.cligerman`).
"""

from __future__ import annotations

import codecs
import io
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from faq_bot.clibuild import (
    build_with_progress,
    eval_progress,
    note,
    open_or_build,
)
from faq_bot.cligerman import (
    GermanHelpGroup,
    GermanIntRange,
    GermanPath,
    fail,
    os_path,
    require_stdout,
    say,
)
from faq_bot.config import default_corpus_dir, default_index_dir
from faq_bot.errors import os_reason
from faq_bot.text import entry_id_in, entry_path, printable, read_as, said_back

# Help texts are German like everything else a user reads; defaults are named in
# the text ("Standard: …") because click's own "[default: …]" is English.
corpus_option = click.option(
    "--corpus",
    "corpus_dir",
    type=GermanPath(file_okay=False, path_type=Path),
    default=default_corpus_dir,
    metavar="ORDNER",
    help="Ordner mit manifest.toml und den Quelldokumenten (Standard: ./corpus).",
)
index_option = click.option(
    "--index",
    "index_dir",
    type=GermanPath(file_okay=False, path_type=Path),
    default=default_index_dir,
    metavar="ORDNER",
    help="Ordner des gebauten Suchindex (Standard: ./index).",
)


def echo_json(data: object) -> None:
    require_stdout()
    click.echo(json.dumps(data, ensure_ascii=False))


@click.group(
    cls=GermanHelpGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(
    package_name="faq_bot",
    message="%(prog)s, Version %(version)s",
    help="Die Version zeigen und beenden.",
)
def main() -> None:
    """faq_bot: Regeln und FAQ nachschlagen."""


# Commands are added below, one function each (index, search, show, eval,
# check, ask, serve). Keep each a thin wrapper over its stage module.


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Das Ergebnis als JSON ausgeben.")
@corpus_option
@click.argument("file", metavar="DATEI|-")
def check(as_json: bool, corpus_dir: Path, file: str) -> None:
    """Ein Aktionsstapel-Szenario prüfen (stack-scenarios.md).

    DATEI ist die Szenario-Datei; mit - wird das Szenario von stdin gelesen.

    Exit-Code 0: zulässig, 1: unzulässig, 2: kein Szenario, 3: Korpus nicht lesbar.
    """
    from faq_bot.corpus import CorpusError
    from faq_bot.stack import ScenarioFormatError, read_scenario, resolve, result_to_json
    from faq_bot.stack.read import MAX_INPUT_BYTES
    from faq_bot.stack.report import render_text
    from faq_bot.stack.rules import MissingRuleError, load_rules
    from faq_bot.stack.validate import validate

    try:  # one byte past the limit at most: /dev/zero is not read until memory runs out
        if file == "-":
            data = _stdin().read(MAX_INPUT_BYTES + 1)
        else:
            with open(os_path(file), "rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        fail(f"{file}: Datei kann nicht gelesen werden ({os_reason(exc)}).", 2, "bad_request")
    try:
        scenario = read_scenario(data)
    except ScenarioFormatError as exc:
        fail(f"{'stdin' if file == '-' else file}: kein Szenario: {exc.detail}", 2, "bad_request")
    try:  # a legal stack's steps and an illegal one's errors cite rules
        rules = load_rules(corpus_dir)
    except (CorpusError, MissingRuleError) as exc:
        if not validate(scenario):
            fail(f"Korpus {corpus_dir}: {exc}", 3, "corpus_error")
        # an illegal stack is still said to be one, its errors without their rules
        say(f"Warnung: Korpus {corpus_dir}: {exc} Die Fehler folgen ohne Regeln.", err=True)
        rules = {}
    result = resolve(scenario, rules)
    if as_json:
        echo_json(result_to_json(result))
    else:
        say(render_text(scenario, result))
    sys.exit(0 if result.ok else 1)


@main.command(short_help="Den Webdienst starten.")
@click.option(
    "--host",
    default="127.0.0.1",
    metavar="ADRESSE",
    help="Adresse, auf der der Dienst lauscht (Standard: 127.0.0.1).",
)
@click.option(
    "--port",
    default=5000,
    type=GermanIntRange(1, 65535),
    metavar="PORT",
    help="Port, auf dem der Dienst lauscht, 1 bis 65535 (Standard: 5000).",
)
@click.option(
    "--workers",
    default=None,
    type=GermanIntRange(1, 64),
    metavar="ANZAHL",
    help="Anzahl der gunicorn-Prozesse, 1 bis 64 (Standard: 2 × Kerne + 1, höchstens 8).",
)
@click.option(
    "--debug",
    is_flag=True,
    help="Werkzeugs Entwicklungsserver statt gunicorn (nur zur Fehlersuche).",
)
@corpus_option
@index_option
def serve(
    host: str, port: int, workers: int | None, debug: bool, corpus_dir: Path, index_dir: Path
) -> None:
    """Den Webdienst starten (baut vorher den Index, falls keiner da ist).

    Er läuft wie im Betrieb unter gunicorn (mehrere Prozesse, siehe docs/web.md);
    --debug startet stattdessen Werkzeugs Entwicklungsserver.
    """
    from faq_bot import serving
    from faq_bot.config import turn_secret
    from faq_bot.web import serve as web_serve

    if debug and workers is not None:
        fail("--workers geht nicht zusammen mit --debug (ein Prozess).", 2)
    try:  # the settings every worker reads: wrong ones stop here, not in each worker
        serving.check_environment(workers=workers is None and not debug)
    except ValueError as exc:
        fail(f"Ungültige Einstellung: {exc}", 2)
    web_serve.check_address(host, port)  # a taken port stops here, before a build
    built = web_serve.ensure_index(  # a first build as `faq-bot index` builds: progress, Ctrl-C
        corpus_dir,
        index_dir,
        say=note,
        build=lambda: build_with_progress(corpus_dir, index_dir, phase_lines=True, first=True),
    )
    turn_secret(index_dir)  # one that cannot be read or made is said here (exit 4), in German
    if built and not debug:  # the workers would inherit the build's memory: start again
        note("Der Dienst startet neu, ohne den Speicher des Indexbaus …")
    else:
        shown = f"[{host.strip('[]')}]" if ":" in host else host  # an IPv6 literal
        # gunicorn serves under SCRIPT_NAME (docs/web.md, "Under a path"); the debug server not
        root = "" if debug else os.environ.get("SCRIPT_NAME", "").rstrip("/")
        note(f"Regelsuche läuft auf http://{shown}:{port}{root}/ (Beenden mit Strg+C)")
    if debug:
        web_serve.run_debug(host, port, corpus_dir, index_dir)
    else:
        web_serve.run(host, port, corpus_dir, index_dir, workers=workers, afresh=built)


# --- index, search, show, eval ------------------------------------------------------


def _check_batch_use(batch: bool, as_json: bool, given: bool, what: str, example: str) -> None:
    """Reject --batch without --json, --batch with arguments, and neither.

    `what` names the lines in the plural ("Anfragen"), `example` is the message
    when nothing was given.
    """
    if batch and not as_json:
        fail("--batch geht nur zusammen mit --json.", 2)
    if batch and given:
        fail(f"Mit --batch kommen die {what} von stdin, nicht als Argumente.", 2)
    if not batch and not given:
        fail(example, 2)


# characters of one --batch line read at most (a query or question is a few hundred):
# a longer line is refused and skipped, not held (stdin without a newline has no end)
MAX_BATCH_LINE = 64 * 1024


def _stdin() -> Any:
    """stdin's bytes; a German error when the shell closed it (`<&-`)."""
    if sys.stdin is None:
        fail("stdin ist geschlossen: Es gibt nichts zu lesen.", 2, "bad_request")
    return sys.stdin.buffer


def _stdin_lines() -> Iterator[str | None]:
    """stdin's lines, each without its end, read as text: UTF-8, where bytes that are
    not stand escaped (one line in Latin-1 does not end the batch, `_run_batch` refuses
    it), or UTF-16 when a byte order mark says so (PowerShell's `>`; split as bytes it
    gave a broken line per line and one more). A line ends at LF, CRLF or a CR alone
    (an old Mac's files; a review: split only after reading up to LF, a CR-only file over
    the limit was one line). None for a line longer than `MAX_BATCH_LINE` characters,
    whose rest is read a piece at a time, never held."""
    stream = _stdin()
    start = stream.peek(2)[:2] if isinstance(stream, io.BufferedReader) else b""
    if start in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        text = io.TextIOWrapper(stream, encoding="utf-16", errors="replace", newline=None)
    else:
        text = io.TextIOWrapper(stream, encoding="utf-8", errors="surrogateescape", newline=None)
    while line := text.readline(MAX_BATCH_LINE + 1):
        if len(line) > MAX_BATCH_LINE and not line.endswith("\n"):
            while (rest := text.readline(MAX_BATCH_LINE)) and not rest.endswith("\n"):
                pass  # the rest of the long line, a piece at a time
            yield None
            continue
        yield line.removesuffix("\n")


def _run_batch(handle: Callable[[str], object], bad: type[Exception], error: str) -> None:
    """One JSON line on stdout per line on stdin: `handle(line)`, or
    {"error": error, "detail": …} when it raises `bad`."""
    from faq_bot.text import has_surrogate

    for line in _stdin_lines():
        if line is None:
            detail = f"Die Zeile ist zu lang (mehr als {MAX_BATCH_LINE} Zeichen)."
            echo_json({"error": error, "detail": detail})
            continue
        if has_surrogate(line):  # bytes that are not UTF-8 (Latin-1)
            echo_json({"error": error, "detail": "Die Zeile ist kein gültiges UTF-8."})
            continue
        try:
            data = handle(line)
        except bad as exc:
            data = {"error": error, "detail": str(exc)}
        echo_json(data)


@main.command("index")
@corpus_option
@index_option
def index_command(corpus_dir: Path, index_dir: Path) -> None:
    """Den Suchindex aus dem Korpus bauen (und atomar austauschen)."""
    report = build_with_progress(corpus_dir, index_dir, phase_lines=True)
    for warning in report.warnings:
        note(f"Warnung: {warning}")
    say(
        f"Index {report.version} gebaut: {report.documents} Dokumente, "
        f"{report.entries} Einträge, {report.paragraphs} Absätze, "
        f"{report.links} Querverweise, {len(report.unresolved)} nicht aufgelöst "
        f"({report.seconds:.2f} s)."
    )


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Die Treffer als JSON-Array ausgeben.")
@click.option(
    "--batch",
    is_flag=True,
    help="Mit --json: eine Anfrage je Zeile auf stdin, ein JSON-Array je Zeile auf stdout. "
    'Eine Zeile, die keine gültige Anfrage ist, ergibt stattdessen {"error": …, "detail": …}.',
)
@click.option(
    "-n",
    "n",
    default=10,
    type=GermanIntRange(1, 100),
    metavar="ANZAHL",
    help="Höchstens so viele Treffer zeigen, 1 bis 100 (Standard: 10).",
)
@click.option(
    "--doc",
    default=None,
    metavar="DOKUMENT",
    help="Nur Einträge des Dokuments mit dieser Id (z. B. sow).",
)
@click.option(
    "--mode",
    default=None,
    metavar="MODUS",
    help="Suchmodus: lexical (Stichwörter, BM25) oder hybrid (zusätzlich semantisch, "
    "falls verfügbar). Standard: der beste verfügbare.",
)
@click.option(
    "--as-typed",
    is_flag=True,
    help="Die Wörter wie getippt suchen, ohne Rechtschreibkorrektur (wie „Stattdessen wie "
    "getippt suchen“ auf der Suchseite).",
)
@corpus_option
@index_option
@click.argument("query", nargs=-1, metavar="[SUCHBEGRIFF]...")
def search(
    as_json: bool,
    batch: bool,
    n: int,
    doc: str | None,
    mode: str | None,
    as_typed: bool,
    corpus_dir: Path,
    index_dir: Path,
    query: tuple[str, ...],
) -> None:
    """Einträge zu einer Frage oder zu Stichwörtern suchen."""
    from faq_bot.hits import longer_note, read_note
    from faq_bot.query import QueryError
    from faq_bot.retrieval import ModeUnavailable, check_mode
    from faq_bot.search import UNWORDED
    from faq_bot.search import search as run_search

    _check_batch_use(
        batch,
        as_json,
        bool(query),
        "Anfragen",
        "Bitte einen Suchbegriff angeben, z. B. faq-bot search Aktionsstapel",
    )
    index = open_or_build(corpus_dir, index_dir)
    doc = index.document_id(doc)
    try:
        mode = check_mode(index, mode)
    except ModeUnavailable as exc:
        fail(str(exc), 2, "bad_query")
    if batch:
        _run_batch(
            lambda line: [
                hit.to_json()
                for hit in run_search(
                    index, line, n=n, doc=doc, mode=mode, correct=not as_typed
                ).hits
            ],
            QueryError,
            "bad_query",
        )
        return
    try:
        result = run_search(index, " ".join(query), n=n, doc=doc, mode=mode, correct=not as_typed)
    except QueryError as exc:
        fail(str(exc), 2, "bad_query")
    if as_json:
        echo_json([hit.to_json() for hit in result.hits])
        sys.exit(0 if result.hits else 1)
    if result.suggestion:
        # the words read otherwise, each quoted and cut (a probe: 442 characters, spaces kept)
        # the query as the search cleaned it (a soft hyphen from a PDF split a word)
        say(read_note(read_as(result.query), result.suggestion))
    for word, words in result.longer:
        say(longer_note(word, words))
    if not result.hits:
        # the query as the search read it (a slip corrected, spaces squashed): said back
        # as sent, „„a  b“ (mit Leer- … gesendet)“ blamed the spaces, „Bombercokpit“ the slip
        fail(f"Keine Treffer für {said_back(read_as(result.suggestion or result.query))}.", 1)
    for rank, hit in enumerate(result.hits, 1):
        label = "" if hit.matched else f"  ({UNWORDED})"
        say(f"{rank:2}. {hit.title}  [{hit.doc}]  {entry_path(hit.id)}{label}")
        click.echo(f"    {_terminal_snippet(hit.snippet)}")


def _terminal_snippet(snippet_html: str) -> str:
    """The snippet for a terminal: matched words bold (plain when piped), no HTML."""
    import html

    parts = re.split(r"<mark>(.*?)</mark>", snippet_html)
    return "".join(
        click.style(printable(html.unescape(p)), bold=True)
        if i % 2
        else printable(html.unescape(p))
        for i, p in enumerate(parts)
    )


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Den Eintrag als JSON ausgeben.")
@corpus_option
@index_option
@click.argument("entry_id", metavar="ID")
def show(as_json: bool, corpus_dir: Path, index_dir: Path, entry_id: str) -> None:
    """Einen Eintrag mit Querverweisen und Rückverweisen zeigen (ID, Titel oder die Adresse
    seiner Seite)."""
    from faq_bot.links import paragraph_index
    from faq_bot.query import QueryError
    from faq_bot.search import search as run_search
    from faq_bot.suggest import suggest_titles

    if not entry_id.strip():
        fail("Bitte eine Eintrags-ID oder einen Titel angeben, z. B. faq-bot show aktionsstapel", 2)
    index = open_or_build(corpus_dir, index_dir)
    # the address of its page, pasted from a browser or a forum, names it too
    entry_id = entry_id_in(entry_id) or entry_id.strip()
    canonical = index.canonical_id(entry_id)
    record = index.entry(canonical) if canonical else None
    if record is None:
        names = [s["id"] for s in suggest_titles(index, entry_id, n=3)]
        if not names:
            try:
                names = [h.id for h in run_search(index, entry_id.replace("-", " "), n=3).hits]
            except QueryError:
                names = []
        hint = f" Ähnlich: {', '.join(names)}" if names else ""
        fail(f"Einen Eintrag {said_back(entry_id)} gibt es nicht.{hint}", 1, "not_found")
    document = index.document(record.doc) or {}
    if as_json:
        data = record.to_json()
        data["document"] = {k: v for k, v in document.items() if k != "entry_ids"}
        echo_json(data)
        return
    if record.id != entry_id:
        say(f"({said_back(entry_id)} leitet weiter auf {record.id})")
    say(record.title)
    details = [f"Dokument: {document.get('title', record.doc)} ({record.doc})"]
    if record.category:
        details.append(f"Kategorie: {record.category}")
    if record.section:
        details.append(f"Abschnitt: {record.section}")
    details.append(f"Id: {record.id}")
    say(" · ".join(details))
    say("")
    say("\n\n".join(record.plain_paragraphs))
    say("")
    say("Querverweise:" if record.links else "Querverweise: keine")
    for link in record.links:
        paragraph = paragraph_index(link.get("target_paragraph"))
        if link["target"] and paragraph is not None:
            say(f"  → {link['target_title']}, Absatz {paragraph + 1} ({link['target']})")
        elif link["target"]:
            say(f"  → {link['target_title']} ({link['target']})")
        else:
            say(f"  → „{link['text']}“ (nicht aufgelöst)")
    say("Verweise hierher:" if record.backlinks else "Verweise hierher: keine")
    for back in record.backlinks:
        say(f"  ← {back['title']} ({back['id']})")


@main.command("eval", short_help="Suche und Chatbot an einer Fragendatei messen.")
@click.option("--json", "as_json", is_flag=True, help="Den Bericht als JSON ausgeben.")
@click.option(
    "--misses",
    is_flag=True,
    help="Auch die verfehlten Fragen auflisten: die Suche ohne den richtigen Eintrag "
    "auf Rang 1, der Chatbot ohne den richtigen Absatz.",
)
@click.option(
    "--cv",
    is_flag=True,
    help="Kreuzvalidieren: die gelernten Modelle des Chatbots (Absatzwahl, Sicherheit) auf "
    "k-1 Teilen der Fragen anpassen und am ausgelassenen Teil messen.",
)
@click.option(
    "--folds",
    type=GermanIntRange(2, 20),
    default=5,
    metavar="ANZAHL",
    help="Anzahl der Teile für --cv, 2 bis 20 (Standard: 5).",
)
@corpus_option
@index_option
@click.argument("file", type=GermanPath(dir_okay=False, path_type=Path), metavar="DATEI")
def eval_command(
    as_json: bool,
    misses: bool,
    cv: bool,
    folds: int,
    corpus_dir: Path,
    index_dir: Path,
    file: Path,
) -> None:
    """Suche (und Chatbot) an einer Fragendatei messen (Recall@1, Recall@3, MRR@10)."""
    from faq_bot.evaluate import EvalFileError, evaluate, format_report, load_questions

    try:
        questions = load_questions(file)
    except EvalFileError as exc:
        fail(str(exc), 2, exc.code)
    if cv:
        from faq_bot.chat import crossval, fit

        crossval.require_parts(len(questions), folds)  # before the index is opened
        index = open_or_build(corpus_dir, index_dir)
        note(f"Lese {len(questions)} Fragen …")
        cases = fit.collect(index, questions)
        figures = crossval.cross_validate(index, cases, folds)
        if as_json:
            echo_json({k: {"mean": m, "sd": s} for k, (m, s) in figures.items()})
        else:
            say(crossval.format_cv(figures, len(cases), folds))
        return
    index = open_or_build(corpus_dir, index_dir)
    # read once (a pipe gives its lines once); a bar per section on a terminal
    report = evaluate(index, file, questions, progress=eval_progress)
    if as_json:
        echo_json(report)
    else:
        say(format_report(report, misses=misses))


@main.command(short_help="Eine Frage stellen und die Antwort aus dem Regelwerk bekommen.")
@click.option("--json", "as_json", is_flag=True, help="Die Antwort als JSON ausgeben.")
@click.option(
    "--batch",
    is_flag=True,
    help="Mit --json: eine Frage je Zeile auf stdin, eine JSON-Antwort je Zeile auf stdout. "
    'Eine Zeile, die keine gültige Frage ist, ergibt stattdessen {"error": …, "detail": …}.',
)
@click.option(
    "--doc",
    default=None,
    metavar="DOKUMENT",
    help="Nur im Dokument mit dieser Id antworten (z. B. how-faq).",
)
@click.option(
    "--after",
    multiple=True,
    metavar="FRAGE",
    help="Eine frühere Frage des Gesprächs, die älteste zuerst (mehrfach möglich): "
    "die Frage wird wie im Chat als Anschlussfrage gelesen, z. B. "
    '--after "Welche Zerstörung verhindert die Feuerwehr?" '
    '"Schützt sie auch meine Landausbauten?"',
)
@corpus_option
@index_option
@click.argument("question", nargs=-1, metavar="[FRAGE]...")
def ask(
    as_json: bool,
    batch: bool,
    doc: str | None,
    after: tuple[str, ...],
    corpus_dir: Path,
    index_dir: Path,
    question: tuple[str, ...],
) -> None:
    """Eine Frage stellen: Antwort ist der Absatz eines Eintrags, der sie beantwortet."""
    from faq_bot.chat import QuestionError, answer, format_answer, parse_history
    from faq_bot.chat.answer import replay

    _check_batch_use(
        batch,
        as_json,
        bool(question),
        "Fragen",
        "Bitte eine Frage angeben, z. B. faq-bot ask Wann darf ich eine Reaktion spielen?",
    )
    try:  # the earlier questions checked as the API checks a history, before any work
        parse_history(list(after))
    except QuestionError as exc:
        fail(str(exc), 2, "bad_question")
    index = open_or_build(corpus_dir, index_dir)
    doc = index.document_id(doc)
    # answered in order as the chat page answers them (each confident answer's entry
    # is context for the next); every batch line is read after the same conversation
    history = replay(index, list(after), doc)
    if batch:
        _run_batch(
            lambda line: answer(index, line, history, doc=doc).to_json(),
            QuestionError,
            "bad_question",
        )
        return
    try:
        result = answer(index, " ".join(question), history, doc=doc)
    except QuestionError as exc:
        fail(str(exc), 2, "bad_question")
    if as_json:
        echo_json(result.to_json())
    else:
        say(format_answer(result.to_json()))
    sys.exit(0 if result.confident else 1)


if __name__ == "__main__":  # python -m faq_bot.cli, as python -m faq_bot
    main(prog_name="faq-bot")
