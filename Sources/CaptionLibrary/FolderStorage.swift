// A library kept in a folder: an SQLite database of entries and the photos they caption,
// copied in under their content hash.

import CSQLite
import CaptionText
import POSIXFiles
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// A library folder, open. Safe to use from any thread (the window saves from a
/// background one): the connection sits behind a lock, and the work that needs no
/// database (reading, hashing, decoding and copying the photo) runs outside it.
///
/// Layout: `library.sqlite3` (WAL mode), `photos/<sha256>.<ext>`, and `photos.id`, the
/// identity of the database the photos belong to. Files are created 0600 and folders 0700.
/// Several processes may use one library at once.
///
/// Crash safety rests on one order: a photo copy is written, synced and renamed into
/// place (and the folder synced) before the row that names it commits. So a row never
/// names a missing file; what a crash can leave is a temporary file or an unreferenced
/// photo, and opening a library removes both. That clean-up must not take a photo whose
/// save is still on its way to the commit: saves hold a shared flock on `photos/` from
/// the temporary file to the commit, and a clean-up runs only when it gets the lock
/// exclusively (the kernel releases a killed process's lock).
final class FolderStorage: LibraryStorage {
    /// The library folder, absolute.
    let directory: String
    let databasePath: String
    let photos: PhotoFolder
    /// Internal, not private: the streaming and search extensions (FolderStorage+Scale.swift) use it.
    let database: Locked<Database>

    static let databaseName = "library.sqlite3"

    /// A write past the file size limit (`ulimit -f`) kills the process with SIGXFSZ by
    /// default; ignored, it fails with EFBIG and the save reports it like a full disk.
    private static let fileSizeSignalIgnored: Void = {
        signal(SIGXFSZ, SIG_IGN)
    }()

    /// Opens the library in `directory` for reading only, as it is: nothing is created,
    /// migrated or cleaned, and no file in it is written. For reading a library that cannot
    /// be written (a read-only folder or mount, a full disk); whatever writes fails with the
    /// library's "cannot write" message. A library older than this Caption cannot be read
    /// so, since it would have to be brought up to date first.
    init(readingOnly directory: String, busyTimeout: Int32) throws(LibraryError) {
        let directory = Files.absolute(directory)
        self.directory = directory
        photos = PhotoFolder(path: directory + "/photos", library: directory)
        databasePath = directory + "/" + FolderStorage.databaseName
        try LibraryFolderCheck.check(directory)
        guard Files.size(databasePath).map({ $0 > 0 }) == true else {
            throw .make(
                .databaseMissing, "The library has no database to read: {folder}", ["folder": directory])
        }
        var connection: Database
        do {
            connection = try Database(
                path: databasePath, folder: directory, busyTimeout: busyTimeout, access: .readOnly)
            try LibrarySchema.check(connection, readingOnly: true)
        } catch {
            // A write-ahead database needs its shared-memory file, which a read-only folder
            // may not let SQLite make.
            connection = try Database(
                path: databasePath, folder: directory, busyTimeout: busyTimeout, access: .immutable)
            try LibrarySchema.check(connection, readingOnly: true)
        }
        database = Locked(connection)
    }

