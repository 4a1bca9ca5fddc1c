"""The team schema's library: page text shared by every matter holding the document, searchable.

Page text is keyed by the document's fingerprint, not by matter: a file recognised or indexed by
one reviewer is searchable for every reviewer of any matter that holds it, and never indexed
twice. A page (and a section, and the row saying a document's pages are in) is visible to those
who may see a document with its fingerprint, so a search over the visible pages, statistics
included, learns nothing about matters its reviewer is not in.

`terms` holds pdfdesk's own analysis of the page (the terms its embedded index stores), written
by the client as a tsvector literal, never PostgreSQL's text search parser: words and joined forms
at their word positions, Arabic letter trigrams at positions of their own. `length` is the page's
word count (BM25's document length). `library_documents` keeps one row per indexed fingerprint
with its page and word totals, so the library's size and average page length are read from one
row per document rather than from every page; every page has that row (a foreign key). `terms` is
compressed with lz4: a search decompresses the tsvector of every page it scores, and lz4
decompresses faster than PostgreSQL's default pglz.
"""

SQL = r"""
CREATE TABLE pdfdesk.library_documents (
    fingerprint text PRIMARY KEY,
    pages integer NOT NULL DEFAULT 0,
    words bigint NOT NULL DEFAULT 0,
    version integer NOT NULL DEFAULT 0,
    added_by name NOT NULL DEFAULT current_user,
    added timestamptz NOT NULL DEFAULT now());

CREATE TABLE pdfdesk.pages (
    fingerprint text NOT NULL REFERENCES pdfdesk.library_documents,
    page integer NOT NULL CHECK (page >= 1),
    body text NOT NULL,
    source text NOT NULL DEFAULT 'text',
    terms tsvector COMPRESSION lz4 NOT NULL,
    length integer NOT NULL DEFAULT 0,
    PRIMARY KEY (fingerprint, page));
CREATE INDEX pages_terms ON pdfdesk.pages USING gin (terms);

CREATE TABLE pdfdesk.sections (
    fingerprint text NOT NULL,
    number integer NOT NULL,
    start_page integer NOT NULL,
    end_page integer NOT NULL,
    level integer NOT NULL,
    title text NOT NULL,
    path text NOT NULL,
    terms tsvector NOT NULL,
    title_terms tsvector NOT NULL,
    length integer NOT NULL DEFAULT 0,
    PRIMARY KEY (fingerprint, number));
CREATE INDEX sections_terms ON pdfdesk.sections USING gin (terms);

-- Pages no document of any matter holds any more (every reviewer's matters, not only the
-- caller's): what removing a document leaves behind, deleted by whoever removes it.
CREATE FUNCTION pdfdesk.forget_pages(fingerprints text[]) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
DECLARE
    gone integer;
BEGIN
    DELETE FROM pdfdesk.pages p WHERE p.fingerprint = ANY (fingerprints)
        AND NOT EXISTS (SELECT 1 FROM pdfdesk.documents d WHERE d.fingerprint = p.fingerprint);
    GET DIAGNOSTICS gone = ROW_COUNT;
    DELETE FROM pdfdesk.sections s WHERE s.fingerprint = ANY (fingerprints)
        AND NOT EXISTS (SELECT 1 FROM pdfdesk.documents d WHERE d.fingerprint = s.fingerprint);
    DELETE FROM pdfdesk.library_documents l WHERE l.fingerprint = ANY (fingerprints)
        AND NOT EXISTS (SELECT 1 FROM pdfdesk.documents d WHERE d.fingerprint = l.fingerprint);
    RETURN gone;
END $f$;

-- Searching. Row-level security keeps a policy's qualifiers ahead of every qualifier that is not
-- leakproof, and `@@` is not, so under it no search could use the GIN index (100,000 pages: a
-- sequential scan of 400 ms for any word). These functions run as the schema's owner and apply
-- the same rule themselves (the pages of documents of the login's readable matters); their
-- callers hand in only values (a tsquery, numbers), never an expression, so nothing can read a
-- row before that rule.
CREATE FUNCTION pdfdesk.visible_fingerprints() RETURNS SETOF text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
    SELECT DISTINCT d.fingerprint FROM pdfdesk.documents d
    WHERE d.matter = ANY (pdfdesk.matters_of(session_user, false))
$f$;

-- Whether the login sees every document the library holds (a firm of one matter, a reviewer of
-- all). Every page has its document's row in library_documents (the foreign key), so then a page
-- count needs no page's fingerprint: the GIN index's matches are counted without visiting a page.
-- The counts are the same either way; only their cost differs.
-- (Not granted: whether a library holds documents a reviewer may not see is not hers to ask.)
CREATE FUNCTION pdfdesk.sees_whole_library() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
    SELECT NOT EXISTS (SELECT 1 FROM pdfdesk.library_documents l
                       WHERE l.fingerprint NOT IN (SELECT pdfdesk.visible_fingerprints()))
$f$;

-- The number of visible pages matching each of `qs` (a query's words' page counts in one call).
-- A word on most pages makes the planner pick a sequential scan, which decompresses and tests
-- every page's tsvector (a digit on 59,000 of 100,000 pages: 735 ms); the GIN index's matches
-- only need their page's visibility checked, so sequential scans are off for counting (not for
-- the search: an AND of many words is answered faster by the planner's own choice).
CREATE FUNCTION pdfdesk.count_each(qs tsquery[]) RETURNS bigint[]
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pdfdesk SET enable_seqscan = off AS $f$
DECLARE
    whole boolean := pdfdesk.sees_whole_library();
    counts bigint[] := '{}';
    q tsquery;
    n bigint;
BEGIN
    FOREACH q IN ARRAY coalesce(qs, '{}') LOOP
        IF whole THEN
            SELECT count(*) INTO n FROM pdfdesk.pages p WHERE p.terms @@ q;
        ELSE
            SELECT count(*) INTO n FROM pdfdesk.pages p
            WHERE p.terms @@ q AND p.fingerprint IN (SELECT pdfdesk.visible_fingerprints());
        END IF;
        counts := counts || n;
    END LOOP;
    RETURN counts;
END $f$;

CREATE FUNCTION pdfdesk.count_pages(q tsquery) RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
    SELECT (pdfdesk.count_each(ARRAY[q]))[1]
$f$;

CREATE FUNCTION pdfdesk.holds_pages(q tsquery) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
    SELECT EXISTS (SELECT 1 FROM pdfdesk.pages p
                   WHERE p.terms @@ q AND p.fingerprint IN (SELECT pdfdesk.visible_fingerprints()))
$f$;

-- A page's BM25 share for one part of a query (0 when the page lacks it), from r = ts_rank of that
-- part alone: for one lexeme with unlabelled positions r = 0.1 * sum(1/j^2, j = 1..tf) / (pi^2/6),
-- and t = 1 / (pi^2/6 - r * 10 * pi^2/6) - 6/pi^2 is within 0.1 of tf (0 when r is). Written with
-- r once, so that the planner inlines it without computing ts_rank twice:
-- idf * t * (k1 + 1) / (t + norm) = idf * (k1 + 1) * (1 - norm / (t + norm)).
CREATE FUNCTION pdfdesk.bm25_part(r real, idf double precision, norm double precision) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
    SELECT idf * 2.2 * (1.0 - norm / (1.0 / greatest(1.6449340668 - r * 16.449340668, 0.005) - 0.6079271019 + norm))
$f$;

-- Every visible page matching `q` (of `within` only, when given) with its score and the number
-- of pages matching: BM25 over up to 8 `parts` with their `idfs` (method 'bm25'), or
-- PostgreSQL's ts_rank / ts_rank_cd of `q`. A page's tsvector is read (decompressed) once, into
-- `t`, rather than once per part ranked (the subquery's OFFSET keeps it from being inlined).
CREATE FUNCTION pdfdesk.search_pages(q tsquery, parts tsquery[], idfs double precision[],
                                     average double precision, method text, within text[], lim integer)
RETURNS TABLE (fingerprint text, page integer, score double precision, total bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pdfdesk SET enable_nestloop = off AS $f$
    SELECT fingerprint, page, score, count(*) OVER () FROM (
        SELECT m.fingerprint, m.page,
               CASE method
                   WHEN 'ts_rank' THEN ts_rank(m.t, q, 1)::double precision
                   WHEN 'ts_rank_cd' THEN ts_rank_cd(m.t, q, 1)::double precision
                   ELSE coalesce(pdfdesk.bm25_part(ts_rank(m.t, parts[1], 0), idfs[1], m.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(m.t, parts[2], 0), idfs[2], m.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(m.t, parts[3], 0), idfs[3], m.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(m.t, parts[4], 0), idfs[4], m.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(m.t, parts[5], 0), idfs[5], m.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(m.t, parts[6], 0), idfs[6], m.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(m.t, parts[7], 0), idfs[7], m.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(m.t, parts[8], 0), idfs[8], m.norm), 0)
               END AS score
        FROM (SELECT p.fingerprint, p.page,
                     CASE WHEN method IN ('ts_rank', 'ts_rank_cd') OR parts[2] IS NULL THEN p.terms
                          ELSE p.terms || ''::tsvector END AS t,
                     1.2 * (0.25 + 0.75 * p.length / average) AS norm
              FROM pdfdesk.pages p
              JOIN (SELECT pdfdesk.visible_fingerprints() AS fingerprint) v ON v.fingerprint = p.fingerprint
              WHERE p.terms @@ q AND (within IS NULL OR p.fingerprint = ANY (within))
              OFFSET 0) m) s
    ORDER BY score DESC, fingerprint, page
    LIMIT lim
$f$;

ALTER TABLE pdfdesk.pages ENABLE ROW LEVEL SECURITY;
CREATE POLICY readers ON pdfdesk.pages FOR SELECT
    USING (fingerprint IN (SELECT d.fingerprint FROM pdfdesk.documents d));
CREATE POLICY writers ON pdfdesk.pages FOR INSERT WITH CHECK (fingerprint IN (
    SELECT d.fingerprint FROM pdfdesk.documents d WHERE d.matter = ANY ((SELECT pdfdesk.writable())::bigint[])));
CREATE POLICY editors ON pdfdesk.pages FOR UPDATE USING (fingerprint IN (
    SELECT d.fingerprint FROM pdfdesk.documents d WHERE d.matter = ANY ((SELECT pdfdesk.writable())::bigint[])));

ALTER TABLE pdfdesk.library_documents ENABLE ROW LEVEL SECURITY;
CREATE POLICY readers ON pdfdesk.library_documents FOR SELECT
    USING (fingerprint IN (SELECT d.fingerprint FROM pdfdesk.documents d));
CREATE POLICY writers ON pdfdesk.library_documents FOR INSERT WITH CHECK (added_by = current_user AND fingerprint IN (
    SELECT d.fingerprint FROM pdfdesk.documents d WHERE d.matter = ANY ((SELECT pdfdesk.writable())::bigint[])));
CREATE POLICY editors ON pdfdesk.library_documents FOR UPDATE USING (fingerprint IN (
    SELECT d.fingerprint FROM pdfdesk.documents d WHERE d.matter = ANY ((SELECT pdfdesk.writable())::bigint[])));

ALTER TABLE pdfdesk.sections ENABLE ROW LEVEL SECURITY;
CREATE POLICY readers ON pdfdesk.sections FOR SELECT
    USING (fingerprint IN (SELECT d.fingerprint FROM pdfdesk.documents d));
CREATE POLICY writers ON pdfdesk.sections FOR INSERT WITH CHECK (fingerprint IN (
    SELECT d.fingerprint FROM pdfdesk.documents d WHERE d.matter = ANY ((SELECT pdfdesk.writable())::bigint[])));
CREATE POLICY removers ON pdfdesk.sections FOR DELETE USING (fingerprint IN (
    SELECT d.fingerprint FROM pdfdesk.documents d WHERE d.matter = ANY ((SELECT pdfdesk.writable())::bigint[])));

GRANT SELECT, INSERT, UPDATE ON pdfdesk.pages, pdfdesk.library_documents TO pdfdesk_reviewer;
GRANT SELECT, INSERT, DELETE ON pdfdesk.sections TO pdfdesk_reviewer;
REVOKE ALL ON FUNCTION pdfdesk.forget_pages(text[]), pdfdesk.visible_fingerprints(), pdfdesk.sees_whole_library(),
    pdfdesk.count_each(tsquery[]), pdfdesk.count_pages(tsquery), pdfdesk.holds_pages(tsquery),
    pdfdesk.search_pages(tsquery, tsquery[], double precision[], double precision, text, text[], integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pdfdesk.forget_pages(text[]), pdfdesk.visible_fingerprints(),
    pdfdesk.count_each(tsquery[]), pdfdesk.count_pages(tsquery), pdfdesk.holds_pages(tsquery),
    pdfdesk.search_pages(tsquery, tsquery[], double precision[], double precision, text, text[], integer)
    TO pdfdesk_reviewer;
"""
