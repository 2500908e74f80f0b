// The form's state as a draft and back: the queue with the words typed for each photo, and
// words typed before any photo was chosen ("loose" words).

import CaptionLibrary
import CaptionQueue
import CaptionText

extension Draft {
    /// `words` are what the form shows, kept for the current photo (or as loose words when
    /// there is none); nil while the form shows a saved entry being edited.
    init(_ queue: PhotoQueue, words: CaptionWords?) {
        var queue = queue
        if let words { queue.keep(words) }
        var items = queue.photos.map { DraftItem(path: $0.path, words: $0.words) }
        guard let current = queue.current else {
            items.append(DraftItem(path: nil, words: words ?? .empty))
            self.init(items: items, current: items.count - 1)
            return
        }
        self.init(items: items, current: current)
    }

    /// The queue this draft holds, and its loose words when no photo is current.
    var queueAndLooseWords: (PhotoQueue, CaptionWords?) {
        let photos = items.enumerated().compactMap { index, item in
            item.path.map { (index, QueuedPhoto(path: $0, words: item.words)) }
        }
        let current = photos.firstIndex { $0.0 == self.current }
        let queue = PhotoQueue(photos: photos.map(\.1), current: current)
        guard current == nil else { return (queue, nil) }
        return (queue, items[self.current].words)
    }
}
