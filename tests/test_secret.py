"""The service's secret (`faq_bot.config.turn_secret`), which the chat signs its turn
tokens with: made once next to the index, the same for every process that starts
together, ``FAQ_BOT_SECRET`` first. The app's use of it is pinned in tests/test_web_ask.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from faq_bot.config import SECRET_FILE, turn_secret
from faq_bot.errors import SecretProblem

# waits for the start signal, then reads (or makes) the secret as a worker does
RACER = """
import os, sys, time
from faq_bot.config import turn_secret
go = sys.argv[2]
while not os.path.exists(go):
    time.sleep(0.001)
print(turn_secret(sys.argv[1]).decode())
"""


@pytest.fixture
def no_env_secret(monkeypatch):
    monkeypatch.delenv("FAQ_BOT_SECRET", raising=False)


@pytest.mark.usefixtures("no_env_secret")
@pytest.mark.parametrize("round_", range(3))
def test_processes_starting_together_end_up_with_one_secret(tmp_path: Path, round_):
    index_dir, go = tmp_path / "index", tmp_path / "go"
    index_dir.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "FAQ_BOT_SECRET"}
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, str(index_dir), str(go)],
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        for _ in range(8)
    ]
    go.touch()
    seen = {racer.communicate(timeout=60)[0].strip() for racer in racers}
    assert all(racer.returncode == 0 for racer in racers)
    assert len(seen) == 1 and len(seen.pop()) >= 40
    assert [p.name for p in index_dir.iterdir()] == [SECRET_FILE]  # no temporary left over
    assert (index_dir / SECRET_FILE).stat().st_mode & 0o777 == 0o600


@pytest.mark.usefixtures("no_env_secret")
def test_the_secret_file_is_read_not_replaced(tmp_path: Path):
    made = turn_secret(tmp_path)
    assert turn_secret(tmp_path) == made
    (tmp_path / SECRET_FILE).write_text("ein-vom-betreiber-gesetztes-geheimnis\n")
    assert turn_secret(tmp_path) == b"ein-vom-betreiber-gesetztes-geheimnis"
    (tmp_path / SECRET_FILE).write_text("\n")
    with pytest.raises(SecretProblem, match="ist leer: bitte entfernen"):
        turn_secret(tmp_path)


@pytest.mark.usefixtures("no_env_secret")
@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda p: p.write_bytes(b"\xff\xfe geheim"), "enthält andere Zeichen als ASCII"),
        (lambda p: p.mkdir(), "lässt sich nicht lesen (ist ein Ordner)"),
    ],
)
def test_a_secret_file_that_cannot_be_read_is_said_in_german(tmp_path: Path, damage, said):
    """A CLI probe: such a file ended `faq-bot serve` in a UnicodeDecodeError traceback,
    or called the index damaged (exit 4, „faq-bot index ausführen“, which cannot help)."""
    damage(tmp_path / SECRET_FILE)
    with pytest.raises(SecretProblem, match=re.escape(said)) as raised:
        turn_secret(tmp_path)
    assert "FAQ_BOT_SECRET" in str(raised.value) and raised.value.exit_code == 4


def test_faq_bot_secret_wins_and_writes_nothing(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("FAQ_BOT_SECRET", "  s3cret-shared-by-every-machine  ")
    assert turn_secret(tmp_path) == b"s3cret-shared-by-every-machine"
    assert not (tmp_path / SECRET_FILE).exists()
    monkeypatch.setenv("FAQ_BOT_SECRET", "zu-kurz")
    with pytest.raises(ValueError, match="zu kurz"):
        turn_secret(tmp_path)


def test_a_faq_bot_secret_that_is_no_utf8_is_refused_in_german(tmp_path: Path, monkeypatch):
    """A CLI probe: bytes that are not UTF-8 in it said Python's English codec error."""
    monkeypatch.setenv("FAQ_BOT_SECRET", os.fsdecode(b"\xff\xfe" + b"x" * 40))
    with pytest.raises(ValueError, match="^FAQ_BOT_SECRET enthält Bytes, die kein UTF-8 sind"):
        turn_secret(tmp_path)


@pytest.mark.usefixtures("no_env_secret")
def test_a_folder_the_secret_cannot_be_made_in_says_what_to_do(tmp_path: Path):
    missing = tmp_path / "none"  # as unwritable as a read-only folder, also as root
    with pytest.raises(SecretProblem, match="bitte FAQ_BOT_SECRET setzen"):
        turn_secret(missing)
