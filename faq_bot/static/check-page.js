// The scenario checker page (/check), besides the form's requests (check.js):
// - "Link kopieren" copies the permalink (with window.faqBot.copy from app.js), „Link
//   teilen“ opens a phone's share sheet
// - "Zum Feld springen" (an error about one field) puts the cursor into that field; without
//   this file the link still scrolls to it
// - the sticky bar's height is the room kept below a field reached with Tab
// - the second click of a double click, and a held key's repeats, do nothing on the
//   checker's buttons (with or without check.js: a form post twice is a step twice)
// check.js says when it swapped in a new checker part (event "faqbot:checker-swapped").
"use strict";

(function () {
  function enhance() {
    var copy = document.getElementById("copy-share");
    if (copy && window.faqBot) copy.hidden = false;
    watchBar();
  }

  // The sticky bar's height as the room a field reached with Tab keeps below it
  // (check.css --submit-bar): a dropped line's note or a two-line step message makes the
  // bar taller than the room kept otherwise, and Tab put fields under it. The bar is
  // replaced with the form: each new one is watched.
  var barWatch = window.ResizeObserver ? new ResizeObserver(function (entries) {
    var height = entries[entries.length - 1].target.getBoundingClientRect().height;
    document.documentElement.style.setProperty("--submit-bar", Math.ceil(height) + "px");
  }) : null;
  function watchBar() {
    var row = document.getElementById("submit-row");
    if (!barWatch || !row) return;
    barWatch.disconnect();
    barWatch.observe(row);
  }

  document.addEventListener("click", function (event) {
    var jump = event.target.closest && event.target.closest("a.to-field");
    var field = jump && document.getElementById(jump.getAttribute("href").slice(1));
    if (!field) return;
    event.preventDefault();
    field.scrollIntoView({ block: "center" });
    field.focus({ preventScroll: true });
  });

  document.addEventListener("click", function (event) {
    // a phone's share sheet for „Link teilen“: the plain link only reloaded the page at
    // its own address (still the fallback, where a browser cannot share)
    var share = event.target.closest && event.target.closest("#share-link");
    if (!share || !navigator.share) return;
    // a click to open it in a new tab or window stays that
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    navigator.share({ title: document.title, url: share.href }).catch(function () {});
  });

  document.addEventListener("click", function (event) {
    var copy = event.target.closest && event.target.closest("[data-copy-link]");
    if (!copy) return;
    var link = document.getElementById("share-link");
    var status = document.getElementById("copy-status");
    window.faqBot.copy(link.href).then(
      function () {
        window.faqBot.announce("Link kopiert.", status);
      },
      function () {
        window.faqBot.announce("Kopieren nicht möglich; bitte „Link teilen“ lang drücken und die Adresse kopieren.", status);
      }
    );
  });

  // the second click of a double click on a button of the checker does nothing: people
  // double-click buttons, and a card chip added two cards (a review); two quick taps on
  // two chips are two cards. By what it does: the button clicked first may have been
  // swapped for its twin meanwhile
  var lastClicked = null;
  function whatItDoes(button) {
    return [button.form ? button.form.id : "", button.id, button.name, button.value].join("|");
  }
  // whether the press or click `event` is the second of a double click whose first hit a
  // checker button: on that button again, or on what a new row moved under the pointer (a
  // legend, a label, the new row's field: a review), not on another button
  function secondOfDouble(event) {
    if (event.detail < 2 || lastClicked === null) return false;
    var button = event.target.closest && event.target.closest("#checker button");
    return !button || whatItDoes(button) === lastClicked;
  }
  document.addEventListener("mousedown", function (event) {
    if (secondOfDouble(event)) event.preventDefault(); // no focus moved, no text selected
  }, true);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#checker button");
    var second = secondOfDouble(event);
    lastClicked = button ? whatItDoes(button) : null;
    if (second) event.preventDefault();
  }, true);
  // nor does a key held down on one, or Enter held in a field (its repeats queued up to
  // eight more cards, or resolves: a review); a text area takes its new lines
  document.addEventListener("keydown", function (event) {
    if (!event.repeat || !event.target.closest || !event.target.closest("#checker")) return;
    var field = event.target.tagName === "INPUT" && event.key === "Enter";
    var press = (event.key === "Enter" || event.key === " ") && event.target.closest("#checker button");
    if (field || press) event.preventDefault(); // Tab and the arrows repeat as ever
  }, true);

  // at load and each time check.js swaps in a new checker part
  document.addEventListener("faqbot:checker-swapped", enhance);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", enhance);
  } else {
    enhance();
  }
})();
