// Regelsuche: small enhancements. Every page works without this file.
// - "/" jumps to the search box
// - title suggestions while typing (fills the <datalist> from /api/suggest)
// - registers the service worker (offline copy)
// - reference previews beside the link (hover, keyboard focus; on touch tap once to
//   preview, again to follow)
// - "Absatz N" copies the paragraph's permalink, "Zitat kopieren" its citation (or the
//   entry's); the copied paragraph becomes the marked one; base.html's status region says
//   what was copied
// It also offers window.faqBot = {copy, flash, el, link, announce, chatStore, storedChat,
// path, unrooted} to the page scripts loaded after it (chat.js, check.js, offline.js), so
// copying works the same everywhere; path puts an address of this site under the path the
// app is served under (<html data-root>, "/faq" behind a proxy's location /faq/; none at
// a host's root), as the server's links are, and unrooted reads one back; chatStore names
// the sessionStorage key of this tab's conversation (one per app on a host), which chat.js
// writes and storedChat reads (for chat.js and the offline copy alike).
"use strict";

(function () {
  function isTyping(target) {
    if (!target) return false;
    var tag = target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
  }

  // The "/" shortcut can be turned off (WCAG 2.1.4: a one-key shortcut a speech-input
  // user may say by chance), by the footer's button; the choice is kept in this browser.
  var SHORTCUT_OFF = "faqbot-shortcut-off";
  function shortcutOff() {
    try {
      return window.localStorage.getItem(SHORTCUT_OFF) === "1";
    } catch (e) {
      return false; // storage refused: the shortcut as shipped
    }
  }
  function showShortcut() {
    var off = shortcutOff();
    document.querySelectorAll("[data-shortcut-on]").forEach(function (node) {
      node.hidden = off;
    });
    document.querySelectorAll("[data-shortcut-off]").forEach(function (node) {
      node.hidden = !off;
    });
    document.querySelectorAll("[data-shortcut-toggle]").forEach(function (button) {
      button.hidden = false;
      button.textContent = off ? "Tastenkürzel „/“ einschalten" : "Tastenkürzel „/“ ausschalten";
    });
  }
  document.querySelectorAll("[data-shortcut-toggle]").forEach(function (button) {
    button.addEventListener("click", function () {
      try {
        if (shortcutOff()) window.localStorage.removeItem(SHORTCUT_OFF);
        else window.localStorage.setItem(SHORTCUT_OFF, "1");
      } catch (e) {
        return; // storage refused: nothing to keep the choice in
      }
      showShortcut();
      announce(shortcutOff() ? "Tastenkürzel ausgeschaltet." : "Tastenkürzel eingeschaltet.");
    });
  });
  showShortcut();

  // "/" focuses the search box (unless the person is typing somewhere, or turned it off).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTyping(event.target) || shortcutOff()) return;
    var box = document.querySelector("input[data-shortcut]");
    if (!box) return;
    event.preventDefault();
    box.focus();
    box.select();
  });

  // Title suggestions: one request per pause in typing, newest answer wins.
  var SUGGEST_MAX = 120; // the longest title is far shorter
  var list = document.getElementById("title-suggestions");
  var timer = null;
  var latest = 0;

  function fillSuggestions(input) {
    var value = input.value.trim();
    // past SUGGEST_MAX characters it is a question, not a title (and no request is sent
    // that the server would refuse as too long)
    if (!list) return;
    var ticket = ++latest; // also drops an answer still on its way for earlier typing
    if (value.length < 2 || value.length > SUGGEST_MAX) {
      // no titles for what is typed now: the list must not keep those of earlier typing
      while (list.firstChild) list.removeChild(list.firstChild);
      return;
    }
    // a box whose form limits the search to a document (a document page, a filtered search):
    // that document's titles
    var doc = input.form && input.form.querySelector("[name=doc]");
    var within = doc && doc.value ? "&doc=" + encodeURIComponent(doc.value) : "";
    // the titles alone, each once, as the browser's own box gets them (format=opensearch:
    // two entries named „Runde“ fill the box alike; faq_bot/suggest.py distinct_titles)
    fetch(path("/api/suggest?format=opensearch&q=") + encodeURIComponent(value) + within, {
      headers: { Accept: "application/json" },
    })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (data) {
        if (!data || ticket !== latest) return;
        while (list.firstChild) list.removeChild(list.firstChild);
        (Array.isArray(data[1]) ? data[1] : []).forEach(function (title) {
          var option = document.createElement("option");
          option.value = title; // text only: never parsed as HTML
          list.appendChild(option);
        });
      })
      .catch(function () {
        /* suggestions are optional */
      });
  }

  document.querySelectorAll("input[data-suggest]").forEach(function (input) {
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        fillSuggestions(input);
      }, 150);
    });
  });

  // Put `text` on the clipboard; a promise that rejects when the browser refuses.
  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    // fallback for http:// on a LAN: a hidden textarea and execCommand; the focus goes
    // back to the control that copied (it was left on the page's start: the next Tab went
    // to „Zum Inhalt springen“, an accessibility review)
    return new Promise(function (resolve, reject) {
      var focused = document.activeElement;
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try {
        ok = document.execCommand("copy");
      } catch (e) {
        ok = false;
      }
      document.body.removeChild(area);
      if (focused && focused !== document.body && focused.focus) {
        focused.focus({ preventScroll: true });
      }
      if (ok) resolve();
      else reject(new Error("copy failed"));
    });
  }

  // Mark `element` as copied for a moment; with `text`, show that instead of its label.
  function flash(element, text) {
    var old = element.getAttribute("data-label") || element.textContent;
    element.setAttribute("data-label", old);
    element.classList.add("copied");
    if (text) element.textContent = text;
    setTimeout(function () {
      element.classList.remove("copied");
      if (text) element.textContent = old;
    }, 1800);
  }

  // Say `text` in a live region (role="status"; by default base.html's #status-message, a
  // page script passes its own): a confirmation reaches screen readers, not only the eye.
  // Emptied first and filled a moment later, so the same words twice are said twice; a
  // newer message replaces one still waiting, and "" only empties the region.
  var statusRegion = document.getElementById("status-message");
  var waiting = new WeakMap(); // region -> its message's timer
  function announce(text, region) {
    region = region || statusRegion;
    if (!region) return;
    clearTimeout(waiting.get(region));
    region.textContent = "";
    if (!text) return;
    waiting.set(region, setTimeout(function () {
      region.textContent = text;
    }, 50));
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  var ROOT = document.documentElement.getAttribute("data-root") || "";

  function path(address) {
    return ROOT + address;
  }

  // `pathname` without the app's root ("/faq/entry/x" -> "/entry/x"); one outside it as is
  function unrooted(pathname) {
    if (!ROOT) return pathname;
    if (pathname === ROOT) return "/";
    return pathname.indexOf(ROOT + "/") === 0 ? pathname.slice(ROOT.length) : pathname;
  }

  function link(href, text, className) {
    var a = el("a", className, text);
    a.setAttribute("href", href);
    return a;
  }

  var CHAT_STORE = "faq-bot-chat" + ROOT; // one conversation per app on a host

  // This tab's conversation as chat.js stored it: [] when there is none or it is unreadable.
  function storedChat() {
    try {
      var turns = JSON.parse(window.sessionStorage.getItem(CHAT_STORE) || "[]");
      return Array.isArray(turns) ? turns : [];
    } catch (e) {
      return [];
    }
  }

  window.faqBot = {
    copy: copy,
    flash: flash,
    el: el,
    link: link,
    announce: announce,
    chatStore: CHAT_STORE,
    storedChat: storedChat,
    path: path,
    unrooted: unrooted,
  };

  // The service worker keeps an offline copy of every ruling and a search over it
  // (faq_bot/web/pwa.py). Without it, or without JavaScript, pages come from the server.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(path("/sw.js")).catch(function () {
        /* offline use is an extra */
      });
    });
    // The footer says so once the offline copy is stored: a worker is active only after its
    // install stored every file it precaches (templates/pwa/sw.js, `cache.addAll`: all or
    // none), the offline copy among them. A judge knows before the venue's wifi drops.
    navigator.serviceWorker.ready.then(function () {
      var note = document.getElementById("offline-ready");
      if (note) note.hidden = false;
    });
  }

  // The marked paragraph of a ruling: the one a link opened (#p3, or the one a permalink
  // page marks), then the one whose link or citation was copied. :target cannot follow a
  // copy (history.replaceState leaves it where the page was opened), so with JavaScript
  // the class is-target alone marks the one a link opened (with the line saying where it
  // is from) and is-copied the one copied since (the mark only: the line stays where it
  // is, so nothing above the tapped button moves; app.css).
  var ruling = document.querySelector(".ruling-body");

  function markParagraph(para, copiedHere) {
    if (!ruling || !para) return;
    var mark = copiedHere ? "is-copied" : "is-target";
    ruling.querySelectorAll(".para.is-copied, .para." + mark).forEach(function (other) {
      if (other !== para) other.classList.remove("is-copied", mark);
    });
    para.classList.add(mark);
    ruling.classList.toggle("mark-copied", !!copiedHere);
  }

  function markFromHash() {
    var para = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (para && para.classList.contains("para") && ruling.contains(para)) markParagraph(para);
  }

  if (ruling) {
    ruling.classList.add("marks-by-script");
    markFromHash();
    window.addEventListener("hashchange", markFromHash);
  }

  // After a copy: mark the paragraph, keep the address on it (a reload shows the same), say so.
  function copied(para, control, message) {
    markParagraph(para, true);
    if (para && para.id) history.replaceState(null, "", "#" + para.id);
    flash(control);
    announce(message);
  }

  // "Absatz N": without JavaScript a link to the paragraph's permalink; here a button that
  // copies the permalink (absolute, without the search words). When the browser refuses
  // to copy, it opens the permalink, whose address can be copied by hand.
  document.querySelectorAll("a[data-copy-link]").forEach(function (anchor) {
    var url = new URL(anchor.getAttribute("href"), window.location.href).href;
    var para = anchor.closest(".para");
    var label = anchor.textContent.trim();
    var button = el("button", anchor.className, label);
    button.type = "button";
    button.setAttribute("aria-label", label + ": Link kopieren");
    button.setAttribute("title", "Link zu diesem Absatz kopieren");
    button.addEventListener("click", function () {
      copy(url).then(
        function () {
          copied(para, button, "Link kopiert.");
        },
        function () {
          window.location.href = url;
        }
      );
    });
    anchor.parentNode.replaceChild(button, anchor);
  });

  // "Zitat kopieren" per paragraph: without JavaScript a <details> shows the text to copy;
  // here a button copies it (and opens the <details> when the browser refuses).
  document.querySelectorAll("details.para-cite").forEach(function (details) {
    var text = details.querySelector(".para-citation");
    if (!text) return;
    var para = details.closest(".para");
    var number = para ? para.querySelector(".para-num") : null;
    var button = el("button", "para-cite-button", "Zitat kopieren");
    button.type = "button";
    if (number) button.setAttribute("aria-label", number.textContent.trim() + ": Zitat kopieren");
    button.addEventListener("click", function () {
      copy(text.textContent).then(
        function () {
          copied(para, button, "Zitat kopiert.");
        },
        function () {
          button.hidden = true;
          details.hidden = false;
          details.open = true;
        }
      );
    });
    details.hidden = true;
    details.parentNode.insertBefore(button, details);
  });

  // Reference previews: the linked entry's summary in a box beside the link (below it, or
  // above when the window has more room there), on hover, on keyboard focus and on a first
  // tap (a second tap follows the link; on touch the box opens in the text's flow below the
  // link's line instead, over no other link); never over the link (WCAG 2.4.11), never wider
  // than the window, closed by Escape, kept while the pointer moves onto it (1.4.13).
  // Screen readers get the same text as the link's description (aria-describedby, from
  // the server), so the box is aria-hidden. Without JavaScript app.css shows it on hover.
  document.documentElement.classList.add("js");
  var previewBox = null;
  var previewFor = null;
  var hideTimer = null;
  var PREVIEW_GAP = 6; // px between the link and the box
  var PREVIEW_MARGIN = 12; // px kept free at the window's sides

  function previewLink(node) {
    var link = node instanceof Element ? node.closest("a.xref[data-preview]") : null;
    return link && link.getAttribute("data-preview") ? link : null;
  }

  function showPreview(link, inFlow) {
    clearTimeout(hideTimer);
    if (!previewBox) {
      previewBox = el("div", "xref-preview");
      previewBox.setAttribute("aria-hidden", "true");
      previewBox.addEventListener("pointerenter", function () {
        clearTimeout(hideTimer);
      });
      previewBox.addEventListener("pointerleave", hidePreviewSoon);
    }
    if (previewFor && previewFor !== link) previewFor.classList.remove("previewing");
    previewFor = link;
    previewBox.textContent = link.getAttribute("data-preview"); // text only, never HTML
    previewBox.classList.toggle("in-flow", !!inFlow);
    if (inFlow) {
      // on touch: in the text's flow, so it floats over no other link and the next is one
      // tap away: at the end of a list item or table cell, else right after the link (the
      // rest of a paragraph continues below the box)
      var item = link.closest("li, td, th, dd");
      if (item) item.appendChild(previewBox);
      else link.after(previewBox);
      previewBox.style.maxWidth = previewBox.style.left = previewBox.style.top = "";
      previewBox.hidden = false;
      return;
    }
    if (previewBox.parentNode !== document.body) document.body.appendChild(previewBox);
    var view = document.documentElement.clientWidth;
    previewBox.style.maxWidth = Math.max(0, Math.min(640, view - 2 * PREVIEW_MARGIN)) + "px";
    previewBox.style.left = "0px";
    previewBox.style.top = "0px";
    previewBox.hidden = false;
    var own = link.getBoundingClientRect();
    var size = previewBox.getBoundingClientRect();
    var below = window.innerHeight - own.bottom - PREVIEW_GAP;
    var above = own.top - PREVIEW_GAP;
    var top = size.height <= below || below >= above ? own.bottom + PREVIEW_GAP : own.top - PREVIEW_GAP - size.height;
    var left = Math.max(PREVIEW_MARGIN, Math.min(own.left, view - PREVIEW_MARGIN - size.width));
    previewBox.style.top = top + window.scrollY + "px";
    previewBox.style.left = left + window.scrollX + "px";
  }

  function hidePreview() {
    clearTimeout(hideTimer);
    if (previewBox) previewBox.hidden = true;
    if (previewFor) previewFor.classList.remove("previewing");
    previewFor = null;
  }

  function hidePreviewSoon() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hidePreview, 300);
  }

  document.addEventListener("pointerover", function (event) {
    if (event.pointerType !== "mouse") return;
    var link = previewLink(event.target);
    if (link && link === previewFor) clearTimeout(hideTimer);
    else if (link) showPreview(link);
  });
  document.addEventListener("pointerout", function (event) {
    if (event.pointerType !== "mouse") return;
    var link = previewLink(event.target);
    if (link && link === previewFor && !link.contains(event.relatedTarget)) hidePreviewSoon();
  });
  document.addEventListener("focusin", function (event) {
    var link = previewLink(event.target);
    if (link && link.matches(":focus-visible")) showPreview(link);
  });
  document.addEventListener("focusout", function (event) {
    // a box in the flow (touch) closes on the tap's click instead: closed on focusout, at
    // the tap's start, it would move the rest of the page up under the finger
    if (previewBox && previewBox.classList.contains("in-flow")) return;
    if (previewFor && previewLink(event.target) === previewFor) hidePreview();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && previewFor) hidePreview();
  });
  window.addEventListener("resize", hidePreview);

  // On touch the first tap previews, a second tap on the same link follows it.
  var lastPointer = "mouse";
  document.addEventListener(
    "pointerdown",
    function (event) {
      lastPointer = event.pointerType;
    },
    true
  );
  document.addEventListener("click", function (event) {
    var target = previewLink(event.target);
    if (lastPointer !== "touch") return;
    if (!target) {
      if (previewFor) hidePreview();
      return;
    }
    if (target.classList.contains("previewing")) return; // second tap: follow
    event.preventDefault();
    showPreview(target, true);
    target.classList.add("previewing");
  });

  // "Teilen" on a ruling page, where the browser has a share sheet (a phone): the page's
  // canonical address (without the search words of `h`), with the paragraph a hash names.
  document.querySelectorAll("button[data-share-page]").forEach(function (button) {
    if (typeof navigator.share !== "function") return;
    button.parentNode.hidden = false;
    button.addEventListener("click", function () {
      var canonical = document.querySelector('link[rel="canonical"]');
      var url = canonical ? canonical.href : window.location.href.split(/[?#]/)[0];
      if (/^#p\d+$/.test(window.location.hash)) url += window.location.hash;
      navigator.share({ title: document.title, url: url }).catch(function () {});
    });
  });

  // A box that scrolls (a wide table, the checker's JSON) is a tab stop, named as one, so a
  // keyboard can scroll it; one whose content fits is no stop of its own (an accessibility
  // review: the checker's end-state tables were stops „seitlich verschiebbar“ that did not
  // scroll). The markup has the stop and the full name (no JavaScript: scrolls or not);
  // data-scroll-label holds the name without the note. Checked again when its size or its
  // content's changes (text zoom, a phone turned, <details> opened) and for boxes added later
  // (a chat answer's table, the checker's new result).
  function fitScrollBox(box) {
    var sideways = box.scrollWidth > box.clientWidth + 1;
    var scrolls = sideways || box.scrollHeight > box.clientHeight + 1; // the JSON: downwards
    var name = box.getAttribute("data-scroll-label");
    if (scrolls) {
      box.setAttribute("tabindex", "0");
      box.setAttribute("aria-label", name + (sideways ? " (seitlich verschiebbar)" : " (verschiebbar)"));
    } else if (document.activeElement !== box) {
      box.removeAttribute("tabindex");
      box.setAttribute("aria-label", name);
    }
  }
  var boxSizes = typeof ResizeObserver === "function" ? new ResizeObserver(function (seen) {
    seen.forEach(function (item) {
      var box = item.target.closest("[data-scroll-label]");
      if (box) fitScrollBox(box);
    });
  }) : null;
  function watchScrollBoxes(root) {
    var boxes = root.matches && root.matches("[data-scroll-label]") ? [root] : [];
    boxes.push.apply(boxes, root.querySelectorAll("[data-scroll-label]"));
    boxes.forEach(function (box) {
      fitScrollBox(box);
      if (box.hasAttribute("data-scroll-watched")) return;
      box.setAttribute("data-scroll-watched", "");
      // a box that stopped scrolling while it had the focus is checked again as it loses it
      box.addEventListener("blur", function () { fitScrollBox(box); });
      if (!boxSizes) return;
      boxSizes.observe(box);
      if (box.firstElementChild) boxSizes.observe(box.firstElementChild);
    });
  }
  watchScrollBoxes(document);
  if (!boxSizes) window.addEventListener("resize", function () { watchScrollBoxes(document); });
  if (typeof MutationObserver === "function") {
    new MutationObserver(function (changes) {
      changes.forEach(function (change) {
        change.addedNodes.forEach(function (node) {
          if (node.nodeType === 1) watchScrollBoxes(node);
        });
      });
    }).observe(document.body, { childList: true, subtree: true });
  }

  // "Zitieren": the button is hidden without JavaScript (the text is in <details>); on a
  // ruling page and under a chat answer (chat-render.js builds the later ones: hence one
  // listener for the page). It says what it copied in the status region it names
  // (data-status, the chat's), with its data-copied. A copy the browser refuses marks the
  // citation beside it, to copy by hand (it did nothing: a review)
  document.querySelectorAll("button[data-copy-text][hidden]").forEach(function (button) {
    button.hidden = false;
  });
  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element ? event.target.closest("button[data-copy-text]") : null;
    if (!button) return;
    var region = document.getElementById(button.getAttribute("data-status") || "") || undefined;
    copy(button.getAttribute("data-copy-text")).then(
      function () {
        flash(button);
        announce(button.getAttribute("data-copied") || "Zitat kopiert.", region);
      },
      function () {
        var text = button.parentNode.querySelector(".citation");
        if (text && window.getSelection) window.getSelection().selectAllChildren(text);
        announce("Kopieren nicht möglich: Das Zitat ist markiert, zum Kopieren lange drücken " +
          "oder Strg+C.", region);
      }
    );
  });
})();
