// The form's state as a draft and back: the queue with the words typed for each photo, and
// words typed before any photo was chosen ("loose" words).

import CaptionLibrary
import CaptionQueue

extension Draft {
    /// `words` are what the form shows, kept for the current photo (or as loose words when
    /// there is none); nil while the form shows a saved entry being edited.
    init(_ queue: PhotoQueue, words: FormWords?) {
        var queue = queue
        if let words { queue.keep(title: words.title, subtitle: words.subtitle) }
        var items = queue.photos.map { DraftItem(path: $0.path, title: $0.title, subtitle: $0.subtitle) }
        guard let current = queue.current else {
            let loose = words ?? .empty
            items.append(DraftItem(path: nil, title: loose.title, subtitle: loose.subtitle))
            self.init(items: items, current: items.count - 1)
            return
        }
        self.init(items: items, current: current)
    }

    /// The queue this draft holds, and its loose words when no photo is current.
    var queueAndLooseWords: (PhotoQueue, FormWords?) {
        let photos = items.enumerated().compactMap { index, item in
            item.path.map { (index, QueuedPhoto(path: $0, title: item.title, subtitle: item.subtitle)) }
        }
        let current = photos.firstIndex { $0.0 == self.current }
        let queue = PhotoQueue(photos: photos.map(\.1), current: current)
        guard current == nil else { return (queue, nil) }
        let loose = items[self.current]
        return (queue, FormWords(title: loose.title, subtitle: loose.subtitle))
    }
}
