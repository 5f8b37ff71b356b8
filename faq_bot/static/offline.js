// Regelsuche offline: renders the page the person asked for from the offline copy
// (/offline-data.json, written at index time by faq_bot/offline.py) when the
// service worker answered with the offline shell. Search terms come from the
// server's analysis; this file only folds the query the same way (the rules are
// in the data: lower case, character table, "ae/oe/ue" digraphs, accents) and
// matches terms as prefixes. Everything is built with textContent, never HTML.
"use strict";

(function () {
  var root = document.getElementById("offline-app");
  if (!root) return;
  // This page is built here, not the one the browser last showed at this address: its
  // scroll position (a reload keeps it) would open this one below the offline note.
  if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";
  var MAX_HITS = 20; // shown at first; "Mehr Treffer zeigen" asks for up to data-max-hits (?n=)
  var MORE_HITS = parseInt(root.getAttribute("data-max-hits") || "", 10) || 50;

  // the build time in the phone's own time zone (the server writes it in UTC)
  var stand = document.getElementById("offline-stand");
  if (stand) {
    var when = new Date(stand.getAttribute("datetime") || "");
    if (!isNaN(when.getTime())) {
      stand.textContent =
        when.toLocaleString("de-DE", {
          day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit",
        }) + " Uhr";
    }
  }

  // "Erneut versuchen": the service worker cut this page off after a few seconds; a server
  // that is only slow would be cut off again, so the worker is asked first to let this
  // address's next load wait longer (sw.js, RETRY_TIMEOUT_MS), then the page loads again
  var retry = document.querySelector(".offline-banner a");
  if (retry && navigator.serviceWorker && window.MessageChannel) {
    retry.addEventListener("click", function (event) {
      // the worker in charge now: a new build's worker may have taken over since the load
      var worker = navigator.serviceWorker.controller;
      if (!worker) return; // no worker: the link loads the page again as it is
      event.preventDefault();
      retry.textContent = "Warten auf den Server …";
      retry.setAttribute("aria-disabled", "true");
      var reloaded = false;
      function reload() {
        if (reloaded) return;
        reloaded = true;
        location.reload();
      }
      var channel = new MessageChannel();
      channel.port1.onmessage = reload;
      worker.postMessage({ type: "retry", url: location.href }, [channel.port2]);
      setTimeout(reload, 1000); // an older worker that does not answer: load again anyway
    });
  }

  var el = window.faqBot.el; // DOM helpers shared through app.js
  // the search over the offline copy (offline-search.js, loaded before this file). A shell
  // stored by an older release has no such script (a worker that stored files of two
  // releases during a rolling update): the note a missing copy gets, not a blank page
  var found = window.faqBotOfflineSearch;
  if (!found) {
    copyMissing();
    return;
  }
  var makeFold = found.makeFold;
  var spelledOut = found.spelledOut;
  var Search = found.Search;
  var best = found.best;
  var rank = found.rank;
  var matchesAny = found.matchesAny;
  var snippet = found.snippet;
  var WORD = found.WORD;
  var MIN_FUZZY_LENGTH = parseInt(root.getAttribute("data-min-fuzzy-length") || "", 10) || 5;
  var link = window.faqBot.link;
  var sitePath = window.faqBot.path; // an address of this site, under the app's root

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  // `text` into `parent`, the words matching `terms` in <mark>.
  function marked(parent, text, terms, fold) {
    var pos = 0;
    text.replace(WORD, function (word, offset) {
      if (terms.length && matchesAny(fold(word), terms)) {
        parent.appendChild(document.createTextNode(text.slice(pos, offset)));
        parent.appendChild(el("mark", null, word));
        pos = offset + word.length;
      }
      return word;
    });
    parent.appendChild(document.createTextNode(text.slice(pos)));
    return parent;
  }

  function entryUrl(id, query, paragraph) {
    var url = sitePath("/entry/") + encodeURIComponent(id);
    if (query) url += "?h=" + encodeURIComponent(query);
    if (paragraph) url += "#p" + paragraph;
    return url;
  }

  function docTitles(data) {
    var titles = Object.create(null); // no inherited keys: "?doc=constructor" is no document
    data.documents.forEach(function (d) {
      titles[d.id] = d;
    });
    return titles;
  }

  // `scope` ({doc, category}, each optional) rides along as hidden fields, as the
  // server's search form keeps its filters
  function searchForm(query, scope) {
    var form = el("form", "search-form");
    form.setAttribute("role", "search");
    form.setAttribute("action", sitePath("/search"));
    form.setAttribute("method", "get");
    ["doc", "category"].forEach(function (name) {
      if (!scope || !scope[name]) return;
      var hidden = el("input");
      hidden.type = "hidden";
      hidden.name = name;
      hidden.value = scope[name];
      form.appendChild(hidden);
    });
    var label = el("label", null, "Suchbegriff (offline)");
    label.setAttribute("for", "offline-q");
    var row = el("div", "search-row");
    var input = el("input");
    input.id = "offline-q";
    input.type = "search";
    input.name = "q";
    input.value = query || "";
    input.setAttribute("data-shortcut", ""); // "/" jumps here (app.js), the header's box is gone
    row.appendChild(input);
    row.appendChild(el("button", null, "Suchen"));
    form.appendChild(label);
    form.appendChild(row);
    return form;
  }

  // The filters of the address (?doc=, and for a search ?category=) the stored copy can
  // apply, as the server's search does; a document it does not know is no filter.
  function scopeOf(data, params, withCategory) {
    var doc = (params.get("doc") || "").trim();
    var category = withCategory ? (params.get("category") || "").trim() : "";
    return { doc: docTitles(data)[doc] ? doc : "", category: category };
  }

  // a category by name or slug in any case ("FÄHIGKEIT", "faehigkeit"), compared by the
  // server's slug (`slugify`), as its search filters
  function inScope(search, entry, scope) {
    return (
      (!scope.doc || entry.doc === scope.doc) &&
      (!scope.category || (!!entry.category && slugify(entry.category) === slugify(scope.category)))
    );
  }

  // The query's groups, each word no entry matches joined by its spelling as the copy has
  // it (`Search.corrected`); `corrections` collects those.
  function correctedGroups(data, search, query, corrections) {
    return search.groups(query).map(function (group) {
      var matched = data.entries.some(function (entry) {
        return group.some(function (q) {
          return best(q, entry.t) || best(q, entry.a) || best(q, entry.x);
        });
      });
      var better = matched ? null : search.corrected(group[0], group.typed);
      if (!better) return group;
      corrections.push(better);
      return group.concat([better]);
    });
  }

  // `exact`: the words as typed (genau=1), no similar spellings, as the server's search
  function renderSearch(data, search, query, scope, wanted, exact) {
    scope = scope || { doc: "", category: "" };
    var shown = Math.min(wanted >= 1 ? wanted : MAX_HITS, MORE_HITS); // NaN, 0, -5: the default
    var docs = docTitles(data);
    var corrections = [];
    var groups = !query ? [] : exact ? search.groups(query) : correctedGroups(data, search, query, corrections);
    var terms = [].concat.apply([], groups);
    var hits = query ? rank(data, groups).filter(function (hit) {
      return inScope(search, hit.entry, scope);
    }) : [];
    // a query that is a headword, an alias or an id as a whole puts that entry first, as
    // the server's search does (faq_bot/names.py named_entry); the sort keeps the rest
    var named = query ? findEntry(data, query.trim()) : null;
    // with an article before it ("die Endphase"; the server's faq_bot/names.py ARTICLE,
    // in the data) or as corrected ("Endfase"), as the server's named_entry
    var article = data.article ? new RegExp(data.article, "i") : null;
    if (!named && query && article && article.test(query.trim())) {
      named = findEntry(data, query.trim().replace(article, ""));
    }
    if (!named && groups.length === 1 && corrections.length === 1) {
      named = findEntry(data, corrections[0]);
    }
    if (named) {
      hits.sort(function (a, b) { return (b.entry === named) - (a.entry === named); });
    }
    document.title = (query ? "„" + query + "“ – " : "") + "Suche (offline) · Regelsuche";
    if (!query) {
      root.appendChild(searchForm("", scope));
      root.appendChild(el("h1", null, "Suche"));
      return;
    }
    root.appendChild(
      el("h1", "result-count", (hits.length === 1 ? "1 Treffer" : hits.length + " Treffer") + " für „" + query + "“" +
        (scope.doc ? " in " + docs[scope.doc].title : "") +
        (scope.category ? " (Kategorie " + scope.category + ")" : ""))
    );
    if (scope.doc || scope.category) {
      var all = el("p");
      all.appendChild(link(sitePath("/search?") + new URLSearchParams({ q: query }).toString(), "Ohne Filter in allen Dokumenten suchen"));
      root.appendChild(all);
    }
    if (exact) {
      // as the server's page: searched as typed, and the way back where a correction applies
      var would = [];
      correctedGroups(data, search, query, would);
      if (would.length) {
        var asRead = { q: query };
        if (scope.doc) asRead.doc = scope.doc;
        if (scope.category) asRead.category = scope.category;
        var back = el("p", "suggestion", "Ohne Rechtschreibkorrektur gesucht. ");
        back.appendChild(link(sitePath("/search?") + new URLSearchParams(asRead).toString(), "Mit Rechtschreibkorrektur suchen", "exact"));
        root.appendChild(back);
      }
    }
    if (corrections.length) {
      // the copy's terms are folded ("zerstorer"): the note says what was done, not them
      var note = el("p", "suggestion", "Kein Eintrag enthält das Wort so geschrieben; " +
        "gesucht wurde auch nach ähnlich geschriebenen Wörtern. ");
      var typed = { q: query, genau: "1" };
      if (scope.doc) typed.doc = scope.doc;
      if (scope.category) typed.category = scope.category;
      note.appendChild(link(sitePath("/search?") + new URLSearchParams(typed).toString(), "Stattdessen wie getippt suchen", "exact"));
      root.appendChild(note);
    }
    if (!hits.length) {
      root.appendChild(el("p", null, "Zu „" + query + "“ wurde in der gespeicherten Fassung nichts gefunden."));
      return;
    }
    var list = el("ol", "hits");
    hits.slice(0, shown).forEach(function (hit, i) {
      var e = hit.entry;
      var snip = snippet(e, groups, search.fold);
      var li = el("li", "hit");
      li.id = "treffer-" + (i + 1); // as the server numbers them (templates/_macros.html)
      var h2 = el("h2", "hit-title");
      h2.appendChild(link(entryUrl(e.id, query, snip.paragraph), e.title));
      li.appendChild(h2);
      li.appendChild(el("p", "hit-meta", (docs[e.doc] || {}).title || e.doc));
      li.appendChild(marked(el("p", "snippet"), snip.text, terms, search.fold));
      list.appendChild(li);
    });
    root.appendChild(list);
    if (hits.length > shown && shown < MORE_HITS) {
      var more = el("p", "more");
      var params = { q: query, n: String(MORE_HITS) };
      if (exact) params.genau = "1";
      if (scope.doc) params.doc = scope.doc;
      if (scope.category) params.category = scope.category;
      // opens the longer list at the first hit not shown before, as the server's link does
      more.appendChild(link(sitePath("/search?") + new URLSearchParams(params).toString() +
        "#treffer-" + (shown + 1), "Mehr Treffer zeigen"));
      root.appendChild(more);
    }
    showHashTarget();
  }

  function byId(data, id) {
    for (var i = 0; i < data.entries.length; i++) {
      var e = data.entries[i];
      if (e.id === id || e.alias_ids.indexOf(id) >= 0) return e;
    }
    return null;
  }

  // A URL slug as the server makes one (faq_bot/text.py slugify): "Ölfeld" -> "oelfeld".
  function slugify(text) {
    var s = String(text || "").normalize("NFC").toLowerCase()
      .replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue").replace(/ß/g, "ss");
    s = s.normalize("NFKD").replace(/[^\x00-\x7f]/g, "");
    return s.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  }

  // The entry an address names as the server finds it (Index.canonical_id): its id or an
  // alias id, the same as a slug ("Aktionsstapel", "aktionsstapel)"), or an abbreviation
  // of the players' words table spelled out ("227er" -> the 227-Pfund Bombe).
  function findEntry(data, id) {
    var found = byId(data, id);
    var slug = slugify(id);
    if (!found && slug) found = byId(data, slug);
    if (!found) {
      var spelled = spelledOut(data, makeFold(data.fold)(id));
      if (spelled.length) found = byId(data, slugify(spelled.join(" ")));
    }
    return found;
  }

  // A paragraph's fingerprint (the "v" of its permalink, faq_bot/text.py): the first
  // data-fingerprint-length hex digits of the SHA-256 of its plain text.
  // A "v" may be cut short to its first data-fingerprint-min digits or more (a forum's or a
  // chat app's shortened link): it matches the paragraphs whose fingerprint it begins.
  var PRINT = parseInt(root.getAttribute("data-fingerprint-length") || "", 10) || 8;
  var PRINT_MIN = parseInt(root.getAttribute("data-fingerprint-min") || "", 10) || PRINT;
  var VERSION = new RegExp("^[0-9a-f]{" + PRINT_MIN + "," + PRINT + "}$");

  function fingerprint(text) {
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(function (hash) {
      var hex = "";
      new Uint8Array(hash).forEach(function (b) { hex += (b < 16 ? "0" : "") + b.toString(16); });
      return hex.slice(0, PRINT);
    });
  }

  // Where a paragraph's permalink leads among the entry's paragraphs now, as the server's
  // locate (faq_bot/web/permalink.py): "here", "moved" (the nearest paragraph with the
  // linked text), "changed" (its text changed), "gone" or "missing" (no such number).
  // A "v" as the server tidies one (faq_bot/web/permalink.py tidy_version): a fingerprint in
  // any case, with up to 8 characters a copy put before it (" 803f02e1") or a sentence or an
  // autolinker adds after it ("803f02e1).").
  var TIDY = new RegExp("^[^0-9A-Za-z]{0,8}([0-9A-Fa-f]{" + PRINT_MIN + "," + PRINT + "})[^0-9A-Za-z]{0,8}$");

  function tidyVersion(raw) {
    var found = TIDY.exec(raw);
    return found ? found[1].toLowerCase() : raw;
  }

  function locate(paragraphs, index, version) {
    var exists = index >= 0 && index < paragraphs.length;
    var plain = { where: exists ? "here" : "missing", index: index };
    // without a valid "v" (the server answers 400), or without WebCrypto: the number alone
    if (!VERSION.test(version) || !(window.crypto && crypto.subtle)) return Promise.resolve(plain);
    return Promise.all(paragraphs.map(fingerprint)).then(function (prints) {
      if (exists && prints[index].indexOf(version) === 0) return plain;
      var best = -1;
      prints.forEach(function (p, i) {
        if (p.indexOf(version) === 0 && (best < 0 || Math.abs(i - index) < Math.abs(best - index))) best = i;
      });
      if (best >= 0) return { where: "moved", index: best };
      return { where: exists ? "changed" : "gone", index: index };
    }, function () { return plain; });
  }

  // The note the server's page shows where a permalink no longer leads to its text
  // (faq_bot.web.permalink.LINK_NOTES, handed over by the shell, with the same placeholders).
  var NOTES = {};
  try {
    NOTES = JSON.parse(root.getAttribute("data-link-notes") || "{}");
  } catch (error) {
    NOTES = {};
  }

  function linkedNote(entry, linked, number) {
    var note = NOTES[linked.where];
    if (!note) return "";
    var n = entry.paragraphs.length;
    var count = n === 1 ? NOTES.count_one || "" : (NOTES.count_many || "").replace("{n}", String(n));
    var values = { number: String(number), title: entry.title, count: count };
    return note.replace(/\{(number|title|count)\}/g, function (_all, name) { return values[name]; });
  }

  // A paragraph's permalink (/entry/<id>/absatz/<n>?v=…) opens its entry at the paragraph
  // it leads to: a moved one under its new number, as the server redirects.
  function renderLinked(data, search, id, number, version) {
    var entry = findEntry(data, id);
    if (!entry) return renderMissing(data, search);
    return locate(entry.paragraphs, Number(number) - 1, version).then(function (linked) {
      var path = location.pathname;
      if (linked.where === "moved") path = path.replace(/\/absatz\/[0-9]+$/, "/absatz/" + (linked.index + 1));
      var known = linked.where === "here" || linked.where === "moved" || linked.where === "changed";
      history.replaceState(null, "", path + location.search + (known ? "#p" + linked.index : ""));
      renderEntry(data, search, id, "", linkedNote(entry, linked, number));
    });
  }

  function renderEntry(data, search, id, highlight, note) {
    var entry = findEntry(data, id);
    if (!entry) return renderMissing(data, search);
    var doc = docTitles(data)[entry.doc] || { title: entry.doc };
    var terms = highlight ? search.terms(highlight) : [];
    document.title = entry.title + " – " + doc.title + " (offline) · Regelsuche";
    var crumbs = el("nav", "crumbs");
    crumbs.setAttribute("aria-label", "Brotkrumen");
    crumbs.appendChild(link(sitePath("/"), "Start"));
    // the separator is decoration, seen and not read, as on the server's page
    crumbs.appendChild(document.createTextNode(" "));
    var separator = el("span", null, "›");
    separator.setAttribute("aria-hidden", "true");
    crumbs.appendChild(separator);
    crumbs.appendChild(document.createTextNode(" "));
    crumbs.appendChild(link(sitePath("/docs/") + encodeURIComponent(doc.id), doc.title));
    root.appendChild(crumbs);
    var article = el("article", "ruling");
    var head = el("header", "ruling-head");
    head.appendChild(el("h1", null, entry.title));
    head.appendChild(
      el("p", "ruling-meta", doc.title + (doc.date_text ? " · Stand: " + doc.date_text : "") + (entry.category ? " · " + entry.category : ""))
    );
    article.appendChild(head);
    var notes = docNotes(doc);
    if (notes) article.appendChild(notes);
    if (note) article.appendChild(el("p", "linked-note", note));
    var body = el("div", "ruling-body");
    var context = "„" + entry.title + "“ · " + doc.title + " · " +
      (doc.date_text ? "Stand: " + doc.date_text : "ohne Datum"); // as templates/pages/entry.html
    entry.paragraphs.forEach(function (text, i) {
      var para = el("div", "para");
      para.id = "p" + i;
      para.appendChild(el("p", "para-context", context)); // shown when a link jumps here
      var num = el("a", "para-num", "Absatz " + (i + 1));
      num.setAttribute("href", "#p" + i);
      para.appendChild(num);
      var p = el("div", "para-text");
      p.appendChild(marked(el("p"), text, terms, search.fold));
      para.appendChild(p);
      body.appendChild(para);
    });
    article.appendChild(body);
    crossReferences(data, entry, doc, article);
    root.appendChild(article);
    showHashTarget();
  }

  // The document's precedence notes and own notes, as templates/_macros.html's doc_notes
  // shows them on each ruling (offline they were missing: a review); null when it has none
  // (or the copy was written before they were stored)
  function docNotes(doc) {
    var precedence = doc.precedence_notes || [];
    if (!doc.notes && !precedence.length) return null;
    var details = el("details", "notes");
    details.appendChild(el("summary", null, precedence.length
      ? "Vorrang: Bei Widersprüchen gilt die FAQ" : "Hinweis zu diesem Dokument"));
    precedence.forEach(function (text) {
      details.appendChild(el("p", "precedence", text));
    });
    if (doc.notes) details.appendChild(el("p", null, doc.notes));
    return details;
  }

  // The element the address's #hash names (a paragraph, a hit), made after the page loaded:
  // the browser scrolled to nothing, so it is scrolled to and marked here
  function showHashTarget() {
    if (!location.hash) return;
    var target = document.getElementById(location.hash.slice(1));
    if (!target) return;
    // :target does not match an element made after the page loaded: say it by class
    target.classList.add("is-target");
    window.addEventListener("hashchange", function () {
      target.classList.remove("is-target"); // another anchor: :target takes over
    }, { once: true });
    target.scrollIntoView();
  }

  // "Siehe auch" and "Verweise hierher", as templates/pages/entry.html lists them (a copy
  // written before they were stored offline has neither)
  function crossReferences(data, entry, doc, article) {
    var docs = docTitles(data);
    function section(cls, heading, ids, empty, withDoc) {
      var others = (ids || []).map(function (id) { return findEntry(data, id); })
        .filter(function (e) { return e; });
      if (!others.length && !empty) return;
      var box = el("section", cls);
      var h = el("h2", null, heading);
      h.id = cls + "-h";
      box.setAttribute("aria-labelledby", h.id);
      box.appendChild(h);
      if (!others.length) box.appendChild(el("p", "muted", empty));
      var list = el("ul");
      others.forEach(function (other) {
        var li = el("li");
        var a = link(entryUrl(other.id), other.title);
        a.className = "xref";
        li.appendChild(a);
        if (withDoc && other.doc !== doc.id) {
          li.appendChild(document.createTextNode(" "));
          li.appendChild(el("small", null, "(" + ((docs[other.doc] || {}).title || other.doc) + ")"));
        }
        list.appendChild(li);
      });
      if (others.length) box.appendChild(list);
      article.appendChild(box);
    }
    section("see-also", "Siehe auch", entry.see, "", false);
    if (entry.back) {
      section("backlinks", "Verweise hierher", entry.back, "Kein anderer Eintrag verweist hierher.", true);
    }
  }

  function renderDocument(data, search, id) {
    var doc = docTitles(data)[id];
    if (!doc) return renderMissing(data, search);
    document.title = doc.title + " (offline) · Regelsuche";
    root.appendChild(el("h1", null, doc.title));
    var list = el("ul", "toc");
    doc.entry_ids.forEach(function (eid) {
      var e = findEntry(data, eid);
      if (!e) return;
      var li = el("li");
      li.appendChild(link(entryUrl(e.id), e.title));
      list.appendChild(li);
    });
    root.appendChild(list);
  }

  function renderHome(data, search) {
    root.appendChild(el("h1", null, "Regeln nachschlagen"));
    root.appendChild(searchForm(""));
    root.appendChild(el("h2", null, "Dokumente"));
    var list = el("ul", "doc-list");
    data.documents.forEach(function (d) {
      var li = el("li");
      li.appendChild(link(sitePath("/docs/") + encodeURIComponent(d.id), d.title));
      li.appendChild(el("span", "doc-meta", d.date_text ? " Stand: " + d.date_text : ""));
      list.appendChild(li);
    });
    root.appendChild(list);
  }

  // The answers this tab already had, as chat.js keeps them (sessionStorage, up to the
  // turn count of this history entry, as its restore reads them): they came from the server
  // to this tab like the page that showed them, so a reload or Back without a connection
  // shows them again, read only. Only for an entry of the conversation (its state counts
  // its turns): a new visit starts a new conversation, as online. [] when there are none or
  // the storage is unreadable.
  function storedTurns() {
    var state = window.history.state;
    if (!state || typeof state.chat !== "number") return [];
    return window.faqBot.storedChat().filter(function (t) {
      return t && t.data && typeof t.data.question === "string" && typeof t.n === "number" &&
        t.n <= state.chat;
    });
  }

  // One stored answer in the chat's markup (templates/ask/_turn.html, chat.css): the
  // question, the message and caution, the paragraph and its link.
  function storedTurn(data) {
    var turn = el("li", "turn");
    var line = el("p", "turn-q"); // a screen reader hears "Ihre Frage:" first, as online
    line.appendChild(el("span", "visually-hidden", "Ihre Frage: "));
    line.appendChild(document.createTextNode(data.question));
    turn.appendChild(line);
    // probable: an unsure answer, framed as online (templates/ask/_turn.html)
    var box = el(
      "div",
      "turn-a " + (data.confident ? "confident" : "unsure") +
        (typeof data.caution === "string" && data.caution ? " probable" : "")
    );
    if (typeof data.message === "string") box.appendChild(el("p", "turn-message", data.message));
    if (typeof data.caution === "string") box.appendChild(el("p", "turn-caution", data.caution));
    var ans = data.answer;
    var local = ans && typeof ans.url === "string" && /^\/(?!\/)/.test(ans.url); // a path of this site
    if (local && typeof ans.text === "string" && typeof ans.title === "string") {
      var quote = el("blockquote", "passage");
      quote.appendChild(el("p", null, ans.text));
      box.appendChild(quote);
      var source = el("p", "passage-source");
      // at its key sentence, as online, when that link is a path of this site too
      var at = typeof ans.sentence_url === "string" && /^\/(?!\/)/.test(ans.sentence_url) ? ans.sentence_url : ans.url;
      source.appendChild(link(at, ans.title + ", Absatz " + (ans.paragraph + 1), "passage-link"));
      box.appendChild(source);
    }
    turn.appendChild(box);
    return turn;
  }

  // The chat needs the server; a question asked meanwhile is searched in the stored copy,
  // so it is neither lost nor left without an answer. The answers this tab had stay shown.
  function renderAsk(data, search, question, scope) {
    var turns = storedTurns();
    root.appendChild(
      el("p", "offline-note", "Der Chat braucht eine Verbindung zum Server. " +
        (turns.length ? "Die bisherigen Antworten in diesem Tab:" :
          question ? "Treffer für Ihre Frage in der gespeicherten Fassung:" : "Suchen Sie in der gespeicherten Fassung:"))
    );
    if (turns.length) {
      // answers the server rendered (a link, the start page's form) are not in the tab's
      // storage: say that the first ones are missing rather than show a conversation cut short
      var missing = turns[0].n - 1;
      if (missing > 0) {
        root.appendChild(el("p", "offline-note", missing === 1
          ? "Die erste Antwort dieses Gesprächs ist offline nicht gespeichert."
          : "Die ersten " + missing + " Antworten dieses Gesprächs sind offline nicht gespeichert."));
      }
      var log = el("ol", "chat-log");
      turns.forEach(function (t) {
        log.appendChild(storedTurn(t.data));
      });
      root.appendChild(log);
      root.appendChild(el("p", "offline-note", question ?
        "Treffer für Ihre letzte Frage in der gespeicherten Fassung:" : "Suchen Sie in der gespeicherten Fassung:"));
    }
    if (!question) {
      root.appendChild(searchForm("", scope));
      return;
    }
    root.appendChild(searchForm(question, scope));
    renderSearch(data, search, question, scope);
  }

  // The checker resolves a stack on the server: say so, not "not stored". The address (a
  // shared stack's link) stays as it is, so the banner's "Erneut versuchen" loads it.
  function renderCheck() {
    document.title = "Aktionsstapel prüfen (offline) · Regelsuche";
    root.appendChild(el("h1", null, "Aktionsstapel prüfen"));
    root.appendChild(
      el("p", "offline-note", "Der Aktionsstapel-Prüfer braucht eine Verbindung zum Server. " +
        "Sobald die Verbindung wieder steht, oben auf „Erneut versuchen“ tippen. Bis dahin " +
        "können Sie die gespeicherten Regeln durchsuchen:")
    );
    root.appendChild(searchForm(""));
  }

  // The newest question of a conversation's address (/ask?t=…, each earlier turn a token
  // "…~<question>", faq_bot/chat/shown.py): a chat page loaded again without a connection
  // searches it, so the question is not lost. Only the question: the answer a token names
  // is signed by the server and cannot be checked here, so it is not shown as an answer.
  function newestQuestion(tokens) {
    for (var i = tokens.length - 1; i >= 0; i--) {
      var at = tokens[i].indexOf("~");
      var question = at >= 0 ? tokens[i].slice(at + 1).trim() : "";
      if (question) return question;
    }
    return "";
  }

  function renderMissing(data, search) {
    root.appendChild(el("h1", null, "Diese Seite ist offline nicht gespeichert"));
    root.appendChild(el("p", null, "Suchen Sie in der gespeicherten Fassung:"));
    root.appendChild(searchForm(""));
  }

  // An id as the address spells it; "" (no such page) for a broken %-escape, on which
  // decodeURIComponent throws (the shell said the whole offline copy was missing).
  function decoded(part) {
    try {
      return decodeURIComponent(part);
    } catch (error) {
      return "";
    }
  }

  function render(data) {
    var search = new Search(data, MIN_FUZZY_LENGTH);
    var params = new URLSearchParams(location.search);
    var path = window.faqBot.unrooted(location.pathname); // "/faq/search" under a root: "/search"
    clear(root);
    var header = document.getElementById("header-q");
    if (path === "/search") {
      var query = (params.get("q") || "").trim();
      var scope = scopeOf(data, params, true);
      if (header) header.value = query;
      // a new search here keeps the filter, as the server's search page does
      if (query && (scope.doc || scope.category)) root.appendChild(searchForm(query, scope));
      renderSearch(data, search, query, scope, parseInt(params.get("n") || "", 10), params.get("genau") === "1");
    } else if (path.indexOf("/entry/") === 0) {
      var rest = path.slice(7).replace(/\/+$/, ""); // "/entry/x/": the server redirects to /entry/x
      // read as the server reads it (faq_bot/web/permalink.py tidy_number, and „Absatz“ in
      // any case): leading spaces and zeros and what a forum adds after the number are dropped
      var absatz = /^(.*)\/absatz\/(?:%20|%C2%A0|%C2%AD|%E2%80%8[B-F]|%E2%80%A[A-E]|%E2%81%A[0-9]|%EF%BB%BF){0,8}0*([1-9][0-9]*)(?:[).,;:!?\]=]|%[0-9A-Fa-f]{2}){0,8}$/i.exec(rest);
      // the number as its digits: said back as written however long (a number past 2^53 is
      // past the end of every entry all the same)
      if (absatz) renderLinked(data, search, decoded(absatz[1]), absatz[2], tidyVersion(params.get("v") || ""));
      else renderEntry(data, search, decoded(rest), params.get("h") || "");
    } else if (path.indexOf("/docs/") === 0) {
      renderDocument(data, search, decoded(path.slice(6)));
    } else if (path === "/ask") {
      var asked = (params.get("q") || "").trim() || newestQuestion(params.getAll("t"));
      renderAsk(data, search, asked, scopeOf(data, params, false));
    } else if (path === "/check") {
      renderCheck();
    } else if (path === "/" || path === "/offline") {
      renderHome(data, search);
    } else {
      renderMissing(data, search);
    }
    // One search box, as on the server's pages: the shell's header brings one (for a ruling
    // or a contents page, which have none of their own); a page with its own, which keeps
    // the question and the filters, drops the header's.
    var headerForm = header && header.form;
    if (headerForm && root.querySelector("form.search-form")) {
      headerForm.parentNode.removeChild(headerForm);
    }
    // the browser may have scrolled to where the last page at this address was read (a
    // reload restores it before this script runs): this page starts at its top, or at
    // the element its #hash names (showHashTarget; the chat's "#neu" names none here)
    if (!location.hash || !document.getElementById(location.hash.slice(1))) window.scrollTo(0, 0);
  }

  fetch(root.getAttribute("data-src"))
    .then(function (response) {
      if (!response.ok) throw new Error("no offline copy");
      return response.json();
    })
    .then(render)
    .catch(copyMissing);

  function copyMissing() {
    clear(root);
    root.appendChild(el("h1", null, "Offline"));
    root.appendChild(el("p", null, "Die gespeicherte Fassung fehlt. Bitte die Seite einmal mit Verbindung öffnen."));
  }
})();
