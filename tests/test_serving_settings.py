"""The gunicorn settings shared by `faq-bot serve` and deploy/gunicorn.conf.py."""

from __future__ import annotations

import contextlib
import os
import platform
import runpy
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from faq_bot import serving
from faq_bot.cli import main
from faq_bot.config import ROOT


@given(st.integers(min_value=1, max_value=512))
def test_workers_are_two_per_core_plus_one_capped(cores):
    workers = serving.worker_count(cores)
    assert 1 <= workers <= serving.MAX_WORKERS
    assert workers == min(2 * cores + 1, serving.MAX_WORKERS)


def test_workers_env_overrides_the_machine(monkeypatch):
    monkeypatch.setenv("FAQ_BOT_WORKERS", "3")
    assert serving.worker_count(16) == 3
    monkeypatch.setenv("FAQ_BOT_WORKERS", " 64 ")  # as many as `serve --workers` takes
    assert serving.worker_count(1) == 64
    monkeypatch.setenv("FAQ_BOT_WORKERS", "")  # empty is unset
    assert serving.worker_count(1) == 3


@pytest.mark.parametrize("value", ["zwei", "²", "0", "65", "100000", "-1", "3.5"])
def test_a_workers_env_that_is_no_count_stops_the_service_at_start(monkeypatch, value):
    """A CLI probe: „²“ was a traceback (a digit to `str.isdigit`, not to `int`), 100000
    forked 100000 workers, and „zwei“ quietly meant the machine's count."""
    monkeypatch.setenv("FAQ_BOT_WORKERS", value)
    with pytest.raises(ValueError, match="^FAQ_BOT_WORKERS muss eine ganze Zahl von 1 bis 64"):
        serving.worker_count(1)
    result = CliRunner().invoke(main, ["serve", "--port", "1"])
    assert result.exit_code == 2, result.output
    assert "Ungültige Einstellung: FAQ_BOT_WORKERS" in result.output
    assert "Traceback" not in result.output


def test_settings_are_production_shaped(monkeypatch):
    monkeypatch.delenv("FAQ_BOT_ACCESS_LOG", raising=False)
    options = serving.settings(bind="127.0.0.1:9000", workers=2)
    assert options["bind"] == ["127.0.0.1:9000"]
    assert options["workers"] == 2
    assert options["worker_class"] == serving.WORKER_CLASS and options["threads"] >= 2
    assert options["errorlog"] == "-" and options["accesslog"] is None
    assert 0 < options["timeout"] and 0 < options["graceful_timeout"]
    # long share links (/check?s=…) must fit; 8190 is gunicorn's own maximum
    assert options["limit_request_line"] in (0, 8190)
    monkeypatch.setenv("FAQ_BOT_ACCESS_LOG", "1")
    assert serving.settings()["accesslog"] == "-"


def test_deploy_config_file_uses_the_same_settings(monkeypatch):
    monkeypatch.delenv("FAQ_BOT_ACCESS_LOG", raising=False)
    monkeypatch.setenv("FAQ_BOT_WORKERS", "2")
    config = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    for key, value in serving.settings().items():
        assert config[key] == value, key
    assert config["wsgi_app"] == "faq_bot.web:create_app()"
    assert config["on_starting"] is serving.on_starting


def _tamed(env: dict[str, str]) -> list[str]:
    code = "from faq_bot.gunicorn_worker import tame_allocator; print(','.join(tame_allocator()))"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return [name for name in out.stdout.strip().split(",") if name]


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's allocator only")
def test_a_worker_tames_glibcs_allocator_unless_the_operator_set_it():
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    assert _tamed(env) == ["MALLOC_ARENA_MAX", "MALLOC_MMAP_THRESHOLD_"]
    assert _tamed(env | {"MALLOC_ARENA_MAX": "4"}) == ["MALLOC_MMAP_THRESHOLD_"]
    assert _tamed(env | {"GLIBC_TUNABLES": "glibc.malloc.arena_max=4"}) == []


def test_the_worker_tames_the_allocator_before_the_app_loads(monkeypatch):
    from faq_bot import gunicorn_worker

    calls = []
    monkeypatch.setattr(gunicorn_worker, "tame_allocator", lambda: calls.append("tame"))
    monkeypatch.setattr(
        gunicorn_worker.ThreadWorker, "init_process", lambda self: calls.append("init")
    )
    gunicorn_worker.GermanThreadWorker.init_process(
        object.__new__(gunicorn_worker.GermanThreadWorker)
    )
    assert calls == ["tame", "init"]


