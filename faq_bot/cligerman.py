"""click in German: the `faq-bot` command line's usage errors, help pages and failures.

click's own messages ("Error: No such option", "Missing argument", "Try … for
help.", "Aborted!") and help frame ("Usage", "Options") are English. This module
offers what `faq_bot.cli` builds its commands from so that a user reads only
German:

``GermanHelpGroup``
    The `faq-bot` group class: German help pages for it and its commands
    (``command_class`` `GermanHelp`: "Aufruf", "Optionen", "Befehle", ``-h``),
    every usage error turned into `GermanUsageError` (`german_usage_message`),
    Ctrl+C into „Abgebrochen.“, and every `faq_bot.errors.FaqBotError` (or an
    unreadable index) into its German message and exit code (`fail`).

``GermanIntRange``, ``GermanPath``
    Parameter types whose errors are German.

``fail(message, code=1, error=None)``
    ``Fehler: message`` on stderr (and, when the command was asked for ``--json``
    and the failure has an `error` code, ``{"error": …, "detail": message}`` on
    stdout), then exit with `code`.

``Terminated``
    What SIGTERM raises while a command runs (`faq_bot.cli`): ends as Ctrl+C does,
    with 143 instead of 130.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import json
import os
import re
import sys
from collections.abc import Iterator
from typing import IO, Any, NoReturn

import click

from faq_bot.errors import (
    UNREADABLE_INDEX,
    FaqBotError,
    IndexProblem,
    os_reason,
    unreadable_index,
)
from faq_bot.launch import ABORTED, ABORTED_STATUS, TERMINATED_STATUS
from faq_bot.text import has_surrogate, printable, said_back

__all__ = [
    "GermanHelp",
    "GermanHelpGroup",
    "GermanIntRange",
    "GermanPath",
    "GermanUsageError",
    "Terminated",
    "fail",
    "german_usage_message",
    "os_path",
    "require_stdout",
    "say",
]


class GermanIntRange(click.IntRange):
    """`click.IntRange` whose errors are German; each option's help text says its range in
    words, not click's "[1<=x<=100]"."""

    def _describe_range(self) -> str:
        return ""  # click adds no range to an option's help then

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            said = said_back(str(value), 40)  # a 4,000-digit number was said back whole
            try:
                int(value)
            except (TypeError, ValueError):
                # more digits than Python converts (4,300) is still a number, out of range
                if not re.fullmatch(r"\s*[+-]?\d+\s*", str(value)):
                    self.fail(f"{said} ist keine ganze Zahl.", param, ctx)
            self.fail(f"{said} liegt nicht zwischen {self.min} und {self.max}.", param, ctx)


class GermanPath(click.Path):
    """`click.Path` whose errors are German."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if os.fspath(value) == "":  # "" is the working folder to the system: never meant
            self.fail("Der Pfad ist leer.", param, ctx)
        if isinstance(value, str):
            value = os_path(value)
        try:
            converted = super().convert(value, param, ctx)
        except click.BadParameter:
            path = os.fspath(value)
            if not self.file_okay and os.path.isfile(path):
                self.fail(f"„{path}“ ist eine Datei, kein Ordner.", param, ctx)
            if not self.dir_okay and os.path.isdir(path):
                self.fail(f"„{path}“ ist ein Ordner, keine Datei.", param, ctx)
            if self.exists and not os.path.exists(path):
                self.fail(f"„{path}“ gibt es nicht.", param, ctx)
            if os.path.exists(path) and not os.access(path, os.R_OK):
                self.fail(f"„{path}“ kann nicht gelesen werden (keine Berechtigung).", param, ctx)
            self.fail(f"„{path}“ kann nicht verwendet werden.", param, ctx)
        path = os.fspath(value)
        # click refuses only a regular file for a folder: /dev/null or a pipe passed
        if not self.file_okay and os.path.exists(path) and not os.path.isdir(path):
            self.fail(f"„{path}“ ist kein Ordner.", param, ctx)
        return converted


class GermanUsageError(click.UsageError):
    """A usage error shown in German: what is wrong, the usage line, where help is."""

    def show(self, file: IO[Any] | None = None) -> None:
        lines = [f"Fehler: {self.message}"]
        if self.ctx is not None:
            pieces = " ".join(self.ctx.command.collect_usage_pieces(self.ctx))
            lines.append(f"Aufruf: {self.ctx.command_path} {pieces}")
            lines.append(f"Hilfe: {self.ctx.command_path} --help")
        with contextlib.suppress(OSError, ValueError):  # stderr full or closed: exit 2 still
            click.echo(printable("\n".join(lines)), file=file, err=file is None)


class Terminated(KeyboardInterrupt):
    """SIGTERM, stopping a command as Ctrl+C does (a supervisor, a CI timeout)."""


class _Aborted(click.ClickException):
    """Ctrl+C: click would say "Aborted!". Exits 128 + the signal's number, as shells
    report a process the signal ended, not 1, which says „nothing found“."""

    exit_code = ABORTED_STATUS

    def __init__(self) -> None:
        super().__init__(ABORTED)

    def show(self, file: IO[Any] | None = None) -> None:
        with contextlib.suppress(OSError, ValueError):  # stderr full or closed
            click.echo(f"\n{ABORTED}", file=file, err=file is None)


class _AbortedByTerm(_Aborted):
    exit_code = TERMINATED_STATUS


def _param_name(param: click.Parameter | None) -> str:
    """„-n“, „--corpus“, „DATEI“: the parameter as the user types or sees it."""
    if isinstance(param, click.Option):
        return "„" + " / ".join(param.opts) + "“"
    if param is not None:
        return f"„{param.metavar or (param.name or '').upper()}“"
    return "ein Parameter"


def _did_you_mean(possibilities: list[str] | None) -> str:
    return f" Meinten Sie {' oder '.join(possibilities)}?" if possibilities else ""


def german_usage_message(exc: click.UsageError) -> str:
    """The German text for one of click's usage errors."""
    # what the user typed is said back cleaned and cut (`said_back`): a 100,000-character
    # option was said back whole, a bidi control turned the line around
    if isinstance(exc, click.NoSuchOption):
        return f"Unbekannte Option {said_back(exc.option_name)}." + _did_you_mean(exc.possibilities)
    if isinstance(exc, click.NoSuchCommand):
        return f"Unbekannter Befehl {said_back(exc.command_name)}." + _did_you_mean(
            exc.possibilities
        )
    if isinstance(exc, click.MissingParameter):
        what = "das Argument" if isinstance(exc.param, click.Argument) else "die Option"
        return f"Es fehlt {what} {_param_name(exc.param)}."
    if isinstance(exc, click.BadParameter):  # the German types above wrote the message
        return f"Ungültiger Wert für {_param_name(exc.param)}: {exc.message}"
    if isinstance(exc, click.BadOptionUsage):
        if "does not take a value" in exc.message:
            return f"Die Option {said_back(exc.option_name)} nimmt keinen Wert an."
        if "requires" in exc.message:
            return f"Die Option {said_back(exc.option_name)} braucht einen Wert."
    extra = re.fullmatch(r"Got unexpected extra arguments? \((.*)\)", exc.message, re.S)
    if extra:
        return f"Zu viele Argumente: {said_back(extra.group(1))}."
    if exc.message == "Missing command.":
        return "Bitte einen Befehl angeben."
    return f"Ungültiger Aufruf ({exc.message})."


