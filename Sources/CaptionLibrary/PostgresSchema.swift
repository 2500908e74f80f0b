// A library database on a PostgreSQL server: whose it is, its schema's steps, and the
// checks made before anything is written to it; the counterpart of `LibrarySchema`.

import CaptionText

enum PostgresSchema {
    /// Everything of Caption's lives in this schema, so a desk's database may hold other
    /// things beside it.
    static let name = "caption"

    /// The key of the advisory lock that makes editors opening one library take turns at
    /// bringing it up to date ("CAPT" again, as the SQLite library's application id).
    static let migrationLock: Int64 = 0x4341_5054

    /// The schema, one step per version; `caption.library.version` says how many have run.
    /// Steps are only ever appended. Times are milliseconds since 1970, UTC, as in a folder
    /// library, so that entries read the same from either. An entry names its photo as a
    /// folder library does (`photos/<sha256>.<ext>`) and refers to its bytes by key, so that
    /// no editor's removal can take a photo another editor's entry has just been saved with.
    static let migrations: [String] = [
        """
        CREATE TABLE caption.photos (
            sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
            format text NOT NULL,
            bytes bytea NOT NULL
        );
        CREATE TABLE caption.entries (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            photo text NOT NULL,
            photo_sha256 text NOT NULL REFERENCES caption.photos (sha256),
            title text NOT NULL,
            subtitle text NOT NULL,
            width integer NOT NULL,
            height integer NOT NULL,
            original_name text NOT NULL,
            created bigint NOT NULL,
            updated bigint NOT NULL,
            source text,
            source_sha256 text,
            \(CreditField.allCases.map { "credit_\($0.rawValue) text," }.joined(separator: "\n    "))
            credits_replace boolean NOT NULL DEFAULT false
        );
        CREATE INDEX entries_photo ON caption.entries (photo_sha256);
        CREATE INDEX entries_newest ON caption.entries (created DESC, id DESC);
        """,
        // Search: trigram indexes find any substring of three characters or more, as the
        // folder library's FTS5 trigram table does; pg_trgm is a trusted extension, which a
        // database's owner may create. It goes into Caption's own schema, not `public`,
        // where its 31 functions and 10 operators would be another application's to trip
        // over (and where a `similarity` function of that application's would stop it); a
        // database that has it already is used where it is. (Libraries made before this
        // step read so keep theirs in `public`: moving an extension another application may
        // use is not Caption's to do.)
        """
        DO $$
        DECLARE place text;
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
                CREATE EXTENSION pg_trgm SCHEMA caption;
            END IF;
            SELECT n.nspname INTO place FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                WHERE e.extname = 'pg_trgm';
            EXECUTE format('CREATE INDEX entries_title_text ON caption.entries USING gin (lower(title) %I.gin_trgm_ops)', place);
            EXECUTE format('CREATE INDEX entries_subtitle_text ON caption.entries USING gin (lower(subtitle) %I.gin_trgm_ops)', place);
        END
        $$;
        """,
        // Every commit counts one change, so an editor knows whether what it read (a search
        // index, the offers) is still current with one small read.
        """
        ALTER TABLE caption.library ADD COLUMN changes bigint NOT NULL DEFAULT 0;
        """,
        // Claims: the photo on each editor's form, by content, with the editor's name for
        // the others and its end in the server's time.
        """
        CREATE TABLE caption.leases (
            photo_sha256 text PRIMARY KEY CHECK (photo_sha256 ~ '^[0-9a-f]{64}$'),
            holder text NOT NULL,
            holder_name text NOT NULL,
            until timestamptz NOT NULL
        );
        """,
        // The stationery pad each entry's credits came from (NULL: the standing credits).
        """
        ALTER TABLE caption.entries ADD COLUMN credits_pad text;
        """,
        // The fields a desk turns on, a column each ('' where nothing was given: a constant
        // default rewrites no row), and one trigram index over all of them, which a search
        // reads beside the title's and the subtitle's. A line break (chr(10)) between fields, which
        // no field and no search holds, keeps a match inside one field.
        CaptionField.optional.map { "ALTER TABLE caption.entries ADD COLUMN \($0.rawValue) text NOT NULL DEFAULT '';" }
            .joined(separator: "\n")
                + """

                DO $$
                DECLARE place text;
                BEGIN
                    SELECT n.nspname INTO place FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                        WHERE e.extname = 'pg_trgm';
                    EXECUTE format('CREATE INDEX entries_more_text ON caption.entries USING gin ((\(optionalText)) %I.gin_trgm_ops)', place);
                END
                $$;
                """,
    ]

