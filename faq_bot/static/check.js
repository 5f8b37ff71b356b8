// The scenario checker (/check): progressive enhancement of a form that works without it.
// - rows are added and removed in place (without it: a round trip per button)
// - "Auflösen" sends the form with fetch and swaps in the server-rendered result
//   (the server renders; this file never builds HTML from data)
// - picking a card by name or a stack entry's source fills blank fields from the
//   catalog (/api/cards), and shows only the fields the chosen effect uses
// - "Link kopieren" copies the permalink (with window.faqBot.copy from app.js)
"use strict";

(function () {
  var TARGET = ["destroy", "lock", "unlock", "discard", "counter", "protect", "damage", "prevent_damage"];
  var AMOUNT = ["draw", "produce_tw", "damage", "prevent_damage"];
  var catalog = null; // normalized name -> catalog card

  function normalize(name) {
    return (name || "").toLowerCase().replace(/[\s\-\u2013]+/g, " ").trim();
  }

  function loadCatalog() {
    if (catalog) return Promise.resolve(catalog);
    return fetch("/api/cards", { headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.ok ? response.json() : { cards: [] };
      })
      .then(function (data) {
        catalog = {};
        (data.cards || []).forEach(function (card) {
          [card.name].concat(card.aliases || []).forEach(function (name) {
            catalog[normalize(name)] = card;
          });
        });
        return catalog;
      })
      .catch(function () {
        catalog = {};
        return catalog;
      });
  }

  function checker() {
    return document.getElementById("checker");
  }

  function field(row, name) {
    return row.querySelector("[name$='-" + name + "']");
  }

  function rows(group) {
    var box = document.getElementById("rows-" + group);
    return box ? Array.prototype.slice.call(box.querySelectorAll("fieldset.row")) : [];
  }

  function values(group, name) {
    return rows(group)
      .map(function (row) {
        var input = field(row, name);
        return input ? input.value.trim() : "";
      })
      .filter(function (value) {
        return value !== "";
      });
  }

  // ------------------------------------------------------------ datalists

  function fillList(id, items) {
    var list = document.getElementById(id);
    if (!list) return;
    while (list.firstChild) list.removeChild(list.firstChild);
    items.forEach(function (value) {
      var option = document.createElement("option");
      option.value = value; // text only
      list.appendChild(option);
    });
  }

  // A card without id gets one from its name, as the server will give it: shown
  // as the placeholder, never typed into a field the person may be typing in.
  function autoIds() {
    var cards = rows("cards");
    var taken = values("cards", "id");
    cards.forEach(function (row) {
      var id = field(row, "id");
      var name = field(row, "name");
      if (!id || !name) return;
      id.removeAttribute("data-auto");
      if (id.value.trim() || !name.value.trim()) {
        id.placeholder = "aus dem Namen";
        return;
      }
      var base = slug(name.value) || "eintrag";
      var candidate = base;
      for (var n = 2; taken.indexOf(candidate) !== -1; n++) candidate = base + "-" + n;
      taken.push(candidate);
      id.placeholder = candidate;
      id.setAttribute("data-auto", candidate);
    });
  }

  function cardId(row) {
    var id = field(row, "id");
    if (!id) return "";
    return id.value.trim() || id.getAttribute("data-auto") || "";
  }

  function cardIds() {
    return rows("cards").map(cardId).filter(Boolean);
  }

  function refreshLists() {
    autoIds();
    fillList("player-names", values("players", "name"));
    fillList("card-ids", cardIds());
    fillList("target-ids", cardIds().concat(values("stack", "id")));
  }

  // ------------------------------------------------------------ rows

  function renumber(group) {
    rows(group).forEach(function (row, i) {
      var n = row.querySelector("[data-n]");
      if (n) n.textContent = String(i + 1);
      if (group === "stack") {
        var id = field(row, "id");
        if (id) id.placeholder = "s" + (i + 1);
      }
    });
  }

  function nextNumber(group) {
    var highest = -1;
    rows(group).forEach(function (row) {
      var input = row.querySelector("[name]");
      var match = input && /^[pcs]-(\d+)-/.exec(input.name);
      if (match) highest = Math.max(highest, Number(match[1]));
    });
    return highest + 1;
  }

  function addRow(group) {
    var template = document.getElementById("tpl-" + group);
    var box = document.getElementById("rows-" + group);
    if (!template || !box) return;
    // the template is the server's own markup; only the row number is put in
    var holder = document.createElement("template");
    holder.innerHTML = template.innerHTML.split("__i__").join(String(nextNumber(group)));
    var row = holder.content.querySelector("fieldset.row");
    box.appendChild(row);
    renumber(group);
    enhanceRow(row);
    var first = row.querySelector("input, select");
    if (first) first.focus();
  }

  function removeRow(button) {
    var row = button.closest("fieldset.row");
    if (!row) return;
    var group = row.getAttribute("data-row");
    var next = row.nextElementSibling || row.previousElementSibling;
    row.parentNode.removeChild(row);
    renumber(group);
    refreshLists();
    var focus = next && next.querySelector("input, select");
    if (focus) focus.focus();
  }

  // ------------------------------------------------------------ catalog defaults

  function slug(text) {
    var map = { "\u00e4": "ae", "\u00f6": "oe", "\u00fc": "ue", "\u00df": "ss" };
    return text
      .toLowerCase()
      .replace(/[\u00e4\u00f6\u00fc\u00df]/g, function (c) {
        return map[c];
      })
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "");
  }

  function cardRowById(id) {
    return rows("cards").filter(function (row) {
      return cardId(row) === id;
    })[0];
  }

  function onCardName(row) {
    var name = field(row, "name").value.trim();
    if (!name) return;
    refreshLists();
    loadCatalog().then(function (cards) {
      var card = cards[normalize(name)];
      var kind = field(row, "kind");
      if (card && kind && !kind.value) kind.value = card.kind;
      refreshLists();
    });
  }

  function setIfBlank(input, value) {
    if (input && !input.value && value !== null && value !== undefined) input.value = String(value);
  }

  function onEntrySource(row, typeChanged) {
    var source = field(row, "source").value.trim();
    var cardRow = source && cardRowById(source);
    if (!cardRow) return;
    var by = field(row, "by");
    setIfBlank(by, field(cardRow, "owner").value.trim() || null);
    var name = field(cardRow, "name").value.trim();
    loadCatalog().then(function (cards) {
      var card = cards[normalize(name)];
      if (!card) return;
      var type = field(row, "type");
      if (!type.value && !typeChanged) {
        type.value = card.effect;
        field(row, "sacrifice").checked = !!card.sacrifice;
        field(row, "lock_source").checked = !!card.lock_source;
      }
      if (type.value === card.effect) {
        setIfBlank(field(row, "amount"), card.amount);
        setIfBlank(field(row, "cost"), card.cost);
        setIfBlank(field(row, "play_cost"), card.play_cost);
      }
      showEffectFields(row);
    });
  }

  function showEffectFields(row) {
    var type = field(row, "type").value;
    function show(name, visible) {
      var input = field(row, name);
      var box = input && input.closest(".field");
      if (box) box.hidden = !visible && !input.value;
    }
    show("target", !type || TARGET.indexOf(type) !== -1);
    show("amount", !type || AMOUNT.indexOf(type) !== -1);
    show("text", !type || type === "other");
  }

  function enhanceRow(row) {
    if (row.getAttribute("data-row") === "stack") showEffectFields(row);
  }

  // ------------------------------------------------------------ resolving without reload

  function setBusy(busy) {
    var root = checker();
    if (root) root.classList.toggle("checker-busy", busy);
    var button = document.getElementById("resolve");
    if (button) button.disabled = busy;
  }

  function swapIn(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("checker");
    var root = checker();
    if (!fresh || !root) return false;
    root.replaceWith(document.importNode(fresh, true));
    enhance();
    var link = fresh.getAttribute("data-permalink");
    if (window.history && window.history.replaceState) {
      var url = link ? new URL(link, window.location.href) : null;
      window.history.replaceState(null, "", url ? url.pathname + url.search : "/check");
    }
    var target = document.getElementById("check-error") || document.getElementById("result");
    if (target) {
      target.focus({ preventScroll: true });
      target.scrollIntoView({ block: "start" });
    }
    return true;
  }

  function send(form, submitter) {
    var data = new URLSearchParams();
    new FormData(form).forEach(function (value, key) {
      data.append(key, value);
    });
    data.set("action", (submitter && submitter.value) || "check");
    setBusy(true);
    // not form.action: the buttons named "action" shadow that property
    return fetch(form.getAttribute("action") || "/check", {
      method: "POST",
      headers: { "X-Check-Fragment": "1", Accept: "text/html" },
      body: data,
    })
      .then(function (response) {
        return response.text();
      })
      .then(function (html) {
        setBusy(false);
        if (!swapIn(html)) form.submit(); // not the checker: let the browser show the page
      })
      .catch(function () {
        setBusy(false);
        form.submit(); // offline or the like: the plain form post still works
      });
  }

  // ------------------------------------------------------------ wiring

  function enhance() {
    var copy = document.getElementById("copy-share");
    if (copy && window.faqBot) copy.hidden = false;
    rows("stack").forEach(enhanceRow);
    refreshLists();
  }

  document.addEventListener("click", function (event) {
    var add = event.target.closest && event.target.closest("[data-add]");
    if (add && add.closest("#checker")) {
      event.preventDefault();
      addRow(add.getAttribute("data-add"));
      return;
    }
    var remove = event.target.closest && event.target.closest("[data-remove]");
    if (remove && remove.closest("#checker")) {
      event.preventDefault();
      removeRow(remove);
      return;
    }
    var copy = event.target.closest && event.target.closest("[data-copy-link]");
    if (copy) {
      var link = document.getElementById("share-link");
      var status = document.getElementById("copy-status");
      window.faqBot.copy(link.href).then(
        function () {
          if (status) status.textContent = "Link kopiert.";
        },
        function () {
          if (status) status.textContent = "Kopieren ging nicht; bitte den Link oben verwenden.";
        }
      );
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest || !form.closest("#checker")) return;
    if (form.id !== "check-form" && form.id !== "json-form") return;
    var submitter = event.submitter;
    if (submitter && submitter.value && submitter.value !== "check") return; // plain post
    event.preventDefault();
    send(form, submitter);
  });

  document.addEventListener("change", function (event) {
    var input = event.target;
    var row = input.closest && input.closest("fieldset.row");
    if (!row || !input.name) return;
    var group = row.getAttribute("data-row");
    if (group === "cards" && /-name$/.test(input.name)) onCardName(row);
    if (group === "stack" && /-source$/.test(input.name)) onEntrySource(row, false);
    if (group === "stack" && /-type$/.test(input.name)) {
      showEffectFields(row);
      onEntrySource(row, true);
    }
    refreshLists();
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", enhance);
  } else {
    enhance();
  }
})();
