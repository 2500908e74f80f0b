// The library database's schema: whose database it is, its migrations, and the checks and
// settings applied before anything is written to it.

import CaptionText

#if canImport(Glibc)
    import Glibc
#endif

enum LibrarySchema {
    static let applicationID: Int64 = 0x4341_5054  // "CAPT", so another program's database is never taken for ours

    /// The schema, one step per version; `PRAGMA user_version` says how many have run.
    /// Steps are only ever appended. Times are milliseconds since 1970, UTC.
    static let migrations: [String] = [
        """
        CREATE TABLE entries (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            photo TEXT NOT NULL,
            title TEXT NOT NULL,
            subtitle TEXT NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            original_name TEXT NOT NULL,
            created INTEGER NOT NULL,
            updated INTEGER NOT NULL
        );
        CREATE INDEX entries_photo ON entries (photo);
        CREATE INDEX entries_newest ON entries (created DESC, id DESC);
        """,
        // Search: a full-text index of titles and subtitles whose trigram tokens find any
        // substring of three characters or more, so Chinese and Japanese (no spaces between
        // words) are found as readily as English. Shorter searches scan instead.
        """
        CREATE VIRTUAL TABLE entries_text USING fts5(
            title, subtitle, content='entries', content_rowid='id', tokenize='trigram');
        INSERT INTO entries_text (entries_text) VALUES ('rebuild');
        CREATE TRIGGER entries_text_insert AFTER INSERT ON entries BEGIN
            INSERT INTO entries_text (rowid, title, subtitle) VALUES (new.id, new.title, new.subtitle);
        END;
        CREATE TRIGGER entries_text_delete AFTER DELETE ON entries BEGIN
            INSERT INTO entries_text (entries_text, rowid, title, subtitle)
                VALUES ('delete', old.id, old.title, old.subtitle);
        END;
        CREATE TRIGGER entries_text_update AFTER UPDATE OF title, subtitle ON entries BEGIN
            INSERT INTO entries_text (entries_text, rowid, title, subtitle)
                VALUES ('delete', old.id, old.title, old.subtitle);
            INSERT INTO entries_text (rowid, title, subtitle) VALUES (new.id, new.title, new.subtitle);
        END;
        """,
        // Where each photo came from, so that its caption can be written back there later
        // (`--write-back`), and the SHA-256 that file had when Caption last read or wrote
        // it: a file whose content differs was changed by someone else and is left alone.
        // Entries saved before this step have neither.
        """
        ALTER TABLE entries ADD COLUMN source TEXT;
        ALTER TABLE entries ADD COLUMN source_sha256 TEXT;
        """,
        // Which database this is: the library folder records (`photos.id`) the identity of
        // the database its photos belong to, and photos/ is cleaned of unreferenced photos
        // only on that database's word (`PhotoFolder.removeLeftovers`), never on a
        // stranger's or a new one's.
        """
        CREATE TABLE library (id TEXT NOT NULL);
        INSERT INTO library (id) VALUES (lower(hex(randomblob(16))));
        """,
        // The standing credits saved with each caption (a column per `CreditField`, NULL
        // where none was given), so that a write-back or an export later writes the
        // credits the caption was saved with, not whatever Preferences say by then; and
        // whether they replace a photo's own.
        CreditField.allCases.map { "ALTER TABLE entries ADD COLUMN credit_\($0.rawValue) TEXT;" }.joined(
            separator: "\n")
            + "\nALTER TABLE entries ADD COLUMN credits_replace INTEGER NOT NULL DEFAULT 0;",
        // The stationery pad each entry's credits came from (NULL: the standing credits).
        "ALTER TABLE entries ADD COLUMN credits_pad TEXT;",
        // The fields a desk turns on (Headline, Keywords, ...), a column each, '' where
        // nothing was given, and their own trigram index: an FTS5 table cannot gain
        // columns, and rebuilding the title's would take as long as the library is big.
        // This one starts from columns that are all empty, and keeps no per-row sizes
        // (columnsize=0: only ranking reads them): its rebuild takes half a second at a
        // million entries and adds some kilobytes, where sizes added 18 MB.
        CaptionField.optional.map { "ALTER TABLE entries ADD COLUMN \($0.rawValue) TEXT NOT NULL DEFAULT '';" }
            .joined(separator: "\n")
                + """

                CREATE VIRTUAL TABLE entries_more USING fts5(
                    \(optionalColumns), content='entries', content_rowid='id', tokenize='trigram', columnsize=0);
                INSERT INTO entries_more (entries_more) VALUES ('rebuild');
                CREATE TRIGGER entries_more_insert AFTER INSERT ON entries BEGIN
                    INSERT INTO entries_more (rowid, \(optionalColumns)) VALUES (new.id, \(optionalValues("new")));
                END;
                CREATE TRIGGER entries_more_delete AFTER DELETE ON entries BEGIN
                    INSERT INTO entries_more (entries_more, rowid, \(optionalColumns))
                        VALUES ('delete', old.id, \(optionalValues("old")));
                END;
                CREATE TRIGGER entries_more_update AFTER UPDATE OF \(optionalColumns) ON entries BEGIN
                    INSERT INTO entries_more (entries_more, rowid, \(optionalColumns))
                        VALUES ('delete', old.id, \(optionalValues("old")));
                    INSERT INTO entries_more (rowid, \(optionalColumns)) VALUES (new.id, \(optionalValues("new")));
                END;
                """,
    ]

