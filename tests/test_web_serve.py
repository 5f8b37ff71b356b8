"""`faq-bot serve`: builds the index when there is none, then serves."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from faq_bot import cli
from faq_bot.index import open_index
from faq_bot.web import serve


def test_serve_ensure_index_builds_when_missing_and_says_so(tiny_corpus, tmp_path):
    messages: list[str] = []
    assert serve.ensure_index(tiny_corpus, tmp_path / "idx", say=messages.append) is True
    assert open_index(tmp_path / "idx").entries()
    assert any("wird jetzt" in m for m in messages)
    assert serve.ensure_index(tiny_corpus, tmp_path / "idx", say=messages.append) is False


def test_serve_command_builds_index_then_runs(tiny_corpus, tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(serve, "run", lambda *args, **kwargs: calls.append(args))
    monkeypatch.setattr(serve, "check_address", lambda host, port: None)
    result = CliRunner().invoke(
        cli.main,
        ["serve", "--port", "8123", "--corpus", str(tiny_corpus), "--index", str(tmp_path / "idx")],
    )
    assert result.exit_code == 0, result.output
    assert "Noch kein Suchindex" in result.output
    assert calls and calls[0][:2] == ("127.0.0.1", 8123)
    assert open_index(tmp_path / "idx").version


def test_serve_command_with_broken_corpus_fails_in_german(tmp_path, monkeypatch):
    monkeypatch.setattr(serve, "run", lambda *args, **kwargs: None)
    monkeypatch.setattr(serve, "check_address", lambda host, port: None)
    (tmp_path / "corpus").mkdir()
    result = CliRunner().invoke(
        cli.main,
        ["serve", "--corpus", str(tmp_path / "corpus"), "--index", str(tmp_path / "idx")],
    )
    assert result.exit_code == 3
    assert "Fehler: Der Index kann nicht gebaut werden" in result.output
    assert "Traceback" not in result.output


def test_serve_runs_gunicorn_by_default_and_werkzeug_only_with_debug(built_index, monkeypatch):
    used: list[tuple[str, dict]] = []
    monkeypatch.setattr(serve, "run", lambda *a, **kw: used.append(("gunicorn", kw)))
    monkeypatch.setattr(serve, "check_address", lambda host, port: None)
    monkeypatch.setattr(serve, "run_debug", lambda *a, **kw: used.append(("werkzeug", kw)))
    runner = CliRunner()
    assert runner.invoke(cli.main, ["serve", "--index", str(built_index)]).exit_code == 0
    args = ["serve", "--workers", "3", "--index", str(built_index)]
    assert runner.invoke(cli.main, args).exit_code == 0
    assert runner.invoke(cli.main, ["serve", "--debug", "--index", str(built_index)]).exit_code == 0
    assert used == [
        ("gunicorn", {"workers": None, "afresh": False}),
        ("gunicorn", {"workers": 3, "afresh": False}),
        ("werkzeug", {}),
    ]


def test_serve_refuses_workers_with_debug_in_german(built_index):
    args = ["serve", "--debug", "--workers", "2", "--index", str(built_index)]
    result = CliRunner().invoke(cli.main, args)
    assert result.exit_code == 2
    assert "--workers geht nicht zusammen mit --debug" in result.output


def test_serve_workers_option_rejects_zero_in_german(built_index):
    result = CliRunner().invoke(cli.main, ["serve", "--workers", "0"])
    assert result.exit_code == 2
    assert "liegt nicht zwischen 1 und 64" in result.output


def test_serve_calls_a_current_link_to_a_deleted_build_damaged_not_missing(tiny_corpus, tiny_index):
    """A review: with `current` pointing at a deleted build, serve said „Noch kein
    Suchindex“ while the CLI said „veraltet oder beschädigt“; both say the latter."""
    import shutil

    shutil.rmtree((tiny_index / "current").resolve())
    messages: list[str] = []
    assert serve.ensure_index(tiny_corpus, tiny_index, say=messages.append) is True
    assert "veraltet oder beschädigt" in messages[0] and "Noch kein" not in messages[0]
    assert open_index(tiny_index).entries()


def test_serve_rebuilds_an_index_whose_vectors_another_model_made(
    dense_on, dense_index, tiny_corpus, tmp_path
):
    """After an upgrade of the embedder (wheel or tuned tensors) the old vectors are not
    comparable: serving them would silently stay lexical."""
    import json
    import shutil

    from faq_bot.dense import dense_mode

    index_dir = tmp_path / "idx"
    shutil.copytree(dense_index, index_dir, symlinks=True)
    messages: list[str] = []
    assert serve.ensure_index(tiny_corpus, index_dir, say=messages.append) is False
    units = open_index(index_dir).path / "dense.json"
    data = json.loads(units.read_text(encoding="utf-8"))
    units.write_text(json.dumps({**data, "model": "an-older-model"}), encoding="utf-8")
    assert dense_mode(open_index(index_dir)) == "lexical"
    assert serve.ensure_index(tiny_corpus, index_dir, say=messages.append) is True
    assert any("anderen Einbettungsmodell" in m for m in messages)
    assert dense_mode(open_index(index_dir)) == "hybrid"


def _damage_vectors(dense_index, tmp_path, damage):
    """A copy of the dense index with its vectors removed, cut in half, holding a NaN or
    of one dimension, or with units that are no units."""
    import json
    import shutil

    import numpy as np

    index_dir = tmp_path / "idx"
    shutil.copytree(dense_index, index_dir, symlinks=True)
    vectors = open_index(index_dir).path / "dense.npy"
    if damage == "removed":
        vectors.unlink()
    elif damage == "truncated":
        vectors.write_bytes(vectors.read_bytes()[: vectors.stat().st_size // 2])
    elif damage == "units":
        units = vectors.with_name("dense.json")
        data = json.loads(units.read_text(encoding="utf-8"))
        units.write_text(json.dumps({**data, "units": [5] * len(data["units"])}), "utf-8")
    elif damage == "flat":
        flat = np.load(vectors)[:, 0]
        with open(vectors, "wb") as out:
            np.save(out, flat)
    else:
        array = np.load(vectors)
        array[1, 3] = np.nan
        with open(vectors, "wb") as out:  # np.save to a str path would add ".npy"
            np.save(out, array)
    return index_dir


@pytest.mark.parametrize("damage", ["removed", "truncated", "nan", "units", "flat"])
def test_serve_rebuilds_an_index_whose_vectors_cannot_be_read(
    dense_on, dense_index, tiny_corpus, tmp_path, damage
):
    """A CLI probe: without dense.npy (or with half of it) search went lexical without a
    word, and a server stayed so until someone rebuilt; a NaN in it made every score
    NaN, and the JSON of /api/search invalid."""
    from faq_bot.dense import dense_mode

    index_dir = _damage_vectors(dense_index, tmp_path, damage)
    assert dense_mode(open_index(index_dir)) == "lexical"
    messages: list[str] = []
    assert serve.ensure_index(tiny_corpus, index_dir, say=messages.append) is True
    assert any("Vektoren" in m and "fehlen oder sind beschädigt" in m for m in messages)
    assert dense_mode(open_index(index_dir)) == "hybrid"


@pytest.mark.parametrize("damage", ["truncated", "nan", "units", "flat"])
def test_cli_search_says_when_the_vectors_cannot_be_read(
    dense_on, dense_index, tiny_corpus, tmp_path, damage
):
    """A CLI probe: `faq-bot search` went lexical without a word with damaged vectors
    (serve rebuilds; a search warns and answers, lexically); units of the wrong shape
    were a TypeError traceback."""
    index_dir = _damage_vectors(dense_index, tmp_path, damage)
    result = CliRunner().invoke(
        cli.main, ["search", "--index", str(index_dir), "--corpus", str(tiny_corpus), "Karte"]
    )
    assert "Warnung:" in result.stderr and "nur lexikalisch" in result.stderr, result.stderr
    assert "faq-bot index" in result.stderr


def test_serve_first_build_shows_its_progress(tiny_corpus, tmp_path, monkeypatch):
    """`make run` on a fresh machine builds the index inside `faq-bot serve` (about a
    minute and a half on the real corpus): it says which phase finished, as
    `faq-bot index` does, instead of one line and then silence."""
    monkeypatch.setattr(serve, "run", lambda *args, **kwargs: None)
    monkeypatch.setattr(serve, "check_address", lambda host, port: None)
    result = CliRunner().invoke(
        cli.main, ["serve", "--corpus", str(tiny_corpus), "--index", str(tmp_path / "idx")]
    )
    assert result.exit_code == 0, result.output
    assert "Korpus lesen und zerlegen: " in result.output
    assert "Einträge speichern: " in result.output


def test_serve_stopped_by_sigterm_during_its_first_build_cleans_up(tiny_corpus, tmp_path):
    """A supervisor stops `faq-bot serve` while it builds its first index: it says
    „Abgebrochen.“, exits 143 and leaves no half-written build folder, as `faq-bot index`."""
    from tests.stopped_builds import no_build_left, sigterm_after_corpus_phase

    index_dir = tmp_path / "idx"
    args = ["serve", "--port", "1", "--corpus", str(tiny_corpus), "--index", str(index_dir)]
    code, rest = sigterm_after_corpus_phase(args, before="wird jetzt")
    assert code == 143 and "Abgebrochen." in rest, (code, rest)  # 128 + SIGTERM
    assert no_build_left(index_dir)


def test_serve_first_build_says_its_warnings_like_faq_bot_index(tiny_corpus, tmp_path, monkeypatch):
    """What `faq-bot index` warns about (here an unresolved cross reference; also a
    build without the embedder) is said when `faq-bot serve` builds, too."""
    from tests.test_cli_search import SMALL_FAQ, SMALL_FAQ_MANIFEST

    (tiny_corpus / "faq.txt").write_text(SMALL_FAQ, encoding="utf-8")
    with (tiny_corpus / "manifest.toml").open("a", encoding="utf-8") as manifest:
        manifest.write(SMALL_FAQ_MANIFEST)
    monkeypatch.setattr(serve, "run", lambda *args, **kwargs: None)
    monkeypatch.setattr(serve, "check_address", lambda host, port: None)
    result = CliRunner().invoke(
        cli.main, ["serve", "--corpus", str(tiny_corpus), "--index", str(tmp_path / "idx")]
    )
    assert result.exit_code == 0, result.output
    assert "Warnung: Unaufgelöster Querverweis in „alpha“: „s. Gamma“" in result.output


def test_serve_after_its_first_build_starts_again_in_its_own_place(tiny_corpus, tmp_path):
    """gunicorn's workers are forked from the process `faq-bot serve` runs in: after a
    first build they inherited everything building held (HanTa's full tagger, the
    writer's and the embedder's heap). The command now starts again in its own place
    (same process, `serve.start_afresh`), finds the index and serves from there."""
    import os
    import signal
    import subprocess

    from tests.test_serve_resources import FAQ_BOT, Server, free_port, wait_healthy

    port = free_port()
    env = {**os.environ, "FAQ_BOT_ACCESS_LOG": "0"}
    log_path = tmp_path / "serve.log"
    args = ["serve", "--port", str(port), "--workers", "1", "--corpus", str(tiny_corpus)]
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [str(FAQ_BOT), *args, "--index", str(tmp_path / "idx")],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        try:
            wait_healthy(Server(proc, port, tmp_path / "idx"))
            assert proc.poll() is None  # the same process serves: replaced, not forked
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
    said = log_path.read_text("utf-8")
    assert said.count("Noch kein Suchindex") == 1 and said.count("Index gebaut:") == 1
    assert said.index("Der Dienst startet neu") < said.index("Regelsuche läuft auf")


def test_a_command_started_afresh_starts_again_only_once(monkeypatch):
    """A command that builds again right after it started afresh (vectors that would never
    match, say) serves from there instead of starting again and again."""
    execs: list[list[str]] = []
    monkeypatch.setattr(serve.os, "execv", lambda path, args: execs.append(args))
    monkeypatch.setenv(serve.AFRESH_ENV, "0")  # recorded: undone after the test
    serve.start_afresh()
    assert len(execs) == 1 and serve.os.environ[serve.AFRESH_ENV] == "1"
    serve.start_afresh()  # the command started again: no second start
    assert len(execs) == 1


def test_serve_on_a_port_in_use_says_so_in_german_before_anything(tmp_path):
    """A CLI probe: on a taken port `faq-bot serve` said „Regelsuche läuft auf …“, then
    gunicorn's English „Connection in use“ five times, and exited 1 („nothing found“)."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["serve", "--port", str(port), "--index", str(tmp_path / "idx")]
        result = CliRunner().invoke(cli.main, args)
    assert result.exit_code == 2, result.output
    assert f"Port {port} auf 127.0.0.1 ist schon belegt" in result.stderr
    assert "läuft auf" not in result.output and not (tmp_path / "idx").exists()


