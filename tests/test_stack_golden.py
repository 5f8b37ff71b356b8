"""The FAQ's worked examples (stack-scenarios.md) as golden files, through engine and CLI."""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from faq_bot.cli import main
from faq_bot.corpus import load_corpus
from faq_bot.stack import check, result_to_json
from faq_bot.stack.rules import rule_ids_from_corpus

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = Path(__file__).parent / "data" / "scenarios"
EXAMPLES = sorted(p for p in SCENARIOS.glob("example*.json") if ".expected" not in p.name)

FAQ_MANIFEST = """
[[documents]]
id = "how-faq"
file = "000_6dfd36dc833f0c3c.txt"
title = "HoW FAQ"
game = "HoW"
kind = "faq"
language = "de"
splitter = "faq"
id_prefix = ""
"""


@pytest.fixture(scope="module")
def faq_corpus_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A corpus folder with only the HoW FAQ: the rule ids depend on nothing else."""
    folder = tmp_path_factory.mktemp("faq-corpus")
    shutil.copy(ROOT / "corpus" / "000_6dfd36dc833f0c3c.txt", folder)
    (folder / "manifest.toml").write_text(FAQ_MANIFEST, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def rules(faq_corpus_dir: Path) -> dict[str, str]:
    return dict(rule_ids_from_corpus(load_corpus(faq_corpus_dir)))


def expected(path: Path) -> dict:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))


def test_golden_files_cover_all_eight_examples() -> None:
    numbers = {p.name[len("example")] for p in EXAMPLES}
    assert numbers == set("12345678")
    for path in EXAMPLES:
        assert path.with_name(path.stem + ".expected.json").exists(), path.name


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_golden_example_matches_expected_result(path: Path, rules: dict[str, str]) -> None:
    result = result_to_json(check(path.read_text(encoding="utf-8"), rules))
    assert result == expected(path)


# The facts each example of the spec states, checked independently of the golden files:
# entry -> (outcome, reason, paid), plus final card states and errors.
SPEC_FACTS = {
    "example1_bomb_on_radar": {
        "order": ["s2", "s1"],
        "steps": {"s2": ("resolved", None, 2), "s1": ("fizzled", "source_gone", 0)},
        "cards": {"radar": ("scrap", False), "bombB": ("scrap", False)},
        "tw": {"A": 2, "B": 0},
    },
    "example2_bomb_on_bomb": {
        "order": ["s3", "s2", "s1"],
        "steps": {
            "s3": ("resolved", None, 2),
            "s2": ("fizzled", "source_gone", 0),
            "s1": ("resolved", None, 2),
        },
        "cards": {"radar": ("play", True), "bombA": ("scrap", False), "bombB": ("scrap", False)},
        "tw": {"A": 0, "B": 2},
    },
    "example3_radar_cannot_pay": {
        "order": ["s3", "s2", "s1"],
        "steps": {
            "s3": ("resolved", None, 2),
            "s2": ("fizzled", "source_gone", 0),
            "s1": ("fizzled", "cannot_pay", 0),
        },
        "cards": {"radar": ("play", False), "bombA": ("scrap", False), "bombB": ("scrap", False)},
        "tw": {"A": 1, "B": 2},
    },
    "example4_two_destroyers": {
        "order": ["s3", "s2", "s1"],
        "steps": {
            "s3": ("resolved", None, 0),
            "s2": ("fizzled", "source_locked", 0),
            "s1": ("fizzled", "target_gone", 0),
        },
        "cards": {
            "radar": ("play", True),
            "zerstoerer1": ("play", False),
            "zerstoerer2": ("play", True),
        },
        "tw": {"A": 2, "B": 0},
    },
    "example5_explosive_landung": {
        "order": ["s2", "s1"],
        "steps": {"s2": ("resolved", None, 2), "s1": ("fizzled", "source_gone", 0)},
        "cards": {"blitz": ("scrap", False), "landung": ("scrap", False), "lager": ("play", False)},
        "tw": {"A": 3, "B": 1},
    },
    "example6_erfolgreiche_abwehr": {
        "order": ["s2", "s1"],
        "steps": {"s2": ("resolved", None, 2), "s1": ("countered", None, 1)},
        "cards": {"blitz": ("scrap", False), "abwehr": ("scrap", False), "lager": ("play", False)},
        "tw": {"A": 2, "B": 0},
    },
    "example7a_feuerwehr_protects": {
        "order": ["s2", "s1"],
        "steps": {"s2": ("resolved", None, 0), "s1": ("prevented", None, 2)},
        "cards": {"bombA": ("scrap", False), "lager": ("play", False)},
        "tw": {"A": 0, "B": 0},
    },
    "example7b_feuerwehr_protects_itself": {"errors": [("bad_target", "s2")]},
    "example8a_action_card_in_attack_declaration": {
        "errors": [("action_card_forbidden_in_phase", "s2")]
    },
    "example8b_same_card_twice": {"errors": [("duplicate_card", "s3")]},
    "example8c_attack_declaration_as_reaction": {"errors": [("declaration_not_reaction", "s2")]},
    "example8d_bomb_without_tw": {"errors": [("insufficient_tw", "s1")]},
}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_golden_example_states_what_the_spec_says(path: Path) -> None:
    facts = SPEC_FACTS[path.stem]
    result = result_to_json(check(path.read_text(encoding="utf-8")))
    if "errors" in facts:
        assert not result["ok"]
        assert [(e["code"], e["entry"]) for e in result["errors"]] == facts["errors"]
        assert result["steps"] == [] and result["final"] is None
        return
    assert result["ok"] and result["errors"] == []
    assert result["order"] == facts["order"]
    got = {s["entry"]: (s["outcome"], s["reason"], s["paid"]) for s in result["steps"]}
    assert got == facts["steps"]
    for card, (zone, locked) in facts["cards"].items():
        assert result["final"]["cards"][card] == {"zone": zone, "locked": locked}
    assert {p: v["tw"] for p, v in result["final"]["players"].items()} == facts["tw"]


def test_golden_spec_output_example_explanation_names_cards_not_ids() -> None:
    """The spec's output example, with cards named as a person reads them (issue 12)."""
    result = result_to_json(check((SCENARIOS / "example3_radar_cannot_pay.json").read_text()))
    assert result["steps"][0]["explanation"] == (
        "A bezahlt 2 TW und opfert 227-Pfund Bombe von A; 227-Pfund Bombe von B wird zerstört."
    )


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_cli_check_json_gives_golden_result_and_exit_code(path: Path, faq_corpus_dir: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["check", "--json", "--corpus", str(faq_corpus_dir), str(path)])
    want = expected(path)
    assert result.exit_code == (0 if want["ok"] else 1), result.output
    assert json.loads(result.stdout) == want


