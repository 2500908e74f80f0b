// A watched folder: photos that appear in it (and, if chosen, in its subfolders) join the
// queue once they are whole, each once, in the order they were taken; photos already
// captioned are passed over, and so, silently, are files that are no photo.

import CaptionLibrary
import CaptionMetadata
import CaptionQueue
import Localization
import POSIXFiles
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// What is watched, as remembered between runs.
struct WatchSetting: Equatable {
    var folder: String
    var subfolders: Bool
}

@MainActor
final class FolderWatch {
    private(set) var setting: WatchSetting?
    private var monitors: [String: FolderMonitor] = [:]
    private var arrivals = WatchedArrivals()
    /// Files being checked now, and those that changed again meanwhile (checked once more).
    private var checking: Set<String> = []
    private var changedWhileChecked: Set<String> = []
    /// Photos taken, gathered for a moment so that a burst joins the queue in capture order.
    private var ready: [(path: String, captured: String?)] = []
    private var flush: SourceHandle?
    /// Photos that joined the queue from the folder and have not been on the form yet.
    private(set) var waiting: Set<String> = []
    /// Files changed before this moment (seconds since 1970) were there before the watch.
    private var since: Int = 0
    /// Bumped by each start and stop: answers for an earlier watch are dropped.
    private var generation = 0
    private let checks = LowPriorityQueue()
    private let library: LibraryAccess
    private let lifetime: Lifetime
    /// Said at most this often, counting everything that arrived meanwhile.
    static let announcementSeconds = 4
    private var unannounced: [String] = []
    private var lastAnnouncement = -Double.infinity
    private var announcement: SourceHandle?

    /// Photos to add to the queue, in order.
    var onArrive: (([String]) -> Void)?
    /// The number waiting changed (the header shows it).
    var onWaitingChange: (() -> Void)?
    /// The names of the photos that joined since the last announcement, in order: said for
    /// the screen reader and the eye (the window adds the queue's size).
    var onAnnounce: (([String]) -> Void)?
    /// Watching started or stopped.
    var onSettingChange: ((WatchSetting?) -> Void)?
    /// A file in the watched folder was deleted: if it is queued, it leaves.
    var onDeleted: ((String) -> Void)?
    /// The watched folder was deleted; watching has stopped.
    var onGone: ((WatchSetting) -> Void)?
    /// A file was settled (tests wait on it).
    var onSettled: ((String, ArrivalVerdict) -> Void)?

    init(library: LibraryAccess, lifetime: Lifetime) {
        self.library = library
        self.lifetime = lifetime
    }

    /// Starts watching: photos appearing from now on, and (`since`, a resumed watch) those
    /// changed since that moment. False when the folder cannot be watched.
    @discardableResult
    func start(_ setting: WatchSetting, since: Int? = nil) -> Bool {
        stop()
        // A folder that cannot be listed would be watched for ever with nothing joining.
        guard UserFiles.isFolder(setting.folder), IncomingFiles.canList(setting.folder) else { return false }
        self.setting = setting
        self.since = since ?? Self.now
        guard watch(setting.folder, depth: 0) else {
            stop()
            return false
        }
        onSettingChange?(setting)
        return true
    }

    func stop() {
        let wasWatching = setting != nil
        generation += 1
        monitors.values.forEach { $0.cancel() }
        monitors = [:]
        arrivals = WatchedArrivals()
        checking = []
        changedWhileChecked = []
        ready = []
        flush?.cancel()
        setting = nil
        if wasWatching { onSettingChange?(nil) }
    }

    /// When this watch began (seconds since 1970): after a restart, photos that arrived
    /// since then and are still not captioned or queued join again.
    var startedAt: Int { since }

    /// The form shows `path`: it is no longer waiting.
    func shown(_ path: String) {
        guard waiting.remove(path) != nil else { return }
        onWaitingChange?()
    }

    /// Subfolders deeper than this are not watched (a link loop, a whole disk chosen).
    static let deepest = 8
    static let mostFolders = 1000

    /// Watches `folder` and looks at what it holds; with subfolders, the same for each.
    private func watch(_ folder: String, depth: Int) -> Bool {
        guard monitors[folder] == nil, monitors.count < Self.mostFolders else { return true }
        let generation = generation
        guard
            let monitor = FolderMonitor(
                folder: folder,
                changed: { [weak self] path, change in
                    guard let self, self.generation == generation else { return }
                    self.changed(path, change, depth: depth)
                })
        else { return false }
        monitors[folder] = monitor
        for path in IncomingFiles.entries(of: folder) {
            if UserFiles.isFolder(path) {
                if setting?.subfolders == true && depth < Self.deepest { _ = watch(path, depth: depth + 1) }
            } else if Self.arrivedSince(since, path), arrivals.found(path) {
                check(path)
            }
        }
        return true
    }

