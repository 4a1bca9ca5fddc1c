"""The team schema's base: matters, who has access to which, the documents in them, their files.

Access is rows of `access` naming database roles; a reviewer sees a matter when their login role
is a member of a role granted on it (a role of its own or a group such as "litigation"). The
checks are SECURITY DEFINER functions, so row-level security can ask them without every reviewer
reading every matter's access list. They judge the caller's `current_user`, handed in by the
policy, and only for a role the session's login may act as, so nobody can ask on someone
else's behalf.
"""

REVIEWER_ROLE = "pdfdesk_reviewer"

SQL = r"""
DO $$ BEGIN
    CREATE ROLE pdfdesk_reviewer NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;

CREATE TABLE pdfdesk.matters (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL UNIQUE CHECK (length(btrim(name)) BETWEEN 1 AND 200),
    created_by name NOT NULL DEFAULT session_user,
    created timestamptz NOT NULL DEFAULT now());

CREATE TABLE pdfdesk.access (
    matter bigint NOT NULL REFERENCES pdfdesk.matters ON DELETE CASCADE,
    role name NOT NULL,
    can_write boolean NOT NULL DEFAULT false,
    can_manage boolean NOT NULL DEFAULT false,
    granted_by name NOT NULL DEFAULT session_user,
    granted timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (matter, role));

CREATE TABLE pdfdesk.documents (
    matter bigint NOT NULL REFERENCES pdfdesk.matters ON DELETE CASCADE,
    fingerprint text NOT NULL CHECK (length(fingerprint) BETWEEN 1 AND 200),
    name text NOT NULL CHECK (length(name) <= 1000),
    pages integer NOT NULL CHECK (pages >= 0),
    size bigint,
    added_by name NOT NULL DEFAULT current_user,
    added timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (matter, fingerprint));
CREATE INDEX documents_fingerprint ON pdfdesk.documents (fingerprint);

CREATE TABLE pdfdesk.files (
    fingerprint text PRIMARY KEY,
    content bytea NOT NULL,
    added_by name NOT NULL DEFAULT current_user);

-- The matters `who` may read (or write), asked by policies with current_user.
CREATE FUNCTION pdfdesk.matters_of(who name, writing boolean) RETURNS bigint[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
    SELECT coalesce(array_agg(DISTINCT a.matter), '{}')
    FROM pdfdesk.access a JOIN pg_roles r ON r.rolname = a.role
    WHERE pg_has_role(session_user, who, 'MEMBER') AND pg_has_role(who, r.oid, 'MEMBER')
      AND (a.can_write OR NOT writing)
$f$;
CREATE FUNCTION pdfdesk.readable() RETURNS bigint[] LANGUAGE sql STABLE AS $f$
    SELECT pdfdesk.matters_of(current_user, false) $f$;
CREATE FUNCTION pdfdesk.writable() RETURNS bigint[] LANGUAGE sql STABLE AS $f$
    SELECT pdfdesk.matters_of(current_user, true) $f$;

-- Whether the session's login may hand out access to a matter: its managers, the schema's
-- owner and superusers.
CREATE FUNCTION pdfdesk.may_manage(m bigint) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
    SELECT coalesce((SELECT rolsuper FROM pg_roles WHERE rolname = session_user), false)
        OR pg_has_role(session_user, (SELECT nspowner FROM pg_namespace WHERE nspname = 'pdfdesk'), 'MEMBER')
        OR EXISTS (SELECT 1 FROM pdfdesk.access a JOIN pg_roles r ON r.rolname = a.role
                   WHERE a.matter = m AND a.can_manage AND pg_has_role(session_user, r.oid, 'MEMBER'))
$f$;

CREATE FUNCTION pdfdesk.create_matter(matter_name text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
DECLARE
    clean text := btrim(matter_name);
    found bigint;
BEGIN
    IF clean IS NULL OR length(clean) NOT BETWEEN 1 AND 200 THEN
        RAISE EXCEPTION 'A matter needs a name of 1 to 200 characters' USING ERRCODE = 'P0001';
    END IF;
    INSERT INTO pdfdesk.matters (name, created_by) VALUES (clean, session_user)
        ON CONFLICT (name) DO NOTHING RETURNING id INTO found;
    IF found IS NOT NULL THEN
        INSERT INTO pdfdesk.access (matter, role, can_write, can_manage, granted_by)
            VALUES (found, session_user, true, true, session_user);
        RETURN found;
    END IF;
    SELECT id INTO found FROM pdfdesk.matters WHERE name = clean;
    IF NOT (found = ANY (pdfdesk.matters_of(session_user, false)) OR pdfdesk.may_manage(found)) THEN
        RAISE EXCEPTION 'A matter called "%" exists and you have no access to it', clean
            USING ERRCODE = '42501', HINT = 'Ask its manager to grant you access.';
    END IF;
    RETURN found;
END $f$;

CREATE FUNCTION pdfdesk.grant_matter(matter_name text, grantee name, writing boolean) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
DECLARE
    m bigint;
BEGIN
    SELECT id INTO m FROM pdfdesk.matters WHERE name = btrim(matter_name);
    IF m IS NULL OR NOT pdfdesk.may_manage(m) THEN
        RAISE EXCEPTION 'You may not grant access to a matter called "%"', btrim(matter_name)
            USING ERRCODE = '42501', HINT = 'Only the matter''s managers and the database''s owner grant access.';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = grantee) THEN
        RAISE EXCEPTION 'There is no database role called "%"', grantee
            USING HINT = 'Create the login first (CREATE ROLE name LOGIN), or name an existing group role.';
    END IF;
    INSERT INTO pdfdesk.access (matter, role, can_write, granted_by) VALUES (m, grantee, writing, session_user)
        ON CONFLICT (matter, role) DO UPDATE
        SET can_write = EXCLUDED.can_write, granted_by = EXCLUDED.granted_by, granted = now();
    IF NOT pg_has_role(grantee, 'pdfdesk_reviewer', 'MEMBER') THEN
        EXECUTE format('GRANT pdfdesk_reviewer TO %I', grantee);
    END IF;
    PERFORM pg_notify('pdfdesk_access', m::text);
END $f$;

CREATE FUNCTION pdfdesk.revoke_matter(matter_name text, grantee name) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pdfdesk AS $f$
DECLARE
    m bigint;
BEGIN
    SELECT id INTO m FROM pdfdesk.matters WHERE name = btrim(matter_name);
    IF m IS NULL OR NOT pdfdesk.may_manage(m) THEN
        RAISE EXCEPTION 'You may not change access to a matter called "%"', btrim(matter_name)
            USING ERRCODE = '42501', HINT = 'Only the matter''s managers and the database''s owner change access.';
    END IF;
    DELETE FROM pdfdesk.access WHERE matter = m AND role = grantee;
    PERFORM pg_notify('pdfdesk_access', m::text);
    RETURN FOUND;
END $f$;

ALTER TABLE pdfdesk.matters ENABLE ROW LEVEL SECURITY;
CREATE POLICY readers ON pdfdesk.matters FOR SELECT USING (id = ANY ((SELECT pdfdesk.readable())::bigint[]));
ALTER TABLE pdfdesk.access ENABLE ROW LEVEL SECURITY;
CREATE POLICY readers ON pdfdesk.access FOR SELECT USING (matter = ANY ((SELECT pdfdesk.readable())::bigint[]));
ALTER TABLE pdfdesk.documents ENABLE ROW LEVEL SECURITY;
CREATE POLICY readers ON pdfdesk.documents FOR SELECT USING (matter = ANY ((SELECT pdfdesk.readable())::bigint[]));
CREATE POLICY writers ON pdfdesk.documents FOR INSERT
    WITH CHECK (matter = ANY ((SELECT pdfdesk.writable())::bigint[]) AND added_by = current_user);
CREATE POLICY removers ON pdfdesk.documents FOR DELETE USING (matter = ANY ((SELECT pdfdesk.writable())::bigint[]));
ALTER TABLE pdfdesk.files ENABLE ROW LEVEL SECURITY;
CREATE POLICY readers ON pdfdesk.files FOR SELECT
    USING (fingerprint IN (SELECT d.fingerprint FROM pdfdesk.documents d));
CREATE POLICY writers ON pdfdesk.files FOR INSERT WITH CHECK (
    added_by = current_user AND fingerprint IN (
        SELECT d.fingerprint FROM pdfdesk.documents d WHERE d.matter = ANY ((SELECT pdfdesk.writable())::bigint[])));

GRANT USAGE ON SCHEMA pdfdesk TO pdfdesk_reviewer;
GRANT SELECT ON pdfdesk.matters, pdfdesk.access, pdfdesk.schema_version TO pdfdesk_reviewer;
GRANT SELECT, INSERT, DELETE ON pdfdesk.documents TO pdfdesk_reviewer;
GRANT SELECT, INSERT ON pdfdesk.files TO pdfdesk_reviewer;
REVOKE ALL ON FUNCTION pdfdesk.create_matter(text), pdfdesk.grant_matter(text, name, boolean),
    pdfdesk.revoke_matter(text, name) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pdfdesk.create_matter(text), pdfdesk.grant_matter(text, name, boolean),
    pdfdesk.revoke_matter(text, name) TO pdfdesk_reviewer;
"""
