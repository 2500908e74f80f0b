// Where the completion offers come from: the library's titles and subtitles, read once at
// start and then kept in step with it. The form's own saves and undos are applied as they
// happen (CompletionOffers.record, forget); an entry updated or deleted from the library
// view is applied here; and when another process (another Caption, `caption --add`) has
// written to the library, the offers are read again, off the main thread. That is noticed
// by the library's data version, asked after a field takes the focus (once its frame is
// drawn) and, while typing, at most once a second (the keys typed within the second are
// followed by one check as it ends): no timer runs while nobody types.

import CGtk
import CaptionLibrary
import CaptionText
import FocusEngine

@MainActor
final class CompletionSource {
    private let offers: CompletionOffers
    private let library: LibraryAccess
    /// The library's data version the offers were read at. SQLite's `PRAGMA data_version`
    /// changes with other connections' commits only: this window's own are applied as they
    /// happen, so they never cause a read.
    private var readAt: Int64?
    /// A check (and perhaps a read) is on its way: no second one meanwhile.
    private var checking = false
    /// When the last check was asked for (GLib's monotonic clock, microseconds).
    private var lastCheck = 0
    /// While typing, the library is asked at most this often (microseconds).
    static let typingInterval = 1_000_000
    /// Tests wait on this: a check finished, and whether it read the library again.
    var onChecked: ((Bool) -> Void)?

    init(offers: CompletionOffers, library: LibraryAccess, entries: [TextEntry]) {
        self.offers = offers
        self.library = library
        for entry in entries {
            // Enter moves the focus, and its frame is what a person waits for: the check
            // goes after it, at low priority, so that the key's repaint never carries it.
            entry.connect(.notify("has-focus")) { [weak self] _ in
                guard entry.hasFocus else { return }
                library.lifetime.post(priority: G_PRIORITY_LOW) { self?.check() }
            }
            entry.connect(.changed) { [weak self] in self?.checkWhileTyping() }
        }
        // A server library tells of other editors' commits: the offers follow at once,
        // and typing need not ask.
        library.whenOthersCommit { [weak self] in self?.check() }
    }

    /// Whether the offers are being followed: not before `load`, which waits for the
    /// window's first frame, so that a field taking the focus does not read them earlier.
    private var loading = false

    /// Reads every earlier title and subtitle, on the library's queue.
    func load() {
        loading = true
        check()
    }

    /// A check asked for by typing too soon after the last one, due when the interval ends.
    private var deferred: SourceHandle?

    /// Typing: the library is asked at once if the interval has passed, else when it ends,
    /// so that the last keys typed are followed too.
    private func checkWhileTyping() {
        guard !library.hearsOthers else { return }
        let since = MainThread.monotonicMicroseconds - lastCheck
        guard since < Self.typingInterval else { return check() }
        guard deferred?.isActive != true else { return }
        let wait = UInt32((Self.typingInterval - since) / 1000) + 1
        deferred = library.lifetime.after(milliseconds: wait) { [weak self] in self?.check() }
    }

    /// Asks the library whether another process changed it since the offers were read; if
    /// so (or they never were), reads them again. The data version is read before the
    /// values, so a commit between the two is read again next time rather than missed.
    func check() {
        deferred?.cancel()
        guard loading, !checking else { return }
        checking = true
        lastCheck = MainThread.monotonicMicroseconds
        let known = readAt
        let fields = offers.fields
        library.perform(
            { library throws(LibraryError) -> (Int64, [CaptionField: CompletionIndex])? in
                let version = try library.changeCounter()
                if version == known { return nil }
                var indexes: [CaptionField: CompletionIndex] = [:]
                for field in fields { indexes[field] = CompletionIndex(try library.usage(of: field)) }
                return (version, indexes)
            },
            completion: { [weak self] result in
                guard let self else { return }
                self.checking = false
                // Without the library's words the form still works: the offers stay as they are.
                guard case .success(let read?) = result else {
                    self.onChecked?(false)
                    return
                }
                // Every save or undo whose completion ran before this one is in what was
                // read; those after it are applied on top, in the library queue's order.
                self.readAt = read.0
                self.offers.use(read.1)
                self.onChecked?(true)
            })
    }

    /// The form shows a field it had no offers for: they are read with the next check.
    func readAgain() {
        readAt = nil
        check()
    }

    /// An entry was updated from the library view (opened in the form, Done): its old words
    /// are one use fewer, its new words one use more, now.
    func updated(from old: Entry, to new: Entry) {
        offers.forget(old.words)
        offers.record(new.words)
    }

    /// An entry deleted from the library view has left the library (its Undo expired).
    func removed(_ entry: Entry) {
        offers.forget(entry.words)
    }
}