def test_gunicorn_that_built_a_missing_index_starts_again_before_its_workers(
    tiny_corpus, tmp_path, monkeypatch
):
    """deploy/gunicorn.conf.py builds a missing index in the master (`on_starting`), and
    the workers forked from it inherited everything building held; the master now starts
    again in its own place once the index is there (no socket is open yet) and serves."""
    from tests.live_server import start_gunicorn

    monkeypatch.setenv("FAQ_BOT_CORPUS", str(tiny_corpus))
    log = tmp_path / "gunicorn.log"
    server = start_gunicorn(
        tmp_path / "idx", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"), log=log
    )
    try:
        assert server.process.poll() is None  # the same process serves: replaced, not forked
    finally:
        server.stop()
    said = log.read_text("utf-8")
    assert said.count("Noch kein Suchindex") == 1 and said.count("Index gebaut:") == 1
    assert said.count("gunicorn startet neu") == 1
    assert said.count("Starting gunicorn") == 2  # once before the build, once after


def test_daemonised_gunicorn_with_a_pid_file_serves_after_building_a_missing_index(
    tiny_corpus, tmp_path
):
    """``gunicorn --daemon --pid FILE`` (as init scripts start it) on a missing index: the
    master built it, started again in its place and, detaching again under another pid,
    found its own old pid in the file and exited ("Already running on PID …") with
    nothing serving and, stdio gone with the daemon, nothing said. The file is removed
    before starting again; the master started again writes its own."""
    import signal
    import time
    import urllib.request

    from tests.live_server import _free_port

    port, pidfile, log = _free_port(), tmp_path / "gunicorn.pid", tmp_path / "gunicorn.log"
    env = dict(os.environ, FAQ_BOT_CORPUS=str(tiny_corpus), FAQ_BOT_INDEX=str(tmp_path / "idx"))
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py")]
    command += ["-w", "1", "-b", f"127.0.0.1:{port}", "--daemon", "--pid", str(pidfile)]
    command += ["--error-logfile", str(log), "faq_bot.web:create_app()"]
    subprocess.run(command, cwd=ROOT, env=env, check=True, timeout=60)
    served, deadline = False, time.monotonic() + 120
    try:
        while not served and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                    served = True
            except OSError:
                time.sleep(0.2)
        said = log.read_text("utf-8")
        assert served, said[-2000:]
        assert said.count("gunicorn startet neu") == 1 and said.count("Starting gunicorn") == 2
        master = int(pidfile.read_text().strip())
        os.kill(master, 0)  # the file names the master that serves
    finally:
        if pidfile.exists() and pidfile.read_text().strip():
            with contextlib.suppress(ProcessLookupError):  # one that failed is gone already
                os.kill(int(pidfile.read_text().strip()), signal.SIGTERM)


def test_gunicorn_takes_no_scheme_from_a_clients_headers(tiny_built_index):
    """A probe: gunicorn's defaults trust X-Forwarded-Ssl/-Proto/-Protocol from loopback
    (where nginx sits) without FAQ_BOT_BEHIND_PROXY, so a client passing them through the
    proxy chose the scheme of every absolute address, and two that disagreed got
    gunicorn's HTML 400 even on /api/. The scheme is the app's (ProxyFix reads the proxy's
    X-Forwarded-Proto only when FAQ_BOT_BEHIND_PROXY says there is one)."""
    import re
    import urllib.request

    from tests.live_server import start_gunicorn

    server = start_gunicorn(tiny_built_index, "-c", str(ROOT / "deploy" / "gunicorn.conf.py"))
    try:
        entry = "/entry/runde-befehl"
        request = urllib.request.Request(server.url + entry, headers={"X-Forwarded-Ssl": "on"})
        with urllib.request.urlopen(request, timeout=10) as response:
            html = response.read().decode("utf-8")
        canonical = re.search(r'<link rel="canonical" href="([^"]+)">', html)[1]
        assert canonical.startswith("http://127.0.0.1:"), canonical
        both = {"X-Forwarded-Proto": "http", "X-Forwarded-Ssl": "on"}
        request = urllib.request.Request(server.url + "/api/search?q=Befehl", headers=both)
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
    finally:
        server.stop()


