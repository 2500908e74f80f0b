// The photos waiting to be captioned, and the words typed for each, in the order given.

import CaptionText

/// A photo in the queue with whatever was typed for it so far. Its words read as its own
/// (`photo.title`).
@dynamicMemberLookup
public struct QueuedPhoto: Equatable, Sendable {
    public var path: String
    public var words: CaptionWords

    public init(path: String, words: CaptionWords = .empty) {
        self.path = path
        self.words = words
    }

    public subscript(dynamicMember field: KeyPath<CaptionWords, String>) -> String { words[keyPath: field] }
}

/// The queue the form works through. `current` is the photo on the form; skipping away keeps
/// its words here, so coming back finds them. Pure state, tested without a display.
public struct PhotoQueue: Equatable, Sendable {
    public private(set) var photos: [QueuedPhoto] = []
    public private(set) var current: Int?

    public init() {}

    /// A queue brought back from a draft; a current index out of range means none.
    public init(photos: [QueuedPhoto], current: Int?) {
        self.photos = photos
        self.current = current.flatMap { photos.indices.contains($0) ? $0 : nil }
    }

    public var currentPhoto: QueuedPhoto? { current.map { photos[$0] } }

    /// The photos either side of the current one, the next first: what a save or Ctrl+Page
    /// Down shows next, then what Ctrl+Page Up shows. Empty with no current photo.
    public var neighbours: [String] {
        guard let current else { return [] }
        return [current + 1, current - 1].filter(photos.indices.contains).map { photos[$0].path }
    }

    /// "2 of 5", or nil while there is at most one photo (nothing to count).
    public var position: (index: Int, count: Int)? {
        guard let current, photos.count > 1 else { return nil }
        return (current + 1, photos.count)
    }

    /// Adds photos at the end; when the form had none, the first of them becomes current.
    /// Returns true when the current photo changed.
    public mutating func append(_ paths: [String]) -> Bool {
        guard !paths.isEmpty else { return false }
        photos += paths.map { QueuedPhoto(path: $0) }
        guard current == nil else { return false }
        current = photos.count - paths.count
        return true
    }

    /// Puts a photo in place of the current one, keeping the words typed for it (the user
    /// chose another picture for the same caption); with none current, it becomes current.
    public mutating func replaceCurrent(with path: String) {
        if let current {
            photos[current].path = path
        } else {
            photos.append(QueuedPhoto(path: path))
            current = photos.count - 1
        }
    }

    /// Remembers what is typed for the current photo.
    public mutating func keep(_ words: CaptionWords) {
        guard let current else { return }
        photos[current].words = words
    }

    /// Moves to the next (`by: 1`) or previous (`by: -1`) photo; false at either end.
    public mutating func move(by step: Int) -> Bool {
        guard let current, photos.indices.contains(current + step) else { return false }
        self.current = current + step
        return true
    }

    /// Passes over the current photo (another editor has it): moves to the nearest photo
    /// in the direction of `step`, or else the other way, whose path `passing` does not
    /// hold. False, staying, when there is none.
    public mutating func moveToNearest(step: Int, passing: Set<String>) -> Bool {
        guard let current else { return false }
        let direction = step < 0 ? -1 : 1
        for way in [direction, -direction] {
            var index = current + way
            while photos.indices.contains(index) {
                if !passing.contains(photos[index].path) {
                    self.current = index
                    return true
                }
                index += way
            }
        }
        return false
    }

    /// The current photo was saved: it leaves the queue and the one after it (or, at the
    /// end, the one before) becomes current.
    public mutating func removeCurrent() {
        guard let index = current else { return }
        photos.remove(at: index)
        current = photos.isEmpty ? nil : min(index, photos.count - 1)
    }

    /// An undone save comes back as the current photo, in front of the one being worked on.
    public mutating func restore(_ photo: QueuedPhoto) {
        restore([photo])
    }

    /// Photos saved together and undone come back in front of the one being worked on, in
    /// their order, the first of them current.
    public mutating func restore(_ restored: [QueuedPhoto]) {
        guard !restored.isEmpty else { return }
        let index = current ?? photos.count
        photos.insert(contentsOf: restored, at: index)
        current = index
    }

    /// Photos whose save failed after the form moved on come back just before the photo on
    /// the form, which stays current: the words being typed there are not disturbed. With no
    /// photo on the form, the first of them becomes current. Returns true when the current
    /// photo changed.
    public mutating func putBack(_ returned: [QueuedPhoto]) -> Bool {
        guard !returned.isEmpty else { return false }
        guard let current else {
            self.current = photos.count
            photos += returned
            return true
        }
        photos.insert(contentsOf: returned, at: current)
        self.current = current + returned.count
        return false
    }

    /// Photos saved together leave the queue. The current photo, if it went, gives way to
    /// the first one left after it, or else to the last one left.
    public mutating func remove(_ paths: Set<String>) {
        var kept: [QueuedPhoto] = []
        var newCurrent: Int?
        for (index, photo) in photos.enumerated() where !paths.contains(photo.path) {
            if newCurrent == nil, let current, index >= current { newCurrent = kept.count }
            kept.append(photo)
        }
        photos = kept
        current = kept.isEmpty ? nil : (newCurrent ?? kept.count - 1)
    }

    /// The photos that have no words typed for them, besides the current one: what
    /// "Caption the rest of the queue the same" gives the current photo's words to.
    public var photosWithoutWords: [QueuedPhoto] {
        photos.enumerated().filter { index, photo in
            index != current && photo.words.isEmpty
        }.map(\.element)
    }
}

// MARK: Paths handed to the window

