// Regelsuche service worker (rendered by faq_bot/web/pwa.py).
// Pages come from the network; when it fails (or stalls), the offline shell
// renders them from the precached offline copy. Static files are cache-first
// (their URLs carry a content hash). A new index build changes VERSION, so
// the next visit installs this worker anew and drops the old caches.
"use strict";

var VERSION = {{ version | tojson }};
var CACHE = "regelsuche-" + VERSION;
var PRECACHE = {{ precache | tojson }};
var SHELL = {{ shell | tojson }};
var NETWORK_TIMEOUT_MS = 6000; // three round trips at 2 s, then the stored copy
// a question to the chat's page computes an answer: it gets the time the chat's own script gives one
// (CHAT_TIMEOUT_MS), so a question asked by link and one typed wait alike
var ASK_PATH = {{ ask_path | tojson }};
var ANSWER_TIMEOUT_MS = {{ answer_timeout_ms | tojson }};

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches
      .open(CACHE)
      .then(function (cache) {
        return cache.addAll(
          PRECACHE.map(function (url) {
            return new Request(url, { cache: "reload" });
          })
        );
      })
      .then(function () {
        return self.skipWaiting();
      })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (name) {
              return name.indexOf("regelsuche-") === 0 && name !== CACHE;
            })
            .map(function (name) {
              return caches.delete(name);
            })
        );
      })
      .then(function () {
        return self.clients.claim();
      })
  );
});

// The network's answer, or a rejection after `ms` (venue wifi that hangs).
function fromNetwork(request, ms) {
  return new Promise(function (resolve, reject) {
    var timer = setTimeout(function () {
      reject(new Error("timeout"));
    }, ms);
    fetch(request).then(
      function (response) {
        clearTimeout(timer);
        resolve(response);
      },
      function (error) {
        clearTimeout(timer);
        reject(error);
      }
    );
  });
}

function offlineShell() {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(SHELL).then(function (response) {
      return response || Response.error();
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (request.mode === "navigate") {
    // only a question (?q=) is answered there; the chat page itself is a page like any
    var answers = url.pathname === ASK_PATH && url.searchParams.has("q");
    var ms = answers ? Math.max(ANSWER_TIMEOUT_MS, NETWORK_TIMEOUT_MS) : NETWORK_TIMEOUT_MS;
    event.respondWith(
      fromNetwork(request, ms).catch(function () {
        return offlineShell();
      })
    );
    return;
  }
  if (url.pathname.indexOf("/static/") === 0 || url.pathname === "/offline-data.json") {
    event.respondWith(
      caches.open(CACHE).then(function (cache) {
        return cache.match(request).then(function (hit) {
          return hit || fetch(request);
        });
      })
    );
  }
});
