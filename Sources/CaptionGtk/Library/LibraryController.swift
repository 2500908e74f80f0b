// The library view's controller: loading and searching entries off the main thread, keeping
// up with other processes while it shows, and deleting with Undo (an entry leaves the
// library only once its notification has gone).

import CGtk
import CaptionLibrary
import Localization
import Threads

@MainActor
final class LibraryController {
    private let page: Box
    private let library: LibraryAccess
    private let notification: InAppNotification
    private let messages: MessageBar
    /// Made the first time it is needed: its list, search and styles would otherwise cost
    /// the first paint some 10 ms for a view that is not shown.
    private var madeView: LibraryView?
    /// The library's contents as of the list's last load: the view opens again as it was
    /// left (scrolled, selected, thumbnails made) when nothing changed since, and the poll
    /// reloads it when another process changed them while it shows.
    private var loadedVersion: ContentVersion?
    private var poll: SourceHandle?
    /// Deleted entries waiting for their Undo to expire before they leave the library.
    private var pendingDeletions: [CaptionLibrary.Entry] = []
    /// The list takes focus once the entries it is to show have arrived.
    private var focusListWhenLoaded = false
    /// An entry to select once the list has (re)loaded: one brought back by Undo.
    private var selectWhenLoaded: Int64?
    private var isShowing = false
    /// The search on its way (its ticket), until its answer shows.
    private var searching: Int?
    /// The count of a search as typed, said once typing pauses (see `show`).
    private var countWhenPaused: SourceHandle?
    private var searchTyped = false
    /// Where a search's matches are counted (`count(_:afterTyping:)`).
    private let counting = LowPriorityQueue()
    static let typingPause: UInt32 = 600

    /// Enter on an entry: open it in the form (with its photo's path).
    var onEdit: ((CaptionLibrary.Entry, String) -> Void)?
    /// Escape with an empty search: back to the form.
    var onLeave: (() -> Void)?
    /// Tests and the view benchmark wait for a load.
    var onShown: (() -> Void)?
    /// A deleted entry has left the library: its Undo expired and the deletion committed.
    var onRemoved: ((CaptionLibrary.Entry) -> Void)?

    init(page: Box, library: LibraryAccess, notification: InAppNotification, messages: MessageBar) {
        self.page = page
        self.library = library
        self.notification = notification
        self.messages = messages
        // A server library tells of other editors' commits as they happen: the list shown
        // follows at once, and while it is heard nothing asks every second.
        library.whenOthersCommit { [weak self] in
            guard let self, self.isShowing else { return }
            self.reload()
        }
    }

    var view: LibraryView {
        if let madeView { return madeView }
        let view = LibraryView(lifetime: library.lifetime)
        view.photoPath = { [library] entry in library.photoPath(of: entry) }
        view.onSearch = { [weak self] _ in
            guard let self else { return }
            self.searchTyped = true
            self.countWhenPaused?.cancel()
            self.reload()
        }
        view.onNeedMore = { [weak self] in self?.loadMore() }
        view.onActivate = { [weak self] entry in self?.edit(entry) }
        view.onDelete = { [weak self] entry in self?.delete(entry) }
        view.onEscape = { [weak self] in self?.escape() }
        page.packStart(view.widget, expand: true)
        view.widget.showAll()
        madeView = view
        return view
    }

    /// The view appeared (`true`) or went: load, and watch the library while it shows;
    /// another Caption or `caption --add` may add to it at any time.
    func setShowing(_ showing: Bool) {
        isShowing = showing
        guard showing else {
            poll?.cancel()
            return
        }
        reloadIfChanged()
        guard poll?.isActive != true else { return }
        poll = library.lifetime.every(seconds: 1) { [weak self] in
            guard let self else { return false }
            if !self.library.hearsOthers { self.checkForChanges() }
            return true
        }
    }

    /// Focus for the view as it appears: the list, or (`searching`) the search.
    func focus(searching: Bool) {
        focusListWhenLoaded = !searching
        if searching { view.focusSearch() } else { view.focusList() }
    }

    /// Escape clears the search first, then goes back to the form.
    func escape() {
        if view.searchText.isEmpty { onLeave?() } else { view.clearSearch() }
    }

    private func checkForChanges() {
        let known = loadedVersion?.others
        library.perform(
            { library throws(LibraryError) in try library.changeCounter() },
            completion: { [weak self] result in
                guard let self, case .success(let others) = result, others != known else { return }
                self.reload()
            })
    }

    /// Shows the list as it was left, as views of GNOME's apps do when one switches back
    /// to them, unless the library changed meanwhile (a save in the form, another
    /// process): then it loads again. Either way the old list shows until the answer.
    private func reloadIfChanged() {
        guard let known = loadedVersion, madeView?.listing != nil else { return reload() }
        library.perform(
            { library throws(LibraryError) in try library.contentVersion() },
            completion: { [weak self] result in
                guard let self else { return }
                guard case .success(let version) = result, version == known else { return self.reload() }
                self.shownAsLeft()
            })
    }