    /// The optional fields' words as one case-folded text, as the search index holds them.
    static let optionalText =
        "lower(" + CaptionField.optional.map(\.rawValue).joined(separator: " || chr(10) || ") + ")"

    /// Which commit last changed each entry, and which entries were removed by which
    /// commit: an editor brings its search index up to date by reading what changed since
    /// it read it, where every other editor's save had it read whole again (seconds at a
    /// million entries). A commit's number is the counter every commit raises last, plus
    /// one; the counter's row is locked from the first entry changed to the commit, so
    /// commits take their numbers in the order they end, and a reader that saw number N
    /// has seen every commit up to N and none after. The function runs as the library's
    /// owner (SECURITY DEFINER), so editors need no grant on `caption.removed`.
    ///
    /// Not a step of `migrations`: an older Caption at the same desk names its columns in
    /// every statement and never meets these, and a schema version it does not know would
    /// shut it out. Added when missing, by a user who may (`prepare`).
    static let changeStamps = """
        ALTER TABLE caption.entries ADD COLUMN IF NOT EXISTS changed_at bigint;
        CREATE INDEX IF NOT EXISTS entries_changed_at ON caption.entries (changed_at);
        CREATE TABLE IF NOT EXISTS caption.removed (id bigint PRIMARY KEY, changed_at bigint NOT NULL);
        CREATE INDEX IF NOT EXISTS removed_changed_at ON caption.removed (changed_at);
        CREATE OR REPLACE FUNCTION caption.stamp_change() RETURNS trigger
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        DECLARE
            commit_number bigint;
        BEGIN
            SELECT changes + 1 INTO commit_number FROM caption.library FOR UPDATE;
            IF TG_OP = 'DELETE' THEN
                INSERT INTO caption.removed (id, changed_at) VALUES (OLD.id, commit_number)
                    ON CONFLICT (id) DO UPDATE SET changed_at = EXCLUDED.changed_at;
                RETURN OLD;
            END IF;
            NEW.changed_at := commit_number;
            RETURN NEW;
        END
        $$;
        DROP TRIGGER IF EXISTS entries_stamp ON caption.entries;
        CREATE TRIGGER entries_stamp BEFORE INSERT OR UPDATE OR DELETE ON caption.entries
            FOR EACH ROW EXECUTE FUNCTION caption.stamp_change();
        """

    /// Whether the library's entries carry their commit's number (`changeStamps`).
    static func hasChangeStamps(_ db: PostgresConnection) throws(LibraryError) -> Bool {
        try db.execute(
            """
            SELECT EXISTS (SELECT 1 FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                           JOIN pg_namespace n ON n.oid = c.relnamespace
                           WHERE n.nspname = 'caption' AND c.relname = 'entries' AND t.tgname = 'entries_stamp')
            """
        ).text(0, 0) == "t"
    }

    /// Whether this user can bring a search index up to date by the commits' numbers: the
    /// library has them, and the user may read which entries were removed (a grant made
    /// before they were added does not reach `caption.removed`).
    static func readsChangeStamps(_ db: PostgresConnection) throws(LibraryError) -> Bool {
        guard try hasChangeStamps(db) else { return false }
        return try db.execute("SELECT has_table_privilege('caption.removed', 'SELECT')").text(0, 0) == "t"
    }

    /// Adds `changeStamps` under the migration lock, unless another editor just did; a user
    /// who may not is left without them (its searches read the index whole after others'
    /// saves, as before). Inside `prepare`'s transaction, behind a savepoint.
    private static func addChangeStamps(_ db: PostgresConnection) throws(LibraryError) {
        try db.execute("SAVEPOINT change_stamps")
        do throws(LibraryError) {
            try db.execute("SELECT pg_advisory_xact_lock($1)", [String(migrationLock)])
            if try !hasChangeStamps(db) { try db.patiently { () throws(LibraryError) in try db.run(changeStamps) } }
            try db.execute("RELEASE SAVEPOINT change_stamps")
        } catch  where error.kind == .readOnly || error.kind == .noAccess {
            try db.execute("ROLLBACK TO SAVEPOINT change_stamps")
        }
    }