/// What a path handed to the window is, as far as the queue needs to know.
public enum IncomingKind: Equatable, Sendable {
    /// A photo, or a file that could not be read: its own check names the problem when it
    /// is on the form.
    case photo
    /// A file that was read and is not a photo Caption takes.
    case notPhoto
    /// A folder, with the paths of what it holds, in any order.
    case folder([String])
}

/// Paths handed to the window (a drop, a paste, Open With, `caption PHOTO…`) sorted out:
/// the photos to queue, in order, and what was left out, to be named in one message.
public struct IncomingPhotos: Equatable, Sendable {
    public var photos: [String]
    /// Files that are not photos, refused.
    public var notPhotos: [String]
    /// Photos already in the queue (the same file, by its real path), not queued again.
    public var alreadyQueued: [String]
    /// Folders that hold no photo of their own.
    public var foldersWithoutPhotos: [String]

    public init(
        photos: [String] = [], notPhotos: [String] = [], alreadyQueued: [String] = [],
        foldersWithoutPhotos: [String] = []
    ) {
        self.photos = photos
        self.notPhotos = notPhotos
        self.alreadyQueued = alreadyQueued
        self.foldersWithoutPhotos = foldersWithoutPhotos
    }

    public var leftOut: Bool { !notPhotos.isEmpty || !alreadyQueued.isEmpty || !foldersWithoutPhotos.isEmpty }
}

extension PhotoQueue {
    /// Sorts out `paths`. A folder gives the photos directly in it, by name (numbers in
    /// names by their value: 9 before 10); its subfolders, hidden files and files that are
    /// not photos are passed over. A file given itself that is not a photo is refused.
    /// `identity` gives the real path (links resolved) by which duplicates are found.
    public func sortIncoming(
        _ paths: [String], kind: (String) -> IncomingKind,
        identity: (String) -> String
    ) -> IncomingPhotos {
        var result = IncomingPhotos()
        var seen = Set(photos.map { identity($0.path) })
        func add(_ path: String) {
            if seen.insert(identity(path)).inserted {
                result.photos.append(path)
            } else {
                result.alreadyQueued.append(path)
            }
        }
        for path in paths {
            switch kind(path) {
            case .photo:
                add(path)
            case .notPhoto:
                result.notPhotos.append(path)
            case .folder(let contents):
                let visible = contents.filter { !Self.name(of: $0).hasPrefix(".") }
                let found = visible.sorted { Self.nameOrder(Self.name(of: $0), Self.name(of: $1)) }
                    .filter { kind($0) == .photo }
                if found.isEmpty { result.foldersWithoutPhotos.append(path) }
                found.forEach(add)
            }
        }
        return result
    }

    public static func name(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// File names as a file manager orders them: runs of digits by their value, the rest
    /// by character, ignoring case; `IMG_9` before `IMG_10`.
    public static func nameOrder(_ a: String, _ b: String) -> Bool {
        let fast = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right in asciiNameOrder(left, right) }
        }
        switch fast {
        case .some(.some(.some(let order))): return order == 0 ? a < b : order < 0
        default: return unicodeNameOrder(a, b)
        }
    }

    /// `nameOrder` for any names, character by character after lowering their case.
    static func unicodeNameOrder(_ a: String, _ b: String) -> Bool {
        var left = Array(a.lowercased().unicodeScalars)[...]
        var right = Array(b.lowercased().unicodeScalars)[...]
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        while let l = left.first, let r = right.first {
            if isDigit(l) && isDigit(r) {
                let leftDigits = left.prefix(while: isDigit)
                let rightDigits = right.prefix(while: isDigit)
                let leftValue = String(String.UnicodeScalarView(leftDigits.drop { $0 == "0" }))
                let rightValue = String(String.UnicodeScalarView(rightDigits.drop { $0 == "0" }))
                if leftValue.count != rightValue.count { return leftValue.count < rightValue.count }
                if leftValue != rightValue { return leftValue < rightValue }
                left = left.dropFirst(leftDigits.count)
                right = right.dropFirst(rightDigits.count)
            } else {
                if l != r { return l.value < r.value }
                left = left.dropFirst()
                right = right.dropFirst()
            }
        }
        if left.isEmpty != right.isEmpty { return left.isEmpty }
        return a < b  // equal but for case or leading zeros: a stable, total order
    }

    /// `nameOrder` read in place while both names are ASCII (a camera's always are), with
    /// no arrays made per comparison: sorting a folder of 10,000 made 40,000 of them.
    /// Negative, zero (equal but for case or leading zeros) or positive; nil once a byte
    /// outside ASCII is reached before the names differ.
    static func asciiNameOrder(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int? {
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        var i = 0
        var j = 0
        while i < left.count && j < right.count {
            let l = left[i]
            let r = right[j]
            guard l < 0x80 && r < 0x80 else { return nil }
            if isDigit(l) && isDigit(r) {
                var leftEnd = i
                while leftEnd < left.count && isDigit(left[leftEnd]) { leftEnd += 1 }
                var rightEnd = j
                while rightEnd < right.count && isDigit(right[rightEnd]) { rightEnd += 1 }
                while i < leftEnd && left[i] == 0x30 { i += 1 }
                while j < rightEnd && right[j] == 0x30 { j += 1 }
                if leftEnd - i != rightEnd - j { return leftEnd - i < rightEnd - j ? -1 : 1 }
                while i < leftEnd {
                    if left[i] != right[j] { return left[i] < right[j] ? -1 : 1 }
                    i += 1
                    j += 1
                }
            } else {
                if lowered(l) != lowered(r) { return lowered(l) < lowered(r) ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        let leftDone = i >= left.count
        let rightDone = j >= right.count
        if leftDone != rightDone { return leftDone ? -1 : 1 }
        return 0
    }
}