@pytest.mark.parametrize(
    "setting",
    [
        {"FAQ_BOT_WORKERS": "abc"},
        {"FAQ_BOT_SECRET": "short"},
        {"FAQ_BOT_TRUSTED_HOSTS": "https://faq.example.org/"},
    ],
)
def test_the_deploy_config_stops_at_a_wrong_setting_with_a_german_line(setting, tmp_path):
    """A CLI review: `gunicorn -c deploy/gunicorn.conf.py` with a wrong setting printed
    "Failed to read config file" and a traceback (exit 1), or started and failed in every
    worker; `faq-bot serve` says one German line and ends with 2."""
    env = dict(os.environ, FAQ_BOT_INDEX=str(tmp_path / "idx"), **setting)
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py")]
    command += ["-b", "127.0.0.1:1", "--check-config"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "Fehler: Ungültige Einstellung: " + next(iter(setting)) in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("bind", "said"),
    [
        ("127.0.0.1:99999", "Port"),  # gunicorn: a traceback
        ("127.0.0.1:abc", "Port"),  # gunicorn: an English line
        ("127.0.0.1:", "Port"),
        ("nonsense.invalid:8000", "Rechnernamen „nonsense.invalid“"),  # 5 s of retries
        ("unix:/nonexistent/folder/faq.sock", "Ordner"),  # 5 s of retries
        ("unix:///nonexistent/folder/faq.sock", "Ordner"),
        ("fd://x", "Dateideskriptor"),
        ("::1:8000", "eckigen Klammern"),
        ("tcp://nonsense.invalid:8000", "Rechnernamen „nonsense.invalid“"),
        # a valid IPv6 address, "::1:5432", on port 8000 to the check; gunicorn: English
        ("[::1:5432", "Klammer"),
        ("[::1]5432", "Doppelpunkt"),
    ],
)
def test_a_bind_address_gunicorn_cannot_use_is_said_in_german(bind, said):
    """A CLI review: ``FAQ_BOT_BIND=nonsense`` retried for five seconds and ended with
    gunicorn's English line (exit 1), a port past 65535 with a traceback."""
    with pytest.raises(ValueError, match="Adresse") as caught:
        serving.check_bind(bind)
    assert said in str(caught.value)