def test_cli_check_reads_stdin(faq_corpus_dir: Path) -> None:
    path = SCENARIOS / "example1_bomb_on_radar.json"
    result = CliRunner().invoke(
        main,
        ["check", "--json", "--corpus", str(faq_corpus_dir), "-"],
        input=path.read_text(encoding="utf-8"),
    )
    assert result.exit_code == 0
    assert json.loads(result.stdout) == expected(path)


def test_cli_check_text_is_a_german_timeline(faq_corpus_dir: Path) -> None:
    path = SCENARIOS / "example3_radar_cannot_pay.json"
    result = CliRunner().invoke(main, ["check", "--corpus", str(faq_corpus_dir), str(path)])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    numbered = [line.strip() for line in lines if line.strip()[:2] in ("1.", "2.", "3.")]
    assert [line.split()[1] for line in numbered] == ["s3", "s2", "s1"]
    assert "ausgeführt; A zahlt 2 TW" in numbered[0]
    assert "verpufft: Quelle nicht mehr vorhanden; B zahlt nichts" in numbered[1]
    assert "verpufft: nicht mehr bezahlbar; A zahlt nichts" in numbered[2]
    assert "Ende der Phase: kein Schaden abzurechnen." in lines
    assert "  A: 1 TW übrig, 0 Karten gezogen" in lines
    assert "  227-Pfund Bombe von B: auf dem Schrottplatz" in lines  # by name, not Kürzel


