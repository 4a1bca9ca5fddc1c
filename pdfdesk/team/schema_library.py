"""The team schema's library: page text shared by every matter holding the document, searchable.

Page text is keyed by the document's fingerprint, not by matter: a file recognised or indexed by
one reviewer is searchable for every reviewer of any matter that holds it, and never indexed
twice. A page is visible to those who may see a document with its fingerprint.
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

ALTER TABLE pdfdesk.pages ENABLE ROW LEVEL SECURITY;
CREATE POLICY readers ON pdfdesk.pages FOR SELECT
    USING (fingerprint IN (SELECT d.fingerprint FROM pdfdesk.documents d));
CREATE POLICY writers ON pdfdesk.pages FOR INSERT WITH CHECK (fingerprint IN (
    SELECT d.fingerprint FROM pdfdesk.documents d WHERE d.matter = ANY ((SELECT pdfdesk.writable())::bigint[])));
CREATE POLICY editors ON pdfdesk.pages FOR UPDATE USING (fingerprint IN (
    SELECT d.fingerprint FROM pdfdesk.documents d WHERE d.matter = ANY ((SELECT pdfdesk.writable())::bigint[])));
GRANT SELECT, INSERT, UPDATE ON pdfdesk.pages TO pdfdesk_reviewer;
"""