    /// Loads the first page of the entries that match the search, newest first, as
    /// `caption --list` lists them; the rest come a page at a time (`loadMore`). Each call
    /// supersedes the one before: a query overtaken before it ran is skipped on the library
    /// queue, and the result of one overtaken after is dropped here.
    func reload() {
        let query = view.searchText
        let searches = view.searches
        let ticket = searches.next()
        searching = ticket
        library.perform(
            { library throws(LibraryError) -> FirstPage? in
                guard searches.isCurrent(ticket) else { return nil }
                return try Self.firstPage(of: library, matching: query)
            },
            completion: { [weak self] result in
                // A newer search is on its way, or this one was answered already (`answerSearch`).
                guard let self, searches.isCurrent(ticket), self.searching == ticket else { return }
                self.show(result, query: query, ticket: ticket)
            })
    }

    private typealias FirstPage = (version: ContentVersion, listing: Listing, entries: [CaptionLibrary.Entry])

    private nonisolated static func firstPage(
        of library: Library, matching query: String
    ) throws(LibraryError)
        -> FirstPage
    {
        let version = try library.contentVersion()
        var listing = try library.listing(matching: query)
        let page = try listing.nextPage(from: library, limit: LibraryView.firstPageSize)
        return (version, listing, page)
    }

    private func show(_ result: Result<FirstPage?, LibraryError>, query: String, ticket: Int) {
        if searching == ticket { searching = nil }
        switch result {
        case .success(nil):
            return
        case .success(let page?):
            loadedVersion = page.version
            show(page.entries, query: query, listing: page.listing)
            if query.isEmpty { prepareSearch() }
        case .failure(let error):
            loadedVersion = nil
            view.show([], emptyText: error.message)
        }
        onShown?()
    }

    /// A key is about to act on the list (Down, Enter, Tab, Page Up or Down, or any key in
    /// the list): a search typed and not answered yet is answered now, while the key waits,
    /// so that it acts on the entries that match what the search field says, not on the
    /// list before it.
    func answerSearch(before key: KeyPress) {
        guard isShowing, let view = madeView, let ticket = searching, view.searches.isCurrent(ticket) else { return }
        let navigates = [
            GDK_KEY_Down, GDK_KEY_Up, GDK_KEY_KP_Down, GDK_KEY_KP_Up, GDK_KEY_Page_Down, GDK_KEY_Page_Up,
            GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter, GDK_KEY_Tab, GDK_KEY_ISO_Left_Tab,
        ].contains(key.key)
        guard navigates || !view.searchHasFocus else { return }
        let query = view.searchText
        let result = library.performAndWait { library throws(LibraryError) in
            try Self.firstPage(of: library, matching: query)
        }
        show(result.map { Optional($0) }, query: query, ticket: ticket)
    }

    /// Makes the search index (about 0.1 s for 100,000 entries, 1 s for 1,000,000) or
    /// brings it up to date (the entries this window saved since: milliseconds) while the
    /// user looks at the list, so that the first key typed into the search finds it ready.
    /// A step at a time (some 20 ms each at most): a save or a page of the list queued
    /// meanwhile waits for one step, not for the whole index.
    private func prepareSearch() {
        library.performInSteps { library throws(LibraryError) in try library.prepareSearchIndex() }
    }

    /// A library in a folder has its search index made once the window has started, so
    /// that even the first search, typed as soon as the library shows, finds it ready; the
    /// window's own saves then keep it current. A server's is made when the library is
    /// first shown: reading every entry over the network at start would hold up the first
    /// save, and other editors' saves change it anyway.
    func prepareSearchAtStart() {
        guard !library.isServer else { return }
        prepareSearch()
    }

    /// The next page of the list, appended when it arrives (unless a newer search has
    /// replaced the list meanwhile).
    private func loadMore() {
        guard let start = view.listing, !start.isComplete, !view.loadingMore else { return }
        view.loadingMore = true
        let searches = view.searches
        let ticket = searches.current
        let limit = view.loadsEagerly ? LibraryView.endPageSize : LibraryView.pageSize
        library.perform(
            { library throws(LibraryError) -> (Listing, [CaptionLibrary.Entry]) in
                var listing = start
                let page = try listing.nextPage(from: library, limit: limit)
                return (listing, page)
            },
            completion: { [weak self] result in
                guard let self, searches.isCurrent(ticket) else { return }
                guard case .success(let (listing, entries)) = result else {
                    self.view.loadingMore = false
                    return
                }
                let hidden = Set(self.pendingDeletions.map(\.id))
                self.view.append(entries.filter { !hidden.contains($0.id) }[...], listing: listing)
            })
    }

    /// The search whose results the list shows.
    private var shownQuery = ""