    /// Checks whose database this is, then brings it up to date, in one transaction under
    /// the migration lock: two editors opening a new library at once make it once. Returns
    /// the library's identity.
    @discardableResult
    static func prepare(_ db: PostgresConnection) throws(LibraryError) -> String {
        do {
            return try db.write { () throws(LibraryError) -> String in
                // Nearly every opening finds the library as this Caption makes it, and is
                // answered at once; making or upgrading it (and waiting for another editor
                // doing so) may take minutes without a word from the server.
                if case (let identity?, migrations.count) = try check(db) {
                    if try !hasChangeStamps(db) { try addChangeStamps(db) }
                    return identity
                }
                let identity = try db.patiently { () throws(LibraryError) -> String in try make(db) }
                try addChangeStamps(db)
                return identity
            }
        } catch  where error.kind == .readOnly {
            throw .make(
                .readOnly,
                "The library was made by an older Caption or not at all, and making it needs a user who may write to the database: {server}",
                ["server": db.address.description])
        }
    }

    /// Makes the library or brings it up to date, under the migration lock.
    private static func make(_ db: PostgresConnection) throws(LibraryError) -> String {
        try db.execute("SELECT pg_advisory_xact_lock($1)", [String(migrationLock)])
        var (identity, version) = try check(db)
        if identity == nil {
            try db.run(
                """
                CREATE SCHEMA IF NOT EXISTS caption;
                CREATE TABLE caption.library (id text NOT NULL, version integer NOT NULL);
                INSERT INTO caption.library (id, version) VALUES (md5(random()::text || clock_timestamp()::text), 0);
                """)
            (identity, version) = try check(db)
        }
        if version < migrations.count {
            for step in migrations[version...] { try db.run(step) }
            try db.execute("UPDATE caption.library SET version = $1", [String(migrations.count)])
        }
        return identity ?? ""
    }

    /// The library's identity and schema version; nil for a database that holds no library
    /// yet. Throws for a `caption` schema of another program's, a schema no Caption wrote,
    /// and a newer Caption's.
    static func check(_ db: PostgresConnection) throws(LibraryError) -> (identity: String?, version: Int) {
        // From the catalogues, which every user may read: a user given no access to the
        // schema sees no table in it through to_regclass, and would take the library for
        // one not made yet.
        let found = try db.execute(
            """
            SELECT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                           WHERE n.nspname = 'caption' AND c.relname = 'library'),
                   EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'caption'),
                   EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                           WHERE n.nspname = 'caption'),
                   CASE WHEN EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'caption')
                        THEN has_schema_privilege('caption', 'USAGE') ELSE true END
            """)
        let server = db.address.description
        let noAccess = LibraryError.make(
            .noAccess,
            "This user may not read the library; its owner gives access with GRANT (the guide's “Caption together on a photo desk” says which): {server}",
            ["server": server])
        if found.text(0, 0) == "t" && found.text(0, 3) != "t" { throw noAccess }
        guard found.text(0, 0) == "t" else {
            if found.text(0, 2) == "t" {
                throw .make(
                    .notALibrary, "Not a Caption library database; it was left as it is: {file}", ["file": server])
            }
            return (nil, 0)
        }
        let library: PostgresResult
        do {
            library = try db.execute("SELECT id, version FROM caption.library")
        } catch  where error.kind == .readOnly {
            // The library is there, and this user may not even read it: no grants yet.
            throw noAccess
        }
        guard library.rowCount == 1, let identity = library.text(0, 0), let version = library.integer(0, 1) else {
            throw .make(
                .notALibrary, "Not a Caption library database; it was left as it is: {file}", ["file": server])
        }
        if version < 0 {
            throw .make(
                .notALibrary,
                "The library database says its schema is {version}, which no Caption wrote; it was left as it is: {file}",
                ["version": String(version), "file": server])
        }
        if version > migrations.count {
            throw .make(
                .newerSchema,
                "The library was made by a newer version of Caption (schema {version}); it was left as it is: {file}",
                ["version": String(version), "file": server])
        }
        return (identity, Int(version))
    }
}