    private func changed(_ path: String, _ change: FolderChange, depth: Int) {
        if change == .removed, let setting, path == setting.folder {
            // The watched folder itself was deleted: nothing more can arrive.
            stop()
            onGone?(setting)
            return
        }
        if change == .removed, monitors[path] != nil {
            monitors.removeValue(forKey: path)?.cancel()
        }
        if change == .removed {
            // Deleted as soon as it came (a bad frame, a tethering program moving it on): it
            // does not join, or leaves the queue, rather than wait there as "not found".
            ready.removeAll { $0.path == path }
            if waiting.remove(path) != nil { onWaitingChange?() }
            onDeleted?(path)
        }
        if change != .removed, setting?.subfolders == true, depth < Self.deepest, UserFiles.isFolder(path) {
            // A folder made or moved in: its photos are new too.
            _ = watch(path, depth: depth + 1)
            return
        }
        if arrivals.note(change, path: path) { check(path) }
    }

    /// Checks a file off the main thread: a whole photo, not growing, not captioned.
    private func check(_ path: String) {
        guard !checking.contains(path) else {
            changedWhileChecked.insert(path)
            return
        }
        checking.insert(path)
        let generation = generation
        checks.async { [lifetime] in
            let found = Self.examine(path)
            lifetime.post(to: self) { watch in
                guard watch.generation == generation else { return }
                watch.examined(path, found)
            }
        }
    }

    /// What the check thread found.
    private enum Examined: Sendable {
        case verdict(ArrivalVerdict)
        case photo(sha256: String, format: PhotoFormat, captured: String?)
    }

    private nonisolated static func examine(_ path: String) -> Examined {
        switch PhotoInspector.startsLikePhoto(path) {
        case false?: return .verdict(.passedOver)
        case nil: return .verdict(.incomplete)
        case true?: break
        }
        let sizeBefore = FileStamp(path: path)?.size
        let loaded: LoadedPhoto
        do throws(LibraryError) {
            loaded = try PhotoInspector.load(path)
        } catch {
            switch error.kind {
            // Not a photo Caption can take, however long it is waited for.
            case .notAnImage, .vectorImage, .noDecoder, .unsupportedFormat, .photoTooLarge, .photoTooManyPixels,
                .photoIsFolder, .photoNotRegular:
                return .verdict(.passedOver)
            default: return .verdict(.incomplete)
            }
        }
        // Still being written: a decoder shows a photo cut short, and a file that grew while
        // it was read is not the one that was read.
        guard !loaded.info.isIncomplete, FileStamp(path: path)?.size == sizeBefore else { return .verdict(.incomplete) }
        if CaptionFinder.find(path).origin != nil { return .verdict(.passedOver) }
        return .photo(
            sha256: loaded.sha256, format: loaded.info.format, captured: CaptureFactsReader.facts(at: path).captured)
    }

    private func examined(_ path: String, _ found: Examined) {
        switch found {
        case .verdict(let verdict): settle(path, verdict)
        case .photo(let sha256, let format, let captured):
            let generation = generation
            library.perform { library in
                library.holdsPhoto(sha256: sha256, format: format)
            } completion: { [weak self] held in
                guard let self, self.generation == generation else { return }
                // A library that cannot be opened holds nothing: the photo is offered.
                if case .success(true) = held {
                    self.settle(path, .passedOver)
                } else {
                    self.ready.append((path, captured))
                    self.settle(path, .taken)
                    self.scheduleFlush()
                }
            }
        }
    }

    private func settle(_ path: String, _ verdict: ArrivalVerdict) {
        arrivals.settle(path, as: verdict)
        checking.remove(path)
        onSettled?(path, verdict)
        if changedWhileChecked.remove(path) != nil, !arrivals.isSettled(path) { check(path) }
    }

    /// Photos join the queue a moment after the last was taken, a burst in capture order.
    private func scheduleFlush() {
        flush?.cancel()
        flush = lifetime.after(milliseconds: 300) { [weak self] in self?.flushReady() }
    }

    private func flushReady() {
        let photos = WatchedArrivals.ordered(ready)
        ready = []
        guard !photos.isEmpty else { return }
        waiting.formUnion(photos)
        onArrive?(photos)
        onWaitingChange?()
        announce(photos)
    }

    /// Said at once, or when the last announcement is old enough, for all that came
    /// meanwhile.
    private func announce(_ photos: [String]) {
        unannounced += photos.map(PhotoQueue.name(of:))
        guard announcement?.isActive != true else { return }
        let wait = lastAnnouncement + Double(Self.announcementSeconds) - Self.clock
        let say = { [weak self] in
            guard let self, !self.unannounced.isEmpty else { return }
            self.onAnnounce?(self.unannounced)
            self.unannounced = []
            self.lastAnnouncement = Self.clock
        }
        if wait <= 0 {
            say()
        } else {
            announcement = lifetime.after(milliseconds: UInt32(wait * 1000)) { say() }
        }
    }

    /// "3 new" for the header, while photos from the folder wait.
    var waitingText: String? {
        waiting.isEmpty
            ? nil : trn("{count} new", "{count} new", waiting.count).replacing("{count}", with: String(waiting.count))
    }

    private static var now: Int { Int(time(nil)) }

    private static var clock: Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Whether the file changed or arrived (its inode's change time) at or after `since`
    /// (seconds since 1970): a copy that kept its old modification time (`cp -p`, rsync)
    /// still counts as new.
    private nonisolated static func arrivedSince(_ since: Int, _ path: String) -> Bool {
        guard let stamp = FileStamp(path: path) else { return false }
        return stamp.changed / 1_000_000_000 >= Int64(since)
    }
}
