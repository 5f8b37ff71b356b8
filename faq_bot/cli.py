"""The `faq-bot` command line: thin wrappers that only call the stages.

Each command parses its options, calls one function of a stage module and
prints the result. Errors the user can fix end with a German message on stderr
and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from faq_bot.config import default_corpus_dir, default_index_dir

corpus_option = click.option(
    "--corpus",
    "corpus_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=default_corpus_dir,
    show_default="./corpus",
    help="Folder with manifest.toml and the source documents.",
)
index_option = click.option(
    "--index",
    "index_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=default_index_dir,
    show_default="./index",
    help="Folder of the built index.",
)


def echo_json(data: object) -> None:
    click.echo(json.dumps(data, ensure_ascii=False))


def fail(message: str, code: int = 1) -> None:
    click.echo(f"Fehler: {message}", err=True)
    sys.exit(code)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="faq_bot")
def main() -> None:
    """faq_bot: Regeln und FAQ nachschlagen."""


# Commands are added below, one function each (index, search, show, eval,
# check, ask, serve). Keep each a thin wrapper over its stage module.


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@corpus_option
@click.argument("file", metavar="FILE|-")
def check(as_json: bool, corpus_dir: Path, file: str) -> None:
    """Ein Aktionsstapel-Szenario prüfen (stack-scenarios.md).

    Exit 0: zulässig, 1: unzulässig, 2: kein Szenario, 3: Korpus nicht lesbar.
    """
    from faq_bot.corpus import CorpusError
    from faq_bot.stack import ScenarioFormatError, read_scenario, resolve, result_to_json
    from faq_bot.stack.report import render_text
    from faq_bot.stack.rules import MissingRuleError, load_rules
    from faq_bot.stack.validate import validate

    try:
        data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    except OSError as exc:
        fail(f"{file}: Datei kann nicht gelesen werden ({exc.strerror or exc}).", 2)
    try:
        scenario = read_scenario(data)
    except ScenarioFormatError as exc:
        fail(f"{'stdin' if file == '-' else file}: kein Szenario. {exc}", 2)
    rules: dict[str, str] = {}
    if not validate(scenario):  # only legal stacks have steps that cite rules
        try:
            rules = dict(load_rules(corpus_dir))
        except (CorpusError, MissingRuleError) as exc:
            fail(f"Korpus {corpus_dir}: {exc}", 3)
    result = resolve(scenario, rules)
    if as_json:
        echo_json(result_to_json(result))
    else:
        click.echo(render_text(scenario, result))
    sys.exit(0 if result.ok else 1)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@corpus_option
@index_option
def serve(host: str, port: int, corpus_dir: Path, index_dir: Path) -> None:
    """Den Webdienst starten (baut vorher den Index, falls keiner da ist)."""
    from faq_bot.corpus import CorpusError
    from faq_bot.web.serve import ensure_index, run

    try:
        ensure_index(corpus_dir, index_dir, say=lambda m: click.echo(m, err=True))
    except CorpusError as exc:
        fail(f"Der Index kann nicht gebaut werden: {exc}", 3)
    click.echo(f"Regelsuche läuft auf http://{host}:{port}/ (Beenden mit Strg+C)", err=True)
    run(host, port, corpus_dir, index_dir)
