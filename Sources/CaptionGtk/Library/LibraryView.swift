// The library view: saved entries newest first, with thumbnails, searched as you type, and
// navigated from the keyboard. It shows what it is given; the window decides what to load.

import CGtk
import CaptionLibrary
import Dispatch
import Localization
import Pixbufs
import Synchronization
import Threads

@MainActor
final class LibraryView {
    let widget: Box
    let searchEntry: TextEntry
    let treeView: TreeView
    private let pages: Stack
    private let emptyLabel: Label
    private var store = EntryStore()
    /// The entries shown, in the order shown: row n is entries[n]. In a large library
    /// these are the pages loaded so far (see `listing`).
    private(set) var entries: [Entry] = []
    /// What the list shows, read a page at a time: the first page comes with `show`, the
    /// next ones (`onNeedMore`) as the user scrolls near the end, or all of them for End.
    private(set) var listing: Listing?
    var hasMore: Bool { listing.map { !$0.isComplete } ?? false }
    /// A page is on its way.
    var loadingMore = false
    /// End was pressed before the last page was in: go to the last row once it is.
    private(set) var wantsEnd = false
    /// An entry to select that is not loaded yet (after editing one deep in the list):
    /// pages load until it is in, or the list ends without it.
    private(set) var wantedID: Int64?
    /// Pages load in End's large size while one of the two waits.
    var loadsEagerly: Bool { wantsEnd || wantedID != nil }
    /// Rows in the first page, and in each page after it (larger while End waits).
    nonisolated static let firstPageSize = 100
    nonisolated static let pageSize = 500
    nonisolated static let endPageSize = 2000
    static let appendChunk = 400
    /// Bumped by each search, on the main thread; read on the library queue, so that a
    /// query overtaken by a newer one is skipped there and its result dropped here.
    let searches = SearchTickets()
    /// Row of each entry id: a thumbnail arriving, or one to let go, finds its row without
    /// a walk through ten thousand entries.
    private var rows: [Int64: Int] = [:]
    /// Rows whose thumbnail is in the store, and ids whose thumbnail is being made.
    private var thumbnailed: Set<Int64> = []
    private var requested: Set<Int64> = []
    /// Bumped by every `show`, so a thumbnail made for an older list is not put in a new one.
    private var generation = 0
    /// One for every window: thumbnails are made one at a time, below the main thread.
    private static let thumbnailQueue = LowPriorityQueue()
    /// The first row on screen, for the thumbnail queue to skip rows left far behind.
    private let thumbnailFocus = AtomicRow()
    nonisolated static let displaySize: Int32 = 72
    /// How far past the visible rows thumbnails are made, and how far they are kept: the
    /// memory used stays the same however far the user scrolls.
    static let prefetchRows = 20
    nonisolated static let keepRows = 120

    /// Where an entry's photo is (the library knows), for its thumbnail.
    /// Called on the thumbnail queue: a server library's photo may be fetched first.
    var photoPath: (@Sendable (Entry) -> String?)?
    var onActivate: ((Entry) -> Void)?
    var onDelete: ((Entry) -> Void)?
    var onSearch: ((String) -> Void)?
    /// The user is near the end of what is loaded (or pressed End): load the next page.
    var onNeedMore: (() -> Void)?
    /// Escape: the search entry takes the key itself (as stop-search).
    var onEscape: (() -> Void)?
    /// Tests wait for thumbnails.
    var onThumbnail: (() -> Void)?

    /// Holds the view's widgets until the controller packs them into the window.
    private let builder = Builder(EmbeddedResources.libraryUI)

    /// The window's: pages and thumbnails that arrive after it ended are dropped.
    private let lifetime: Lifetime

    init(lifetime: Lifetime) {
        self.lifetime = lifetime
        widget = builder["library_view"]
        searchEntry = builder["search"]
        treeView = builder["list"]
        pages = builder["pages"]
        emptyLabel = builder["empty"]
        treeView.setModel(store)
        // ATK announces no change from no description at all to the first one: the search
        // starts with an empty one, so that its first count is heard too.
        searchEntry.startAccessibleDescription()
        connectSignals()
    }

