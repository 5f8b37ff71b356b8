"""A built wheel renders pages: templates/ (top level in the checkout) ships as data."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from faq_bot.config import ROOT

pytestmark = pytest.mark.system


def test_a_built_wheel_renders_the_start_page(tmp_path: Path, built_index: Path):
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "-w",
            str(tmp_path / "dist"),
            str(ROOT),
        ],
        check=True,
    )
    (wheel,) = (tmp_path / "dist").glob("faq_bot-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    with zipfile.ZipFile(wheel) as zf:  # install by hand: code to site-packages, data to prefix
        for name in zf.namelist():
            head, _, rest = name.partition("/")
            if head.endswith(".data") and rest.startswith("data/"):
                target = venv / rest.removeprefix("data/")
            else:
                target = site / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zf.read(name))
    # the dependencies from this environment, without its editable faq_bot
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    script = (
        "import faq_bot, sys; from faq_bot.web import create_app, TEMPLATE_DIR;"
        "assert 'site-packages' in faq_bot.__file__, faq_bot.__file__;"
        "assert str(TEMPLATE_DIR).startswith(sys.prefix), TEMPLATE_DIR;"
        f"app = create_app({{'TESTING': True, 'INDEX_DIR': {str(built_index)!r}}});"
        "r = app.test_client().get('/search?q=Aktionsstapel');"
        "assert r.status_code == 200, r.status_code;"
        "print(r.get_data(as_text=True))"
    )
    out = subprocess.run(
        [str(python), "-c", script], cwd=tmp_path, check=True, capture_output=True, text=True
    )
    assert "Aktionsstapel" in out.stdout and "</html>" in out.stdout
