// The chat on /ask without reloads. The page works without this file: the form
// posts to /ask and the conversation travels in hidden fields "h".
// With it, questions go to /api/ask with the history (earlier questions and the
// entries that answered them); answers are built with the DOM (textContent only,
// never innerHTML), in the markup of templates/ask/_turn.html.
// Copying uses window.faqBot from app.js, which base.html loads first.
"use strict";

(function () {
  var form = document.getElementById("chat-form");
  var log = document.getElementById("chat-log");
  if (!form || !log || !window.fetch) return;
  var input = form.querySelector("input[name=q]");
  var button = form.querySelector("button[type=submit]");
  var errorBox = document.getElementById("chat-error");
  var MAX_HISTORY = 20;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function link(href, text, className) {
    var a = el("a", className, text);
    a.setAttribute("href", href);
    return a;
  }

  function history() {
    var turns = log.querySelectorAll("li.turn[data-question]");
    var out = [];
    for (var i = 0; i < turns.length; i++) {
      var entry = turns[i].getAttribute("data-entry");
      out.push({ question: turns[i].getAttribute("data-question"), entry: entry || null });
    }
    return out.slice(-MAX_HISTORY);
  }

  function askUrl(question, earlier) {
    var params = new URLSearchParams();
    params.append("q", question);
    earlier.forEach(function (turn) {
      params.append("h", turn.question);
    });
    return "/ask?" + params.toString();
  }

  function renderAnswer(data, box, earlier) {
    box.className = "turn-a " + (data.confident ? "confident" : "unsure");
    while (box.firstChild) box.removeChild(box.firstChild);
    if (data.context) {
      box.appendChild(
        el("p", "turn-context", "Im Zusammenhang mit Ihrer Frage „" + data.context + "“")
      );
    }
    box.appendChild(el("p", "turn-message", data.message));
    var ans = data.answer;
    if (ans) {
      var quote = el("blockquote", "passage");
      quote.setAttribute("cite", ans.url);
      var p = el("p");
      var hl = ans.highlight || { start: 0, end: 0 };
      p.appendChild(document.createTextNode(ans.text.slice(0, hl.start)));
      p.appendChild(el("mark", "key", ans.text.slice(hl.start, hl.end)));
      p.appendChild(document.createTextNode(ans.text.slice(hl.end)));
      quote.appendChild(p);
      box.appendChild(quote);

      var source = el("p", "passage-source");
      source.appendChild(
        link(ans.url, ans.title + ", Absatz " + (ans.paragraph + 1), "passage-link")
      );
      source.appendChild(document.createTextNode(" "));
      source.appendChild(
        el("span", "doc-meta", (ans.doc_title || "") + (ans.date_text ? " · Stand: " + ans.date_text : ""))
      );
      box.appendChild(source);

      var actions = el("div", "passage-actions");
      var copyLink = link(ans.url, "Link kopieren", "chat-copy");
      copyLink.setAttribute("data-chat-copy", "");
      actions.appendChild(copyLink);
      var details = el("details", "chat-cite");
      details.appendChild(el("summary", null, "Zitieren"));
      details.appendChild(el("p", "citation", ans.citation));
      actions.appendChild(details);
      box.appendChild(actions);
    }
    if (data.suggestion) {
      var s = el("p", "suggestion", "Meinten Sie: ");
      var sLink = link(askUrl(data.suggestion, earlier), data.suggestion);
      sLink.setAttribute("data-chat-ask", data.suggestion);
      s.appendChild(sLink);
      s.appendChild(document.createTextNode("?"));
      box.appendChild(s);
    }
    var related = data.related || [];
    var links = ans
      ? related.filter(function (r) {
          return r.reason === "link";
        })
      : [];
    var others = related.filter(function (r) {
      return links.indexOf(r) < 0;
    });
    [
      ["Siehe auch:", links],
      [ans ? "Ähnliche Einträge:" : "Am nächsten kommen:", others],
    ].forEach(function (group) {
      if (!group[1].length) return;
      box.appendChild(el("p", "related-h", group[0]));
      var ul = el("ul", "related");
      group[1].forEach(function (r) {
        var li = el("li");
        li.appendChild(link(r.url, r.title));
        if (r.doc_title) {
          li.appendChild(document.createTextNode(" "));
          li.appendChild(el("span", "doc-meta", "· " + r.doc_title));
        }
        ul.appendChild(li);
      });
      box.appendChild(ul);
    });
    if (data.check_url) {
      var check = el("p", "check-link");
      check.appendChild(link(data.check_url, "Im Szenario-Prüfer nachspielen: wer zuerst, wer bezahlt"));
      box.appendChild(check);
    }
  }

  function addHidden(question) {
    var hidden = document.createElement("input");
    hidden.type = "hidden";
    hidden.name = "h";
    hidden.value = question;
    form.insertBefore(hidden, form.querySelector("label")); // after the earlier ones
  }

  function showError(text) {
    if (!errorBox) return;
    errorBox.textContent = text;
    errorBox.hidden = !text;
  }

  function ask(question) {
    var earlier = history();
    var turn = el("li", "turn");
    turn.appendChild(el("p", "turn-q", question));
    var box = el("div", "turn-a pending", "Ich suche den passenden Absatz …");
    turn.appendChild(box);
    log.appendChild(turn);
    turn.scrollIntoView({ block: "nearest" });
    button.disabled = true;
    showError("");
    fetch("/api/ask", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ question: question, history: earlier }),
    })
      .then(function (response) {
        return response.json().then(function (data) {
          return { ok: response.ok, data: data };
        });
      })
      .then(function (result) {
        if (!result.ok) {
          log.removeChild(turn);
          showError((result.data && result.data.detail) || "Die Frage konnte nicht beantwortet werden.");
          input.value = question;
          return;
        }
        var data = result.data;
        turn.setAttribute("data-question", data.question);
        turn.setAttribute("data-entry", data.answer ? data.answer.entry.id : "");
        turn.firstChild.textContent = data.question;
        renderAnswer(data, box, earlier);
        addHidden(data.question);
        var label = form.querySelector("label[for=chat-q]");
        if (label) label.textContent = "Nachfrage oder neue Frage";
        turn.scrollIntoView({ block: "start" }); // the new answer from its question on
      })
      .catch(function () {
        log.removeChild(turn);
        showError("Keine Verbindung zum Server. Bitte noch einmal versuchen.");
        input.value = question;
      })
      .then(function () {
        button.disabled = false;
        input.focus({ preventScroll: true });
      });
  }

  form.addEventListener("submit", function (event) {
    var question = input.value.trim();
    event.preventDefault();
    if (!question) {
      showError("Bitte eine Frage eingeben.");
      return;
    }
    input.value = "";
    ask(question);
  });

  // "Link kopieren" copies the paragraph's permalink; "Meinten Sie" asks again in place.
  log.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var copyLink = target.closest("a[data-chat-copy]");
    if (copyLink) {
      event.preventDefault();
      var url = new URL(copyLink.getAttribute("href"), window.location.href).href;
      window.faqBot.copy(url).then(
        function () {
          window.faqBot.flash(copyLink, "Link kopiert");
        },
        function () {
          window.location.href = url;
        }
      );
      return;
    }
    var again = target.closest("a[data-chat-ask]");
    if (again) {
      event.preventDefault();
      ask(again.getAttribute("data-chat-ask"));
    }
  });
})();