    private func show(_ entries: [CaptionLibrary.Entry], query: String, listing: Listing) {
        let hidden = Set(pendingDeletions.map(\.id))
        let shown = entries.filter { !hidden.contains($0.id) }
        let empty =
            query.isEmpty
            ? tr("No captions yet — saved photos appear here")
            : tr("Nothing matches “{search}”").replacing("{search}", with: query)
        view.show(shown, emptyText: empty, listing: listing, selecting: selectWhenLoaded)
        // Said with the search field (its accessible description): how many entries a
        // search found (all of them, not the page on screen), or why the list is empty.
        // While the user types, only once typing pauses, and with the words it is for: a
        // count said at each key lags behind the keys and names no query.
        // A search cleared (Escape, or its words deleted) says so, and what shows again.
        let cleared = query.isEmpty && !shownQuery.isEmpty
        shownQuery = query
        let typed = searchTyped
        searchTyped = false
        countWhenPaused?.cancel()
        if shown.isEmpty {
            say(empty, afterTyping: typed)
        } else if query.isEmpty {
            let count = shown.count
            say(
                cleared
                    ? fill(
                        trn("Search cleared, {count} entry", "Search cleared, {count} entries", count),
                        ["count": String(count)]) : "", afterTyping: typed)
        } else if let count = listing.matchCount {
            say(matchesSaid(count, query: query), afterTyping: typed)
        } else {
            count(listing, afterTyping: typed)
        }
        settle()
    }

    private func matchesSaid(_ count: Int, query: String) -> String {
        fill(
            trn("{count} entry matches “{query}”", "{count} entries match “{query}”", count),
            ["count": String(count), "query": query])
    }

    /// The first page was found without finding every match: they are counted now, after
    /// it was painted, away from the library queue (the next key's search must not wait
    /// for it) and given up when a newer search comes.
    private func count(_ listing: Listing, afterTyping typed: Bool) {
        let searches = view.searches
        let ticket = searches.current
        let lifetime = library.lifetime
        counting.async {
            guard let count = listing.countMatches(while: { searches.isCurrent(ticket) }) else { return }
            lifetime.post { [weak self] in
                guard let self, searches.isCurrent(ticket) else { return }
                self.say(self.matchesSaid(count, query: listing.query), afterTyping: typed)
            }
        }
    }

    /// `said` becomes the search field's description: while the user types, only once
    /// typing pauses.
    private func say(_ said: String, afterTyping typed: Bool) {
        countWhenPaused?.cancel()
        if typed {
            countWhenPaused = library.lifetime.after(milliseconds: Self.typingPause) { [weak self] in
                self?.view.searchDescription = said
            }
        } else {
            view.searchDescription = said
        }
    }

    /// What waits for the list: an entry to select, the focus.
    private func settle() {
        if let id = selectWhenLoaded {
            selectWhenLoaded = nil
            view.select(id: id)
        }
        if focusListWhenLoaded && isShowing {
            focusListWhenLoaded = false
            // An empty library has no list to focus: the search field takes focus, and
            // says the library is empty.
            if view.entries.isEmpty { view.focusSearch() } else { view.focusList() }
        }
    }

    /// The list shown as it was left is the one to show.
    private func shownAsLeft() {
        settle()
        onShown?()
    }

    /// An entry updated in the form: shown selected.
    func select(_ entry: CaptionLibrary.Entry) {
        view.select(id: entry.id)
    }

    /// The view is about to show after an edit: `entry` is selected now and once the list
    /// has loaded again.
    func selectWhenShown(_ entry: CaptionLibrary.Entry) {
        selectWhenLoaded = entry.id
        view.select(id: entry.id)
    }

    private func edit(_ entry: CaptionLibrary.Entry) {
        guard library.isServer else {
            guard let path = library.photoPath(of: entry) else { return }
            onEdit?(entry, path)
            return
        }
        // A server's photo may have to come over the network first: not on this thread.
        library.perform(
            { library in library.photoPath(of: entry) },
            completion: { [weak self] result in
                guard let self, case .success(let path?) = result else { return }
                self.onEdit?(entry, path)
            })
    }

    // MARK: Deleting

    /// The entry leaves the list at once and the library when its notification goes;
    /// Undo brings it back untouched.
    private func delete(_ entry: CaptionLibrary.Entry) {
        pendingDeletions.append(entry)
        view.removeRow(of: entry)
        notification.show(
            tr("Deleted “{title}”").replacing("{title}", with: entry.title), button: .undo,
            action: { [weak self] in
                guard let self else { return }
                self.pendingDeletions.removeAll { $0.id == entry.id }
                self.selectWhenLoaded = entry.id
                self.reload()
                self.notification.show(tr("“{title}” is back in the library").replacing("{title}", with: entry.title))
            },
            gone: { [weak self] in self?.commitDeletion(of: entry) })
    }

    private func commitDeletion(of entry: CaptionLibrary.Entry) {
        guard pendingDeletions.contains(where: { $0.id == entry.id }) else { return }
        library.perform(
            { library throws(LibraryError) in try library.remove(id: entry.id) },
            completion: { [weak self] result in
                guard let self else { return }
                self.pendingDeletions.removeAll { $0.id == entry.id }
                switch result {
                // With its words as the library held them when it went.
                case .success(let removed): self.onRemoved?(removed)
                case .failure(let error): self.messages.show(problem: error.message)
                }
            })
    }
}
