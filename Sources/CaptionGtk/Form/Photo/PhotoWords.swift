// Words a photo already carries in its metadata or its sidecar, offered in the form's empty
// fields when it opens, each marked with an icon saying where they came from until changed.

import CGtk
import CaptionMetadata
import CaptionText
import Dispatch
import FocusEngine
import Localization

@MainActor
final class PhotoWords {
    private let entries: [CaptionField: TextEntry]
    /// The words put into each field from the photo, while the field still shows them.
    private var marks: [CaptionField: String] = [:]
    /// Set while the offer itself changes a field, which is not the user typing.
    var onSetText: ((TextEntry, String) -> Void)?
    /// The window's: words read after it ended are dropped.
    private let lifetime: Lifetime

    init(entries: [CaptionField: TextEntry], lifetime: Lifetime) {
        self.entries = entries
        self.lifetime = lifetime
        for (item, entry) in entries {
            // Any change that makes the text differ from the photo's words takes the mark
            // away (typing, the queue moving on, a save emptying the form).
            entry.connect(.changed) { [weak self] in
                guard let self, let words = self.marks[item], entry.text != words else { return }
                self.clear(item)
            }
        }
    }

    /// Whether the field shows words that came from the photo, untouched.
    func showsWordsFromPhoto(_ item: CaptionField) -> Bool { marks[item] != nil }

    /// The photo whose words are being read, until they are on the form.
    private var reading: (number: Int, path: String, isCurrent: @MainActor () -> Bool)?
    private var readings = 0

    /// Reads the photo's words off the main thread (a sidecar beside it
    /// first, then XMP, IPTC and Exif: `CaptionFinder`) and offers them if `isCurrent`
    /// still holds when they arrive, unless `settle` has offered them first. The read starts
    /// once the photo's frame is drawn (a low-priority turn of the main loop); until the
    /// words are on the form, a key settles them first.
    func offer(from path: String, isCurrent: @escaping @MainActor () -> Bool) {
        readings += 1
        let number = readings
        reading = (number, path, isCurrent)
        lifetime.post(priority: G_PRIORITY_LOW) { [weak self] in
            guard self?.reading?.number == number else { return }
            self?.read(path, number: number)
        }
    }

    private func read(_ path: String, number: Int) {
        DispatchQueue.global(qos: .userInitiated).async {
            let found = CaptionFinder.find(path)
            self.lifetime.post { [weak self] in
                guard let self, self.reading?.number == number else { return }
                self.arrived(found)
            }
        }
    }

    /// A key is about to reach the form: words still being read are read now and offered,
    /// so that the key lands after them, as it would have if the read had kept up. What a
    /// key does never depends on how soon a read answered.
    func settle() {
        guard let reading else { return }
        arrived(CaptionFinder.find(reading.path))
    }

    /// The words of the photo being read, found: on the form if it still shows that photo.
    private func arrived(_ found: FoundCaption) {
        guard let reading else { return }
        self.reading = nil
        guard reading.isCurrent() else { return }
        take(found.caption, from: found.origin)
    }

    /// The icon's words: where the words came from.
    static func source(_ origin: CaptionOrigin?) -> String {
        switch origin {
        case .sidecar(let path):
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return fill(tr("From the sidecar {name}"), ["name": name])
        case .iptc: return tr("From the photo's IPTC metadata")
        case .exif: return tr("From the photo's Exif description")
        case .xmp, nil: return tr("From the photo's XMP metadata")
        }
    }

    /// Every field that is empty, or still shows the words of the photo it replaced, takes
    /// the photo's words; words the user typed are never replaced.
    func take(_ caption: PhotoCaption, from origin: CaptionOrigin? = .xmp) {
        let source = Self.source(origin)
        for item in CaptionField.allCases {
            let words = caption[item]
            guard let entry = entries[item] else { continue }
            // As the form would store them: a description's line breaks become spaces.
            let offered = words.map(TextNormalization.normalize) ?? ""
            let current = entry.text
            let showsPhotoWords = marks[item] == current
            if current.isEmpty || showsPhotoWords {
                if offered.isEmpty {
                    if showsPhotoWords && !current.isEmpty { onSetText?(entry, "") }  // the old photo's words go
                    clear(item)
                } else {
                    onSetText?(entry, offered)
                    mark(item, offered, source)
                }
            } else if current == offered {
                mark(item, offered, source)
            }
        }
    }

    private func mark(_ item: CaptionField, _ words: String, _ source: String) {
        guard let entry = entries[item] else { return }
        marks[item] = words
        // The tooltip names the icon, so a screen reader says where the words came from.
        entry.setEndIcon("image-x-generic-symbolic", tooltip: source)
    }

    private func clear(_ item: CaptionField) {
        guard marks.removeValue(forKey: item) != nil, let entry = entries[item] else { return }
        entry.setEndIcon(nil, tooltip: nil)
    }
}
