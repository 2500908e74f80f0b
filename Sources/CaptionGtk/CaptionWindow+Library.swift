// The window's library view: switching to it, loading and searching entries off the main
// thread, keeping up with other processes, editing an entry in the form, and deleting with
// Undo (the entry leaves the library only once its notification has gone).

import CGtk
import CaptionLibrary
import FocusEngine
import Localization

extension CaptionWindow {
    func installLibraryView() {
        onPointerSignal(views, "notify::visible-child", after: true) { [weak self] _ in self?.viewChanged() }
    }

    /// The library view, made on first use rather than with the window: its list, search
    /// and their styles would otherwise cost the first paint some 10 ms for a view that is
    /// not shown. Its page holds nothing until then.
    func makeLibraryView() -> LibraryView {
        let libraryView = LibraryView()
        libraryView.photoPath = { [weak self] entry in
            guard let self else { return nil }
            return self.library.photoPath(of: entry)
        }
        libraryView.onSearch = { [weak self] _ in self?.reloadLibrary() }
        libraryView.onNeedMore = { [weak self] in self?.loadMoreLibrary() }
        libraryView.onActivate = { [weak self] entry in self?.edit(entry) }
        libraryView.onDelete = { [weak self] entry in self?.delete(entry) }
        libraryView.onEscape = { [weak self] in self?.escapeFromLibrary() }
        gtk_box_pack_start(caption_box(libraryPage), libraryView.widget, 1, 1, 0)
        gtk_widget_show_all(libraryView.widget)
        return libraryView
    }

    public var isShowingLibrary: Bool {
        gtk_stack_get_visible_child_name(caption_stack(views)).map { String(cString: $0) } == "library"
    }

    /// Shows the library with the list focused (or, `searching`, the search).
    public func showLibrary(searching: Bool = false) {
        gtk_stack_set_visible_child_name(caption_stack(views), "library")
        if searching {
            focusListWhenLoaded = false
            libraryView.focusSearch()
        } else {
            focusListWhenLoaded = true
            libraryView.focusList()
        }
    }

    /// Escape clears the search first, then goes back to the form.
    func escapeFromLibrary() {
        if libraryView.searchText.isEmpty {
            showForm()
        } else {
            libraryView.clearSearch()
        }
    }

    public func showForm() {
        gtk_stack_set_visible_child_name(caption_stack(views), "form")
        focus(engine.focus)
    }

    func toggleLibrary() {
        if isShowingLibrary { showForm() } else { showLibrary() }
    }

    /// Loads when the view appears, and watches the library while it shows: another
    /// Caption or `caption --add` may add to it at any time.
    private func viewChanged() {
        refresh()
        if isShowingLibrary {
            reloadLibrary()
            guard libraryPoll == 0 else { return }
            libraryPoll = g_timeout_add_seconds_full(G_PRIORITY_DEFAULT_IDLE, 1, { data in
                guard let data else { return 0 }
                let window = Unmanaged<WeakWindow>.fromOpaque(data).takeUnretainedValue()
                nonisolated(unsafe) let held = window
                return MainActor.assumeIsolated { held.window?.pollLibrary() ?? false } ? 1 : 0
            }, Unmanaged.passRetained(WeakWindow(self)).toOpaque(), { data in
                guard let data else { return }
                Unmanaged<WeakWindow>.fromOpaque(data).release()
            })
        } else if libraryPoll != 0 {
            g_source_remove(libraryPoll)
            libraryPoll = 0
        }
    }

    /// Whether to keep polling.
    private func pollLibrary() -> Bool {
        guard isShowingLibrary else {
            libraryPoll = 0
            return false
        }
        let known = libraryCounter
        library.perform({ library throws(LibraryError) in try library.changeCounter() }, completion: { [weak self] result in
            guard let self, case .success(let counter) = result, counter != known else { return }
            self.reloadLibrary()
        })
        return true
    }

    /// Loads the first page of the entries that match the search, newest first, as
    /// `caption --list` lists them; the rest come a page at a time (`loadMoreLibrary`).
    /// Each call supersedes the one before: a query overtaken before it ran is skipped on
    /// the library queue, and the result of one overtaken after is dropped here.
    public func reloadLibrary() {
        let query = libraryView.searchText
        let searches = libraryView.searches
        let ticket = searches.next()
        library.perform({ library throws(LibraryError) -> (Int64, Listing, [Entry])? in
            guard searches.isCurrent(ticket) else { return nil }
            var listing = try library.listing(matching: query)
            let page = try listing.nextPage(from: library, limit: LibraryView.firstPageSize)
            return (try library.changeCounter(), listing, page)
        }, completion: { [weak self] result in
            guard let self, searches.isCurrent(ticket) else { return }  // a newer search is on its way
            switch result {
            case .success(nil):
                return
            case .success(let (counter, listing, entries)?):
                self.libraryCounter = counter
                let hidden = Set(self.pendingDeletions.map(\.id))
                let shown = entries.filter { !hidden.contains($0.id) }
                let empty = query.isEmpty ? tr("No captions yet — saved photos appear here")
                                          : tr("Nothing matches “{search}”").replacing("{search}", with: query)
                self.libraryView.show(shown, emptyText: empty, listing: listing)
                if let id = self.selectWhenLoaded {
                    self.selectWhenLoaded = nil
                    self.libraryView.select(id: id)
                }
                if self.focusListWhenLoaded && self.isShowingLibrary && !shown.isEmpty {
                    self.focusListWhenLoaded = false
                    self.libraryView.focusList()
                }
                self.onLibraryShown?()
                if query.isEmpty { self.prepareSearch() }
            case .failure(let error):
                self.libraryView.show([], emptyText: error.message)
                self.onLibraryShown?()
            }
        })
    }

