"""The ``faq-bot`` command's entry point: loads `faq_bot.cli` and runs it.

Loading the command's modules (click, the stages) takes ~90 ms; Ctrl+C in that
time raised KeyboardInterrupt out of the import, before `faq_bot.cligerman`
could say „Abgebrochen.“, and printed a traceback. This module imports nothing
heavy, so the interrupt ends the same way here as later.
"""

from __future__ import annotations

import sys

# what Ctrl+C says, here and in `faq_bot.cligerman`
ABORTED = "Abgebrochen."
# 128 + SIGINT's number (2), as shells report a process the signal ended; written out, as
# importing `signal` (it builds its enums) took a window of its own (a review)
ABORTED_STATUS = 130
# 128 + SIGTERM's (15): a supervisor's stop, said as Ctrl+C's
TERMINATED_STATUS = 143


def run() -> None:
    """``faq-bot``: the command group, as `faq_bot.cli.main`."""
    try:
        from faq_bot.cli import main
    except KeyboardInterrupt:
        try:
            sys.stderr.write(f"\n{ABORTED}\n")
        except (OSError, ValueError):  # stderr full or closed: the status still says it
            pass
        _deaf_to_ctrl_c()
        sys.exit(ABORTED_STATUS)
    try:
        main(prog_name="faq-bot")
    except SystemExit as end:
        if end.code in (ABORTED_STATUS, TERMINATED_STATUS):
            _deaf_to_ctrl_c()
        raise


def _deaf_to_ctrl_c() -> None:
    """Ignore Ctrl+C from here on: the command has said „Abgebrochen.“ and is ending. At
    its shutdown Python puts back the default handler of SIGINT, so a second Ctrl+C then
    ended the process by the signal (-2), silently and skipping what exit still cleans up,
    instead of with 130 (a test, on a loaded machine). SIGTERM (its default again by then,
    `clibuild.sigterm_as_ctrl_c`) and Ctrl+\\ still end a shutdown that hangs (on a full
    pipe). Only the main thread may set a handler."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except (OSError, ValueError):  # no signals here (an embedding without them)
        pass
