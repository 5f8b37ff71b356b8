"""How the command line builds and opens the index: progress bars on a terminal, one line
per finished phase elsewhere, SIGTERM as Ctrl-C, and the first build a command starts when
there is no usable index (`open_or_build`). The commands themselves are `faq_bot.cli`."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from faq_bot.cligerman import Terminated, fail, say

if TYPE_CHECKING:  # the stages are imported lazily so that --help stays fast
    from faq_bot.index import Index
    from faq_bot.indexbuild import BuildReport


def note(message: str) -> None:
    """A line on stderr about work in progress: a closed or full stderr (2>&-,
    2>/dev/full) loses the line, not the work it reports on."""
    with contextlib.suppress(OSError):
        say(message, err=True)


def progress_bar(
    label: str = "Einträge indexieren",
) -> tuple[Callable[[int, int], None] | None, Callable[[], None]]:
    """A progress(done, total) callback drawing a bar on stderr when it is a terminal,
    and the function that closes the bar."""
    if sys.stderr is None or not sys.stderr.isatty():  # None: closed (2>&-)
        return None, lambda: None
    state: dict[str, Any] = {}

    def progress(done: int, total: int) -> None:
        bar = state.get("bar")
        if bar is None:
            bar = state["bar"] = click.progressbar(length=total, label=label, file=sys.stderr)
            bar.__enter__()
        bar.update(done - bar.pos)

    def close() -> None:
        if "bar" in state:
            state.pop("bar").__exit__(None, None, None)

    return progress, close


EVAL_LABELS = {"search": "Suche messen", "answer": "Chatbot messen"}


def eval_progress(section: str, total: int) -> Callable[[], None]:
    """The tick of `faq-bot eval`'s bar for one section (a terminal), else one line that
    says what runs: 1,360 questions took minutes without a word."""
    label = EVAL_LABELS.get(section, section)
    bar, close = progress_bar(label)
    if bar is None:
        note(f"{label}: {total} {'Frage' if total == 1 else 'Fragen'} …")
        return lambda: None
    done = [0]

    def tick() -> None:
        done[0] += 1
        bar(done[0], total)
        if done[0] >= total:
            close()

    return tick


# What `faq-bot index` says about each build phase (`faq_bot.buildphases`).
PHASE_LABELS = {
    "corpus": "Korpus lesen und zerlegen",
    "vocabulary": "Wortschatz zählen",
    "morphology": "Wörter analysieren (HanTa)",
    "whoosh": "Einträge indexieren",
    "commit": "Whoosh-Index schreiben",
    "impacts": "Gewichte vorberechnen",
    "embeddings": "Texte einbetten",
    "store": "Einträge speichern",
}


@contextlib.contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """SIGTERM (a supervisor stopping the build, a CI timeout) stops the build as Ctrl-C
    does: it says „Abgebrochen.“, removes its half-written build folder and stops its
    embedding workers, instead of ending on the spot. Only in the main thread, where
    signal handlers live."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise Terminated

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def build_with_progress(
    corpus_dir: Path, index_dir: Path, phase_lines: bool = False, first: bool = False
) -> BuildReport:
    """Build the index; progress bars on a terminal, and with `phase_lines` one line
    per finished phase on stderr (the only progress output when stderr is no terminal).
    A `first` build (no usable index yet) uses one another process built meanwhile."""
    from faq_bot.corpus import CorpusError
    from faq_bot.indexbuild import build_index

    progress, close = progress_bar(PHASE_LABELS["whoosh"])
    embed_progress, close_embed = progress_bar(PHASE_LABELS["embeddings"])
    analysis_progress, close_analysis = progress_bar(PHASE_LABELS["morphology"])

    def entries_done(done: int, total: int) -> None:
        if progress is not None:
            progress(done, total)
        if done >= total:
            close()

    def on_phase(name: str, figures: dict[str, float] | None) -> None:
        if figures is None or not phase_lines:
            return
        close()
        close_embed()
        close_analysis()
        if figures.get("skipped"):  # nothing to do: no time to report
            note(f"{PHASE_LABELS.get(name, name)}: übersprungen (nur Stichwortsuche)")
        else:
            note(f"{PHASE_LABELS.get(name, name)}: {figures['seconds']:.1f} s")

    try:
        with sigterm_as_ctrl_c():
            report = build_index(
                corpus_dir,
                index_dir,
                progress=entries_done,
                embed_progress=embed_progress,
                analysis_progress=analysis_progress,
                on_phase=on_phase,
                first=first,
                on_wait=lambda: note(
                    f"Ein anderer Indexbau in {index_dir} läuft gerade; es wird gewartet, "
                    "bis er fertig ist …"
                ),
            )
    except CorpusError as exc:
        close()
        fail(f"Der Index kann nicht gebaut werden: {exc}", 3, exc.code)
    finally:
        close()
        close_embed()
        close_analysis()
    return report


def open_or_build(corpus_dir: Path, index_dir: Path) -> Index:
    """The index, built first when there is none or it is outdated or broken: a message
    saying so on stderr (where the folder is: a mistyped --index shows), then one line
    per finished build phase."""
    from faq_bot.dense import unreadable_vectors
    from faq_bot.index import IndexMissingError, IndexNotBuiltError, open_index

    try:
        index = open_index(index_dir)
    except IndexMissingError as exc:
        if isinstance(exc, IndexNotBuiltError):
            what = f"Kein Index in {index_dir} gefunden: Er wird jetzt aus {corpus_dir} gebaut"
        else:
            what = f"Der Index in {index_dir} ist veraltet oder beschädigt: Er wird neu gebaut"
        note(f"{what} (einige Minuten; Strg+C bricht ab) …")
        build_with_progress(corpus_dir, index_dir, phase_lines=True, first=True)
        index = open_index(index_dir)
    if unreadable_vectors(index):  # serve rebuilds (web.serve.ensure_index); one answer warns
        note(
            f"Warnung: Die Vektoren der semantischen Suche in {index_dir} fehlen oder sind "
            "beschädigt: Die Suche ist nur lexikalisch. `faq-bot index` baut sie neu."
        )
    return index
