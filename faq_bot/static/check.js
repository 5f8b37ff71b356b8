// The scenario checker (/check): progressive enhancement of a form that works without it.
// - every button of the builder (pick a card, announce it, move or remove a row, add a row)
//   and "Auflösen" send the form with fetch and swap in the server-rendered checker part
//   (the server renders and keeps all form logic; this file never builds HTML from data)
// - after a builder step the keyboard focus goes where the server says (the new row's first
//   field, the moved row's button …) unless a field is being typed into, and what the step
//   did ("Radarstation für A angelegt (Karte 2).") is said in the page's status
// - choosing a stack entry's source or a card's owner re-renders too, so the target
//   lists always hold the scenario's own cards and entries
// - the form as it stands is kept in the tab (sessionStorage) under the page's address: a
//   reload or Back/Forward to that address (a pull-to-refresh, a phone discarding the tab)
//   shows the stack being built again, not an empty form (the address changes only when
//   a scenario is resolved)
// What the page offers besides the form's requests (copy and share the link, jump to a
// field, the sticky bar's room) and the guards against double clicks and held keys are
// check-page.js's; a swapped-in part is announced to it ("faqbot:checker-swapped").
"use strict";

(function () {
  function checker() {
    return document.getElementById("checker");
  }

  function setBusy(busy, resolving) {
    var root = checker();
    if (root) root.classList.toggle("checker-busy", busy);
    var button = document.getElementById("resolve");
    if (button) {
      button.disabled = busy;
      // on a slow line the fading alone does not say that something is under way: the
      // sticky bar, always on screen, says it for a builder step (a card tapped) too
      button.textContent = !busy ? "Auflösen" : resolving ? "Wird aufgelöst …" : "Wird übernommen …";
    }
  }

  // What a builder step did, said in the page's live region (#check-status, outside the
  // swapped part; faqBot.announce: the same words again are said again)
  function announce(text) {
    window.faqBot.announce(text, document.getElementById("check-status"));
  }

  // the builder button whose value is `value` (compared, never put into a selector)
  function buttonWith(value) {
    var buttons = document.querySelectorAll('#check-form button[name="action"]');
    for (var i = 0; i < buttons.length; i++) if (buttons[i].value === value) return buttons[i];
    return null;
  }

  // whether the last press was a finger's or a mouse's (else keys, or a screen reader's
  // action): after a tap the page stays where the thumb is, and no on-screen keyboard opens
  var tapped = false;
  document.addEventListener("pointerdown", function () {
    tapped = true;
  }, true);
  document.addEventListener("keydown", function () {
    tapped = false;
  }, true);

  // where the focus goes after the builder step `action`, as the server says (a field by
  // its id, a button by its value); after a tap no text field, but the button tapped
  function stepTarget(root, action) {
    var id = root.getAttribute("data-focus");
    var value = root.getAttribute("data-focus-button");
    var target = id ? document.getElementById(id) : value ? buttonWith(value) : null;
    var text = target && target.tagName === "INPUT" && target.type !== "checkbox";
    return tapped && text ? buttonWith(action) : target;
  }

  // What a builder step did, shown in the sticky bar too (on screen wherever the thumb
  // is: the status above may be a screen away); for the eyes only, the status says it
  // aloud. Inside the swapped part: the next step's form replaces it.
  function echoStep(text) {
    var row = document.getElementById("submit-row");
    if (!row || !text) return;
    var echo = document.createElement("p");
    echo.className = "step-echo";
    echo.setAttribute("aria-hidden", "true");
    // a long one scrolls within the bar (check.css): no Tab stop a screen reader cannot
    // name (a scroller is one in recent browsers)
    echo.setAttribute("tabindex", "-1");
    echo.textContent = text;
    row.insertBefore(echo, row.firstChild);
    // a note longer than the bar shows (check.css) shows its end: what to do next
    echo.scrollTop = echo.scrollHeight;
  }

  var placed = null; // the element this file last put the focus on
  var restoring = false; // the request in flight brings back a kept draft (`restoreDraft`)

  // the button of the checker now in the page that does what `button` (replaced) did; the
  // id tells #resolve from the hidden "Auflösen" before it (same name, value and text)
  function twinOf(button) {
    var buttons = checker() ? checker().querySelectorAll("button") : [];
    for (var i = 0; i < buttons.length; i++) {
      var b = buttons[i];
      if (b.id === button.id && b.name === button.name && b.value === button.value &&
        b.textContent === button.textContent) {
        return b;
      }
    }
    return null;
  }

  // The JSON view across a builder step: the server renders it closed, with the rows' JSON.
  // Open, it stays open; text typed or pasted there stays (a review: each step closed it
  // and put the rows' JSON over a pasted scenario); untouched, it follows the rows.
  function jsonViewNow() {
    var view = document.getElementById("json-view");
    var box = document.getElementById("json");
    if (!view || !box) return null;
    return { open: view.open, text: box.value !== box.defaultValue ? box.value : null };
  }

  function keepJsonView(before) {
    var view = document.getElementById("json-view");
    var box = document.getElementById("json");
    if (!before || !view || !box) return;
    if (before.open) view.open = true;
    if (before.text !== null) box.value = before.text;
  }

  // where the cursor was in the field being typed into when the form was swapped: the new
  // field got the focus with its cursor at the start, and the next letters went in front
  // (a review: „iaAnna Mar“)
  var caret = null;
  function caretOf(field) {
    try {
      if (field.selectionStart === null) return null; // a number, a select
      return { name: field.name, start: field.selectionStart, end: field.selectionEnd };
    } catch (e) {
      return null;
    }
  }

  function restoreCaret() {
    var at = caret;
    caret = null;
    var field = document.activeElement;
    if (!at || !field || field.name !== at.name || typeof field.value !== "string") return;
    try {
      var length = field.value.length;
      field.setSelectionRange(Math.min(at.start, length), Math.min(at.end, length));
    } catch (e) {
      // a field that has no cursor
    }
  }

  // The checker's <details> („Mehr zur Karte“, „Details“) across a swap: the server renders
  // them closed unless a mistake is inside, so one being typed in closed under the cursor
  // and the keys went nowhere (a review). Known by id, else by the first field inside.
  function detailsKey(details) {
    var field = details.querySelector("[name]");
    return details.id || (field ? field.getAttribute("name") : "");
  }

  function openDetails(root) {
    var keys = {};
    Array.prototype.forEach.call(root.querySelectorAll("details[open]"), function (details) {
      var key = detailsKey(details);
      if (key) keys[key] = true;
    });
    return keys;
  }

  function reopenDetails(keys, root) {
    Array.prototype.forEach.call(root.querySelectorAll("details"), function (details) {
      if (keys[detailsKey(details)]) details.open = true;
    });
  }

  function summaryOf(key, root) {
    var found = null;
    Array.prototype.forEach.call(root.querySelectorAll("details"), function (details) {
      if (!found && detailsKey(details) === key) found = details.querySelector("summary");
    });
    return found;
  }

  // `fromJson`: the answer to „JSON auflösen“, whose view the server renders itself
  function swapIn(html, action, fromJson) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("checker");
    var root = checker();
    if (!fresh || !root) return false;
    var active = document.activeElement;
    // a field someone is in keeps the focus (by name, in the new form); a button, or the
    // page itself (the form went inert), or the place this file chose, passes it on
    var typing = active && active.name && active.tagName !== "BUTTON" ? active.name : null;
    caret = typing ? caretOf(active) : null;
    // (a click on the form while it took no input leaves it on the page's main part)
    // anything else in the part replaced but a field (a button, the result a resolve put
    // the focus on: a review) would leave it on the page's body
    var free = !active || active === placed || active.contains(root) ||
      (root.contains(active) && !typing);
    // a button reached while a refresh ran (it renumbers no rows): its twin keeps the focus
    var button = action === "refresh" && active && active.tagName === "BUTTON" &&
      root.contains(active) ? active : null;
    var scroll = window.scrollY;
    var json = jsonViewNow();
    // (not where rows moved: a row's number then names another row)
    var opened = action !== "check" && !RESETS.test(action) ? openDetails(root) : {};
    // a section's toggle being on keeps the focus too (it fell to the page's body)
    var toggle = active && active.tagName === "SUMMARY" && root.contains(active) ?
      detailsKey(active.parentNode) : null;
    root.replaceWith(document.importNode(fresh, true));
    reopenDetails(opened, checker());
    // the page's title says the verdict, as the server titles the page (base.html): the
    // share sheet, the history and the tab switcher pass it on with the address. An input
    // error (data-error) keeps both, the last result's, which a reload shows again
    var inputError = fresh.hasAttribute("data-error");
    var title = fresh.getAttribute("data-title");
    if (title && !inputError) document.title = title + " · Regelsuche";
    // check-page.js: the new part's copy button and sticky bar
    document.dispatchEvent(new CustomEvent("faqbot:checker-swapped"));
    // also across a resolve of the rows: „Auflösen“ pressed with a pasted text in the view
    // put the rows' JSON over it (a review)
    if (!fromJson) keepJsonView(json);
    if (action !== "check") {
      // a builder step: the samples make way, and the page stays where the thumb is
      var samples = document.getElementById("samples");
      if (samples && samples.open) {
        var height = samples.offsetHeight;
        samples.open = false;
        scroll -= height - samples.offsetHeight;
      }
      window.scrollTo(0, scroll);
      var target = free && action !== "refresh" ? stepTarget(checker(), action) : null;
      var again = typing && document.querySelector('#checker [name="' + typing + '"]');
      if (button) again = twinOf(button);
      if (toggle) again = summaryOf(toggle, checker());
      if (target) {
        target.focus({ preventScroll: tapped }); // after keys: scrolled to if out of sight
        // a field to fill next (an announced card's Ziel): in sight after a tap too, its
        // row's start above it (a phone review: the Ziel asked for lay below the screen)
        if (tapped && checker().hasAttribute("data-focus-reveal")) {
          var row = target.closest("fieldset") || target;
          row.scrollIntoView({ block: "nearest" });
          // the field itself too, where the row is taller than the room above the bar
          target.scrollIntoView({ block: "nearest" });
        }
      } else if (again) {
        again.focus({ preventScroll: true });
      }
      // still this file's choice, until something is typed there (`remember`)
      placed = target || (active === placed ? again : null);
      if (action !== "refresh") {
        var said = checker().getAttribute("data-status") || "";
        announce(said);
        echoStep(said);
      }
      if (restoring) {
        announce("Ihre Eingaben von vorhin sind wiederhergestellt.");
        echoStep("Ihre Eingaben von vorhin sind wiederhergestellt.");
      }
      restoring = false;
      return true;
    }
    announce("");
    // the address that shows this result again, notes too (`n`); else the plain link; a
    // result too big for a link: /check. An input error keeps the last result's address,
    // so a reload (a phone discarding the tab) shows that, not an empty form
    var link = fresh.getAttribute("data-address") || fresh.getAttribute("data-permalink");
    if (!inputError && window.history && window.history.pushState) {
      var url = link ? new URL(link, window.location.href) : null;
      var address = url ? url.pathname + url.search : window.faqBot.path("/check");
      // a result of its own, as a form post's page is: Back shows the one before (it
      // left the checker: a review); the same address again is no new one
      if (address !== here()) window.history.pushState({ check: true }, "", address);
      shownAddress = here();
    }
    var target =
      document.getElementById("check-error") ||
      document.getElementById("check-prompt") ||
      document.getElementById("result");
    if (target) {
      target.focus({ preventScroll: true });
      target.scrollIntoView({ block: "start" });
    }
    return true;
  }

  // One request at a time. Leaving a name field re-renders ("refresh", on its change
  // event) just before the tap on "Auflösen" or a builder button arrives: that tap waits and
  // is sent when the re-render is in, never dropped. So are taps made while a row is added
  // (a card picked or announced), in order, up to MAX_WAITING: neither renumbers rows
  // (added rows come last), so each is sent with the form of its turn, which holds what was
  // typed meanwhile. A tap on „JSON auflösen“ sends its own text of the moment (plus what was
  // typed there after it, `typedSince`). While rows are removed or moved, or are about to
  // be, the form takes no input and taps are ignored: a second tap on "Eintrag 2
  // entfernen" would hit the row that moved into its place. Whatever is typed while a
  // request runs that keeps the rows is put back into the form the server sends (on a slow
  // line it was lost): into the same field, unless the server changed that field itself (a
  // picked card fills the spare row); what was typed into the spare row moves to the new one.
  var REFRESHES = /^(c-\d+-(name|owner)|p-\d+-name|s-\d+-source)$/; // fields choices follow
  // the buttons whose step renumbers the rows: a removal, a move, „Rückgängig“ (the form
  // before a removal back)
  var RESETS = /^(remove|move):|^undo$/;
  var ROW_FIELD = /^([cs])-(\d+)-(.+)$/; // a card's or a stack entry's field
  var TIMEOUT_MS = 15000; // then the plain form post, as without this file
  var running = null; // {action, resets}: the request in flight
  var queued = []; // {form, action, data}: the taps waiting, in order (data null: read it then)
  var MAX_WAITING = 8;
  var typed = null; // {name: field} typed into while a request runs

  // whether the request replaces the rows (renumbers them or loads the JSON view's)
  function resets(form, action) {
    return form.id === "json-form" || RESETS.test(action);
  }

  function remember(event) {
    var field = event.target;
    if (field === placed) placed = null; // typed into: the focus stays there
    if (typed && field.name && field.closest && field.closest("#checker form")) {
      typed[field.name] = field;
    }
  }

  function fieldNamed(name) {
    return document.querySelector('#check-form [name="' + name + '"]');
  }

  // the row of `group` ("c" or "s") that is blank in `sent` and where its twin is now
  function spareRow(sent, group, row) {
    var prefix = group + "-" + row + "-";
    var blank = true;
    sent.forEach(function (value, key) {
      if (key.indexOf(prefix) === 0 && value) blank = false;
    });
    if (!blank) return null;
    var rows = document.querySelectorAll('#check-form [name^="' + group + '-"][name$="-id"]');
    return rows.length ? rows.length - 1 : null; // the form always ends in a spare row
  }

  // the values typed meanwhile, back into the new form (`sent`: the data the request sent)
  function putBack(fields, sent) {
    var again = false;
    Object.keys(fields).forEach(function (name) {
      var old = fields[name];
      var field = fieldNamed(name);
      var value = old.type === "checkbox" || old.type === "radio" ? old.checked : old.value;
      var before = old.type === "checkbox" ? sent.has(name) : sent.get(name) || "";
      var now = field && (field.type === "checkbox" ? field.checked : field.value);
      var cursor = false;
      // the server trims what it is sent: that is not a change of its own (a review: what
      // was typed after „Erfolgreiche “ was dropped)
      var same = typeof now === "string" ? now.trim() === String(before).trim() : now === before;
      if (field && !same) {
        // the server filled this field itself: the typing belonged to the spare row it used,
        // and so does the cursor (the rest of the word went into the card's name: a review)
        var parts = ROW_FIELD.exec(name);
        var spare = parts && spareRow(sent, parts[1], parts[2]);
        var moved = spare !== null && spare !== +parts[2] && fieldNamed(parts[1] + "-" + spare + "-" + parts[3]);
        cursor = document.activeElement === field;
        field = moved && !(moved.type === "checkbox" ? moved.checked : moved.value) ? moved : null;
      }
      if (!field || field.type !== old.type || field.type === "hidden") return;
      var offered = field.tagName !== "SELECT" || Array.prototype.some.call(field.options, function (o) {
        return o.value === old.value;
      });
      if (!offered) return; // a choice the new form no longer offers stays as the server says
      if (field.type === "checkbox" || field.type === "radio") field.checked = value;
      else field.value = value;
      if (cursor) {
        field.focus({ preventScroll: true });
        placed = null; // typed into: the person's, not this file's choice
        if (field.type === "text") field.setSelectionRange(value.length, value.length);
      }
      again = again || REFRESHES.test(field.name);
    });
    return again; // a name or owner typed meanwhile: the choices must follow it
  }

  // what was typed after a tap that waits with its data of then: into that data, so a value
  // typed meanwhile is sent with it (and kept in the form the answer brings)
  function typedSince(tapped, formId, fields) {
    Object.keys(fields).forEach(function (name) {
      var old = fields[name];
      if (!old.form || old.form.id !== formId) return; // a field of the other form
      if (old.type === "checkbox") {
        if (old.checked) tapped.set(name, old.value);
        else tapped.delete(name);
      } else if (old.type !== "radio" || old.checked) {
        tapped.set(name, old.value);
      }
    });
  }

  function formData(form, action) {
    var data = new URLSearchParams();
    new FormData(form).forEach(function (value, key) {
      if (key !== "action") data.append(key, value);
    });
    data.set("action", action);
    return data;
  }

  // the browser's own post of `form` with `action`, when fetching failed or stalled
  function postPlainly(form, action) {
    var field = document.createElement("input");
    field.type = "hidden";
    field.name = "action";
    field.value = action;
    form.appendChild(field);
    form.submit(); // no submit event: this file does not catch it again
  }

  // the request is over: nothing runs, nothing waits, the form takes input again
  function settle() {
    restoring = false; // a restore that failed says nothing later
    running = null;
    queued = [];
    typed = null;
    reflectQueue();
  }

  // What the page shows of the requests: busy while a tap runs or waits („Wird übernommen …“,
  // „Wird aufgelöst …“ for a resolve; a tap waiting behind a re-render showed nothing and was
  // tapped again: a review), and the rows take no input while a request that moves them runs
  // or waits (one waiting at the second place left them live: a review). One place for both.
  function reflectQueue() {
    var taps = queued.slice();
    if (running && running.action !== "refresh") taps.unshift(running);
    var resolving = taps.some(function (tap) {
      return tap.action === "check";
    });
    setBusy(taps.length > 0, resolving);
    var moving = (running && running.resets) || queued.some(function (tap) {
      return resets(tap.form, tap.action);
    });
    var rows = document.getElementById("check-form");
    if (rows) rows.inert = Boolean(moving);
  }

  // The line dropped: said in German beside the button in the sticky bar (on screen
  // wherever the thumb is); the form keeps everything, the same tap tries again. What the
  // last step that worked did goes: beside the failed tap it read as its outcome.
  // `lost`: the names of the taps not done, the failed one first; `restore`: what failed
  // was bringing back the draft (nothing was tapped)
  function noConnection(lost, restore) {
    var row = document.getElementById("submit-row");
    if (!row) return;
    Array.prototype.slice.call(row.querySelectorAll(".step-echo")).forEach(function (echo) {
      echo.parentNode.removeChild(echo);
    });
    var note = document.getElementById("check-offline") || document.createElement("p");
    note.id = "check-offline";
    note.className = "check-offline";
    note.setAttribute("role", "alert");
    var named = (lost || []).filter(Boolean);
    if (restore) {
      note.textContent = "Keine Verbindung zum Server. Ihre Eingaben von vorhin konnten " +
        "nicht wiederhergestellt werden; bitte die Seite neu laden, sobald die Verbindung " +
        "wieder steht.";
    } else if (named.length) {
      // the taps made while the failed one was on its way are not done either (a review:
      // five card chips tapped gave two cards, and nothing said so)
      note.textContent = "Keine Verbindung zum Server. Nicht ausgeführt: " +
        named.map(function (name) {
          return "„" + name + "“";
        }).join(", ") + ". Ihre Eingaben sind noch da – bitte noch einmal antippen, " +
        "sobald die Verbindung wieder steht.";
    } else {
      note.textContent = "Keine Verbindung zum Server. Ihre Eingaben sind noch da – " +
        "bitte dieselbe Schaltfläche noch einmal antippen, sobald die Verbindung wieder steht.";
    }
    row.insertBefore(note, row.firstChild);
  }

  // `label`: the tapped button's name, said if the tap is lost with the connection
  function send(form, action, data, label) {
    if (running !== null) {
      // behind steps that keep the rows (a re-render, an added row) any tap waits, a removal
      // or move too (one behind a card tapped was dropped without a word: a review); behind
      // one that moves rows none, and the form takes no input. A tap on „JSON auflösen“
      // waits behind anything but another: it sends its own text, read now (it was dropped
      // behind a removal: a review)
      var kept = !running.resets && queued.every(function (tap) {
        return !resets(tap.form, tap.action);
      });
      var ownText = form.id === "json-form" && running.form !== "json-form" &&
        queued.every(function (tap) {
          return tap.form.id !== "json-form";
        });
      var waits = kept || ownText;
      if (waits && action !== "refresh" && queued.length < MAX_WAITING) {
        // the rows' taps read the form of their turn: a re-render changes no row but may
        // rename a choice (a player renamed just before a card chip: the card went to the
        // old name, a review), and what is typed meanwhile is put back into it
        var now = ownText ? formData(form, action) : null;
        queued.push({ form: form, action: action, data: now, label: label || "" });
        reflectQueue();
      }
      return;
    }
    data = data || formData(form, action);
    running = { action: action, resets: resets(form, action), label: label || "", form: form.id };
    typed = {};
    // the rows about to move under the thumb take no input; a refresh keeps „Auflösen“
    // enabled: a tap on it while the refresh runs must arrive
    reflectQueue();
    var controller = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () {
      if (controller) controller.abort();
    }, TIMEOUT_MS);
    // not form.action: the buttons named "action" shadow that property
    fetch(form.getAttribute("action") || window.faqBot.path("/check"), {
      method: "POST",
      headers: { "X-Check-Fragment": "1", Accept: "text/html" },
      body: data,
      signal: controller ? controller.signal : undefined,
    })
      .then(function (response) {
        return response.text();
      })
      .then(function (html) {
        clearTimeout(timer);
        whenReleased(function () {
          try {
            land(html);
          } catch (e) {
            // outside the promise chain once it waited: never leave the form busy for good
            settle();
            noConnection();
          }
        });
      })
      .catch(function () {
        clearTimeout(timer);
        // behind a re-render (which changes nothing) the tap that waited is what the plain
        // post carries (it was lost: a review); behind a step or a restore the step itself,
        // into the form that never got it, and the taps behind it are not done
        var restore = restoring;
        var refreshing = running.action === "refresh" && !restore;
        var tap = refreshing ? queued[0] : null;
        var twin = tap && document.getElementById(tap.form.id);
        // every tap not done, the failed one first (a refresh or a restore is none)
        var lost = [running.label].concat(queued.map(function (waiting) {
          return waiting.label;
        }));
        // a plain post carries one step: with more waiting it would drop them unsaid (a
        // review), and a restore's would post the page's form, not the draft
        var stalled = controller && controller.signal.aborted;
        var plain = stalled && !restore && queued.length <= (refreshing ? 1 : 0);
        settle();
        // stalled (aborted at TIMEOUT_MS): the plain post, on a fresh connection, may still
        // get through; no connection at all: it would only reach the browser's error page
        if (plain) {
          postPlainly(twin || form, tap ? tap.action : action);
        } else {
          noConnection(lost, restore);
        }
      });

    function land(html) {
      var waiting = queued;
      var next = waiting[0];
      var keep = !running.resets;
      // still running while the form is swapped: a field typed into loses its focus then
      // and reports its change, which is recorded, not sent with the old form
      if (!swapIn(html, action, form.id === "json-form")) {
        settle();
        postPlainly(form, action); // not the checker: let the browser show it
        return;
      }
      var refresh = keep && putBack(typed || {}, data);
      restoreCaret();
      // a result with its own address shows it again there: no draft kept beside it (one
      // too big for a link keeps its draft, at /check)
      var root = checker();
      var linked = root && (root.getAttribute("data-address") || root.getAttribute("data-permalink"));
      if (action === "check" && linked && !document.getElementById("check-error")) clearDraft();
      else saveDraft();
      if (next && next.data) typedSince(next.data, next.form.id, typed || {});
      settle();
      if (next) {
        // the re-rendered form replaced the one tapped: its twin carries the tap on, with
        // what it holds now (a JSON tap: its text of the moment and what was typed since)
        var fresh = document.getElementById(next.form.id) || next.form;
        send(fresh, next.action, next.data || formData(fresh, next.action), next.label);
        // the others wait behind it, each sent with the form of its turn (a JSON tap: its text)
        queued = waiting.slice(1);
        reflectQueue();
      } else if (refresh) {
        send(document.getElementById("check-form"), "refresh");
      }
    }
  }

  // A mouse button held down on a button of the checker: the answer waits until it is let
  // go. Pressing it blurs the name just edited, whose re-render came in before the release
  // and replaced the button under the pointer, so the click went nowhere (a pasted JSON
  // text with it). Once released, the click is queued first and the answer lands after it;
  // held longer than HOLD_MS (a pointer whose release the page never saw), the answer
  // lands anyway (1.5 s lost the tap of a slow hand: a review).
  var HOLD_MS = 10000;
  var pressed = false;
  var onRelease = null; // the answer that waits
  var holding = null; // its timer

  function whenReleased(step) {
    if (!pressed) {
      step();
      return;
    }
    onRelease = step;
    holding = setTimeout(release, HOLD_MS);
  }

  function release() {
    clearTimeout(holding);
    pressed = false;
    var step = onRelease;
    onRelease = null;
    if (step) step();
  }

  document.addEventListener("pointerdown", function (event) {
    // a second finger outside the checker leaves a press on it pressed
    if (event.target.closest && event.target.closest("#checker")) pressed = true;
  }, true);
  ["pointerup", "pointercancel"].forEach(function (type) {
    document.addEventListener(type, function () {
      // after this gesture's click, which is dispatched right after the release
      if (pressed) setTimeout(release, 0);
    }, true);
  });

  // The draft: the checker form's fields, kept per tab with the address they belong to
  var DRAFT_KEY = "faqbot-check-draft";
  var draftTimer = null; // the draft saved a moment after typing

  function here() {
    return window.location.pathname + window.location.search;
  }

  // `address`: where the draft is kept (here, unless Back or Forward just left it)
  function saveDraft(address) {
    clearTimeout(draftTimer);
    var form = document.getElementById("check-form");
    // while the kept draft is on its way back the page's form is the one it replaces (typing
    // then overwrote the draft, and a failed restore lost it: a review)
    if (!form || restoring) return;
    try {
      var body = formData(form, "refresh").toString();
      // the JSON view's own text too (a reload brought back the rows' JSON: a review)
      var draft = { address: typeof address === "string" ? address : here(), body: body, json: jsonViewNow() };
      window.sessionStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
    } catch (e) {
      // no storage (private mode, full): a reload shows the page's own form, as before
    }
  }

  function clearDraft() {
    clearTimeout(draftTimer);
    try {
      window.sessionStorage.removeItem(DRAFT_KEY);
    } catch (e) {
      // no storage: nothing was kept
    }
  }

  // a reload or Back/Forward to the address a draft was kept at: the server renders that
  // draft's rows again (a "refresh" re-renders without changing anything)
  function restoreDraft() {
    var nav = window.performance && performance.getEntriesByType ?
      performance.getEntriesByType("navigation")[0] : null;
    if (!nav || (nav.type !== "reload" && nav.type !== "back_forward")) return;
    var draft = null;
    try {
      draft = JSON.parse(window.sessionStorage.getItem(DRAFT_KEY) || "null");
    } catch (e) {
      return;
    }
    var form = document.getElementById("check-form");
    if (!draft || !form || draft.address !== here() || typeof draft.body !== "string") return;
    var json = draft.json;
    if (json && typeof json.open === "boolean" && (json.text === null || typeof json.text === "string")) {
      keepJsonView(json); // at once: the server has nothing to add to it
    }
    if (formData(form, "refresh").toString() === draft.body) return; // nothing was lost
    restoring = true;
    send(form, "refresh", new URLSearchParams(draft.body));
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest || !form.closest("#checker")) return;
    if (form.id !== "check-form" && form.id !== "json-form") return;
    event.preventDefault();
    var submitter = event.submitter;
    var label = submitter && (submitter.getAttribute("aria-label") || submitter.textContent);
    send(form, (submitter && submitter.value) || "check", null, (label || "").replace(/\s+/g, " ").trim());
  });

  document.addEventListener("input", remember);
  document.addEventListener("change", remember);
  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("#check-form")) saveDraft();
  });
  // and while typing, a moment after the last key (a reload before the field was left lost
  // what was typed there: a review)
  document.addEventListener("input", function (event) {
    if (!event.target.closest || !event.target.closest("#check-form, #json-form")) return;
    clearTimeout(draftTimer);
    draftTimer = setTimeout(saveDraft, 250);
  });
  document.addEventListener("change", function (event) {
    var input = event.target;
    var form = input.closest && input.closest("#check-form");
    if (!form || !input.name) return;
    // a new card name or owner changes what the selects offer: let the server re-render
    if (REFRESHES.test(input.name)) send(form, "refresh");
  });

  function start() {
    restoreDraft();
  }

  // Back or Forward to another result (`pushState` above): the server renders its address,
  // as without this file; a link within the page (#a-field) changes no result
  var shownAddress = here();
  window.addEventListener("popstate", function () {
    if (here() === shownAddress) return;
    // typed a moment before (a save still waiting): kept at the address left, not this one
    if (draftTimer) saveDraft(shownAddress);
    shownAddress = here();
    window.location.reload();
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
