"""Stage 4: the chatbot. A question in, the passage of a ruling that answers it out.

Modules, in the order a question passes them:

- `history`: the conversation a follow-up is read with (``parse_history``).
- `terms`: analyzed terms of entries, coverage of a question.
- `passage`: the best entry, then its paragraph (a fitted model over generic
  features), with its lead-in or list neighbour.
- `confidence`: whether the passage is presented (a fitted model, or the
  coverage rule without the embedder).
- `answer`: puts it together (``answer(index, question, history) -> Answer``).
- `items`: the entries listed beside an answer (its source, related entries, a
  declined answer's first search hits).
- `wording`: what an answer says (its message, citation, caution, another game's note).
- `format`: the answer as text for the terminal.
- `shown`: an earlier turn kept as the chat page showed it (a turn token) and
  shown again without retrieval.
"""

from faq_bot.question import QuestionError

from .answer import answer
from .format import format_answer
from .history import MAX_HISTORY, Turn, parse_history
from .layout import PASSAGE_CHARS
from .passage import Passage
from .result import Answer

__all__ = [
    "MAX_HISTORY",
    "PASSAGE_CHARS",
    "Answer",
    "Passage",
    "QuestionError",
    "Turn",
    "answer",
    "format_answer",
    "parse_history",
]