@contextlib.contextmanager
def _german_errors() -> Iterator[None]:
    try:
        yield
    except (click.exceptions.NoArgsIsHelpError, GermanUsageError):
        raise  # the help page itself, or already German
    except click.UsageError as exc:
        raise GermanUsageError(german_usage_message(exc), exc.ctx) from exc
    except Terminated:
        raise _AbortedByTerm() from None
    except (KeyboardInterrupt, click.Abort):
        raise _Aborted() from None


# the exit status of a writer whose pipe closed (128 + SIGPIPE), as shells report it
PIPE_CLOSED = 141
# the exit status when stdout cannot take the output (a full disk): no index at fault
OUTPUT_FAILED = 5


def _writing_output(exc: OSError) -> bool:
    """Whether `exc` came from writing the output (`click.echo`, where every command
    writes), not from reading the index: where it was raised, innermost."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return False
    frame = tb.tb_frame
    return frame.f_code.co_name == "echo" and frame.f_globals.get("__name__") == "click.utils"


def _output_failure(exc: OSError) -> str:
    return f"Die Ausgabe lässt sich nicht schreiben ({os_reason(exc)})."


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so Python's flush at exit does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file behind stdout (a test runner's buffer)
        pass
    finally:
        os.close(devnull)


def fail(
    message: str, code: int = 1, error: str | None = None, ctx: click.Context | None = None
) -> NoReturn:
    """End the command with a German message; with ``--json`` a failure that has an
    `error` code is also said as JSON on stdout, in the shape of a ``--batch`` line
    and of the API's errors, so that a script reading stdout gets JSON either way.
    `ctx`: the command's context, where an error that left it is caught (click has
    gone back to the group's by then)."""
    ctx = ctx or click.get_current_context(silent=True)
    if error is not None and ctx is not None and ctx.meta.get(JSON_ASKED):
        with contextlib.suppress(OSError):  # stdout itself may be what failed
            click.echo(json.dumps({"error": error, "detail": message}, ensure_ascii=False))
    # stderr closed or full: the message is lost, the exit code is still the one
    # documented (the write's OSError ended as exit 1, "nothing found")
    with contextlib.suppress(OSError, ValueError):
        say(f"Fehler: {message}", err=True)
    sys.exit(code)


def say(text: str, err: bool = False) -> None:
    """`click.echo` of text a user reads, with what it quotes of the corpus or of the
    input shown as the web shows it (`faq_bot.text.printable`): no escape sequence of a
    corpus line or an argument reaches the terminal."""
    if not err:
        require_stdout()
    click.echo(printable(text), err=err)


def require_stdout() -> None:
    """End with `OUTPUT_FAILED` when stdout is closed (``faq-bot search x >&-``): click
    drops the output without a word then, and the command exited 0 with its result lost."""
    if sys.stdout is None:
        fail(
            "Die Ausgabe lässt sich nicht schreiben (die Standardausgabe ist geschlossen).",
            OUTPUT_FAILED,
        )


