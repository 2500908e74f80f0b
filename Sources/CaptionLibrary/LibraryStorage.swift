// What a library needs of the place its entries and photos are kept: a folder (SQLite and
// photo files) or a PostgreSQL server. `Library` speaks to either through this alone.

import CaptionText
import PhotoFormats

/// Where a library is kept. Every method may be called from any thread; an implementation
/// serialises its own connection. Errors are the library's, with the same kinds and words
/// for either storage, so the window and the command line say the same things.
protocol LibraryStorage: AnyObject, Sendable {
    /// The folder the library's photos are read from on this machine: a folder library's
    /// own, a server library's cache.
    var directory: String { get }

    // MARK: Writing

    /// Saves a photo (once for every entry of the same bytes) and an entry for it, in one
    /// step: an entry is never saved without its photo. With `editor`, the save is theirs
    /// only if no other editor has claimed the photo (`takenElsewhere`), and it ends any
    /// claim on the photo: captioned, it is no one's to take.
    func add(
        _ photo: LoadedPhoto, words: CaptionWords, credits: Credits, editor: Editor?
    ) throws(LibraryError)
        -> Entry
    /// With `unchangedSince`, only if the entry's updated time is still that; otherwise
    /// `changedElsewhere` (or `noSuchEntry` when it is gone).
    func update(
        id: Int64, words: CaptionWords, credits: Credits?, unchangedSince: Timestamp?
    ) throws(LibraryError)
        -> Entry
    func setSource(id: Int64, path: String?, sha256: String?) throws(LibraryError) -> Entry
    /// Removes an entry, and its photo with its last entry.
    func remove(id: Int64) throws(LibraryError) -> Entry
    /// Adds `count` rows that share `entry`'s photo at once (benchmarks and tests).
    func insertCopies(of entry: Entry, count: Int, caption: (@Sendable (Int) -> CaptionWords)?) throws(LibraryError)

    // MARK: Reading

    func entry(id: Int64) throws(LibraryError) -> Entry?
    /// Entries in `order`, after `cursor` and through `last` when given, at most `limit`
    /// (all without one), each handed to `body` as it is read; `body` returns false to stop.
    func forEachEntry(
        _ order: Library.Order, after cursor: EntryCursor?, through last: EntryCursor?, limit: Int?,
        _ body: (Entry) -> Bool) throws(LibraryError)
    /// The entries whose title or subtitle contains `query` (not empty), case aside.
    func entries(matching query: String) throws(LibraryError) -> [Entry]
    /// The entries with these numbers, by number.
    func entries(ids: [Int64]) throws(LibraryError) -> [Int64: Entry]
    func forEachTitle(_ body: (String) -> Bool) throws(LibraryError)
    func usage(of field: CaptionField) throws(LibraryError) -> [FieldUsage]
    func largestID() throws(LibraryError) -> Int64
    func count() throws(LibraryError) -> Int
    func contentVersion() throws(LibraryError) -> ContentVersion
    func changeCounter() throws(LibraryError) -> Int64
    func searchIndex() throws(LibraryError) -> SearchIndex
    /// Goes on making the search index, reading some `rows` entries, and says whether it is
    /// ready; each step is short, so other work waits for a step and not the whole index.
    func prepareSearchIndex(step rows: Int) throws(LibraryError) -> Bool

    // MARK: Photos

    /// The absolute path of the entry's photo on this machine, or nil when the entry names
    /// no photo of the library's or its photo cannot be had.
    func photoPath(of entry: Entry) -> String?
    /// The same when the photo is already on this machine, nil when it would have to be
    /// fetched: what a listing shows, which fetches nothing.
    func photoPathIfHere(of entry: Entry) -> String?
    /// `photoPathIfHere` for a pass over many entries (a listing): the photos here read
    /// once, not looked up one entry at a time.
    func photoPathsIfHere() -> (Entry) -> String?
    /// The same, fetching the photo when it is not here; a server that cannot be reached
    /// throws (rather than giving nil, which says the photo is not there).
    func fetchedPhotoPath(of entry: Entry) throws(LibraryError) -> String?
    func holdsPhoto(at path: String) -> Bool
    func holdsPhoto(sha256: String, format: PhotoFormat) -> Bool

    // MARK: Editors working together

    /// Claims a photo for `editor` for `ClaimTerms.seconds`, unless another editor's claim
    /// on it is alive or the library holds it already; ends their claims on `releasing`.
    func claim(sha256: String, for editor: Editor, releasing: [String]) throws(LibraryError) -> PhotoClaim
    func renewClaims(of editor: Editor) throws(LibraryError)
    /// Ends `editor`'s claims on `photos`, or all of them.
    func releaseClaims(of editor: Editor, photos: [String]?) throws(LibraryError)
}