    private func connectSignals() {
        searchEntry.connect(.changed) { [weak self] in
            guard let self else { return }
            self.onSearch?(self.searchText)
        }
        searchEntry.connect(.stopSearch) { [weak self] in self?.onEscape?() }
        // Enter or Down in the search goes to the results.
        searchEntry.connect(.activate) { [weak self] in self?.focusList() }
        searchEntry.connect(.keyPress, after: false) { [weak self] event in
            guard let self, event.key == GDK_KEY_Down else { return false }
            self.focusList()
            return true
        }
        treeView.connect(.rowActivated) { [weak self] row in
            guard let self, self.entries.indices.contains(row) else { return }
            self.onActivate?(self.entries[row])
        }
        treeView.connect(.keyPress, after: false) { [weak self] event in
            guard let self else { return false }
            let key = event.key
            if (key == GDK_KEY_End || key == GDK_KEY_KP_End) && self.hasMore {
                // The rest loads in large pages, each in a main-loop turn of its own; the
                // cursor goes to the last row when it is in.
                self.wantsEnd = true
                self.onNeedMore?()
                return true
            }
            if key == GDK_KEY_Delete || key == GDK_KEY_KP_Delete {
                if let entry = self.selectedEntry { self.onDelete?(entry) }
                return true
            }
            // Type-to-search: a printable key with no Ctrl or Alt goes to the search.
            if event.isPrintable && event.hasNone(of: [GDK_CONTROL_MASK, GDK_MOD1_MASK]) {
                self.searchEntry.grabFocusWithoutSelecting()
                self.searchEntry.handle(event)
                return true
            }
            return false
        }
        // GTK 3 makes the list's cell accessibles itself, and an unnamed thumbnail cell is
        // read as «image.»: the row under the cursor gets its thumbnail named after the
        // photo as a screen reader is told of it (it asks for the names afterwards).
        treeView.onActiveDescendantChanged { [weak self] in self?.nameThumbnailCell() }
        treeView.onScroll { [weak self] in self?.updateThumbnails() }
        treeView.connect(.sizeAllocate, after: true) { [weak self] _ in self?.updateThumbnails() }
    }

    var searchText: String { searchEntry.text }
    var searchHasFocus: Bool { searchEntry.hasFocus }

    /// What a screen reader says after the search field's name.
    var searchDescription: String {
        get { searchEntry.accessibleDescription }
        set { searchEntry.accessibleDescription = newValue }
    }

    func clearSearch() {
        searchEntry.text = ""
    }

    func focusSearch() {
        searchEntry.grabFocus()
    }

    func focusList() {
        guard !entries.isEmpty else { return }
        if selectedRow == nil { select(row: 0) }
        nameThumbnailCell()
        treeView.grabFocus()
    }

    /// Names the thumbnail cell of the cursor's row "Photo: harbour.jpg", as the form's
    /// preview is named. Orca reads a whole row only when the cursor lands on another row
    /// number than the last it read; on the same number (after a delete, an undo, a new
    /// search's results, coming back from the search) it reads the focused cell alone,
    /// the thumbnail: then its name carries the words too.
    private func nameThumbnailCell() {
        guard let row = selectedRow, let entry = selectedEntry, let cell = treeView.accessibleCell(row: row, column: 0)
        else { return }
        // Named again for the same cursor (focus coming back, a second signal): the same
        // name as before.
        let cursor = NamedCursor(row: row, entry: entry.id, store: generation)
        if cursor != lastNamed {
            namedAlone = row == lastNamed?.row
            lastNamed = cursor
        }
        let alone = namedAlone
        let photo = fill(tr("Photo: {name}"), ["name": entry.originalName])
        let name =
            alone
            ? fill(
                tr("{title}, {subtitle}. {photo}"), ["title": entry.title, "subtitle": entry.subtitle, "photo": photo])
            : photo
        if cell.name != name { cell.name = name }
    }

