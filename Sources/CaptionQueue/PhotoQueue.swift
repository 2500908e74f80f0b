// The photos waiting to be captioned, and the words typed for each, in the order given.

/// A photo in the queue with whatever was typed for it so far.
public struct QueuedPhoto: Equatable, Sendable {
    public var path: String
    public var title: String
    public var subtitle: String

    public init(path: String, title: String = "", subtitle: String = "") {
        self.path = path
        self.title = title
        self.subtitle = subtitle
    }
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
    public mutating func keep(title: String, subtitle: String) {
        guard let current else { return }
        photos[current].title = title
        photos[current].subtitle = subtitle
    }

    /// Moves to the next (`by: 1`) or previous (`by: -1`) photo; false at either end.
    public mutating func move(by step: Int) -> Bool {
        guard let current, photos.indices.contains(current + step) else { return false }
        self.current = current + step
        return true
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
        let index = current ?? photos.count
        photos.insert(photo, at: index)
        current = index
    }
}