    /// Opens the library in `directory`, creating it if needed, bringing its schema up to
    /// date and removing what an interrupted save left. `busyTimeout` (milliseconds) is how
    /// long to wait for another program's write before saying the library is locked.
    /// Refuses, and leaves untouched, a database that is damaged, not Caption's, or from a
    /// newer version, and a library whose photos would not be safe (`LibraryFolderCheck`) or
    /// whose database is missing beside its photos.
    init(directory: String, busyTimeout: Int32) throws(LibraryError) {
        _ = FolderStorage.fileSizeSignalIgnored
        try Database.requireSQLite()
        let directory = Files.absolute(directory)
        self.directory = directory
        photos = PhotoFolder(path: directory + "/photos", library: directory)
        databasePath = directory + "/" + FolderStorage.databaseName

        let existed = Files.isDirectory(directory)
        if existed { try LibraryFolderCheck.check(directory) }
        if let code = POSIXFiles.makeFolders(photos.path, mode: 0o700) {
            throw PhotoFolder.folderError(code, directory)
        }
        let created = open(databasePath, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if created >= 0 {
            close(created)
        } else if errno != EEXIST {
            throw PhotoFolder.folderError(errno, directory)
        }
        // A database that is gone (or was cut to nothing) beside photos it had saved: a new
        // one would know none of them, and its clean-up would take them all.
        if created >= 0 || Files.size(databasePath) == 0, let stored = photos.storedCount(), stored > 0 {
            if created >= 0 { unlink(databasePath) }
            throw .make(
                .databaseMissing,
                "The library's database is missing or empty, but its photos folder holds {count} photos; nothing was changed. Put library.sqlite3 back, or move the photos folder away to start a new library: {folder}",
                ["count": String(stored), "folder": directory])
        }
        if !existed, let folder = Files.Folder(directory) {
            _ = folder.sync()  // the new folder's entries (photos/, the database) are durable
        }

        let connection = try Database(path: databasePath, folder: directory, busyTimeout: busyTimeout)
        do {
            // Two programs opening a new library at once would race to switch it to WAL
            // and to migrate it, and SQLite answers some of those races with an immediate
            // SQLITE_BUSY that no busy timeout waits out; so openings take turns (the
            // lock on the folder lasts to the end of this block).
            guard let folder = Files.Folder(directory), folder.lockExclusive(milliseconds: Int(busyTimeout)) else {
                throw connection.failure(SQLITE_BUSY)
            }
            try LibrarySchema.prepare(connection)
        }
        try photos.removeLeftovers(connection)
        database = Locked(connection)
    }

    // MARK: Reading

    func entries(matching query: String) throws(LibraryError) -> [Entry] {
        try database.withLock { (db) throws(LibraryError) -> [Entry] in
            let statement: Statement
            if query.unicodeScalars.count >= 3 {
                // A quoted FTS5 string is one phrase: with trigram tokens, a substring.
                statement = try db.prepare(
                    """
                    SELECT \(Library.columns) FROM entries WHERE id IN
                        (SELECT rowid FROM entries_text WHERE entries_text MATCH ?1
                         UNION SELECT rowid FROM entries_more WHERE entries_more MATCH ?1)
                    ORDER BY created DESC, id DESC
                    """)
                statement.bind(1, "\"" + query.replacing("\"", with: "\"\"") + "\"")
            } else {
                statement = try db.prepare(
                    """
                    SELECT \(Library.columns) FROM entries
                    WHERE \(CaptionField.allCases.map { "instr(lower(\($0.rawValue)), lower(?1)) > 0" }.joined(separator: " OR "))
                    ORDER BY created DESC, id DESC
                    """)
                statement.bind(1, query)
            }
            var entries: [Entry] = []
            while try statement.step() { entries.append(Library.entry(statement)) }
            return entries
        }
    }

    func changeCounter() throws(LibraryError) -> Int64 {
        try database.withLock { (db) throws(LibraryError) -> Int64 in try db.integer("PRAGMA data_version") }
    }

    func entry(id: Int64) throws(LibraryError) -> Entry? {
        try database.withLock { (db) throws(LibraryError) -> Entry? in try FolderStorage.fetch(db, id) }
    }

    private static func fetch(_ db: Database, _ id: Int64) throws(LibraryError) -> Entry? {
        let statement = try db.prepare("SELECT \(Library.columns) FROM entries WHERE id = ?")
        statement.bind(1, id)
        return try statement.step() ? Library.entry(statement) : nil
    }

    /// Nil when the row names anything but one of the library's own photo files: a
    /// database edited by hand or by another program could point at "../../.bashrc" or
    /// "/etc/passwd", and nothing may read or delete that.
    func photoPath(of entry: Entry) -> String? {
        FolderStorage.photoPath(of: entry, in: directory)
    }

    func photoPathIfHere(of entry: Entry) -> String? { photoPath(of: entry) }

    func photoPathsIfHere() -> (Entry) -> String? {
        // The folder made absolute once, not for each entry.
        let folder = Files.absolute(directory) + "/"
        return { PhotoFolder.isStoredPhoto($0.photo) ? folder + $0.photo : nil }
    }

    func fetchedPhotoPath(of entry: Entry) throws(LibraryError) -> String? { photoPath(of: entry) }

    /// The same, for a library folder not open here (the window asks before opening).
    static func photoPath(of entry: Entry, in directory: String) -> String? {
        guard PhotoFolder.isStoredPhoto(entry.photo) else { return nil }
        return Files.absolute(directory) + "/" + entry.photo
    }

    func holdsPhoto(at path: String) -> Bool {
        guard let file = realpath(path), let store = realpath(photos.path) else { return false }
        return file.hasPrefix(store + "/")
    }

    func holdsPhoto(sha256: String, format: PhotoFormat) -> Bool {
        access(photos.path + "/" + sha256 + "." + format.fileExtension, F_OK) == 0
    }

    // MARK: Writing

    /// A folder library is one person's, on one machine: no photo is ever another
    /// editor's, so `editor` changes nothing.
    func add(
        _ photo: LoadedPhoto, words: CaptionWords, credits: Credits, editor: Editor?
    ) throws(LibraryError)
        -> Entry
    {
        try photo.bytes.withBytes { (data) throws(LibraryError) -> Entry in
            try save(photo, data, words: words, credits: credits)
        }
    }

    private func save(
        _ photo: LoadedPhoto, _ data: UnsafeRawBufferPointer, words: CaptionWords, credits: Credits
    ) throws(LibraryError) -> Entry {
        let info = photo.info
        let name = "photos/\(photo.sha256).\(info.format.fileExtension)"
        let target = directory + "/" + name
        // The folder's shared lock is held until the row commits, so no clean-up takes the
        // copy for an orphan.
        let placement = try photos.place(data, at: target)
        let now = Timestamp.now()
        do {
            return try database.withLock { (db) throws(LibraryError) -> Entry in
                try db.write { () throws(LibraryError) -> Entry in
                    let insert = try db.prepare(Library.insertEntry + " RETURNING id")
                    insert.bind(1, name)
                    let next = Library.bind(words, to: insert, from: 2)
                    insert.bind(next, Int64(info.width))
                    insert.bind(next + 1, Int64(info.height))
                    insert.bind(next + 2, Files.baseName(photo.path))
                    insert.bind(next + 3, now.millisecondsSince1970)
                    insert.bind(next + 4, now.millisecondsSince1970)
                    _ = Library.bind(credits, to: insert, from: next + 5)
                    guard try insert.step() else { throw db.failure(SQLITE_ERROR) }
                    let id = insert.integer(0)
                    _ = try insert.step()
                    return Entry(
                        id: id, words: words, photo: name, width: info.width,
                        height: info.height, originalName: Files.baseName(photo.path), created: now, updated: now,
                        credits: credits)
                }
            }
        } catch {
            // The copy this save placed may be nobody's now; take it away unless another
            // save is under way, in which case the next open's clean-up will.
            if placement.wrote && placement.folder.tryLockExclusive() {
                let uses = try? database.withLock { (db) throws(LibraryError) -> Int64 in
                    try FolderStorage.uses(db, name)
                }
                if uses == 0 { unlink(target) }
            }
            throw error
        }
    }

    private static func uses(_ db: Database, _ photo: String) throws(LibraryError) -> Int64 {
        let statement = try db.prepare("SELECT count(*) FROM entries WHERE photo = ?")
        statement.bind(1, photo)
        _ = try statement.step()
        return statement.integer(0)
    }

    func setSource(id: Int64, path: String?, sha256: String?) throws(LibraryError) -> Entry {
        try database.withLock { (db) throws(LibraryError) -> Entry in
            try db.write { () throws(LibraryError) -> Entry in
                let statement = try db.prepare(
                    "UPDATE entries SET source = ?, source_sha256 = ? WHERE id = ? RETURNING \(Library.columns)")
                statement.bind(1, path)
                statement.bind(2, sha256)
                statement.bind(3, id)
                guard try statement.step() else { throw Library.noSuchEntry(id) }
                let entry = Library.entry(statement)
                _ = try statement.step()
                return entry
            }
        }
    }

    func update(
        id: Int64, words: CaptionWords, credits: Credits?, unchangedSince: Timestamp?
    ) throws(LibraryError)
        -> Entry
    {
        let now = Timestamp.now()
        var assignments = CaptionField.allCases.map { "\($0.rawValue) = ?" }.joined(separator: ", ")
        if credits != nil {
            assignments +=
                ", " + Library.creditColumnNames.map { "\($0) = ?" }.joined(separator: ", ")
        }
        return try database.withLock { (db) throws(LibraryError) -> Entry in
            try db.write { () throws(LibraryError) -> Entry in
                let unchanged = unchangedSince == nil ? "" : " AND updated = ?"
                let statement = try db.prepare(
                    "UPDATE entries SET \(assignments), updated = ? WHERE id = ?\(unchanged) RETURNING \(Library.columns)"
                )
                var next = Library.bind(words, to: statement, from: 1)
                if let credits { next = Library.bind(credits, to: statement, from: next) }
                statement.bind(next, now.millisecondsSince1970)
                statement.bind(next + 1, id)
                if let unchangedSince { statement.bind(next + 2, unchangedSince.millisecondsSince1970) }
                guard try statement.step() else {
                    guard let current = try FolderStorage.fetch(db, id) else { throw Library.noSuchEntry(id) }
                    throw Library.changedElsewhere(current)
                }
                let entry = Library.entry(statement)
                _ = try statement.step()
                return entry
            }
        }
    }

    /// The photo file goes after the commit, when no other entry uses it.
    func remove(id: Int64) throws(LibraryError) -> Entry {
        let entry = try database.withLock { (db) throws(LibraryError) -> Entry in
            try db.write { () throws(LibraryError) -> Entry in
                guard let entry = try FolderStorage.fetch(db, id) else { throw Library.noSuchEntry(id) }
                let statement = try db.prepare("DELETE FROM entries WHERE id = ?")
                statement.bind(1, id)
                _ = try statement.step()
                return entry
            }
        }
        // A save of the same photo may be between its copy and its commit: wait for it
        // (briefly) so the count below sees its row. If it takes longer, the next open
        // removes the file.
        if let folder = Files.Folder(photos.path), folder.lockExclusive(milliseconds: 2000) {
            let uses = try? database.withLock { (db) throws(LibraryError) -> Int64 in
                try FolderStorage.uses(db, entry.photo)
            }
            if uses == 0, let path = photoPath(of: entry) { _ = unlink(path) }
        }
        return entry
    }

    // MARK: Benchmarks

    func insertCopies(of entry: Entry, count: Int, caption: (@Sendable (Int) -> CaptionWords)?) throws(LibraryError) {
        try database.withLock { (db) throws(LibraryError) in
            try db.write { () throws(LibraryError) in
                let insert = try db.prepare(Library.insertEntry)
                for index in 0..<count {
                    insert.reset()
                    insert.bind(1, entry.photo)
                    var numbered = entry.words
                    numbered.title += " \(index)"
                    let next = Library.bind(caption?(index) ?? numbered, to: insert, from: 2)
                    insert.bind(next, Int64(entry.width))
                    insert.bind(next + 1, Int64(entry.height))
                    insert.bind(next + 2, entry.originalName)
                    insert.bind(next + 3, entry.created.millisecondsSince1970 - Int64(count - index))
                    insert.bind(next + 4, entry.updated.millisecondsSince1970 - Int64(count - index))
                    _ = Library.bind(entry.credits, to: insert, from: next + 5)
                    _ = try insert.step()
                }
            }
        }
    }

    // MARK: Editors working together

    /// A folder library is one person's: every photo is theirs.
    func claim(sha256: String, for editor: Editor, releasing: [String]) throws(LibraryError) -> PhotoClaim { .yours }
    func renewClaims(of editor: Editor) throws(LibraryError) {}
    func releaseClaims(of editor: Editor, photos: [String]?) throws(LibraryError) {}
}
