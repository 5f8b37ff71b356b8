// How a chat answer looks, for chat.js: the markup of templates/ask/_turn.html built with
// the DOM (textContent only, never innerHTML) from an /api/ask answer, the conversation's
// addresses (/ask?q=…&t=…, as faq_bot/web/ask.py reads them) and what a screen reader hears
// of an answer. chat.js (asking, waiting questions, Back and Forward) takes these from
// window.faqBot.chatRender; the page loads this file first.
"use strict";

(function () {
  var form = document.getElementById("chat-form");
  if (!form || !window.faqBot) return;
  var scope = form.querySelector("select[name=doc]"); // "Antworten aus": one document, or all
  var el = window.faqBot.el; // DOM helpers shared through app.js
  var link = window.faqBot.link;
  var sitePath = window.faqBot.path; // an address of this site, under the app's root
  var LINK_CHARS = 3000; // earlier turns in an address: as faq_bot/web/ask.py LINK_CHARS

  function chosenDoc() {
    return scope && scope.value ? scope.value : null;
  }

  // A document's title as the select shows it, or its id.
  function docTitle(id) {
    var options = scope ? scope.options : [];
    for (var i = 0; i < options.length; i++) {
      if (options[i].value === id) return options[i].textContent;
    }
    return id;
  }

  // The document an answer was limited to, as the server says ("scope"), not the select's
  // value now: it may have changed while the request was pending. A turn stored by an
  // older version has no scope: the select's value then.
  function scopeOf(data) {
    return data && "scope" in data ? data.scope || null : chosenDoc();
  }

  // "Teilen" beside an answer's "Link kopieren" where the browser has a share sheet (a
  // phone), as on a ruling page: the paragraph's permalink, named as the copy link names it
  function addShare(copyLink) {
    if (typeof navigator.share !== "function" || !copyLink.parentNode) return;
    if (copyLink.parentNode.querySelector("button[data-chat-share]")) return;
    var where = (copyLink.getAttribute("aria-label") || "").replace(/: Link kopieren$/, "");
    var button = el("button", "chat-share text-button", "Teilen");
    button.type = "button";
    button.setAttribute("aria-label", where + ": Teilen");
    button.setAttribute("data-chat-share", where);
    copyLink.after(button);
  }

  // The newest of `tokens` that fit in an address (LINK_CHARS).
  function linkTokens(tokens) {
    var kept = [];
    var budget = LINK_CHARS;
    for (var i = tokens.length - 1; i >= 0; i--) {
      if (typeof tokens[i] !== "string") continue; // a turn stored by an older version
      budget -= new URLSearchParams({ t: tokens[i] }).toString().length + 1;
      if (budget < 0) break;
      kept.unshift(tokens[i]);
    }
    return kept;
  }

  function chatUrl(question, tokens, doc) {
    var params = new URLSearchParams();
    if (question) params.append("q", question);
    tokens.forEach(function (token) {
      params.append("t", token);
    });
    if (doc) params.append("doc", doc);
    // opens at the newest answer, as the page does
    return sitePath("/ask?") + params.toString() + "#neu";
  }

  // /ask?q=…&t=…: `question` asked after the newest earlier turns that fit.
  function askUrl(question, before, doc) {
    return chatUrl(question, linkTokens(before), doc);
  }

  // The conversation's address once `data` answered, as a form post is redirected to
  // (/ask?t=…): the server renders it from the tokens without answering anything again
  // (a reload, or Back to a page no longer in memory). A turn whose token does not fit
  // gets the address that asks its question.
  function turnUrl(data, before) {
    var kept = typeof data.turn === "string" ? linkTokens(before.concat([data.turn])) : [];
    if (!kept.length || kept[kept.length - 1] !== data.turn) {
      return askUrl(data.question, before, scopeOf(data));
    }
    return chatUrl(null, kept, scopeOf(data));
  }

  // the question as the page shows it (a screen reader hears "Ihre Frage:" first)
  function questionLine(question) {
    var line = el("p", "turn-q");
    line.appendChild(el("span", "visually-hidden", "Ihre Frage: "));
    line.appendChild(document.createTextNode(question));
    return line;
  }

  // The passage from `from` to `to` of the answer's text, its key sentence marked, with "…"
  // where it is cut (templates/ask/_turn.html).
  function passageQuote(ans, hl, from, to, markClass) {
    var quote = el("blockquote", "passage");
    quote.setAttribute("cite", ans.url);
    var p = el("p");
    var text = ans.text;
    p.appendChild(document.createTextNode((from > 0 ? "… " : "") + text.slice(from, hl.start)));
    p.appendChild(el("mark", markClass, text.slice(hl.start, hl.end)));
    p.appendChild(document.createTextNode(text.slice(hl.end, to) + (to < text.length ? " …" : "")));
    quote.appendChild(p);
    return quote;
  }

  // A table answer as a table, header row first, after the prose its paragraph holds
  // before it (templates/ask/_turn.html): its text runs the cells together.
  function passageTable(ans) {
    var quote = el("blockquote", "passage passage-table");
    quote.setAttribute("cite", ans.url);
    if (ans.table_lead) quote.appendChild(el("p", null, ans.table_lead));
    var scroll = el("div", "table-scroll");
    // focusable: a keyboard scrolls it sideways when it is wider than the screen
    scroll.setAttribute("tabindex", "0");
    scroll.setAttribute("role", "region");
    scroll.setAttribute("aria-label", "Tabelle (seitlich verschiebbar)");
    scroll.setAttribute("data-scroll-label", "Tabelle"); // app.js: a stop only while it scrolls
    var table = el("table");
    ans.table.forEach(function (row, n) {
      var tr = el("tr");
      row.forEach(function (value) {
        tr.appendChild(el(n === 0 ? "th" : "td", null, value));
      });
      table.appendChild(tr);
    });
    scroll.appendChild(table);
    quote.appendChild(scroll);
    return quote;
  }

  // Entries as links with their document (title · document), as the page lists them.
  function entryList(items, className) {
    var ul = el("ul", className);
    items.forEach(function (r) {
      var li = el("li");
      li.appendChild(link(r.url, r.title));
      if (r.doc_title) {
        li.appendChild(document.createTextNode(" "));
        li.appendChild(el("span", "doc-meta", "· " + r.doc_title));
      }
      if (r.matched === false) {
        // a search hit that holds no word of the question (faq_bot.search.UNWORDED)
        li.appendChild(document.createTextNode(" "));
        li.appendChild(el("span", "doc-meta unworded", "· ohne Suchwort, nur inhaltlich ähnlich"));
      }
      ul.appendChild(li);
    });
    return ul;
  }

  // a question shaped like a follow-up that was read on its own (data.alone), as
  // templates/ask/_turn.html says it
  var ALONE = "Für sich gelesen, nicht im Zusammenhang mit Ihrer vorigen Frage.";

  function renderAnswer(data, box, before) {
    // probable: a confident answer that says it is unsure (templates/ask/_turn.html)
    box.className =
      "turn-a " + (data.confident ? "confident" : "unsure") + (data.caution ? " probable" : "");
    while (box.firstChild) box.removeChild(box.firstChild);
    if (data.context) {
      // read as a follow-up: the question on its own a tap away (templates/ask/_turn.html)
      var context = el("p", "turn-context", "Im Zusammenhang mit Ihrer Frage „" + data.context + "“ · ");
      context.appendChild(link(chatUrl(data.question, [], scopeOf(data)), "Als neue Frage stellen"));
      box.appendChild(context);
    } else if (data.alone) {
      // shaped like a follow-up, read on its own (templates/ask/_turn.html)
      box.appendChild(el("p", "turn-context", ALONE));
    }
    box.appendChild(el("p", "turn-message", data.message));
    if (data.caution) box.appendChild(el("p", "turn-caution", data.caution));
    var ans = data.answer;
    if (ans) {
      var hl = ans.highlight || { start: 0, end: 0 };
      // a long paragraph: the sentences around the key sentence first ("excerpt"), the whole
      // a tap away; an answer of an older version has no excerpt: all of it
      var ex = ans.excerpt || { start: 0, end: ans.text.length };
      if (ans.table) {
        box.appendChild(passageTable(ans)); // shown whole, as a table
      } else {
        box.appendChild(passageQuote(ans, hl, ex.start, ex.end, "key"));
      }
      if (ans.rest) {
        // a list too long for an answer: how many items it leaves out (templates/ask/_turn.html)
        var rest = el("p", "passage-rest");
        rest.appendChild(link(ans.rest.url, ans.rest.label));
        box.appendChild(rest);
      }
      if (!ans.table && (ex.start > 0 || ex.end < ans.text.length)) {
        var whole = el("details", "passage-whole");
        whole.appendChild(el("summary", null, "Ganzen Absatz lesen"));
        whole.appendChild(passageQuote(ans, hl, 0, ans.text.length, null));
        box.appendChild(whole);
      }

      var source = el("p", "passage-source");
      source.appendChild(
        link(ans.sentence_url || ans.url, ans.title + ", Absatz " + (ans.paragraph + 1), "passage-link")
      );
      source.appendChild(document.createTextNode(" "));
      source.appendChild(
        el("span", "doc-meta", (ans.doc_title || "") + (ans.date_text ? " · Stand: " + ans.date_text : ""))
      );
      box.appendChild(source);

      // the paragraph's permalink (an answer of an older version has none: its anchor);
      // the names say which paragraph, as the page's (templates/ask/_turn.html)
      var where = "„" + ans.title + "“, Absatz " + (ans.paragraph + 1);
      var actions = el("div", "passage-actions");
      var copyLink = link(ans.paragraph_url || ans.url, "Link kopieren", "chat-copy");
      copyLink.setAttribute("aria-label", where + ": Link kopieren");
      copyLink.setAttribute("data-copied", "Link zu " + where + " kopiert.");
      copyLink.setAttribute("data-chat-copy", "");
      copyLink.setAttribute("role", "button"); // it copies, not opens: Space acts too
      actions.appendChild(copyLink);
      addShare(copyLink);
      var details = el("details", "chat-cite");
      var summary = el("summary", null, "Zitieren");
      summary.setAttribute("aria-label", where + ": Zitieren");
      details.appendChild(summary);
      details.appendChild(el("p", "citation", ans.citation));
      // copied by app.js, as on a ruling page (templates/ask/_turn.html)
      var citeCopy = el("button", "secondary", "Zitat kopieren");
      citeCopy.type = "button";
      citeCopy.setAttribute("data-copy-text", ans.citation);
      citeCopy.setAttribute("aria-label", where + ": Zitat kopieren");
      citeCopy.setAttribute("data-copied", "Zitat aus " + where + " kopiert.");
      citeCopy.setAttribute("data-status", "chat-status");
      details.appendChild(citeCopy);
      actions.appendChild(details);
      box.appendChild(actions);
      if (data.caution) {
        // an unsure answer: the other candidates a tap away, as a declined one offers them
        var probableSearch = el("p", "search-link");
        probableSearch.appendChild(searchLink(data.search_query || data.question, scopeOf(data)));
        box.appendChild(probableSearch);
      }
    }
    if (data.suggestion) {
      var s = el("p", "suggestion", "Meinten Sie: ");
      var sLink = link(askUrl(data.suggestion, before, scopeOf(data)), data.suggestion);
      sLink.setAttribute("data-chat-ask", data.suggestion);
      s.appendChild(sLink);
      if (!/\?$/.test(data.suggestion)) s.appendChild(document.createTextNode("?"));
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
    if (links.length) {
      box.appendChild(el("p", "related-h", "Siehe auch:"));
      box.appendChild(entryList(links, "related"));
    }
    if (others.length && ans) {
      // folded under an answer, as templates/ask/_turn.html: the follow-up's field nearer
      var more = el("details", "related-more");
      more.appendChild(el("summary", "related-h", "Ähnliche Einträge (" + others.length + ")"));
      more.appendChild(entryList(others, "related"));
      box.appendChild(more);
    } else if (others.length) {
      box.appendChild(entryList(others, "related")); // declined: the message introduces them
    }
    if (!ans) {
      if (data.earlier) {
        // declined in a conversation: the entry it was about, a tap away
        box.appendChild(el("p", "related-h", "Zuletzt ging es um:"));
        box.appendChild(entryList([data.earlier], "related earlier"));
      }
      // declined: the search shows the closest entries with their snippets
      var search = el("p", "search-link");
      var query = data.search_query || data.question; // a follow-up with its earlier question
      search.appendChild(searchLink(query, scopeOf(data)));
      box.appendChild(search);
      var first = data.search_first || []; // an answer of an older version has none
      if (first.length) {
        // that search's first hits (not those listed above: then „außerdem“, as
        // faq_bot/chat/wording.py search_first_heading): one round trip less
        var searchHeading = (data.related || []).length ? "außerdem:" : "zuerst:";
        box.appendChild(el("p", "related-h", "Die Suche findet " + searchHeading));
        box.appendChild(entryList(first, "related search-first"));
      }
      var within = scopeOf(data);
      if (within) {
        // declined within one document: say so, and offer the same question over all of them
        var note = el("p", "scope-link", "Nur in „" + docTitle(within) + "“ gesucht. ");
        note.appendChild(link(askUrl(data.question, before, null), "In allen Dokumenten fragen"));
        box.appendChild(note);
      }
    }
    if (data.check_url) {
      var check = el("p", "check-link");
      check.appendChild(link(data.check_url, "Im Aktionsstapel-Prüfer nachspielen: wer zuerst, wer bezahlt"));
      box.appendChild(check);
    }
  }

  // The search for `question` within the chosen document, as a declined answer offers it.
  function searchLink(question, doc) {
    var params = doc ? { q: question, doc: doc } : { q: question };
    var url = sitePath("/search?") + new URLSearchParams(params).toString();
    return link(url, "In der Suche nachsehen: „" + question + "“");
  }

  // What a screen reader hears of a new answer: that it was read as a follow-up, its message
  // and caution (an unsure answer's warning), then the passage's place and the part of it
  // the turn shows first (the excerpt, at most SPOKEN characters)
  var SPOKEN = 400;
  function spoken(data) {
    var said = [];
    if (data.context) said.push("Im Zusammenhang mit Ihrer Frage „" + data.context + "“.");
    else if (data.alone) said.push(ALONE);
    said.push(data.message);
    if (data.caution) said.push(data.caution);
    var ans = data.answer;
    var closest = data.related || [];
    if (!ans && closest.length) {
      // a declined answer's message introduces its closest entries (listed under it, as
      // renderAnswer does): they are said with it
      said.push(closest.map(function (r) { return "„" + r.title + "“"; }).join(", ") + ".");
    }
    if (ans) {
      var ex = ans.excerpt || { start: 0, end: ans.text.length };
      var text = ans.text.slice(ex.start, ex.end);
      if (text.length > SPOKEN) text = text.slice(0, SPOKEN).replace(/\s+\S*$/, "") + " …";
      said.push("„" + ans.title + "“, Absatz " + (ans.paragraph + 1) + ": " + text);
    }
    return said.join(" ");
  }

  function buildTurn(data, before) {
    var turn = el("li", "turn");
    turn.appendChild(questionLine(data.question));
    var box = el("div", "turn-a");
    turn.appendChild(box);
    turn.setAttribute("data-question", data.question);
    turn.setAttribute("data-entry", data.answer ? data.answer.entry.id : "");
    if (data.back) turn.setAttribute("data-back", "1");
    turn.setAttribute("data-turn", data.turn || "");
    renderAnswer(data, box, before);
    return turn;
  }

  window.faqBot.chatRender = {
    chosenDoc: chosenDoc,
    scopeOf: scopeOf,
    addShare: addShare,
    chatUrl: chatUrl,
    askUrl: askUrl,
    turnUrl: turnUrl,
    questionLine: questionLine,
    searchLink: searchLink,
    spoken: spoken,
    buildTurn: buildTurn,
  };
})();