@pytest.mark.parametrize(
    "bind",
    [
        "127.0.0.1:8001",
        "localhost",
        "[::1]:8001",
        ":8001",
        "unix:/tmp/faq.sock",
        "unix://tmp/faq.sock",  # gunicorn: the relative path tmp/faq.sock
        "fd://3",
        "tcp://127.0.0.1:8001",  # a code review: refused as IPv6 without brackets
    ],
)
def test_a_bind_address_gunicorn_takes_is_taken_as_it_is(monkeypatch, bind, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tmp").mkdir()
    serving.check_bind(bind)
    monkeypatch.setenv("FAQ_BOT_BIND", bind)
    assert serving.settings()["bind"] == [bind]


def test_gunicorn_stops_at_a_bind_address_it_cannot_use_with_a_german_line(tmp_path):
    """Checked where gunicorn has merged its settings (`on_starting`): FAQ_BOT_BIND, or
    ``-b``, which wins over it."""
    env = dict(os.environ, FAQ_BOT_INDEX=str(tmp_path / "idx"), FAQ_BOT_BIND="127.0.0.1:99999")
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py")]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "Fehler: Ungültige Einstellung: Adresse „127.0.0.1:99999“" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "idx").exists()  # stopped before building anything


def test_gunicorns_own_bind_wins_over_the_setting(tmp_path):
    """A code review: a FAQ_BOT_BIND that ``-b`` overrides stopped the config file."""
    env = dict(os.environ, FAQ_BOT_INDEX=str(tmp_path / "idx"), FAQ_BOT_BIND="127.0.0.1:99999")
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py")]
    command += ["-b", "127.0.0.1:1", "--check-config"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("argv", "cmd_args", "given"),
    [
        (["-c", "deploy/gunicorn.conf.py"], "", False),
        (["-c", "x", "-b", "127.0.0.1:1"], "", True),
        (["-b127.0.0.1:1"], "", True),
        (["--bind=127.0.0.1:1"], "", True),
        (["--bind", "127.0.0.1:1"], "", True),
        (["--backlog", "64"], "", False),
        ([], "--bind 127.0.0.1:1 --workers 2", True),
    ],
)
def test_gunicorns_own_bind_is_recognised_on_its_command_line(argv, cmd_args, given):
    assert serving.bind_given(argv, cmd_args) is given


def test_a_daemon_with_a_bad_bind_stops_before_it_detaches(tmp_path):
    """A code review: checked only in the start hook, after --daemon had detached, a bad
    FAQ_BOT_BIND ended with exit code 0, the message lost, and --pid's file left behind."""
    env = dict(os.environ, FAQ_BOT_INDEX=str(tmp_path / "idx"), FAQ_BOT_BIND="127.0.0.1:99999")
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py")]
    command += ["--daemon", "--pid", str(tmp_path / "g.pid")]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "Fehler: Ungültige Einstellung: Adresse „127.0.0.1:99999“" in done.stderr
    assert not (tmp_path / "g.pid").exists()


def test_a_bad_bind_given_to_gunicorn_stops_in_its_start_hook_and_leaves_no_pid_file(tmp_path):
    env = dict(os.environ, FAQ_BOT_INDEX=str(tmp_path / "idx"))
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py")]
    command += ["-b", "127.0.0.1:99999", "--pid", str(tmp_path / "g.pid")]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "Fehler: Ungültige Einstellung: Adresse „127.0.0.1:99999“" in done.stderr
    assert not (tmp_path / "g.pid").exists()
    assert not (tmp_path / "idx").exists()


@contextlib.contextmanager
def held_port():
    """A port on 127.0.0.1 another process listens on."""
    import socket

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


@pytest.mark.parametrize("given_as", ["env", "-b"])
def test_gunicorn_stops_at_a_port_in_use_with_a_german_line(given_as, tmp_path):
    """An API review: at a port another service holds gunicorn retried for six seconds,
    said "Connection in use" in English and ended with 1 (`faq-bot serve` says it in
    German at once)."""
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py")]
    env = dict(os.environ, FAQ_BOT_INDEX=str(tmp_path / "idx"))
    with held_port() as port:
        if given_as == "env":
            env["FAQ_BOT_BIND"] = f"127.0.0.1:{port}"
        else:
            command += ["-b", f"127.0.0.1:{port}", "--pid", str(tmp_path / "g.pid")]
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 2, done.stderr
    assert f"Fehler: Adresse „127.0.0.1:{port}“: Port {port} ist schon belegt" in done.stderr
    assert "Traceback" not in done.stderr and "in use" not in done.stderr
    assert not (tmp_path / "idx").exists() and not (tmp_path / "g.pid").exists()


def test_an_address_of_another_machine_is_said_in_german():
    """192.0.2.1 (TEST-NET-1) belongs to no machine: gunicorn said "Invalid address" five
    times, in English."""
    with pytest.raises(OSError) as caught:
        serving.check_listen("192.0.2.1:5431")
    assert "Adresse „192.0.2.1:5431“: die Adresse gehört nicht zu diesem Rechner" in str(
        caught.value
    )


def test_sockets_gunicorn_inherits_are_not_probed(monkeypatch):
    """A binary upgrade (USR2) or systemd hands the new master its listening sockets: the
    port is in use by them, and that is no error."""
    monkeypatch.setattr(serving, "BIND_TRIES", 1)
    with held_port() as port:
        monkeypatch.setenv("GUNICORN_FD", "3")
        serving.check_listen(f"127.0.0.1:{port}")
        monkeypatch.delenv("GUNICORN_FD")
        with pytest.raises(OSError, match="schon belegt"):
            serving.check_listen(f"127.0.0.1:{port}")
        monkeypatch.setenv("LISTEN_FDS", "1")
        serving.check_listen(f"127.0.0.1:{port}")


def test_a_port_shared_by_reuse_port_is_not_probed(monkeypatch):
    """A code review: with --reuse-port another instance may hold the port by design; the
    probe (without SO_REUSEPORT) stopped such a start."""
    monkeypatch.setattr(serving, "BIND_TRIES", 1)
    with held_port() as port:
        serving.check_listen(f"127.0.0.1:{port}", reuse_port=True)
        with pytest.raises(OSError, match="schon belegt"):
            serving.check_listen(f"127.0.0.1:{port}")


def test_a_port_let_go_of_within_gunicorns_tries_is_taken():
    """A code review: gunicorn tries a taken port five times, a second apart (an old master
    letting go of it); the check gave up at once."""
    import socket
    import threading

    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    threading.Timer(1.0, holder.close).start()
    serving.check_listen(f"127.0.0.1:{port}")