    /// Where the cursor was when a thumbnail was last named, a screen reader then reading
    /// that row: its number, its entry, and the store it was in.
    private struct NamedCursor: Equatable {
        let row: Int
        let entry: Int64
        let store: Int
    }
    private var lastNamed: NamedCursor?
    private var namedAlone = false

    // MARK: Contents

    /// Shows these entries, keeping the selected one selected if it is still there, or
    /// selecting `wanted` (one brought back by Undo): the cursor goes to its row at once,
    /// not by way of another row a screen reader would hear of. A new store is filled
    /// before it is attached: inserting into an attached one would make the tree view redo
    /// its layout ten thousand times.
    func show(_ entries: [Entry], emptyText: String, listing: Listing? = nil, selecting wanted: Int64? = nil) {
        let selected = wanted ?? selectedEntry?.id
        generation += 1
        self.entries = entries
        self.listing = listing
        loadingMore = false
        wantsEnd = false
        wantedID = nil
        rows = Dictionary(entries.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        thumbnailed = []
        requested = []
        let fresh = EntryStore()
        for (row, entry) in entries.enumerated() { fresh.insert(markup: Self.markup(for: entry), at: row) }
        treeView.setModel(fresh)
        store = fresh
        emptyLabel.text = emptyText
        pages.visibleChildName = entries.isEmpty ? "empty" : "list"
        if let selected, let row = entries.firstIndex(where: { $0.id == selected }) {
            select(row: row)
        }
        updateThumbnails()
    }

    /// Adds the next page of the listing at the end of the list. The store is attached:
    /// in fixed-height mode a row costs the tree view next to nothing, and a page of 500 is
    /// a millisecond or two.
    /// A large page (End's) goes in `appendChunk` rows per main-loop turn, so that no
    /// turn takes long enough to miss a frame.
    func append(_ more: ArraySlice<Entry>, listing: Listing) {
        let chunk = more.prefix(Self.appendChunk)
        for entry in chunk where rows[entry.id] == nil {
            rows[entry.id] = entries.count
            store.insert(markup: Self.markup(for: entry), at: entries.count)
            entries.append(entry)
        }
        if chunk.count < more.count {
            let rest = more.dropFirst(chunk.count)
            let generation = self.generation
            lifetime.post { [weak self] in
                guard let self, generation == self.generation else { return }
                self.append(rest, listing: listing)
            }
            return
        }
        self.listing = listing
        loadingMore = false
        if let id = wantedID {
            if let row = rows[id] {
                wantedID = nil
                select(row: row)
            } else if hasMore {
                onNeedMore?()
            } else {
                wantedID = nil
            }
        }
        if wantsEnd {
            if hasMore {
                onNeedMore?()
            } else {
                wantsEnd = false
                if !entries.isEmpty { select(row: entries.count - 1) }
            }
        } else {
            updateThumbnails()
        }
    }

    /// Takes one entry out of the list (a delete waiting for its Undo).
    func removeRow(of entry: Entry) {
        guard let row = entries.firstIndex(of: entry) else { return }
        entries.remove(at: row)
        rows = Dictionary(entries.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        thumbnailed.remove(entry.id)
        store.remove(row: row)
        if !entries.isEmpty { select(row: min(row, entries.count - 1)) }
        pages.visibleChildName = entries.isEmpty ? "empty" : "list"
    }

    static func markup(for entry: Entry) -> String {
        "<b>" + escape(entry.title) + "</b>\n<small>" + escape(entry.subtitle) + "</small>"
    }

    /// Typed text must never be read as markup.
    static func escape(_ text: String) -> String { markupEscaped(text) }

    // MARK: Selection

    var selectedRow: Int? { treeView.selectedRow }

    var selectedEntry: Entry? { selectedRow.flatMap { entries.indices.contains($0) ? entries[$0] : nil } }

    func select(row: Int) { treeView.moveCursor(to: row) }

    /// Selects the entry, loading pages until it is in when it is further down the list
    /// than what is loaded (a search's matches, once found, tell whether it is there at all).
    func select(id: Int64) {
        if let row = rows[id] {
            select(row: row)
        } else if hasMore, listing?.mayHold(id) ?? true {
            wantedID = id
            onNeedMore?()
        }
    }

    // MARK: Thumbnails

    /// Makes thumbnails for the rows on screen and a few around them, and lets go of those
    /// far away.
    func updateThumbnails() {
        guard !entries.isEmpty, let shown = treeView.visibleRows else { return }
        // The tree view may still answer for the model it had before a `show` (its range
        // is updated when it is next laid out): rows past the list's end are not there.
        let (shownFirst, shownLast) = (shown.lowerBound, shown.upperBound)
        let first = min(shownFirst, entries.count - 1)
        let last = min(max(shownLast, first), entries.count - 1)

        if hasMore && !loadingMore && last + Self.prefetchRows * 3 >= entries.count { onNeedMore?() }
        thumbnailFocus.store(first)
        let keep = max(0, first - Self.keepRows)...min(entries.count - 1, last + Self.keepRows)
        for id in thumbnailed {
            guard let row = rows[id], !keep.contains(row) else { continue }
            store.setThumbnail(nil, row: row)
            thumbnailed.remove(id)
        }
        // What is on screen first, then a few rows below and above it.
        let visible = Array(first...last)
        let below = Array(min(entries.count, last + 1)..<min(entries.count, last + 1 + Self.prefetchRows))
        let above = Array(max(0, first - Self.prefetchRows)..<first).reversed()
        let focus = thumbnailFocus
        for row in visible + below + above {
            let entry = entries[row]
            guard !thumbnailed.contains(entry.id), !requested.contains(entry.id), let locate = photoPath else {
                continue
            }
            requested.insert(entry.id)
            let generation = self.generation
            Self.thumbnailQueue.async {
                // Scrolled far past it meanwhile (a fling, End): not worth making now; a
                // later pass asks again if it comes back into view.
                let current = focus.load()
                let thumbnail =
                    abs(current - row) > Self.keepRows
                    ? nil : locate(entry).flatMap { Thumbnails.thumbnail(for: $0) }.map { Self.scaled($0) }
                self.lifetime.post(
                    to: self,
                    { view in
                        guard generation == view.generation else { return }
                        guard let thumbnail, let row = view.rows[entry.id] else {
                            if thumbnail == nil { view.requested.remove(entry.id) }
                            return
                        }
                        view.requested.remove(entry.id)
                        view.store.setThumbnail(thumbnail, row: row)
                        view.thumbnailed.insert(entry.id)
                        view.onThumbnail?()
                    })
            }
        }
    }

    /// The cached 128-pixel thumbnail brought to the list's size, off the main thread.
    nonisolated static func scaled(_ thumbnail: Pixbuf) -> Pixbuf {
        let side = Int(displaySize)
        return max(thumbnail.width, thumbnail.height) > side ? thumbnail.fitting((side, side)) : thumbnail
    }

    var thumbnailCount: Int { thumbnailed.count }
}

/// The first visible row, shared with the thumbnail queue.
final class AtomicRow: Sendable {
    private let value = Atomic<Int>(0)
    func store(_ row: Int) { value.store(row, ordering: .relaxed) }
    func load() -> Int { value.load(ordering: .relaxed) }
}

/// Search generations: each query takes the next number; only the latest one's work is
/// done and shown.
final class SearchTickets: Sendable {
    private let latest = Atomic<Int>(0)
    func next() -> Int { latest.add(1, ordering: .relaxed).newValue }
    func isCurrent(_ ticket: Int) -> Bool { latest.load(ordering: .relaxed) == ticket }
    var current: Int { latest.load(ordering: .relaxed) }
}
