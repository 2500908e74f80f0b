// The library of saved captions: entries and the photos they caption, kept in a folder
// (the default) or on a PostgreSQL server a team shares, behind one interface.

import CSQLite
import CaptionText
import PhotoFormats
import Threads

/// A library, open. Safe to use from any thread (the window saves from a background one).
/// What it keeps and how it answers is the same for either storage (`LibraryStorage`):
/// `FolderStorage`, a folder holding an SQLite database and the photos under their
/// content hash, or `PostgresStorage`, a database on a server and a cache of its photos on
/// this machine.
public final class Library: Sendable {
    let storage: any LibraryStorage

    init(storage: any LibraryStorage) {
        self.storage = storage
    }

    /// Opens the library in `directory`, creating it if needed, bringing its schema up to
    /// date and removing what an interrupted save left. `busyTimeout` (milliseconds) is how
    /// long to wait for another program's write before saying the library is locked.
    /// Refuses, and leaves untouched, a database that is damaged, not Caption's, or from a
    /// newer version, and a library whose photos would not be safe (`LibraryFolderCheck`) or
    /// whose database is missing beside its photos.
    public convenience init(directory: String, busyTimeout: Int32 = 5000) throws(LibraryError) {
        self.init(storage: try FolderStorage(directory: directory, busyTimeout: busyTimeout))
    }

    /// Opens the library in `directory` for reading only, as it is: nothing is created,
    /// migrated or cleaned, and no file in it is written. For reading a library that cannot
    /// be written (a read-only folder or mount, a full disk); whatever writes fails with the
    /// library's "cannot write" message. A library older than this Caption cannot be read
    /// so, since it would have to be brought up to date first.
    public convenience init(readingOnly directory: String, busyTimeout: Int32 = 5000) throws(LibraryError) {
        self.init(storage: try FolderStorage(readingOnly: directory, busyTimeout: busyTimeout))
    }

    /// Connects to the library on a server, making it or bringing it up to date; its photos
    /// are kept on this machine, as they are needed, in a folder of their own under `cache`
    /// (by default the user's cache folder).
    public convenience init(server: PostgresAddress, cache: String? = nil) throws(LibraryError) {
        self.init(storage: try PostgresStorage(server, cache: cache ?? LibraryLocation.cacheDirectory()))
    }

    /// Opens the library `location` names: a server's address (`postgresql://…`,
    /// `service=NAME`, libpq's `key=value` words) or a folder.
    public static func open(_ location: String) throws(LibraryError) -> Library {
        if PostgresAddress.isServer(location) { return try Library(server: PostgresAddress(location)) }
        return try Library(directory: location)
    }

    /// Whether `location` names a library on a server rather than a folder.
    public static func isServer(_ location: String) -> Bool { PostgresAddress.isServer(location) }

    /// The folder photos are read from: a folder library's own, a server library's cache.
    public var directory: String { storage.directory }

    public static var schemaVersion: Int { LibrarySchema.migrations.count }

    /// `$XDG_DATA_HOME/caption`, or `~/.local/share/caption` (XDG ignores a relative
    /// XDG_DATA_HOME).
    public static func defaultDirectory() -> String { LibraryLocation.defaultDirectory() }

    // MARK: Reading

    /// A column per caption field, named as the field is, in `CaptionField`'s order.
    static let fieldColumns = CaptionField.allCases.map(\.rawValue).joined(separator: ", ")

    /// A column per standing credit, in `CreditField`'s order, then whether they replace
    /// a photo's own and the stationery pad they came from.
    static let creditColumnNames =
        CreditField.allCases.map { "credit_\($0.rawValue)" } + ["credits_replace", "credits_pad"]
    static let creditColumns = creditColumnNames.joined(separator: ", ")

    static let columns =
        "id, \(fieldColumns), photo, width, height, original_name, created, updated, source, source_sha256, "
        + creditColumns

    /// Reads a row selected by `columns`.
    static func entry(_ row: Statement) -> Entry { Entry(columns: row) }

    /// Binds the credits from parameter `first` on, in `creditColumns`' order (NULL for a
    /// credit not given), and gives the next parameter's number.
    static func bind(_ credits: Credits, to statement: Statement, from first: Int32) -> Int32 {
        var parameter = first
        for field in CreditField.allCases {
            statement.bind(parameter, credits.setFields.contains(field) ? credits[field] : nil)
            parameter += 1
        }
        statement.bind(parameter, Int64(credits.replacesPhotos ? 1 : 0))
        statement.bind(parameter + 1, credits.pad)
        return parameter + 2
    }

    /// `INSERT INTO entries` of a photo and its words, with the parameters in this order:
    /// photo, each field, width, height, original name, created, updated, the credits.
    static let insertEntry = """
        INSERT INTO entries (photo, \(fieldColumns), width, height, original_name, created, updated, \(creditColumns))
        VALUES (\(Array(repeating: "?", count: 6 + CaptionField.allCases.count + creditColumnNames.count)
        .joined(separator: ", ")))
        """

    /// Binds the caption's words from parameter `first` on, in `CaptionField`'s order, and
    /// gives the next parameter's number.
    static func bind(_ words: CaptionWords, to statement: Statement, from first: Int32) -> Int32 {
        var parameter = first
        for field in CaptionField.allCases {
            statement.bind(parameter, words[field])
            parameter += 1
        }
        return parameter
    }

    /// Every entry, newest first.
    public func entries() throws(LibraryError) -> [Entry] {
        var entries: [Entry] = []
        try storage.forEachEntry(.newestFirst, after: nil, through: nil, limit: nil) { entry in
            entries.append(entry)
            return true
        }
        return entries
    }