    /// Makes the search index (about 0.1 s for 100,000 entries; only after a change) while
    /// the user looks at the list, so that the first key typed into the search finds it
    /// ready.
    private func prepareSearch() {
        library.perform({ library throws(LibraryError) in _ = try library.searchIndex() }, completion: { _ in })
    }

    /// The next page of the list, appended when it arrives (unless a newer search has
    /// replaced the list meanwhile).
    func loadMoreLibrary() {
        guard let start = libraryView.listing, !start.isComplete, !libraryView.loadingMore else { return }
        libraryView.loadingMore = true
        let searches = libraryView.searches
        let ticket = searches.current
        let limit = libraryView.loadsEagerly ? LibraryView.endPageSize : LibraryView.pageSize
        library.perform({ library throws(LibraryError) -> (Listing, [Entry]) in
            var listing = start
            let page = try listing.nextPage(from: library, limit: limit)
            return (listing, page)
        }, completion: { [weak self] result in
            guard let self, searches.isCurrent(ticket) else { return }
            guard case .success(let (listing, entries)) = result else {
                self.libraryView.loadingMore = false
                return
            }
            let hidden = Set(self.pendingDeletions.map(\.id))
            self.libraryView.append(entries.filter { !hidden.contains($0.id) }[...], listing: listing)
            self.onLibraryPage?()
        })
    }

    // MARK: For benchmarks: the view's list and search, from outside the module

    public var libraryList: UnsafeMutablePointer<GtkWidget> { libraryView.treeView }
    public var libraryRowCount: Int { libraryView.entries.count }
    public var librarySelectedRow: Int? { libraryView.selectedRow }
    /// Whether every page of the list is in.
    public var libraryListComplete: Bool { !libraryView.hasMore }
    /// Called after each further page is appended (benchmarks and tests wait for it).
    public var onLibraryPage: (@MainActor () -> Void)? {
        get { LibraryPageHook.of(self).body }
        set { LibraryPageHook.of(self).body = newValue }
    }
    public func searchLibrary(_ text: String) {
        gtk_entry_set_text(caption_entry(libraryView.searchEntry), text)
    }

    // MARK: Editing

    /// Opens a saved entry in the form: the same fields and the same Enter; Done updates it.
    func edit(_ entry: Entry) {
        guard let path = library.photoPath(of: entry) else { return }
        if editing == nil {
            queue.keep(title: text(of: titleEntry), subtitle: text(of: subtitleEntry))
        }
        editing = (entry, path)
        send(.clear)
        setText(titleEntry, entry.title)
        setText(subtitleEntry, entry.subtitle)
        load(path)
        gtk_header_bar_set_subtitle(caption_header_bar(header),
                                    tr("Editing “{title}”").replacing("{title}", with: entry.title))
        showForm()
        // The photo is already in the library, so everything is complete: Enter goes on
        // through the fields and Done updates.
        focus(CaptionForm.title)
    }

    /// The update is in the library: back to the queue's photo and to the library view.
    func edited(_ entry: Entry) {
        editing = nil
        showCurrentPhoto()
        if queue.currentPhoto == nil { refreshPosition() }
        notification.show(tr("Updated “{title}”").replacing("{title}", with: entry.title)) {}
        showLibrary()
        libraryView.select(id: entry.id)
    }

    // MARK: Deleting

    /// The entry leaves the list at once and the library when its notification goes;
    /// Undo brings it back untouched.
    func delete(_ entry: Entry) {
        pendingDeletions.append(entry)
        libraryView.removeRow(of: entry)
        notification.show(tr("Deleted “{title}”").replacing("{title}", with: entry.title), action: { [weak self] in
            guard let self else { return }
            self.pendingDeletions.removeAll { $0.id == entry.id }
            self.selectWhenLoaded = entry.id
            self.reloadLibrary()
        }, gone: { [weak self] in
            self?.commitDeletion(of: entry)
        })
    }

    func commitDeletion(of entry: Entry) {
        guard pendingDeletions.contains(where: { $0.id == entry.id }) else { return }
        library.perform({ library throws(LibraryError) in try library.remove(id: entry.id) },
                        completion: { [weak self] result in
            guard let self else { return }
            self.pendingDeletions.removeAll { $0.id == entry.id }
            if case .failure(let error) = result {
                self.saveError = error.message
                self.refresh()
            }
        })
    }

    /// Quitting ends every notification: what was deleted goes now.
    public func commitPendingDeletions() {
        notification.hide()
        library.drain()
    }
}

/// A weak reference for a GLib source that must not keep the window alive.
final class WeakWindow {
    weak var window: CaptionWindow?
    init(_ window: CaptionWindow) { self.window = window }
}

/// `onLibraryPage`, kept on the window widget (GObject data) rather than as a stored
/// property of the window, whose code is being reorganised.
@MainActor
final class LibraryPageHook {
    var body: (@MainActor () -> Void)?
    private static let key = "caption-library-page-hook"

    static func of(_ window: CaptionWindow) -> LibraryPageHook {
        if let data = g_object_get_data(caption_object(window.window), key) {
            return Unmanaged<LibraryPageHook>.fromOpaque(data).takeUnretainedValue()
        }
        let hook = LibraryPageHook()
        let release: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<LibraryPageHook>.fromOpaque(data).release()
        }
        g_object_set_data_full(caption_object(window.window), key, Unmanaged.passRetained(hook).toOpaque(), release)
        return hook
    }
}
