"""The team library's term statistics: how many pages of each matter hold each term, kept as pages
and documents come and go, so a search reads a word's page count from one index entry per matter
instead of counting its pages (a word on half of 100,000 pages took 50-150 ms to count with the
GIN index, which visits every matching page to check it).

Counts are kept per matter, not per library, so a reviewer's statistics are summed over the
matters she may read and say nothing about the others. A document held by two of her matters is
counted twice in both the page counts and the library's size (`matter_sizes`), which keeps the
two consistent; BM25's idf moves by little.

Triggers keep the counts: pages written or changed (a scanned page recognised) add and take away
their terms for every matter holding their document, and a document added to or taken out of a
matter adds or takes away its pages' terms for that matter. Every change is one upsert in term
order, so two clients indexing at once take row locks in the same order and never deadlock; a
count reaching zero is deleted. A document added to a matter while another client is writing its
pages can be missed by both triggers (neither sees the other's uncommitted rows):
`pdfdesk.recount_statistics()` rebuilds every count from the pages, as the migration does.

Nothing here is granted on the tables: reviewers read their sums through the functions.
"""

# Page tsvectors kept in their rows (compressed when a row is long) rather than out of line:
# reading one then needs no look-up in the TOAST table's index, and a search reads every page it
# scores (a word on 40,000 of 100,000 pages: 266 ms -> 145 ms). Pages stored before are rewritten.
PAGES_SQL = r"""
ALTER TABLE pdfdesk.pages ALTER COLUMN terms SET STORAGE MAIN;
UPDATE pdfdesk.pages SET terms = terms || ''::tsvector;
"""