    /// The entries whose title or subtitle contains `text` (case aside), newest first;
    /// all of them for empty text.
    public func entries(matching text: String) throws(LibraryError) -> [Entry] {
        let query = text.trimmingWhiteSpace
        guard !query.isEmpty else { return try entries() }
        return try storage.entries(matching: query)
    }

    /// A number that changes whenever another connection (another Caption, `caption --add`,
    /// another editor) commits to the library: an open view polls it to stay current.
    public func changeCounter() throws(LibraryError) -> Int64 { try storage.changeCounter() }

    /// The entry with this number, or nil.
    public func entry(id: Int64) throws(LibraryError) -> Entry? { try storage.entry(id: id) }

    /// The photo's absolute path on this machine, or nil when the entry names anything but
    /// one of the library's own photos (a database edited by hand or by another program
    /// could point at "../../.bashrc", and nothing may read or delete that) or a server's
    /// photo cannot be had.
    public func photoPath(of entry: Entry) -> String? { storage.photoPath(of: entry) }
    /// The photo's path when it is already on this machine (always, for a library in a
    /// folder); nil for a desk's photo not yet fetched. Fetches nothing.
    public func photoPathIfHere(of entry: Entry) -> String? { storage.photoPathIfHere(of: entry) }
    /// The same for a pass over many entries (`--list`): a desk's photos here are read
    /// once, not looked for one entry at a time (100,000 lookups were a quarter of a
    /// listing's time). A photo fetched during the pass may still be said not here.
    public func photoPathsIfHere() -> (Entry) -> String? { storage.photoPathsIfHere() }

    /// The photo's path, fetched from the server when it is not here yet: nil when the
    /// library has no such photo; a server that cannot be reached throws, so that an
    /// export stops once instead of naming every photo as missing.
    public func fetchedPhotoPath(of entry: Entry) throws(LibraryError) -> String? {
        try storage.fetchedPhotoPath(of: entry)
    }

    /// The same, for a library folder not open here (the window asks before opening).
    public static func photoPath(of entry: Entry, in directory: String) -> String? {
        FolderStorage.photoPath(of: entry, in: directory)
    }

    /// Whether `path` names one of this library's stored photos (through any link or
    /// relative path): the library's copies are its own, never a photo to write into.
    public func holdsPhoto(at path: String) -> Bool { storage.holdsPhoto(at: path) }

    /// Whether the library keeps a copy of the photo whose bytes hash to `sha256`: a photo
    /// captioned before, under whatever name it has now. (A copy goes when its last entry does.)
    public func holdsPhoto(sha256: String, format: PhotoFormat) -> Bool {
        storage.holdsPhoto(sha256: sha256, format: format)
    }

    static func noSuchEntry(_ id: Int64) -> LibraryError {
        .make(.noSuchEntry, "There is no entry {id} in the library", ["id": String(id)])
    }

    // MARK: Writing

    /// Saves a photo with its caption: `PhotoInspector.load` then `add(_:words:)`.
    /// The photo is read once, checked (decodes, within the limits), copied in
    /// under its SHA-256 (the same photo twice is stored once) and made durable before the
    /// entry is. The words are stored exactly as given: normalising them is the form's job.
    public func add(
        photoAt path: String, words: CaptionWords, credits: Credits = .none, editor: Editor? = nil
    ) throws(LibraryError) -> Entry {
        try add(PhotoInspector.load(path), words: words, credits: credits, editor: editor)
    }

    /// Saves a photo loaded (and so checked and hashed) earlier. A stationery pad's words
    /// for a field go where `words` leave that field empty (`Credits.filling`).
    public func add(
        _ photo: LoadedPhoto, words: CaptionWords, credits: Credits = .none, editor: Editor? = nil
    ) throws(LibraryError) -> Entry {
        try storage.add(photo, words: credits.filling(words), credits: credits, editor: editor)
    }

    /// Records where an entry's photo lives outside the library (an absolute path) and the
    /// SHA-256 of that file as Caption last read or wrote it; nil forgets it.
    @discardableResult
    public func setSource(id: Int64, path: String?, sha256: String?) throws(LibraryError) -> Entry {
        try storage.setSource(id: id, path: path, sha256: sha256)
    }

    /// Changes an entry's caption; the photo stays, and so do the credits it was saved with
    /// unless `credits` are given. With `unchangedSince` (the entry's updated time as it was
    /// read), a change someone else made meanwhile is not saved over: the update fails with
    /// `changedElsewhere` and changes nothing.
    public func update(
        id: Int64, words: CaptionWords, credits: Credits? = nil, unchangedSince: Timestamp? = nil
    ) throws(LibraryError) -> Entry {
        try storage.update(id: id, words: words, credits: credits, unchangedSince: unchangedSince)
    }

    static func changedElsewhere(_ current: Entry) -> LibraryError {
        .make(
            .changedElsewhere,
            "This caption was changed elsewhere since it was opened, to “{title}”; yours was not saved over it. Press Enter again to save yours instead",
            ["title": current.title])
    }

    /// Removes an entry and returns it. Its photo goes too when no other entry uses it.
    public func remove(id: Int64) throws(LibraryError) -> Entry { try storage.remove(id: id) }

    // MARK: Benchmarks

    /// Adds `count` rows that share `entry`'s photo, at once: a large library in a moment,
    /// for benchmarks and tests. `caption` gives row `index` its own words (by default the
    /// entry's, with the index after the title).
    @_spi(Benchmarks)
    public func insertCopies(
        of entry: Entry, count: Int, caption: (@Sendable (Int) -> CaptionWords)? = nil
    ) throws(LibraryError) {
        try storage.insertCopies(of: entry, count: count, caption: caption)
    }
}
