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
