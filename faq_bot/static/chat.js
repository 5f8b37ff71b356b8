// The chat on /ask without reloads. The page works without this file: the form
// posts to /ask and the conversation travels in hidden fields "t" (each earlier
// turn as it was shown, a token of faq_bot/chat/shown.py; /api/ask gives it as "turn").
// With it, questions go to /api/ask with the history (earlier questions and the
// entries that answered them); answers are built with the DOM (textContent only,
// never innerHTML), in the markup of templates/ask/_turn.html, by chat-render.js
// (window.faqBot.chatRender), which the page loads before this file.
// Each answer is a history entry, so Back and Forward step through the turns as the
// pages of the form posts do. Copying uses window.faqBot from app.js, which base.html
// loads first.
"use strict";

(function () {
  var form = document.getElementById("chat-form");
  var log = document.getElementById("chat-log");
  if (!form || !log || !window.fetch || !window.faqBot.chatRender) return;
  var input = form.querySelector("input[name=q]");
  var render = window.faqBot.chatRender; // chat-render.js: how an answer looks
  var chosenDoc = render.chosenDoc;
  var scopeOf = render.scopeOf;
  var addShare = render.addShare;
  var chatUrl = render.chatUrl;
  var askUrl = render.askUrl;
  var turnUrl = render.turnUrl;
  var questionLine = render.questionLine;
  var searchLink = render.searchLink;
  var spoken = render.spoken;
  var buildTurn = render.buildTurn;

  var status = document.getElementById("chat-status"); // role=status: what was copied
  var errorBox = document.getElementById("chat-error");
  var errorText = document.getElementById("chat-error-text");
  var retry = document.getElementById("chat-retry");
  var errorSearch = document.getElementById("chat-error-search");
  var newChat = document.getElementById("chat-new"); // „Neues Gespräch beginnen“
  var heading = document.getElementById("chat-h"); // as templates/ask/chat.html words it
  var intro = document.querySelector(".chat .chat-intro");
  var section = form.closest(".chat");
  // a touch screen (a phone at the table): an on-screen keyboard covers half of it
  var TOUCH = !!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
  var MAX_HISTORY = 20;
  var STORE = window.faqBot.chatStore; // sessionStorage: this tab's conversation, not the server
  var failed = null; // the questions given back ({question, doc}), for the retry button
  var pending = null; // the request in flight: {item, turn, controller, timer, slow, failed}
  // Questions asked while one is on its way (the next one typed, a „Meinten Sie“ tapped):
  // shown at once and sent in order once the answer before is in (the second question's
  // Enter did nothing, and a tap on „Meinten Sie“ cancelled the question on its way, without
  // a word: a review). {item: {question, doc}, turn}
  var waiting = [];
  var MAX_WAITING = 5;
  var WAITS = "Wird gestellt, sobald die Antwort davor da ist …";
  var ASKING = STORE + ":asking"; // the questions not answered yet, for a reload meanwhile
  var FIELD = STORE + ":field"; // what the field holds when the page is left (`restore`)
  var queueFull = false; // the message says that no more questions can wait
  // the page is being left (reloaded): the request it cancels failed for no reason a
  // judge needs told, and its questions stay kept for the page that comes
  var leaving = false;
  window.addEventListener("pagehide", function () {
    leaving = true;
    // what the field holds: a question given back there (by Back, or one too many to
    // wait) was lost with a reload (a review)
    try {
      if (input.value.trim()) window.sessionStorage.setItem(FIELD, input.value);
      else window.sessionStorage.removeItem(FIELD);
    } catch (e) {
      // storage blocked: the browser's own form restoring, if any
    }
  });
  window.addEventListener("pageshow", function () {
    leaving = false;
  });

  // Back and Forward as without JavaScript, where each question is a page of its own: each
  // answer is a history entry (pushState) whose state counts the conversation's turns then
  // ({chat: n}); going there shows the turns up to the n-th again, and a question asked then
  // continues from them (the later ones are dropped, as the browser drops forward entries).
  // A page whose address held only the newest turns does not hold the earlier ones: an
  // entry that needs them is loaded from its address.
  var turnItems = []; // the turns this page holds (li elements), shown or not, oldest first
  var firstTurn = 0; // how many turns of the conversation came before turnItems[0]
  var shownTurns = 0; // how many of turnItems the page shows
  // the page's title before any turn (not this page's: a reload of a later turn kept its own)
  var emptyTitle = form.getAttribute("data-empty-title") || document.title;

  var el = window.faqBot.el; // DOM helpers shared through app.js
  var link = window.faqBot.link;
  var sitePath = window.faqBot.path; // an address of this site, under the app's root

  function history() {
    var turns = log.querySelectorAll("li.turn[data-question]");
    var out = [];
    for (var i = 0; i < turns.length; i++) {
      var entry = turns[i].getAttribute("data-entry");
      var turn = { question: turns[i].getAttribute("data-question"), entry: entry || null };
      // read with the last answered question (its answer's "back"): a follow-up reads on there
      if (turns[i].getAttribute("data-back") === "1") turn.back = true;
      out.push(turn);
    }
    return out.slice(-MAX_HISTORY);
  }

  // The turn tokens of the conversation so far (the page renders them without searching).
  function turnTokens() {
    var turns = log.querySelectorAll("li.turn[data-turn]");
    var out = [];
    for (var i = 0; i < turns.length; i++) {
      var token = turns[i].getAttribute("data-turn");
      if (token) out.push(token);
    }
    return out;
  }


  function addHidden(token) {
    var hidden = document.createElement("input");
    hidden.type = "hidden";
    hidden.name = "t";
    hidden.value = token;
    form.insertBefore(hidden, form.querySelector("label")); // after the earlier ones
  }

  // `items`: the questions ({question, doc}) a failure or Back gave back: offered again
  // („Noch einmal versuchen“ asks them all, in order), and the first one's search, which the
  // stored copy answers offline (templates/pwa/sw.js)
  function showError(text, items) {
    queueFull = false;
    // the field's own error (an empty question) is marked by the submit handler after this
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
    if (!errorBox) return;
    if (errorText) errorText.textContent = text;
    else errorBox.textContent = text;
    errorBox.hidden = !text;
    failed = items && items.length ? items : null;
    if (retry) retry.hidden = !failed;
    if (errorSearch) {
      while (errorSearch.firstChild) errorSearch.removeChild(errorSearch.firstChild);
      if (failed) errorSearch.appendChild(searchLink(failed[0].question, failed[0].doc));
      errorSearch.hidden = !failed;
    }
    keepAsking();
  }

  // Say `text` in the chat's status region (faqBot.announce: the same text again is said again).
  function announce(text) {
    window.faqBot.announce(text, status);
  }

  // A turn, the heading or the error box takes the focus without scrolling (what the page
  // scrolls to is decided where it is called)
  function takeFocus(node) {
    node.setAttribute("tabindex", "-1");
    node.focus({ preventScroll: true });
  }

  var SLOW_MS = 5000; // a request still running after this says so
  var SLOW = "Die Antwort dauert länger als sonst. Ich warte noch …"; // a slow line or a busy server

  function timeoutMs() {
    var ms = parseInt(form.getAttribute("data-timeout-ms") || "", 10);
    return ms > 0 ? ms : 15000;
  }

  // The conversation of this tab: kept in sessionStorage and in the URL (/ask?q=…&t=…),
  // so a reload shows it again; nothing is stored on the server.
  var loadStored = window.faqBot.storedChat;

  function store(turns) {
    try {
      window.sessionStorage.setItem(STORE, JSON.stringify(turns.slice(-MAX_HISTORY)));
    } catch (e) {
      /* private mode or full: the URL still holds the turns */
    }
  }

  // The answer as turn number `count` of this tab's conversation: stored (turns after it,
  // left by going Back, are dropped) and a new history entry with its address.
  function remember(data, before, count) {
    var turns = loadStored().filter(function (t) {
      return ((t && t.n) || 0) < count;
    });
    turns.push({ data: data, earlier: before, n: count });
    store(turns);
    if (window.history && window.history.pushState) {
      window.history.pushState({ chat: count }, "", turnUrl(data, before));
    }
  }

  // The page as the server renders the address of the first `count` turns: the log (turns
  // already there stay), the hidden fields
  // "t", the field's label and the title after the newest question.
  function showTurns(count) {
    var keep = turnItems.slice(0, count);
    Array.prototype.slice.call(log.children).forEach(function (item) {
      if (keep.indexOf(item) < 0) log.removeChild(item);
    });
    Array.prototype.slice.call(form.querySelectorAll("input[name=t]")).forEach(function (field) {
      form.removeChild(field);
    });
    keep.forEach(function (item) {
      if (item.parentNode !== log) log.appendChild(item);
      var token = item.getAttribute("data-turn");
      if (token) addHidden(token);
    });
    shownTurns = keep.length;
    var label = form.querySelector("label[for=chat-q]");
    if (label) label.textContent = shownTurns ? "Nachfrage oder neue Frage" : "Ihre Frage";
    if (section) section.classList.toggle("answered", shownTurns > 0);
    if (newChat) newChat.hidden = !shownTurns;
    if (heading) heading.textContent = shownTurns ? "Regelfrage" : "Regelfrage stellen";
    if (intro) intro.hidden = shownTurns > 0;
    document.title = shownTurns // as the page of that address is titled
      ? keep[shownTurns - 1].getAttribute("data-question") + " · Regelsuche"
      : emptyTitle;
  }

  // At load: the turns the server rendered from the address (the newest of this entry's
  // count, when it was here before a reload), or, when a reload or Back/Forward brings back
  // a page the server rendered without them (/ask after a POST), the stored turns up to
  // this entry's count (an entry of an earlier version, or without the history API, has
  // none: all of them). The entry then carries its count.
  function restore() {
    var state = window.history && window.history.state;
    var count = state && typeof state.chat === "number" ? state.chat : null;
    turnItems = Array.prototype.slice.call(log.querySelectorAll("li.turn"));
    var nav = window.performance && performance.getEntriesByType
      ? performance.getEntriesByType("navigation")[0]
      : null;
    if (turnItems.length) {
      store([]); // the server rendered this conversation from the URL
      firstTurn = count !== null && count > turnItems.length ? count - turnItems.length : 0;
    } else if (!nav || (nav.type !== "reload" && nav.type !== "back_forward")) {
      store([]); // a fresh visit starts a fresh conversation
    } else {
      var stored = loadStored().filter(function (t) {
        return t && t.data && t.data.question && !(count !== null && t.n > count);
      });
      stored.forEach(function (t) {
        turnItems.push(buildTurn(t.data, t.earlier || []));
      });
      if (stored.length && stored[0].n > 1) firstTurn = stored[0].n - 1;
    }
    var restored = !log.querySelector("li.turn") && turnItems.length;
    showTurns(turnItems.length);
    if (restored) log.lastChild.scrollIntoView({ block: "start" });
    if (window.history && window.history.replaceState) {
      window.history.replaceState({ chat: firstTurn + shownTurns }, "");
    }
    // the field as it was left, then the questions still on their way: given back
    var field = null;
    try {
      field = window.sessionStorage.getItem(FIELD);
      window.sessionStorage.removeItem(FIELD);
    } catch (e) {
      field = null;
    }
    var back = nav && (nav.type === "reload" || nav.type === "back_forward");
    if (back && field && !input.value.trim()) input.value = field;
    var asking = [];
    try {
      asking = JSON.parse(window.sessionStorage.getItem(ASKING) || "[]");
      window.sessionStorage.removeItem(ASKING);
    } catch (e) {
      asking = [];
    }
    asking = Array.isArray(asking)
      ? asking.filter(function (item) {
        return item && typeof item.question === "string" && item.question.trim() &&
          (item.doc === null || typeof item.doc === "string");
      })
      : [];
    if (asking.length && back) {
      showError(
        (nav.type === "reload"
          ? "Die Seite wurde neu geladen, bevor die Antwort kam. "
          : "Die Seite wurde verlassen, bevor die Antwort kam. ") + giveBack(asking).said,
        asking
      );
    }
  }

  // The questions not answered yet (given back, on their way, waiting), kept in the tab: a
  // reload meanwhile gives them back (the field was emptied when they were sent: a review)
  function keepAsking() {
    var seen = {};
    var items = (failed || []).concat(pending ? [pending.item] : [], waiting.map(function (w) {
      return w.item;
    })).filter(function (item) {
      var key = item.question + "\u0000" + item.doc;
      if (seen[key]) return false;
      seen[key] = true;
      return true;
    });
    try {
      if (items.length) window.sessionStorage.setItem(ASKING, JSON.stringify(items));
      else window.sessionStorage.removeItem(ASKING);
    } catch (e) {
      // storage blocked or full: a reload then loses them, as without this
    }
  }

  // The request on its way and the questions waiting behind it, dropped (Back or Forward
  // changed the conversation they were asked after, or the request failed): their turns go,
  // the status stops saying „Ich suche …“. Their questions ({question, doc}), in order.
  function dropPending() {
    var lost = waiting.map(function (w) { return w.item; });
    waiting.forEach(function (w) {
      if (w.turn.parentNode) log.removeChild(w.turn);
    });
    waiting = [];
    if (pending) {
      var request = pending;
      pending = null;
      lost.unshift(request.item);
      clearTimeout(request.timer);
      clearTimeout(request.slow);
      if (request.controller) request.controller.abort();
      if (request.turn.parentNode) log.removeChild(request.turn);
      announce("");
    }
    return lost;
  }

  // Questions not answered, given back: the first into the field unless something was
  // typed there meanwhile (a judge on bad wifi typed the next one while waiting); the
  // message names the others (not one the field holds already). {said: the sentences
  // saying so, named: how many it names}
  function giveBack(items) {
    if (items.length && !input.value.trim()) input.value = items[0].question;
    var named = notInField(items);
    var said = named.length < items.length ? ["Ihre Frage steht noch im Feld."] : [];
    if (named.length) said.push(notAnswered(named));
    return { said: said.join(" "), named: named.length };
  }

  function notInField(items) {
    var field = input.value.trim();
    return items.filter(function (item) { return item.question !== field; });
  }

  function notAnswered(items) {
    return "Nicht beantwortet: " + items.map(function (item) {
      return "„" + item.question + "“";
    }).join(", ") + ".";
  }

  // A request failed for want of a server (no connection, no answer in time, a 5xx): it and
  // the questions waiting behind it are given back, and „Noch einmal versuchen“ asks them
  // all (it asked only the first, and the others named went: a review)
  function failAll(said) {
    var lost = dropPending();
    // with those an earlier failure named, which it replaced (a code review)
    var all = namedBefore(lost).concat(lost);
    showError(said + giveBack(all).said, all);
  }

  // The questions the message names now (`failed`) that are not among `items`: kept on
  // offer whatever else is said (a second failure, a refusal, a question one too many)
  function namedBefore(items) {
    return (failed || []).filter(function (f) {
      return !items.some(function (item) { return item.question === f.question; });
    });
  }

  // The message after a question left `failed` or joined it: what is still named, if any
  function sayNamed(items) {
    var named = notInField(items);
    showError(named.length ? notAnswered(named) : "", items);
  }

  // A question: sent now, or, while one is on its way, shown waiting and sent after it,
  // in the document chosen now (`doc`: the one given, a „Meinten Sie“ link's)
  function ask(question, doc) {
    var item = { question: question, doc: doc === undefined ? chosenDoc() : doc };
    var named = namedBefore([item]);
    // asked again: no longer named (it stayed named after its answer, and the retry asked
    // it twice: a code review); the others stay on offer (sending another question threw
    // them away, without a word: a review)
    if (failed && named.length < failed.length) sayNamed(named);
    if (pending) {
      if (waiting.length >= MAX_WAITING) {
        // kept on offer with the others named, not only said
        var all = named.concat([item]);
        showError("Es warten schon " + MAX_WAITING + " Fragen auf ihre Antwort. " +
          giveBack([item]).said + (named.length ? " " + notAnswered(named) : ""), all);
        queueFull = true; // said until there is room again
        return;
      }
      var turn = el("li", "turn");
      turn.appendChild(questionLine(question));
      turn.appendChild(el("div", "turn-a pending", WAITS));
      log.appendChild(turn);
      turn.scrollIntoView({ block: "nearest" });
      waiting.push({ item: item, turn: turn });
      keepAsking();
      announce(WAITS);
      return;
    }
    send(item, null);
  }

  // The request for `item`. `turn`: its turn already shown (it waited behind the one just
  // answered or refused, whose answer or message stays the last thing said), else a new one
  function send(item, turn) {
    var question = item.question;
    var waited = !!turn;
    var answered = null; // the new answer's turn, once shown
    var earlier = history();
    var before = turnTokens();
    if (!turn) {
      turn = el("li", "turn");
      turn.appendChild(questionLine(question));
      turn.appendChild(el("div", "turn-a pending"));
      log.appendChild(turn);
      turn.scrollIntoView({ block: "nearest" });
    }
    var box = turn.querySelector(".turn-a");
    box.textContent = "Ich suche den passenden Absatz …";
    // the message goes, what it named stays on offer (a question sent by hand; a waiting
    // one once the queue had room again: „Es warten schon …“ stayed under later answers)
    if (!waited) announce("Ich suche den passenden Absatz …");
    if (!waited || queueFull) sayNamed(failed || []);
    var controller = window.AbortController ? new AbortController() : null;
    var request = { item: item, turn: turn, controller: controller };
    pending = request;
    keepAsking();
    request.timer = setTimeout(function () {
      if (controller) controller.abort();
    }, timeoutMs());
    // a judge on slow wifi sees that it is still waiting, not stuck (an answer takes well
    // under a second on a working line)
    request.slow = setTimeout(function () {
      if (pending !== request) return;
      box.textContent = SLOW;
      announce(SLOW);
    }, Math.min(SLOW_MS, timeoutMs() / 3));
    fetch(sitePath("/api/ask"), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ question: question, history: earlier, doc: item.doc }),
      signal: controller ? controller.signal : undefined,
    })
      .then(function (response) {
        // a proxy's error page (502 from a captive portal, say) is no JSON: still the
        // server's answer, not a lost connection
        return response.json().then(
          function (data) {
            // JSON that is no answer (a portal's own): as a page that is none
            var answer = data && typeof data === "object" && typeof data.question === "string";
            if (response.ok && !answer) data = null;
            return { ok: response.ok && answer, status: response.status, data: data };
          },
          function (error) {
            // cut off by the timeout while the body came: a timeout, not a reply
            if (controller && controller.signal.aborted) throw error;
            return { ok: false, status: response.status, data: null };
          }
        );
      })
      .then(function (result) {
        if (pending !== request) return; // dropped by Back or Forward
        if (!result.ok) {
          // the server's own errors are German JSON; a failure of the server or of a proxy
          // on the way (5xx, 429, no JSON) is offered again, as a lost connection is
          var again = result.status >= 500 || result.status === 429 || !result.data;
          // a page with status 200 that is not the service's answer: a wifi's login page,
          // said as „Fehlercode 200“ of the server (a review)
          var foreign = !result.data && result.status < 300;
          var detail = result.data && result.data.detail;
          var said;
          if (result.status === 429) {
            said = "Gerade kommen zu viele Anfragen an: " +
              (detail || "bitte kurz warten.") + " ";
          } else if (foreign) {
            said = "Statt der Antwort kam eine andere Seite an, vielleicht die Anmeldeseite " +
              "eines WLANs: bitte dort anmelden. ";
          } else if (again) {
            // said as what happened to the question; the code is for whoever is told of it
            said = "Der Server konnte die Frage gerade nicht beantworten (Fehlercode " +
              result.status + ")" + (detail ? ": " + detail : ".") + " ";
          } else {
            said = (detail || "Die Frage konnte nicht beantwortet werden.") + " ";
          }
          if (again) {
            failAll(said);
          } else {
            // refused, that question only: those waiting behind it are still asked
            pending = null;
            log.removeChild(turn);
            announce("");
            var stay = namedBefore([item]); // stay on offer, as in failAll
            showError(said + giveBack([item]).said +
              (stay.length ? " " + notAnswered(stay) : ""), stay);
          }
          request.failed = true;
          return;
        }
        // the focus on the turn being replaced (after a retry on a touch screen) goes to
        // the answer, not the page's top while the next one is on its way (a review)
        var focusHere = turn.contains(document.activeElement);
        log.removeChild(turn);
        var shown = buildTurn(result.data, before);
        turnItems = turnItems.slice(0, shownTurns).concat([shown]);
        // the new history entry first: showTurns retitles the page, and a title set before
        // pushState would name the entry left behind (the Back menu showed the next question)
        remember(result.data, before, firstTurn + turnItems.length);
        showTurns(turnItems.length);
        waiting.forEach(function (w) {
          log.appendChild(w.turn); // still waiting, after the answer
        });
        shown.scrollIntoView({ block: "start" }); // the new answer from its question on
        if (focusHere) takeFocus(shown);
        answered = shown;
        // in short where the focus stays in the field; on a touch screen the answer takes
        // the focus below, and a screen reader reads it from there
        // (while more wait the focus stays, and the answer is said on a touch screen too)
        announce(TOUCH && !waiting.length ? "" : spoken(result.data));
      })
      .catch(function (error) {
        if (pending !== request || leaving) return;
        request.failed = true;
        var timedOut = error && error.name === "AbortError";
        failAll(
          timedOut
            ? "Der Server antwortet gerade nicht (Zeitüberschreitung). "
            : "Keine Verbindung zum Server. "
        );
      })
      .then(function () {
        if (leaving) return; // its questions stay kept for the page that comes
        if (pending === request) pending = null;
        clearTimeout(request.timer);
        clearTimeout(request.slow);
        keepAsking();
        if (!answered && !request.failed) return; // dropped by Back or Forward
        if (waiting.length) {
          var next = waiting.shift();
          send(next.item, next.turn); // the focus stays where it is meanwhile
          return;
        }
        if (!TOUCH) {
          input.focus({ preventScroll: true }); // the next question can be typed at once
        } else if (answered) {
          // on a touch screen the field's focus would raise the keyboard over the answer:
          // the answer takes it (a screen reader goes on reading there)
          takeFocus(answered);
        } else if (retry && !retry.hidden) {
          // a failed question: the retry takes the focus (the page's top had it once, and a
          // screen reader started there), and raises no keyboard
          retry.focus({ preventScroll: true });
          // below the fold after an answer; centred, not "nearest": at the screen's edge a
          // fraction of a pixel of it could stay cut off
          retry.scrollIntoView({ block: "center" });
        } else if (errorBox && !errorBox.hidden) {
          takeFocus(errorBox);
        }
      });
  }

  if (retry) {
    retry.addEventListener("click", function () {
      // the questions the message names (the first put into the field, unless one was typed
      // there meanwhile: that stays)
      var items = failed || (input.value.trim() ? [{ question: input.value.trim() }] : []);
      if (!items.length) return;
      if (notInField(items).length < items.length) input.value = ""; // asked now
      showError("");
      items.forEach(function (item) {
        ask(item.question, item.doc);
      });
      // the button hid itself under the focus: where a question sent puts it
      if (!TOUCH) input.focus({ preventScroll: true });
      else if (pending) takeFocus(pending.turn);
    });
  }

  // the page's own "Link kopieren" links copy now (without JavaScript they are hidden)
  log.querySelectorAll("a[data-chat-copy][hidden]").forEach(function (a) {
    a.hidden = false;
    a.setAttribute("role", "button"); // it copies, not opens: Space acts too
    addShare(a);
  });

  // Space on "Link kopieren" (a link acting as a button) copies, as on a button, instead of
  // scrolling the page
  log.addEventListener("keydown", function (event) {
    var plain = !event.repeat && !event.ctrlKey && !event.metaKey && !event.altKey && !event.shiftKey;
    var copy = event.key === " " && plain && event.target instanceof Element &&
      event.target.closest("a[data-chat-copy]");
    if (!copy) return;
    event.preventDefault();
    copy.click();
  });
  restore();

  window.addEventListener("popstate", function (event) {
    var state = event.state;
    if (!state || typeof state.chat !== "number") return; // an anchor's entry: nothing changes
    var count = state.chat - firstTurn; // of the turns this page holds
    if (count > turnItems.length || (firstTurn > 0 && count < 1)) {
      // turns this page does not hold: the address has them; what is being asked is kept
      // for the page that comes (given back here, the reload lost it: a review)
      leaving = true;
      keepAsking();
      window.location.reload();
      return;
    }
    // the questions on their way go back (into the field, or named when it holds another),
    // with those a failure named (Forward wiped them), the one in the field among them (the
    // retry asked a follow-up without the question it follows): reviews
    var lost = dropPending();
    var given = namedBefore(lost).concat(lost); // those named first: asked before
    var back = giveBack(given);
    showError(back.named ? back.said : "", given.length ? given : null);
    var focused = document.activeElement;
    var inTurn = !!focused && log.contains(focused);
    var before = shownTurns;
    showTurns(count);
    if (TOUCH && shownTurns > before && focused !== input) {
      // Forward brought an answer back: on a touch screen it takes the focus, as a new
      // answer does (a screen reader reads on there)
      takeFocus(turnItems[shownTurns - 1]);
      return;
    }
    // the focus stays where it was, unless it was in a turn Back removed (on a touch screen
    // the answer takes it): then it goes where an answer would put it, not to the page's top
    if (!inTurn || document.contains(focused)) return;
    if (!TOUCH) {
      input.focus({ preventScroll: true });
      return;
    }
    var place = shownTurns ? turnItems[shownTurns - 1] : heading;
    if (!place) return;
    takeFocus(place);
  });

  form.addEventListener("submit", function (event) {
    var question = input.value.trim();
    event.preventDefault();
    if (!question && pending) return; // Enter again after sending
    // an empty question is the field's error: marked, and described by the message
    if (!question) {
      showError("Bitte eine Frage eingeben.");
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", "chat-error-text");
      return;
    }
    if (failed && failed[0].question === question && retry) {
      // the failed question sent again: with those the message names, in the document
      // chosen now (it went to the one chosen when it failed: a code review)
      failed[0] = { question: question, doc: chosenDoc() };
      retry.click();
      return;
    }
    input.value = "";
    ask(question);
  });

  // "Link kopieren" copies the paragraph's permalink; "Teilen" hands it to the share sheet;
  // "Meinten Sie" asks again in place.
  log.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var share = target.closest("button[data-chat-share]");
    var shared = share && share.parentNode.querySelector("a[data-chat-copy]");
    if (shared) {
      var address = new URL(shared.getAttribute("href"), window.location.href).href;
      var about = share.getAttribute("data-chat-share");
      navigator.share({ title: about, url: address }).catch(function () {});
      return;
    }
    var copyLink = target.closest("a[data-chat-copy]");
    if (copyLink) {
      event.preventDefault();
      var url = new URL(copyLink.getAttribute("href"), window.location.href).href;
      window.faqBot.copy(url).then(
        function () {
          window.faqBot.flash(copyLink, "Link kopiert");
          announce(copyLink.getAttribute("data-copied") || "Link kopiert.");
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
      // in the document the misspelled question was answered from, as the link's address
      var doc = new URL(again.getAttribute("href"), window.location.href).searchParams.get("doc");
      ask(again.getAttribute("data-chat-ask"), doc || null);
    }
  });
})();
