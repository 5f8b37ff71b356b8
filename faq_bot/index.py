"""Stage 2: build and open the Whoosh index.

Public interface (others code against these names):

``build_index(corpus_dir, index_dir, progress=None) -> BuildReport``
    Loads the corpus (`faq_bot.corpus.load_corpus`), builds the cross references
    (`faq_bot.links.build_links`) and writes a new build into
    ``index_dir/builds/<build-id>/``: the Whoosh index (one ``kind="entry"``
    document per entry and one ``kind="paragraph"`` document per paragraph),
    ``entries.json`` and ``meta.json``. Then it atomically repoints the symlink
    ``index_dir/current`` at the new build (``os.replace``) and deletes all builds
    but the new one and the one before it. A `CorpusError` is raised before
    anything is swapped, so a broken corpus never destroys the live index.
    ``progress`` is an optional callable ``progress(done, total)``.

``BuildReport`` (frozen dataclass)
    ``version`` (build id), ``path`` (the build folder), ``documents``,
    ``entries``, ``paragraphs``, ``links`` (resolved references),
    ``unresolved`` (list of ``(entry_id, text)``), ``warnings`` (list of German
    strings), ``seconds``.

``open_index(index_dir) -> Index``
    Opens the build ``index_dir/current`` points at. Raises
    `IndexMissingError` (German message: run ``faq-bot index``) when there is none.

``Index``
    ``version`` (str, build id), ``path``, ``built_at`` (ISO time),
    ``documents`` (list of dicts: id, file, title, game, kind, language, date,
    date_text, notes, precedence, preamble, entry_ids - entry ids in order),
    ``document(doc_id) -> dict | None``,
    ``entry(id) -> EntryRecord | None`` (canonical ids only),
    ``canonical_id(id_or_alias) -> str | None`` (alias ids, slugs of titles and
    of aliases map to the canonical id: use it for 301 redirects),
    ``entries(doc=None) -> list[EntryRecord]`` in document order,
    ``neighbours(id) -> (prev EntryRecord | None, next EntryRecord | None)``
    within the entry's document,
    ``references(id) -> list[dict]`` (outgoing cross references),
    ``backlinks(id) -> list[str]`` (ids of entries that link to `id`),
    ``searcher()`` (a Whoosh searcher, shared, thread-safe for reading),
    ``whoosh`` (the `whoosh.index.Index`), ``vocabulary`` (set of indexed body
    terms), ``is_stale()`` (True when ``current`` now points at another build),
    ``close()``.

``EntryRecord`` (frozen dataclass)
    The fields of `faq_bot.corpus.model.Entry` — ``id, doc, title, paragraphs``
    (source form), ``position, aliases, category, section, markup, alias_ids`` —
    plus ``plain_paragraphs`` (tuple of str), ``text`` (plain paragraphs joined
    by newlines), ``name``, ``links`` (tuple of reference dicts: ``paragraph``,
    ``text``, ``target_text``, ``target`` (entry id or None when unresolved),
    ``target_title`` (or None), ``start``, ``end`` — offsets into the plain
    paragraph) and ``backlinks`` (tuple of dicts ``{"id", "title", "doc"}``).
    ``to_json()`` gives a JSON-ready dict.

``IndexHolder(index_dir)``
    Thread-safe holder for long-running processes (the web server): ``get()``
    opens the index on first use and reopens it when a rebuild has been
    swapped in; the previous Index stays usable for requests already running.

``IndexMissingError`` (subclass of ``LookupError``).
"""
