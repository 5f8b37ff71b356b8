// Regelsuche offline, its search: the offline copy's terms matched as the server's analysis
// wrote them (folding, stop words, the players' words, spelling slips), ranked, and the
// snippet of each hit. No DOM here: offline.js renders what this finds. Loaded before it
// (templates/pwa/offline.html); node loads it as a module for the tests.
"use strict";

(function (root) {
  var WORD = /[\p{L}\p{N}_]+/gu;

  // What the players' words table spells a folded word out to ([] for none): an own key
  // only, so "constructor" or "__proto__" in an address is a word like any other.
  function spelledOut(data, word) {
    var table = data.synonyms || {};
    var found = Object.prototype.hasOwnProperty.call(table, word) ? table[word] : null;
    return Array.isArray(found) ? found : [];
  }

  // fold(word), and fold.letters(word): the same without reading "ae"/"oe"/"ue" as
  // umlauts (faq_bot/text.py fold_letters), whose edits the spelling correction reads too
  function makeFold(rules) {
    var digraph = new RegExp(rules.digraph, "g");
    function letters(lower) {
      var out = "";
      for (var i = 0; i < lower.length; i++) {
        var c = lower[i];
        out += Object.prototype.hasOwnProperty.call(rules.table, c) ? rules.table[c] : c;
      }
      return out.normalize("NFKD").replace(/\p{M}/gu, "");
    }
    // styled letters ("𝐅𝐞𝐮𝐞𝐫", full-width ones) in their compatibility form first: they
    // have no lower case of their own (faq_bot/text.py _compatible)
    function compatible(word) {
      return /^[\x00-\x7f]*$/.test(word) ? word : word.normalize("NFKC");
    }
    // the digraphs are read before the umlauts are folded ("Zerstöer" keeps its e)
    var fold = function (word) {
      return letters(compatible(word).toLowerCase().replace(digraph, "$1"));
    };
    fold.letters = function (word) { return letters(compatible(word).toLowerCase()); };
    return fold;
  }

  // The sound key of the rules [[pattern, replacement], ...] (faq_bot/spelling.py
  // SOUND_ALIKE, carried in the data), applied in order.
  function makeSoundKey(rules) {
    var compiled = [];
    rules.forEach(function (rule) {
      try {
        compiled.push([new RegExp(rule[0], "g"), rule[1]]);
      } catch (error) {
        return;
      }
    });
    return function (word) {
      compiled.forEach(function (rule) { word = word.replace(rule[0], rule[1]); });
      return word;
    };
  }

  // `minFuzzy`: the shortest word the spelling correction reads (the server's
  // MIN_FUZZY_LENGTH, handed over by the shell)
  function Search(data, minFuzzy) {
    var MIN_FUZZY_LENGTH = minFuzzy || 5;
    var fold = makeFold(data.fold);
    var stop = new Set(data.stopwords);
    this.fold = fold;
    // One group per query word: the word itself and what the abbreviation table adds for it.
    this.groups = function (query) {
      var out = [];
      (query.match(WORD) || []).forEach(function (raw) {
        var word = fold(raw);
        if (stop.has(word)) return;
        var group = [word].concat(spelledOut(data, word));
        group.typed = fold.letters(raw); // for the spelling correction (`corrected`)
        if (!out.some(function (g) { return g[0] === word; })) out.push(group);
      });
      return out;
    };
    this.terms = function (query) {
      return [].concat.apply([], this.groups(query));
    };
    // Every term of the copy with the number of entries that have it, made on first use.
    var vocabulary = null;
    function counts() {
      if (vocabulary) return vocabulary;
      vocabulary = new Map();
      data.entries.forEach(function (entry) {
        new Set([].concat(entry.t, entry.a, entry.x)).forEach(function (term) {
          vocabulary.set(term, (vocabulary.get(term) || 0) + 1);
        });
      });
      return vocabulary;
    }
    // A term's spelling with the spellings that sound alike made one ("endfase" and
    // "endphase"), by the server's rules in the data (faq_bot/spelling.py SOUND_ALIKE).
    // A rule this browser's RegExp cannot read is left out: a slip then goes uncorrected,
    // the copy still works.
    var soundKey = makeSoundKey(data.sound_alike || []);
    // soundKey -> the term of the copy with it that most entries have, made on first use
    var alikes = null;
    function soundAlike(word) {
      if (!alikes) {
        alikes = new Map();
        Array.from(counts().keys()).sort().forEach(function (term) {
          if (term.length < MIN_FUZZY_LENGTH || !/^\p{L}+$/u.test(term)) return;
          var key = soundKey(term);
          var had = alikes.get(key);
          if (had === undefined || counts().get(term) > counts().get(had)) alikes.set(key, term);
        });
      }
      var found = alikes.get(soundKey(word));
      return found !== undefined && found !== word ? found : null;
    }
    // A query word no entry matches, as the term of the copy spelt as it sounds ("Endfase",
    // "Panter"), else one edit away ("Feurwehr", "Aktionstapel") that most entries have, or
    // null: the server's rule for its "Meinten Sie" (faq_bot/query.py _correct; words of
    // at least MIN_FUZZY_LENGTH letters, handed over by the shell).
    // `typed`: the word's letters as typed (`fold.letters`), one edit from a term too
    // ("fuerwehr", which folds to "furwehr", two edits from "feuerwehr").
    this.corrected = function (word, typed) {
      if (word.length < MIN_FUZZY_LENGTH) return null;
      var alike = soundAlike(word);
      if (alike) return alike;
      var found = null;
      var foundCount = 0;
      var spellings = typed && typed !== word ? [word, typed] : [word];
      counts().forEach(function (count, term) {
        var near = spellings.some(function (w) {
          return Math.abs(term.length - w.length) <= 1 && distance(w, term, 1) <= 1;
        });
        if (count > foundCount && near) {
          found = term;
          foundCount = count;
        }
      });
      return found;
    };
  }


  // Optimal string alignment distance of `a` and `b` (insert, delete, replace, swap two
  // neighbours), or more than `most` as soon as it must be.
  function distance(a, b, most) {
    var before = null;
    var prev = [];
    for (var j = 0; j <= b.length; j++) prev[j] = j;
    for (var i = 1; i <= a.length; i++) {
      var cur = [i];
      var low = i;
      for (j = 1; j <= b.length; j++) {
        var d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (before && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
          d = Math.min(d, before[j - 2] + 1);
        }
        cur[j] = d;
        if (d < low) low = d;
      }
      if (low > most) return most + 1;
      before = prev;
      prev = cur;
    }
    return prev[b.length];
  }

  // How well query term `q` matches the entry term `t`: whole word, prefix, or stem prefix.
  function matchOne(q, t) {
    if (t === q) return 1;
    if (q.length >= 2 && t.indexOf(q) === 0) return 0.8;
    if (q.length >= 6 && t.indexOf(q.slice(0, -2)) === 0) return 0.5;
    return 0;
  }

  function best(q, terms) {
    var score = 0;
    for (var i = 0; i < terms.length && score < 1; i++) {
      var m = matchOne(q, terms[i]);
      if (m > score) score = m;
    }
    return score;
  }

  function rank(data, groups) {
    var hits = [];
    data.entries.forEach(function (entry, order) {
      var total = 0;
      var covered = 0;
      groups.forEach(function (group) {
        var s = 0;
        group.forEach(function (q) {
          s = Math.max(s, 3 * best(q, entry.t), 2 * best(q, entry.a), best(q, entry.x));
        });
        if (s > 0) covered++;
        total += s;
      });
      if (!covered) return;
      var coverage = covered / groups.length;
      if (groups.length > 1 && coverage < 0.5) return;
      hits.push({ entry: entry, score: total * coverage * coverage, order: order });
    });
    hits.sort(function (a, b) {
      return b.score - a.score || a.order - b.order;
    });
    return hits;
  }

  function matchesAny(word, terms) {
    for (var i = 0; i < terms.length; i++) if (matchOne(terms[i], word)) return true;
    return false;
  }

  // The paragraph with the most query words (then the most matches), and a window of it
  // around its first match.
  function snippet(entry, groups, fold) {
    var terms = [].concat.apply([], groups);
    var bestIndex = 0;
    var bestKey = [-1, -1];
    entry.paragraphs.forEach(function (p, i) {
      var seen = new Set();
      var count = 0;
      (p.match(WORD) || []).forEach(function (w) {
        var folded = fold(w);
        groups.forEach(function (group, g) {
          if (matchesAny(folded, group)) {
            seen.add(g);
            count++;
          }
        });
      });
      if (seen.size > bestKey[0] || (seen.size === bestKey[0] && count > bestKey[1])) {
        bestKey = [seen.size, count];
        bestIndex = i;
      }
    });
    var text = entry.paragraphs[bestIndex] || "";
    var first = 0;
    var m;
    WORD.lastIndex = 0;
    while ((m = WORD.exec(text))) {
      if (matchesAny(fold(m[0]), terms)) {
        first = m.index;
        break;
      }
    }
    var start = Math.max(0, text.lastIndexOf(" ", Math.max(0, first - 60)) + 1);
    if (first < 60) start = 0;
    var cut = text.slice(start, start + 240);
    return { paragraph: bestIndex, text: (start ? "… " : "") + cut + (start + 240 < text.length ? " …" : "") };
  }

  var api = {
    WORD: WORD,
    makeFold: makeFold,
    makeSoundKey: makeSoundKey,
    spelledOut: spelledOut,
    Search: Search,
    distance: distance,
    best: best,
    rank: rank,
    matchesAny: matchesAny,
    snippet: snippet,
  };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.faqBotOfflineSearch = api;
})(typeof window !== "undefined" ? window : this);
