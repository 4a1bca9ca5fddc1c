"""The team schema's notes: one row per note with its author, a history row per earlier revision,
and a notification per change on the note's matter's channel.

Every update keeps the row it replaces in `note_history` (written by the trigger, in the same
transaction), so when two reviewers edit one note the later edit wins and the earlier one stays
readable. Notes are never deleted, only marked, so a delete can be undone and synced like an
edit. Each note's `revision` grows by one per change; `applied_ops` remembers the id of every
change a client sent, so a change sent again after a dropped connection is not applied twice.
"""

NOTES_CHANNEL_PREFIX = "pdfdesk_notes_"  # + the matter's id; the payload is the note's id

SQL = r"""
CREATE TABLE pdfdesk.notes (
    id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
    matter bigint NOT NULL REFERENCES pdfdesk.matters ON DELETE CASCADE,
    fingerprint text NOT NULL,
    path text NOT NULL DEFAULT '',
    page integer NOT NULL CHECK (page >= 1),
    rects jsonb NOT NULL DEFAULT '[]',
    quote text NOT NULL DEFAULT '',
    prefix text NOT NULL DEFAULT '',
    suffix text NOT NULL DEFAULT '',
    start integer,
    note text NOT NULL DEFAULT '',
    color text NOT NULL,
    tags jsonb NOT NULL DEFAULT '[]',
    kind text NOT NULL,
    status text NOT NULL DEFAULT 'anchored',
    source text NOT NULL DEFAULT 'pdfdesk',
    answer jsonb,
    created timestamptz NOT NULL DEFAULT now(),
    updated timestamptz NOT NULL DEFAULT now(),
    deleted boolean NOT NULL DEFAULT false,
    author name NOT NULL DEFAULT current_user,
    updated_by name NOT NULL DEFAULT current_user,
    revision integer NOT NULL DEFAULT 1);
CREATE INDEX notes_fingerprint ON pdfdesk.notes (fingerprint);
CREATE INDEX notes_matter ON pdfdesk.notes (matter);

CREATE TABLE pdfdesk.note_history (
    note text NOT NULL REFERENCES pdfdesk.notes ON DELETE CASCADE,
    revision integer NOT NULL,
    matter bigint NOT NULL,
    content jsonb NOT NULL,
    changed_by name NOT NULL,
    changed timestamptz NOT NULL,
    PRIMARY KEY (note, revision));

CREATE TABLE pdfdesk.applied_ops (
    op text PRIMARY KEY CHECK (length(op) BETWEEN 1 AND 100),
    who name NOT NULL DEFAULT current_user,
    at timestamptz NOT NULL DEFAULT now());

-- Authorship comes from the database login, never from the client.
CREATE FUNCTION pdfdesk.note_inserting() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
    NEW.author := current_user;
    NEW.updated_by := current_user;
    NEW.updated := now();
    NEW.revision := 1;
    RETURN NEW;
END $f$;
CREATE TRIGGER note_inserting BEFORE INSERT ON pdfdesk.notes
    FOR EACH ROW EXECUTE FUNCTION pdfdesk.note_inserting();

CREATE FUNCTION pdfdesk.note_updating() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
    INSERT INTO pdfdesk.note_history (note, revision, matter, content, changed_by, changed)
        VALUES (OLD.id, OLD.revision, OLD.matter, to_jsonb(OLD), OLD.updated_by, OLD.updated);
    NEW.id := OLD.id;
    NEW.author := OLD.author;
    NEW.created := OLD.created;
    NEW.updated_by := current_user;
    NEW.updated := greatest(now(), OLD.updated);
    NEW.revision := OLD.revision + 1;
    RETURN NEW;
END $f$;
CREATE TRIGGER note_updating BEFORE UPDATE ON pdfdesk.notes
    FOR EACH ROW EXECUTE FUNCTION pdfdesk.note_updating();

CREATE FUNCTION pdfdesk.note_changed() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
    PERFORM pg_notify('pdfdesk_notes_' || NEW.matter, NEW.id);
    RETURN NULL;
END $f$;
CREATE TRIGGER note_changed AFTER INSERT OR UPDATE ON pdfdesk.notes
    FOR EACH ROW EXECUTE FUNCTION pdfdesk.note_changed();

ALTER TABLE pdfdesk.notes ENABLE ROW LEVEL SECURITY;
CREATE POLICY readers ON pdfdesk.notes FOR SELECT USING (matter = ANY ((SELECT pdfdesk.readable())::bigint[]));
CREATE POLICY writers ON pdfdesk.notes FOR INSERT WITH CHECK (
    matter = ANY ((SELECT pdfdesk.writable())::bigint[])
    AND fingerprint IN (SELECT d.fingerprint FROM pdfdesk.documents d WHERE d.matter = notes.matter));
CREATE POLICY editors ON pdfdesk.notes FOR UPDATE USING (matter = ANY ((SELECT pdfdesk.writable())::bigint[]))
    WITH CHECK (matter = ANY ((SELECT pdfdesk.writable())::bigint[]));
ALTER TABLE pdfdesk.note_history ENABLE ROW LEVEL SECURITY;
CREATE POLICY readers ON pdfdesk.note_history FOR SELECT
    USING (matter = ANY ((SELECT pdfdesk.readable())::bigint[]));
CREATE POLICY writers ON pdfdesk.note_history FOR INSERT
    WITH CHECK (matter = ANY ((SELECT pdfdesk.writable())::bigint[]));
ALTER TABLE pdfdesk.applied_ops ENABLE ROW LEVEL SECURITY;
CREATE POLICY own ON pdfdesk.applied_ops USING (who = current_user) WITH CHECK (who = current_user);

GRANT SELECT, INSERT, UPDATE ON pdfdesk.notes TO pdfdesk_reviewer;
GRANT SELECT, INSERT ON pdfdesk.note_history, pdfdesk.applied_ops TO pdfdesk_reviewer;
"""
