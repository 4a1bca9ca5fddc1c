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
row per document rather than from every page.
"""

SQL = r"""
CREATE TABLE pdfdesk.pages (
    fingerprint text NOT NULL,
    page integer NOT NULL CHECK (page >= 1),
    body text NOT NULL,
    source text NOT NULL DEFAULT 'text',
    terms tsvector NOT NULL,
    length integer NOT NULL DEFAULT 0,
    PRIMARY KEY (fingerprint, page));
CREATE INDEX pages_terms ON pdfdesk.pages USING gin (terms);

CREATE TABLE pdfdesk.library_documents (
    fingerprint text PRIMARY KEY,
    pages integer NOT NULL DEFAULT 0,
    words bigint NOT NULL DEFAULT 0,
    version integer NOT NULL DEFAULT 0,
    added_by name NOT NULL DEFAULT current_user,
    added timestamptz NOT NULL DEFAULT now());

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

CREATE FUNCTION pdfdesk.count_pages(q tsquery) RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
    SELECT count(*) FROM pdfdesk.pages p
    WHERE p.terms @@ q AND p.fingerprint IN (SELECT pdfdesk.visible_fingerprints())
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
-- PostgreSQL's ts_rank / ts_rank_cd of `q`.
CREATE FUNCTION pdfdesk.search_pages(q tsquery, parts tsquery[], idfs double precision[],
                                     average double precision, method text, within text[], lim integer)
RETURNS TABLE (fingerprint text, page integer, score double precision, total bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pdfdesk SET enable_nestloop = off AS $f$
    SELECT fingerprint, page, score, count(*) OVER () FROM (
        SELECT p.fingerprint, p.page,
               CASE method
                   WHEN 'ts_rank' THEN ts_rank(p.terms, q, 1)::double precision
                   WHEN 'ts_rank_cd' THEN ts_rank_cd(p.terms, q, 1)::double precision
                   ELSE coalesce(pdfdesk.bm25_part(ts_rank(p.terms, parts[1], 0), idfs[1], x.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(p.terms, parts[2], 0), idfs[2], x.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(p.terms, parts[3], 0), idfs[3], x.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(p.terms, parts[4], 0), idfs[4], x.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(p.terms, parts[5], 0), idfs[5], x.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(p.terms, parts[6], 0), idfs[6], x.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(p.terms, parts[7], 0), idfs[7], x.norm), 0)
                      + coalesce(pdfdesk.bm25_part(ts_rank(p.terms, parts[8], 0), idfs[8], x.norm), 0)
               END AS score
        FROM pdfdesk.pages p
        JOIN (SELECT pdfdesk.visible_fingerprints() AS fingerprint) v ON v.fingerprint = p.fingerprint
        CROSS JOIN LATERAL (SELECT 1.2 * (0.25 + 0.75 * p.length / average) AS norm) x
        WHERE p.terms @@ q AND (within IS NULL OR p.fingerprint = ANY (within))) s
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
REVOKE ALL ON FUNCTION pdfdesk.forget_pages(text[]), pdfdesk.visible_fingerprints(),
    pdfdesk.count_pages(tsquery), pdfdesk.holds_pages(tsquery),
    pdfdesk.search_pages(tsquery, tsquery[], double precision[], double precision, text, text[], integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pdfdesk.forget_pages(text[]), pdfdesk.visible_fingerprints(),
    pdfdesk.count_pages(tsquery), pdfdesk.holds_pages(tsquery),
    pdfdesk.search_pages(tsquery, tsquery[], double precision[], double precision, text, text[], integer)
    TO pdfdesk_reviewer;
"""