    /// The optional fields' columns, in `CaptionField`'s order.
    static let optionalColumns = CaptionField.optional.map(\.rawValue).joined(separator: ", ")

    /// The same columns of a trigger's `new` or `old` row.
    static func optionalValues(_ row: String) -> String {
        CaptionField.optional.map { "\(row).\($0.rawValue)" }.joined(separator: ", ")
    }

    /// Checks whose database this is before anything could write to it, then WAL mode,
    /// full sync (a save is durable at its commit) and the migrations.
    static func prepare(_ db: Database) throws(LibraryError) {
        let version = try check(db, readingOnly: false)
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA synchronous = FULL")
        guard version < migrations.count else { return }
        try db.write { () throws(LibraryError) in
            // Another process may have migrated while this one waited for the lock.
            let current = Int(try db.integer("PRAGMA user_version"))
            guard current >= 0, current < migrations.count else { return }
            for step in migrations[current...] {
                try db.execute(step)
            }
            try db.execute("PRAGMA user_version = \(migrations.count)")
            try db.execute("PRAGMA application_id = \(applicationID)")
        }
    }

    /// Whose database this is and which schema it has (returned); throws for another
    /// program's, a newer Caption's, one with a schema no Caption wrote, and, when reading
    /// only, one that would first have to be brought up to date.
    @discardableResult
    static func check(_ db: Database, readingOnly: Bool) throws(LibraryError) -> Int {
        // One read transaction, so the three describe the same moment.
        let header = try db.prepare(
            """
            SELECT (SELECT application_id FROM pragma_application_id),
                   (SELECT user_version FROM pragma_user_version),
                   (SELECT count(*) FROM sqlite_schema)
            """)
        _ = try header.step()
        let application = header.integer(0)
        let version = header.integer(1)
        let objects = header.integer(2)
        _ = try header.step()
        if application != applicationID && (application != 0 || version != 0 || objects != 0) {
            throw .make(
                .notALibrary, "Not a Caption library database; it was left as it is: {file}",
                ["file": db.path])
        }
        if version < 0 {
            throw .make(
                .notALibrary,
                "The library database says its schema is {version}, which no Caption wrote; it was left as it is: {file}",
                ["version": String(version), "file": db.path])
        }
        if version > migrations.count {
            throw .make(
                .newerSchema,
                "The library was made by a newer version of Caption (schema {version}); it was left as it is: {file}",
                ["version": String(version), "file": db.path])
        }
        if readingOnly && version < migrations.count {
            throw .make(
                .readOnly,
                "The library was made by an older Caption and must be brought up to date, which needs it writable: {folder}",
                ["folder": db.folder])
        }
        return Int(version)
    }
}