def test_serve_on_a_host_that_does_not_resolve_says_so_in_german(tmp_path):
    result = CliRunner().invoke(cli.main, ["serve", "--host", "999.1.1.1", "--port", "5999"])
    assert result.exit_code == 2, result.output
    assert "„999.1.1.1“" in result.stderr and "läuft auf" not in result.output


@pytest.mark.parametrize("host", ["", "  "])
def test_serve_on_an_empty_host_is_refused_not_served_on_every_address(host):
    # a CLI probe: `--host ""` listened on 0.0.0.0 with the banner „http://:5802/“
    result = CliRunner().invoke(cli.main, ["serve", "--host", host, "--port", "5999"])
    assert result.exit_code == 2, result.output
    assert "--host" in result.stderr and "läuft auf" not in result.output


def test_serve_on_an_address_of_another_machine_says_why_in_german():
    # a CLI probe: „lässt sich nicht lauschen (Fehler 99)“
    result = CliRunner().invoke(cli.main, ["serve", "--host", "192.0.2.1", "--port", "5999"])
    assert result.exit_code == 2, result.output
    assert "Fehler 99" not in result.stderr and "nicht zu diesem Rechner" in result.stderr


def test_serve_with_a_secret_it_cannot_read_says_so_before_its_banner(
    tiny_corpus, tmp_path, monkeypatch
):
    """A CLI probe: a `secret` that is a folder (or empty, or not ASCII) was called a
    damaged index after „Regelsuche läuft auf …“, or ended in a traceback."""
    monkeypatch.delenv("FAQ_BOT_SECRET", raising=False)
    monkeypatch.setattr(serve, "check_address", lambda host, port: None)
    monkeypatch.setattr(serve, "run", lambda *args, **kwargs: None)
    index_dir = tmp_path / "idx"
    (index_dir / "secret").mkdir(parents=True)
    args = ["serve", "--corpus", str(tiny_corpus), "--index", str(index_dir)]
    result = CliRunner().invoke(cli.main, args)
    assert result.exit_code == 4, result.output
    assert "Das Geheimnis des Chats" in result.stderr and "ist ein Ordner" in result.stderr
    assert "läuft auf" not in result.output and "beschädigt" not in result.output


@pytest.mark.parametrize("host", ["ni\u202ex", "h" * 2000])
def test_a_host_the_resolver_refuses_outright_is_a_german_usage_error(host):
    """A CLI probe: such a name ended in a TypeError traceback ("encoding of hostname
    failed") where an unknown name is a German message."""
    from faq_bot.errors import InputError

    with pytest.raises(InputError, match="lässt sich nicht auflösen") as raised:
        serve.check_address(host, 5399)
    assert "\u202e" not in str(raised.value) and len(str(raised.value)) < 200
