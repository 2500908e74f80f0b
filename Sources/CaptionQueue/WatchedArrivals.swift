// Files appearing in a watched folder: which are worth checking and when (a file still being
// written is not), each taken once, and the order photos join the queue in.

/// What the folder's monitor reported of one file.
public enum FolderChange: Sendable, Equatable {
    /// Created or written to: more may follow.
    case written
    /// Closed after writing, or quiet for a while: it may be complete.
    case doneWriting
    /// Renamed or moved into the folder: complete, as uploaders rename a finished file.
    case movedIn
    case removed
}

/// What checking a file found.
public enum ArrivalVerdict: Sendable, Equatable {
    /// A whole photo, not captioned yet: it joins the queue.
    case taken
    /// Not whole yet (cut short, still growing): checked again when it next changes.
    case incomplete
    /// Never to be taken: not a photo, already in the library or carrying a caption.
    case passedOver
}

public struct WatchedArrivals: Sendable {
    /// Files being written, or checked: not checked again until they change once more.
    private var pending: Set<String> = []
    /// Files settled for good (taken or passed over), never checked again while they stay.
    private var settled: Set<String> = []

    public init() {}

    /// Records what the monitor said of `path`; true when the file should be checked now.
    public mutating func note(_ change: FolderChange, path: String) -> Bool {
        guard !Self.isScratch(path) else { return false }
        switch change {
        case .removed:
            pending.remove(path)
            settled.remove(path)
            return false
        case .written:
            if !settled.contains(path) { pending.insert(path) }
            return false
        case .doneWriting, .movedIn:
            guard !settled.contains(path) else { return false }
            pending.insert(path)
            return true
        }
    }

    /// A file found in the folder when watching starts (or its subfolder appears): checked
    /// unless it was settled before.
    public mutating func found(_ path: String) -> Bool {
        note(.movedIn, path: path)
    }

    /// The check's answer for `path`.
    public mutating func settle(_ path: String, as verdict: ArrivalVerdict) {
        switch verdict {
        case .taken, .passedOver:
            pending.remove(path)
            settled.insert(path)
        case .incomplete:
            break  // waits for the next change
        }
    }

    /// Whether a file is settled (taken or passed over).
    public func isSettled(_ path: String) -> Bool { settled.contains(path) }

    /// Files that are an upload's or a copy's scratch, never a photo to take: hidden files
    /// (rsync's ".name.XXXXXX", many FTP servers') and the partial-download suffixes.
    public static func isScratch(_ path: String) -> Bool {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        if name.hasPrefix(".") || name.hasSuffix("~") { return true }
        let lowered = name.lowercased()
        return [".part", ".partial", ".tmp", ".crdownload", ".filepart", ".download", ".!qb"].contains {
            lowered.hasSuffix($0)
        }
    }

    /// Photos in the order they join the queue: by the time they were taken (Exif's
    /// "2024:05:17 14:03:22", which sorts as text), those without one after those with
    /// one, then by name.
    public static func ordered(_ photos: [(path: String, captured: String?)]) -> [String] {
        photos.sorted { a, b in
            switch (a.captured, b.captured) {
            case (let x?, let y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return PhotoQueue.nameOrder(a.path, b.path)
            }
        }.map(\.path)
    }
}