def test_cli_check_illegal_scenario_lists_errors_and_exits_1(faq_corpus_dir: Path) -> None:
    path = SCENARIOS / "example8d_bomb_without_tw.json"
    result = CliRunner().invoke(main, ["check", "--corpus", str(faq_corpus_dir), str(path)])
    assert result.exit_code == 1
    assert "nicht zulässig" in result.stdout
    assert "Zu wenig TW – Eintrag 1: A hat 1 TW, der Eintrag kostet aber 2 TW." in result.stdout
    # the entries that state the rule, as a legal stack's steps list theirs
    assert "    Regeln: aktionsstapel, technologiewerte-tws" in result.stdout


def test_cli_check_names_an_attack_declared_outside_its_phase_for_what_it_is(
    faq_corpus_dir: Path,
) -> None:
    """The code covers two cases; its label once named only the reaction (a QA review)."""
    data = json.loads((SCENARIOS / "example1_bomb_on_radar.json").read_text(encoding="utf-8"))
    data["phase"] = "Bauphase"
    data["stack"] = [{"id": "s1", "by": "A", "source": None, "effect": {"type": "declare_attack"}}]
    result = CliRunner().invoke(
        main, ["check", "--corpus", str(faq_corpus_dir), "-"], input=json.dumps(data)
    )
    assert result.exit_code == 1
    assert "Angriffsdeklaration hier nicht zulässig – Eintrag 1: Angriffe werden nur" in (
        result.stdout
    )


def test_cli_check_says_what_a_cards_faq_entry_says_of_its_target(faq_corpus_dir: Path) -> None:
    """A QA review: a 227er on a unit resolved as "ausgeführt" without a word."""
    data = json.loads((SCENARIOS / "example1_bomb_on_radar.json").read_text(encoding="utf-8"))
    data["cards"].append({"id": "inf", "name": "Infanterie", "owner": "A", "kind": "unit"})
    bomb = next(e for e in data["stack"] if e["effect"].get("type") == "destroy")
    bomb["effect"]["target"] = "inf"
    result = CliRunner().invoke(
        main, ["check", "--corpus", str(faq_corpus_dir), "-"], input=json.dumps(data)
    )
    assert result.exit_code == 0  # still legal by stack-scenarios.md
    assert "Laut FAQ zielt 227-Pfund Bombe auf einen Basisausbau; Infanterie ist eine Einheit." in (
        result.stdout
    )
    assert "  Regeln: 227-pfund-bombe-basisausbau" in result.stdout


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("{not json", "kein gültiges JSON"),
        ('{"players": {"A": {"tw": 1}}, "cards": []}', "fehlt (Feld stack)"),
        (
            '{"players": {"A": {"tw": 1}}, "cards": [], "stack": [{"id": "s1", "by": "A", '
            '"source": "x", "effect": {"type": "zaubern"}}]}',
            "stack[0].effect.type",
        ),
        (  # a lone surrogate escape: the result could not be written (a traceback)
            '{"players": {"A": {"tw": 1}}, "cards": [{"id": "r", "name": "R", "owner": "A", '
            '"kind": "base"}], "stack": [{"id": "s1", "by": "A", "source": "r", '
            '"effect": {"type": "other", "text": "x\\ud800"}}]}',
            "stack[0].effect.text",
        ),
        (  # nested deeper than Python's recursion: a RecursionError traceback
            '{"players": {"A": {"tw": 1}}, "stack": [], "cards": [' + "[" * 600 + "]" * 600 + "]}",
            "zu tief verschachtelt",
        ),
    ],
)
def test_cli_check_not_a_scenario_exits_2_naming_the_field(
    text: str, field: str, faq_corpus_dir: Path
) -> None:
    result = CliRunner().invoke(main, ["check", "--corpus", str(faq_corpus_dir), "-"], input=text)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert field in result.stderr
    assert result.stderr.startswith("Fehler: ")
    assert "Traceback" not in result.stderr