SQL = r"""
CREATE TABLE pdfdesk.matter_terms (
    term text COLLATE "C" NOT NULL,
    matter bigint NOT NULL,
    pages integer NOT NULL,
    PRIMARY KEY (term, matter));

CREATE TABLE pdfdesk.matter_sizes (
    matter bigint PRIMARY KEY,
    pages bigint NOT NULL DEFAULT 0,
    words bigint NOT NULL DEFAULT 0);

-- Add (sign 1) or take away (sign -1) the terms and sizes of pages, one per element, each for the
-- matter beside it.
CREATE FUNCTION pdfdesk.shift_statistics(sign integer, matters bigint[], vectors tsvector[], lengths integer[])
RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
BEGIN
    IF matters IS NULL OR cardinality(matters) = 0 THEN
        RETURN;
    END IF;
    INSERT INTO pdfdesk.matter_terms AS m (term, matter, pages)
    SELECT u.lexeme, p.matter, sign * count(*)
    FROM unnest(matters, vectors) AS p(matter, terms), unnest(p.terms) AS u
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (term, matter) DO UPDATE SET pages = m.pages + excluded.pages;
    INSERT INTO pdfdesk.matter_sizes AS s (matter, pages, words)
    SELECT p.matter, sign * count(*), sign * coalesce(sum(p.length), 0)
    FROM unnest(matters, lengths) AS p(matter, length)
    GROUP BY 1 ORDER BY 1
    ON CONFLICT (matter) DO UPDATE SET pages = s.pages + excluded.pages, words = s.words + excluded.words;
    IF sign < 0 THEN
        DELETE FROM pdfdesk.matter_terms m
        WHERE m.pages <= 0 AND (m.term, m.matter) IN (
            SELECT u.lexeme, p.matter FROM unnest(matters, vectors) AS p(matter, terms), unnest(p.terms) AS u);
        DELETE FROM pdfdesk.matter_sizes s WHERE s.pages <= 0 AND s.matter = ANY (matters);
    END IF;
END $f$;

CREATE FUNCTION pdfdesk.count_page_terms() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM pdfdesk.shift_statistics(-1, array_agg(d.matter), array_agg(o.terms), array_agg(o.length))
        FROM old_pages o JOIN pdfdesk.documents d ON d.fingerprint = o.fingerprint;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        PERFORM pdfdesk.shift_statistics(1, array_agg(d.matter), array_agg(n.terms), array_agg(n.length))
        FROM new_pages n JOIN pdfdesk.documents d ON d.fingerprint = n.fingerprint;
    END IF;
    RETURN NULL;
END $f$;

CREATE TRIGGER pages_added AFTER INSERT ON pdfdesk.pages REFERENCING NEW TABLE AS new_pages
    FOR EACH STATEMENT EXECUTE FUNCTION pdfdesk.count_page_terms();
CREATE TRIGGER pages_changed AFTER UPDATE ON pdfdesk.pages REFERENCING OLD TABLE AS old_pages NEW TABLE AS new_pages
    FOR EACH STATEMENT EXECUTE FUNCTION pdfdesk.count_page_terms();
CREATE TRIGGER pages_removed AFTER DELETE ON pdfdesk.pages REFERENCING OLD TABLE AS old_pages
    FOR EACH STATEMENT EXECUTE FUNCTION pdfdesk.count_page_terms();

-- (An update that leaves a row's matter and fingerprint as they were changes no count.)
CREATE FUNCTION pdfdesk.count_document_terms() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pdfdesk.shift_statistics(-1, array_agg(o.matter), array_agg(p.terms), array_agg(p.length))
        FROM old_documents o JOIN pdfdesk.pages p ON p.fingerprint = o.fingerprint;
    ELSIF TG_OP = 'UPDATE' THEN
        PERFORM pdfdesk.shift_statistics(-1, array_agg(o.matter), array_agg(p.terms), array_agg(p.length))
        FROM (SELECT matter, fingerprint FROM old_documents EXCEPT ALL SELECT matter, fingerprint FROM new_documents) o
        JOIN pdfdesk.pages p ON p.fingerprint = o.fingerprint;
        PERFORM pdfdesk.shift_statistics(1, array_agg(n.matter), array_agg(p.terms), array_agg(p.length))
        FROM (SELECT matter, fingerprint FROM new_documents EXCEPT ALL SELECT matter, fingerprint FROM old_documents) n
        JOIN pdfdesk.pages p ON p.fingerprint = n.fingerprint;
    ELSE
        PERFORM pdfdesk.shift_statistics(1, array_agg(n.matter), array_agg(p.terms), array_agg(p.length))
        FROM new_documents n JOIN pdfdesk.pages p ON p.fingerprint = n.fingerprint;
    END IF;
    RETURN NULL;
END $f$;

CREATE TRIGGER documents_added AFTER INSERT ON pdfdesk.documents REFERENCING NEW TABLE AS new_documents
    FOR EACH STATEMENT EXECUTE FUNCTION pdfdesk.count_document_terms();
CREATE TRIGGER documents_moved AFTER UPDATE ON pdfdesk.documents
    REFERENCING OLD TABLE AS old_documents NEW TABLE AS new_documents
    FOR EACH STATEMENT EXECUTE FUNCTION pdfdesk.count_document_terms();
CREATE TRIGGER documents_removed AFTER DELETE ON pdfdesk.documents REFERENCING OLD TABLE AS old_documents
    FOR EACH STATEMENT EXECUTE FUNCTION pdfdesk.count_document_terms();

-- Every count from the pages themselves (what the migration starts from; also the cure for counts
-- a race between two clients left short). Locks the tables it rebuilds against writers meanwhile.
CREATE FUNCTION pdfdesk.recount_statistics() RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
DECLARE
    terms bigint;
BEGIN
    LOCK TABLE pdfdesk.matter_terms, pdfdesk.matter_sizes IN EXCLUSIVE MODE;
    DELETE FROM pdfdesk.matter_terms;
    DELETE FROM pdfdesk.matter_sizes;
    INSERT INTO pdfdesk.matter_terms (term, matter, pages)
    SELECT u.lexeme, d.matter, count(*)
    FROM pdfdesk.pages p JOIN pdfdesk.documents d ON d.fingerprint = p.fingerprint, unnest(p.terms) AS u
    GROUP BY 1, 2;
    GET DIAGNOSTICS terms = ROW_COUNT;
    INSERT INTO pdfdesk.matter_sizes (matter, pages, words)
    SELECT d.matter, count(*), coalesce(sum(p.length), 0)
    FROM pdfdesk.pages p JOIN pdfdesk.documents d ON d.fingerprint = p.fingerprint
    GROUP BY 1;
    RETURN terms;
END $f$;
SELECT pdfdesk.recount_statistics();

-- The login's statistics: her readable matters' pages and words, and each term's page count
-- (a prefix's: the sum over the terms it starts, which counts a page holding two of them twice).
CREATE FUNCTION pdfdesk.visible_size() RETURNS TABLE (pages bigint, words bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
    SELECT coalesce(sum(s.pages), 0)::bigint, coalesce(sum(s.words), 0)::bigint FROM pdfdesk.matter_sizes s
    WHERE s.matter = ANY (pdfdesk.matters_of(session_user, false))
$f$;

CREATE FUNCTION pdfdesk.term_pages(terms text[], prefixes boolean[]) RETURNS bigint[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
    WITH mine AS (SELECT pdfdesk.matters_of(session_user, false) AS matters)
    SELECT coalesce(array_agg(coalesce(c.n, 0) ORDER BY t.i), '{}')
    FROM mine, unnest(terms, prefixes) WITH ORDINALITY AS t(term, prefix, i)
    LEFT JOIN LATERAL (
        SELECT sum(m.pages)::bigint AS n FROM pdfdesk.matter_terms m
        WHERE m.matter = ANY (mine.matters)
          AND m.term >= t.term AND m.term <= (CASE WHEN t.prefix THEN t.term || chr(1114111) ELSE t.term END)
          AND (m.term = t.term OR (t.prefix AND starts_with(m.term, t.term)))) c ON true
$f$;

REVOKE ALL ON FUNCTION pdfdesk.shift_statistics(integer, bigint[], tsvector[], integer[]),
    pdfdesk.recount_statistics(), pdfdesk.visible_size(), pdfdesk.term_pages(text[], boolean[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pdfdesk.visible_size(), pdfdesk.term_pages(text[], boolean[]) TO pdfdesk_reviewer;
"""

