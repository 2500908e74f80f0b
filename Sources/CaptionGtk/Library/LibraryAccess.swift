// The library as the window uses it: opened lazily, and only ever touched on one background
// queue, so a slow disk, a locked database or a distant server never freezes the window.

import CaptionLibrary
import Dispatch
import Threads

final class LibraryAccess: @unchecked Sendable {
    /// The library's folder, or its server's address.
    let location: String
    /// The window's: its answers are dropped once the window has ended.
    let lifetime: Lifetime
    private let queue = DispatchQueue(label: "io.github.caption_app.Caption.library")
    /// Where a lost listener of a server's notices is made again.
    private let listenerQueue = DispatchQueue(label: "io.github.caption_app.Caption.listener")
    /// Touched only on `queue`: that is what makes this class safe to share.
    private var opened: Library?
    /// The same library once open, for finding photos from other threads (a server's are
    /// fetched into this machine's cache when first needed).
    private let shared = Locked<Library?>(nil)

    /// This window, as the other editors of a shared library know it. Made when first
    /// needed: finding the person's name reads the account database, which a folder
    /// library never needs, least of all before the first frame.
    @MainActor private(set) lazy var editor = Editor.here()
    /// Who saves, for a library that has other editors; none for a folder library.
    @MainActor var claimant: Editor? { isServer ? editor : nil }

    init(location: String?, lifetime: Lifetime) {
        self.location = location ?? Library.defaultDirectory()
        self.lifetime = lifetime
    }

    var isServer: Bool { Library.isServer(location) }

    /// Where drafts are kept: beside a folder library, and for a library on a server in
    /// this machine's own library folder, since what is typed and not saved is no one
    /// else's.
    var draftsDirectory: String { isServer ? Library.defaultDirectory() : location }

    /// Runs `work` against the open library on the library queue, then hands its result to
    /// `completion` on the main thread, while the window lives: the work itself (a save)
    /// is always done.
    func perform<Value: Sendable>(
        _ work: @escaping @Sendable (Library) throws(LibraryError) -> Value,
        completion: @escaping @Sendable @MainActor (Result<Value, LibraryError>) -> Void
    ) {
        queue.async { [self] in
            let result: Result<Value, LibraryError>
            do throws(LibraryError) {
                result = .success(try work(try openedLibrary()))
            } catch {
                result = .failure(error)
            }
            lifetime.post { completion(result) }
        }
    }

    /// Runs `work` against the open library on the library queue and waits for it, after
    /// everything queued before it. Only for an answer a key needs before the next key is
    /// handled (Ctrl+D with nothing saved in this window yet): the window waits, and the
    /// keys typed meanwhile wait in order behind it.
    func performAndWait<Value: Sendable>(
        _ work: @escaping @Sendable (Library) throws(LibraryError) -> Value
    ) -> Result<Value, LibraryError> {
        queue.sync { [self] in
            do throws(LibraryError) {
                return .success(try work(try openedLibrary()))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Runs `step` on the library queue again and again, each time behind whatever was
    /// queued meanwhile, until it returns true or fails: long work (the search index) that
    /// a save or a page of the list waits on for one step only. The steps follow each
    /// other on the queue itself, not through the main thread, so a busy main loop does
    /// not hold them up.
    func performInSteps(_ step: @escaping @Sendable (Library) throws(LibraryError) -> Bool) {
        queue.async { [self] in
            do throws(LibraryError) {
                if try !step(try openedLibrary()) { performInSteps(step) }
            } catch {
                return
            }
        }
    }

    /// The library, opened on first use. Called on the library queue only.
    private func openedLibrary() throws(LibraryError) -> Library {
        if let opened { return opened }
        let library = try Library.open(location)
        opened = library
        shared.withLock { $0 = library }
        listen(to: library)
        return library
    }

    /// Where an entry's photo is, or nil for a row that names anything else. For a library
    /// on a server this may fetch the photo: call it off the main thread.
    func photoPath(of entry: Entry) -> String? {
        guard isServer else { return Library.photoPath(of: entry, in: location) }
        return shared.withLock { $0 }?.photoPath(of: entry)
    }

    // MARK: Other editors' commits

    /// Called on the main thread when another editor (or program) committed to a library on
    /// a server, as the server tells it: no one polls. Touched on the main thread only.
    @MainActor private var othersCommitted: [@MainActor () -> Void] = []
    /// Whether the server's notices are heard now; while they are not (a folder library,
    /// or the listener lost), those who follow the library ask it instead.
    @MainActor private(set) var hearsOthers = false

    /// `body` runs each time another editor commits, while notices are heard.
    @MainActor func whenOthersCommit(_ body: @escaping @MainActor () -> Void) {
        othersCommitted.append(body)
    }

    /// On the library's queue as it opens (on the listener's queue after): a listener for
    /// a server library, its socket
    /// then watched by the main loop. While a listener cannot be made, or after it is lost
    /// (the server restarted, the network went), the followers ask, as for a folder, and a
    /// new listener is tried every `relistenSeconds` until one stands.
    private func listen(to library: Library) {
        guard isServer else { return }
        guard let notices = try? library.changeNotices() else {
            lifetime.post { [self] in relistenLater(library) }
            return
        }
        lifetime.post { [self] in
            hearsOthers = true
            // What was committed while no one listened is news too.
            othersCommitted.forEach { $0() }
            lifetime.whenReadable(notices.fileDescriptor) { [self] in
                guard let news = notices.othersCommitted() else {
                    hearsOthers = false
                    relistenLater(library)
                    return false
                }
                if news { othersCommitted.forEach { $0() } }
                return true
            }
        }
    }

    /// How long a lost listener waits before it is made again: the followers ask the
    /// library meanwhile, so nothing is missed, only heard later.
    static let relistenSeconds: UInt32 = 2

    @MainActor private func relistenLater(_ library: Library) {
        _ = lifetime.after(milliseconds: Self.relistenSeconds * 1000) { [self] in
            // Not on the library's queue: a connection to a server that is away may take
            // its time to fail, and saves must not wait behind it.
            listenerQueue.async { [self] in listen(to: library) }
        }
    }

    /// Waits for everything queued so far; tests use it, and so does quitting, so that a
    /// save in flight is never cut off.
    func drain() {
        queue.sync {}
    }
}
