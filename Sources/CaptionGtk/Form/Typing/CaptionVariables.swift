// The caption variables on the form: what the photo on it says about itself (its Exif,
// wherever its format keeps it, read off the main thread when it arrives), the expansion
// of {date}, {camera}… shown under a field that holds one, and the words as they will be
// saved (Shorthand.Variables expands).

import CaptionLibrary
import CaptionMetadata
import CaptionQueue
import Dispatch
import Localization
import PhotoFormats
import PlaceNames
import Shorthand

@MainActor
final class CaptionVariables {
    /// The window's: facts read after it ended are dropped.
    private let lifetime: Lifetime

    init(lifetime: Lifetime) {
        self.lifetime = lifetime
    }

    /// The Exif of the photo on the form, once read; nil while it is being read.
    private(set) var capture: (path: String, facts: CaptureFacts)?
    /// The city the photo on the form was taken in, by its GPS position, once looked up.
    private(set) var place: (path: String, place: Place?)?
    /// Whether places are looked up: from the first frame on (GeoNames is opened, and its
    /// index made, on a worker thread, never before the window is drawn).
    var readsPlaces = false
    /// The creator the photo on the form names itself, read with its Exif: the standing
    /// credits of authorship are not written into another creator's photo.
    private(set) var creator: (path: String, name: String?)?
    /// Whether photos' creators are read: only where standing credits of authorship would
    /// be left out of another creator's photo, and only once the window is drawn (reading
    /// XMP opens exempi, which start-up leaves until after the first frame).
    var readsCreator = false
    /// The facts arrived: the form shows the expansion again.
    var onFacts: (() -> Void)?

    /// Reads the photo's Exif off the main thread; `isCurrent` says whether it is still
    /// the photo on the form when the answer comes.
    func read(_ path: String, isCurrent: @escaping @MainActor () -> Bool) {
        capture = nil
        creator = nil
        place = nil
        let readsCreator = self.readsCreator
        let readsPlaces = self.readsPlaces
        DispatchQueue.global(qos: .userInitiated).async {
            let facts = Self.facts(at: path)
            let place = readsPlaces ? PlaceNames.place(of: facts) : nil
            let creator = readsCreator ? PhotoCredits.creator(ofPhotoAt: path) : nil
            self.lifetime.post { [weak self] in
                guard let self, isCurrent() else { return }
                self.capture = (path, facts)
                if readsPlaces { self.place = (path, place) }
                if readsCreator { self.creator = (path, creator) }
                self.onFacts?()
            }
        }
    }

    /// Looks up the place of the photo on the form alone: the window was drawn after the
    /// photo came.
    func readPlace(_ path: String, isCurrent: @escaping @MainActor () -> Bool) {
        DispatchQueue.global(qos: .userInitiated).async {
            let place = PlaceNames.place(of: Self.facts(at: path))
            self.lifetime.post { [weak self] in
                guard let self, isCurrent() else { return }
                self.place = (path, place)
                self.onFacts?()
            }
        }
    }

    /// Reads the creator of the photo on the form alone: the need came after the photo did.
    func readCreator(_ path: String, isCurrent: @escaping @MainActor () -> Bool) {
        DispatchQueue.global(qos: .userInitiated).async {
            let creator = PhotoCredits.creator(ofPhotoAt: path)
            self.lifetime.post { [weak self] in
                guard let self, isCurrent() else { return }
                self.creator = (path, creator)
                self.onFacts?()
            }
        }
    }

    /// The creator the photo at `path` names, once read.
    func creator(path: String) -> String? {
        guard let creator, creator.path == path else { return nil }
        return creator.name
    }

    /// What the variables of the photo at `path` stand for, read now if the read on its way
    /// has not answered yet: a save takes the words as they are at its key.
    func readNow(path: String, position: Int?) -> PhotoFacts? {
        if capture?.path != path { capture = (path, Self.facts(at: path)) }
        if readsPlaces, place?.path != path, let facts = capture?.facts { place = (path, PlaceNames.place(of: facts)) }
        return facts(path: path, position: position)
    }

    /// What the camera recorded, wherever the photo's format keeps it.
    nonisolated static func facts(at path: String) -> CaptureFacts { CaptureFactsReader.facts(at: path) }

    /// What the variables of the photo at `path` stand for; nil until its Exif is read.
    func facts(path: String, position: Int?) -> PhotoFacts? {
        guard let capture, capture.path == path else { return nil }
        // A place still being looked up is not "no place": the facts are not all read yet.
        if readsPlaces && place?.path != path { return nil }
        let found = place?.path == path ? place?.place : nil
        return PhotoFacts(capture: capture.facts, place: found, fileName: PhotoQueue.name(of: path), position: position)
    }

    /// `text` as it will be saved, or the message saying why it cannot be.
    static func expand(_ text: String, facts: PhotoFacts?) -> Result<String, Message> {
        guard Variables.appear(in: text) else { return .success(text) }
        guard let facts else { return .failure(Message(text: tr("The photo's details are still being read"))) }
        switch Variables.expand(text, facts: facts) {
        case .success(let expanded): return .success(expanded)
        case .failure(.unknown(let name)):
            return .failure(
                Message(
                    text: fill(tr("Unknown variable {{name}}: use {names}"), ["names": Variables.typedNames])
                        .replacing("{{name}}", with: "{" + name + "}")))
        case .failure(.missing(let name)):
            return .failure(
                Message(
                    text: tr("This photo has no value for {{name}}").replacing("{{name}}", with: "{" + name + "}")))
        }
    }

    struct Message: Error, Equatable {
        let text: String
    }
}