# The search, again: for a login who sees the whole library no page's visibility is checked (a
# join with every visible document), and the GIN index always answers: for a word on a sixth of
# the pages the planner chose a sequential scan, which decompresses every page's tsvector (730 ms
# at 100,000 pages against 215 ms through the index). The number of pages matching is no longer
# returned: the statistics above say it without scoring every page. Without a limit (every
# matching page, grouped by document by the caller) the pages are not sorted.
SEARCH_SQL = r"""
-- Whether any visible page holds a term is read from the statistics now; nothing calls this.
DROP FUNCTION pdfdesk.holds_pages(tsquery);

-- Whether the login sees every document the library holds, asked by every search: an anti-join of
-- the library's documents with the login's readable matters' rows (6 ms for 10,000 documents,
-- where comparing with every visible fingerprint took 28 ms).
CREATE OR REPLACE FUNCTION pdfdesk.sees_whole_library() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
    WITH mine AS (SELECT pdfdesk.matters_of(session_user, false) AS matters)
    SELECT NOT EXISTS (SELECT 1 FROM pdfdesk.library_documents l WHERE NOT EXISTS (
        SELECT 1 FROM pdfdesk.documents d, mine WHERE d.fingerprint = l.fingerprint AND d.matter = ANY (mine.matters)))
$f$;
DROP FUNCTION pdfdesk.search_pages(tsquery, tsquery[], double precision[], double precision, text, text[], integer);
CREATE FUNCTION pdfdesk.search_pages(q tsquery, parts tsquery[], idfs double precision[],
                                     average double precision, method text, within text[], lim integer)
RETURNS TABLE (fingerprint text, page integer, score double precision)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pdfdesk SET enable_nestloop = off SET enable_seqscan = on AS $f$
DECLARE
    visible text := 'AND p.fingerprint IN (SELECT pdfdesk.visible_fingerprints())';
BEGIN
    IF pdfdesk.sees_whole_library() THEN
        visible := '';
        PERFORM set_config('enable_seqscan', 'off', true);  -- undone when the function returns
    END IF;
    RETURN QUERY EXECUTE format($q$
        SELECT s.fingerprint, s.page, s.score FROM (
            SELECT m.fingerprint, m.page,
                   CASE $5
                       WHEN 'ts_rank' THEN ts_rank(m.t, $1, 1)::double precision
                       WHEN 'ts_rank_cd' THEN ts_rank_cd(m.t, $1, 1)::double precision
                       ELSE coalesce(pdfdesk.bm25_part(ts_rank(m.t, $2[1], 0), $3[1], m.norm), 0)
                          + coalesce(pdfdesk.bm25_part(ts_rank(m.t, $2[2], 0), $3[2], m.norm), 0)
                          + coalesce(pdfdesk.bm25_part(ts_rank(m.t, $2[3], 0), $3[3], m.norm), 0)
                          + coalesce(pdfdesk.bm25_part(ts_rank(m.t, $2[4], 0), $3[4], m.norm), 0)
                          + coalesce(pdfdesk.bm25_part(ts_rank(m.t, $2[5], 0), $3[5], m.norm), 0)
                          + coalesce(pdfdesk.bm25_part(ts_rank(m.t, $2[6], 0), $3[6], m.norm), 0)
                          + coalesce(pdfdesk.bm25_part(ts_rank(m.t, $2[7], 0), $3[7], m.norm), 0)
                          + coalesce(pdfdesk.bm25_part(ts_rank(m.t, $2[8], 0), $3[8], m.norm), 0)
                   END AS score
            FROM (SELECT p.fingerprint, p.page,
                         CASE WHEN $5 IN ('ts_rank', 'ts_rank_cd') OR $2[2] IS NULL THEN p.terms
                              ELSE p.terms || ''::tsvector END AS t,
                         1.2 * (0.25 + 0.75 * p.length / $4) AS norm
                  FROM pdfdesk.pages p
                  WHERE p.terms @@ $1 AND ($6 IS NULL OR p.fingerprint = ANY ($6)) %s
                  OFFSET 0) m) s
        %s$q$, visible, CASE WHEN lim IS NULL THEN '' ELSE 'ORDER BY s.score DESC, s.fingerprint, s.page LIMIT $7' END)
        USING q, parts, idfs, average, method, within, lim;
END $f$;
REVOKE ALL ON FUNCTION pdfdesk.search_pages(tsquery, tsquery[], double precision[], double precision, text, text[],
    integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pdfdesk.search_pages(tsquery, tsquery[], double precision[], double precision, text, text[],
    integer) TO pdfdesk_reviewer;
"""