class _Endless(io.RawIOBase):
    """stdin that never ends (``/dev/zero``) and refuses to be read whole."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        buffer[:] = b" " * len(buffer)
        return len(buffer)

    def readall(self) -> bytes:
        raise AssertionError("stdin read whole")


def test_cli_check_reads_no_more_than_the_limit_from_an_endless_input() -> None:
    """A CLI probe: `faq-bot check /dev/zero` read until the kernel killed it (24 GB); the
    limit was applied after reading everything. It reads one byte past the limit now."""
    import resource
    import subprocess
    import sys

    from faq_bot.stack.read import MAX_INPUT_BYTES

    result = CliRunner().invoke(main, ["check", "-"], input=io.BufferedReader(_Endless()))
    assert result.exit_code == 2, result.output
    assert f"größer als {MAX_INPUT_BYTES} Bytes" in result.stderr

    def at_most_1_gb() -> None:  # a file read whole fails here, not on the whole machine
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    zero = subprocess.run(
        [sys.executable, "-m", "faq_bot", "check", "/dev/zero"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=at_most_1_gb,
    )
    assert zero.returncode == 2 and "größer als" in zero.stderr, zero.stderr[-500:]


def test_cli_check_with_stdin_closed_says_so(tmp_path: Path) -> None:
    """A CLI probe: `faq-bot check - <&-` ended in an AttributeError traceback."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "faq_bot", "check", "-"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(0),
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "stdin" in done.stderr


def test_cli_check_missing_file_exits_2_in_german(tmp_path: Path) -> None:
    """The reason in German too: the system's „No such file or directory“ was said."""
    result = CliRunner().invoke(main, ["check", str(tmp_path / "fehlt.json")])
    assert result.exit_code == 2
    assert "kann nicht gelesen werden (nicht vorhanden)" in result.stderr
    folder = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert folder.exit_code == 2 and "(ist ein Ordner)" in folder.stderr


def test_cli_check_broken_corpus_exits_3(tmp_path: Path) -> None:
    path = SCENARIOS / "example1_bomb_on_radar.json"
    result = CliRunner().invoke(main, ["check", "--corpus", str(tmp_path), str(path)])
    assert result.exit_code == 3
    assert "Korpus" in result.stderr


def test_cli_check_illegal_scenario_with_a_broken_corpus_lists_its_errors_without_rules(
    tmp_path: Path,
) -> None:
    """Its verdict needs no corpus (as the web checker shows it): exit 1, a warning."""
    path = SCENARIOS / "example8d_bomb_without_tw.json"
    result = CliRunner().invoke(main, ["check", "--json", "--corpus", str(tmp_path), str(path)])
    assert result.exit_code == 1
    assert "Warnung: Korpus" in result.stderr
    assert [e["rules"] for e in json.loads(result.stdout)["errors"]] == [[]]


def test_cli_check_with_the_real_corpus_matches_golden_files() -> None:
    """Without --corpus the command reads ./corpus; its rule ids are the golden ones."""
    entries = load_corpus(ROOT / "corpus").by_id()
    for path in EXAMPLES:
        result = CliRunner().invoke(main, ["check", "--json", str(path)])
        assert json.loads(result.stdout) == expected(path), path.name
        for step in expected(path)["steps"]:
            assert all(rule in entries for rule in step["rules"]), path.name


@pytest.mark.parametrize("text", ["[1, 2]", "5", "null"])
def test_cli_check_says_scenario_once_for_input_that_is_no_object(
    text: str, faq_corpus_dir: Path
) -> None:
    """A review: „stdin: kein Szenario. Szenario: muss ein JSON-Objekt sein.“"""
    result = CliRunner().invoke(main, ["check", "--corpus", str(faq_corpus_dir), "-"], input=text)
    assert result.exit_code == 2
    assert (
        result.stderr.splitlines()[0] == "Fehler: stdin: kein Szenario: muss ein JSON-Objekt sein"
    )
