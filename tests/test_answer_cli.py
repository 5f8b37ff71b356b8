"""`faq-bot ask` through click's CliRunner, and the chatbot's figures in `faq-bot eval`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from faq_bot.chat.format import format_answer
from faq_bot.cli import main
from faq_bot.config import ROOT

EVAL_FILE = str(ROOT.parent / "shared" / "eval" / "dev-questions.jsonl")  # beside the checkout


@pytest.fixture
def ask(built_index):
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(
            main, ["ask", "--index", str(built_index), *args], input=input, catch_exceptions=False
        )

    return invoke


def test_cli_ask_prints_the_passage_source_and_citation(ask):
    result = ask(
        "Zerstört", "die", "227er", "die", "Radarstation,", "bevor", "sie", "aktiv", "wird?"
    )
    assert result.exit_code == 0, result.output
    assert "Das steht unter „227-Pfund Bombe (Basisausbau)“" in result.stdout
    assert "ehe sie aktiv werden konnte" in result.stdout
    assert "Kernsatz:" in result.stdout
    assert "/entry/227-pfund-bombe-basisausbau/absatz/2?v=" in result.stdout  # its permalink


def test_cli_ask_prints_a_table_answer_row_by_row(ask):
    result = ask("Was", "kostet", "ein", "Kriegsschiff?")
    assert "  Schiffstyp | Bewegung | Kosten | Unterhalt" in result.stdout
    assert "  Kriegsschiff | 3 | 6 H oder E | 1 H oder E" in result.stdout
    assert "Kernsatz:" not in result.stdout  # a table's "key sentence" is its cells run on


def test_cli_ask_prints_the_prose_before_a_table_then_its_rows(ask):
    result = ask("Was muss ich beim Verwundungswurf würfeln, wenn S gleich W ist?")
    lead = result.stdout.index("  Wirf einen W6")
    assert lead < result.stdout.index("  S der Attacke vs W des Ziels | W6-Ergebnis")
    assert "  S ist gleich W | 4+" in result.stdout


def test_cli_ask_prints_a_lead_in_and_its_list_on_lines_of_their_own():
    """The page keeps the lines of a passage joined to its lead-in (CSS pre-line); the
    terminal ran them together ("besteht aus - Modus - …")."""
    text = "Ein Befehl für eine Gruppe besteht aus\n- Modus - Bewegung - Angriff - Markierung"
    answer = {"text": text, "highlight": {"text": "Ein Befehl"}, "citation": "„Befehl“"}
    lines = format_answer({"message": "Das steht unter „Befehl“.", "answer": answer}).split("\n")
    lead = lines.index("  Ein Befehl für eine Gruppe besteht aus")
    assert lines[lead + 1] == "  - Modus - Bewegung - Angriff - Markierung"


def test_cli_ask_declines_with_exit_code_1(ask):
    result = ask("Wie", "bemale", "ich", "Miniaturen?")
    assert result.exit_code == 1
    assert "Dazu habe ich keine sichere Antwort gefunden." in result.stdout


def test_cli_ask_json_declined_exits_1_as_the_text_does(ask):
    result = ask("--json", "Wie", "bemale", "ich", "Miniaturen?")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["confident"] is False


def test_cli_ask_json_bad_question_prints_the_error_shape(ask):
    result = ask("--json", "?!")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"] == "bad_question"


def test_cli_ask_declined_lists_the_searchs_first_hits_after_the_closest_entries(ask):
    result = ask("Wann", "ist", "das", "Spiel", "vorbei?")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Dazu habe ich keine sichere Antwort gefunden.")
    heading = lines.index("Die Suche findet außerdem:")  # besides the closest entries
    assert lines[2:heading] and all(line.startswith("  - ") for line in lines[2 : heading - 1])
    hits = lines[heading + 1 :]
    assert hits and all(re.fullmatch(r"  - .+  /entry/[a-z0-9-]+(#p\d+)?", h) for h in hits)


def test_cli_ask_json_is_the_answer_shape(ask):
    result = ask("--json", "Aktionsstapel")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["confident"] is True
    assert data["answer"]["entry"]["id"] == "aktionsstapel"
    assert data["answer"]["url"] == "/entry/aktionsstapel#p0"
    assert "text" not in data["answer"]["entry"]


def test_cli_ask_batch_one_answer_per_line_in_order(ask):
    questions = ["Aktionsstapel", "", "Wie bemale ich Miniaturen?", "Depot Mindestgröße"]
    result = ask("--json", "--batch", input="\n".join(questions) + "\n")
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 4
    assert lines[0]["answer"]["entry"]["id"] == "aktionsstapel"
    assert lines[1] == {"error": "bad_question", "detail": "Bitte eine Frage eingeben."}
    assert lines[2]["confident"] is False and lines[2]["answer"] is None
    assert lines[3]["answer"]["entry"]["id"] == "depot"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "Bitte eine Frage angeben"),
        (("--batch",), "--batch geht nur zusammen mit --json"),
        (("--json", "--batch", "Frage"), "von stdin"),
        (("x" * 600,), "zu lang"),
    ],
)
def test_cli_ask_bad_input_exit_2_in_german(ask, args, message):
    result = ask(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_cli_ask_doc_answers_from_that_document_only(ask):
    for doc in ("how-faq", "uebersicht"):
        result = ask("--json", "--doc", doc, "Wer darf in dieser Phase angreifen?")
        data = json.loads(result.output)
        assert data["answer"]["entry"]["doc"] == doc
        assert {s["doc"] for s in data["sources"]} == {doc}


def test_cli_ask_reads_the_doc_as_the_web_does_padded_or_empty(ask):
    padded = json.loads(ask("--json", "--doc", " uebersicht ", "Wer darf angreifen?").output)
    assert {s["doc"] for s in padded["sources"]} == {"uebersicht"}
    every = ask("--json", "--doc", "", "Wer darf angreifen?")
    assert every.exit_code in (0, 1) and "Unbekanntes Dokument" not in every.output
    # in capitals too (a CLI probe: „ sow “ was taken, „HOW-FAQ“ refused)
    upper = json.loads(ask("--json", "--doc", "UEBERSICHT", "Wer darf angreifen?").output)
    assert {s["doc"] for s in upper["sources"]} == {"uebersicht"}


def test_cli_ask_unknown_doc_exit_2_in_german(ask):
    result = ask("--doc", "schach", "Wer darf angreifen?")
    assert result.exit_code == 2
    assert "Unbekanntes Dokument „schach“" in result.output


BOMB_QUESTION = "Zerstört die 227er die Radarstation, bevor sie aktiv wird?"


# not shaped like a follow-up, and the rulings do not answer it
FINDS_NOTHING = "Ist das fair?"


def test_cli_ask_after_reads_the_question_in_that_conversation(ask):
    alone = json.loads(ask("--json", FINDS_NOTHING).stdout)
    assert alone["earlier"] is None  # no conversation: nothing it was about
    result = ask("--after", BOMB_QUESTION, FINDS_NOTHING)
    assert result.exit_code == 1  # declined
    assert "Zuletzt ging es um:" in result.stdout
    assert "227-Pfund Bombe (Basisausbau)  /entry/227-pfund-bombe-basisausbau" in result.stdout
    data = json.loads(ask("--json", "--after", BOMB_QUESTION, FINDS_NOTHING).stdout)
    assert data["earlier"]["id"] == "227-pfund-bombe-basisausbau"


def test_cli_ask_batch_reads_every_line_after_the_same_conversation(ask):
    lines_in = f"{FINDS_NOTHING}\n{FINDS_NOTHING}\n"
    result = ask("--json", "--batch", "--after", BOMB_QUESTION, input=lines_in)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    # not chained: after a declined question there would be no earlier entry to offer
    assert [line["earlier"]["id"] for line in lines] == ["227-pfund-bombe-basisausbau"] * 2


@pytest.mark.parametrize(
    ("after", "message"),
    [
        ([""], "Verlauf, Eintrag 1: Bitte eine Frage eingeben."),
        ([BOMB_QUESTION, "x" * 600], "Verlauf, Eintrag 2:"),
        ([BOMB_QUESTION] * 21, "Der Verlauf ist zu lang (21 Einträge, höchstens 20)."),
    ],
)
def test_cli_ask_bad_earlier_question_exit_2_in_german(ask, after, message):
    result = ask(*[arg for question in after for arg in ("--after", question)], "warum?")
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_cli_eval_cv_with_fewer_questions_than_parts_says_so(built_index, tmp_path):
    """A CLI probe: three questions in five parts ended in an IndexError traceback."""
    path = tmp_path / "q.jsonl"
    line = {"id": "a", "q": "Wer bezahlt die 227er?", "doc": None, "gold": [], "kind": "direct"}
    path.write_text("\n".join(json.dumps({**line, "id": str(i)}) for i in range(3)) + "\n")
    result = CliRunner().invoke(main, ["eval", "--cv", "--index", str(built_index), str(path)])
    assert result.exit_code == 2
    assert "mindestens 5 Fragen" in result.stderr and "3" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.skipif(not Path(EVAL_FILE).exists(), reason="development questions not present")
def test_cli_eval_reports_the_chatbot_figures(built_index):
    result = CliRunner().invoke(main, ["eval", "--index", str(built_index), EVAL_FILE])
    assert result.exit_code == 0, result.output
    assert "Chatbot:" in result.stdout
    assert "Passage@1" in result.stdout
    assert "abgelehnt (unbeantwortbare Fragen)" in result.stdout
    report = json.loads(
        CliRunner().invoke(main, ["eval", "--json", "--index", str(built_index), EVAL_FILE]).stdout
    )
    figures = report["answer"]
    assert figures["n"] == 56 and figures["unanswerable"] == 4
    # the targets of the chatbot on the development questions
    assert figures["passage@1"] >= 0.70
    assert figures["declined"] >= 3
    assert figures["confident"] >= 0.90
    # precision: of the confident answers, the right ones; found: right, confident or not
    assert figures["precision"] == pytest.approx(figures["passage@1"] / figures["confident"])
    assert figures["passage_found"] >= figures["passage@1"]
    # the key sentence: of the right answers whose gold stands in the passage as written
    assert 0 < figures["key_sentence_n"] <= round(figures["passage@1"] * figures["n"])
    assert 0.5 <= figures["key_sentence"] <= 1.0
    assert "Kernsatz trifft das Gold" in result.stdout


def test_cli_eval_lists_unanswerable_questions_answered_with_confidence(built_index, tmp_path):
    # marked unanswerable, but the bot answers it (the entry's own title): listed with
    # its passage; the one it declines is not
    lines = [
        {"id": "u1", "q": "Aktionsstapel", "doc": None, "gold": [], "kind": "unanswerable"},
        {
            "id": "u2",
            "q": "Wie bemale ich Miniaturen?",
            "doc": None,
            "gold": [],
            "kind": "unanswerable",
        },
    ]
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    args = ["eval", "--index", str(built_index), str(path)]
    report = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    listed = report["answer"]["answered_unanswerable"]
    assert [(m["id"], m["passage"]) for m in listed] == [("u1", "aktionsstapel#p0")]
    assert report["answer"]["declined"] == 1
    text = CliRunner().invoke(main, [*args, "--misses"]).stdout
    assert "Unbeantwortbar, aber sicher beantwortet:" in text
    assert "  u1 " in text and "  u2 " not in text


def test_cli_eval_says_where_each_best_passage_stands(built_index, index, tmp_path):
    # one question the bot answers with confidence from the first paragraph of the entry
    # "Aktionsstapel", asked with four golds: that paragraph, another paragraph of the same
    # entry, a passage of another entry of the same document, and that passage again for a
    # question naming another document
    faq = index.document(index.entry("aktionsstapel").doc)["file"]
    other = next(d["file"] for d in index.documents if d["file"] != faq)
    stack = index.entry("aktionsstapel").plain_paragraphs
    depot = index.entry("depot").plain_paragraphs[0][:60]
    golds = {
        "right": (faq, stack[0][:60]),
        "paragraph": (faq, stack[-1][:60]),
        "entry": (faq, depot),
        "document": (other, depot),
    }
    lines = [
        {"id": kind, "q": "Aktionsstapel", "doc": doc, "gold": [gold], "kind": "keyword"}
        for kind, (doc, gold) in golds.items()
    ]
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    args = ["eval", "--index", str(built_index), str(path)]
    report = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)["answer"]
    assert report["confident"] == 1.0 and report["passage@1"] == 0.25  # the precondition
    sure = {"confident": 1, "declined": 0}
    assert report["losses"] == {
        "right": sure,
        "paragraph": sure,
        "entry": sure,
        "document": sure,
        "none": {"confident": 0, "declined": 0},
    }
    assert sum(sum(f.values()) for f in report["losses"].values()) == report["n"]
    assert {m["id"]: m["lost"] for m in report["misses"]} == {
        "paragraph": "paragraph",
        "entry": "entry",
        "document": "document",
    }
    text = CliRunner().invoke(main, [*args, "--misses"]).stdout
    assert re.search(r"richtiger Eintrag, anderer Absatz +1 / 0\n", text)
    assert re.search(r"Eintrag eines anderen Dokuments +1 / 0\n", text)
    assert "(richtiger Eintrag, anderer Absatz): Aktionsstapel" in text