HELP_TEXT = "Diese Hilfe zeigen und beenden."
# `Context.meta` key: the command was asked for --json (set where it is parsed)
JSON_ASKED = "faq_bot.json"
UNREADABLE_INDEX_OR_OS: tuple[type[Exception], ...] = (*UNREADABLE_INDEX, OSError)


class GermanHelp(click.Command):
    """A command whose help page is German: frame words ("Aufruf", "Optionen")
    and the -h/--help option."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("options_metavar", "[OPTIONEN]")
        super().__init__(*args, **kwargs)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            # `faq-bot --help | true`: the help or the version, written while parsing,
            # reached a closed pipe; click's main would exit 1 („nothing found“)
            _quiet_stdout()
            sys.exit(PIPE_CLOSED)
        if ctx.params.get("as_json"):  # in the meta all contexts share: `fail` reads it
            ctx.meta[JSON_ASKED] = True
        return ctx

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        pieces = self.collect_usage_pieces(ctx)
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix="Aufruf: ")

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # options only: the usage line names the arguments (click 8.5 gives an argument a
        # row too, without text)
        params = [p for p in self.get_params(ctx) if isinstance(p, click.Option)]
        records = [r for p in params if (r := p.get_help_record(ctx)) is not None]
        if records:
            with formatter.section("Optionen"):
                formatter.write_dl(records)

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = HELP_TEXT
        return option

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            # click's parser raises some (e.g. "-n" without a value) without the
            # context; with it the message can name the command and its usage
            if exc.ctx is None:
                exc.ctx = ctx
            raise


def _tolerant_output() -> None:
    """A terminal whose encoding cannot show every character (``PYTHONIOENCODING=latin-1``)
    gets „?“ for „ and “ instead of a UnicodeEncodeError traceback halfway through."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.encoding:
            if codecs.lookup(stream.encoding).name != "utf-8":
                stream.reconfigure(errors="replace")


def os_path(text: str) -> str:
    """`text` (an argument read as UTF-8) as the system names the file: under LC_ALL=C
    its file names are ASCII with the other bytes escaped, as Python read them."""
    return os.fsdecode(text.encode("utf-8", "surrogateescape"))


def _utf8_argument(arg: str) -> str:
    """`arg` as its bytes read in UTF-8: Python escaped the bytes it could not decode in
    the locale's encoding (ASCII under LC_ALL=C, where „Zerstörung“ typed in UTF-8 came in
    escaped); bytes that are no UTF-8 either (a Latin-1 terminal, a script's file) are
    refused in German."""
    if not has_surrogate(arg):
        return arg
    raw = arg.encode("utf-8", "surrogateescape")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        shown = raw.decode("utf-8", "replace")
        fail(
            f"Das Argument {said_back(shown)} ist kein gültiges UTF-8 "
            "(eine Eingabe in Latin-1?). Bitte als UTF-8 übergeben.",
            2,
        )


class GermanHelpGroup(GermanHelp, click.Group):
    """The `faq-bot` group: German help, and German usage errors for it and its commands."""

    command_class = GermanHelp

    def main(self, *args: Any, **kwargs: Any) -> Any:
        _tolerant_output()
        try:
            return super().main(*args, **kwargs)
        except BrokenPipeError:  # `faq-bot --help | head -1`: quietly, as in a command
            _quiet_stdout()
            sys.exit(PIPE_CLOSED)
        except OSError as exc:  # `faq-bot --help > /dev/full`: written while parsing
            if not _writing_output(exc):
                raise
            _quiet_stdout()
            fail(_output_failure(exc), OUTPUT_FAILED)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("subcommand_metavar", "BEFEHL [ARGUMENTE]...")
        super().__init__(*args, **kwargs)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        GermanHelp.format_options(self, ctx, formatter)
        self.format_commands(ctx, formatter)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(formatter.width - 6 - len(name))))
        if rows:
            with formatter.section("Befehle"):
                formatter.write_dl(rows)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        args = [_utf8_argument(arg) for arg in args]
        with _german_errors():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _german_errors():  # the command's own parsing happens in here
            try:
                return super().invoke(ctx)
            except FaqBotError as exc:  # every expected failure: its message, its exit code
                fail(str(exc), exc.exit_code, exc.code, ctx)
            except BrokenPipeError:
                # the reader of stdout went away (`faq-bot search … | head`): nothing is
                # wrong with the index; stop quietly as a pipe's writer does
                _quiet_stdout()
                sys.exit(PIPE_CLOSED)
            except UNREADABLE_INDEX_OR_OS as exc:
                if isinstance(exc, OSError) and _writing_output(exc):  # not the index
                    _quiet_stdout()
                    fail(_output_failure(exc), OUTPUT_FAILED)
                # whoosh reading a truncated or corrupted file (click would say "Aborted!"),
                # or the system refusing one
                fail(
                    unreadable_index(exc),
                    IndexProblem.exit_code,
                    IndexProblem.code,
                    ctx,
                )
