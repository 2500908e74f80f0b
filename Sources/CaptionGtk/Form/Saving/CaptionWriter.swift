// After a save, the caption into the photo file or an XMP sidecar beside it, as the primary
// menu says; the line under the form saying where this photo's caption goes; and, when the
// photo refuses, the message bar offering the sidecar.

import CaptionLibrary
import CaptionMetadata
import Localization

@MainActor
final class CaptionWriter {
    private let library: LibraryAccess
    private let messages: MessageBar
    private let label: Label
    /// nil: the library only.
    var destination: CaptionDestination?
    /// Tests wait on this: a write-back finished (written or not).
    var onWritten: ((Result<WriteBackResult, WriteBackError>) -> Void)?

    init(library: LibraryAccess, messages: MessageBar, label: Label) {
        self.library = library
        self.messages = messages
        self.label = label
    }

    /// A pasted image lives in Caption's cache: it has no folder of the user's to write to.
    static func isUsersFile(_ path: String) -> Bool {
        !path.hasPrefix(UserFiles.cacheFolder + "/caption/")
    }

    private static func name(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The line under the form: where the caption of the photo at `path` (in `format`,
    /// when known) goes on Done.
    func show(for path: String?, format: PhotoFormat?) {
        guard let path, Self.isUsersFile(path), let destination else {
            label.text = tr("Done saves the caption in Caption's library.")
            return
        }
        let name = Self.name(path)
        switch destination {
        case .photo where format?.holdsEmbeddedCaption == false:
            label.text = fill(
                tr(
                    "Done saves the caption in the library and in {sidecar} beside the photo: this photo cannot hold it."
                ),
                ["sidecar": name + ".xmp"])
        case .photo:
            label.text = fill(tr("Done saves the caption in the library and in {photo}."), ["photo": name])
        default:
            label.text = fill(
                tr("Done saves the caption in the library and in {sidecar} beside the photo."),
                ["sidecar": name + ".xmp"])
        }
    }

    /// The library remembers where the photo came from; then, unless the menu says the
    /// library only, the caption goes into the photo or beside it. `sha256` is the photo's
    /// content as it was loaded (nil: as the library remembers it).
    func saved(_ entry: Entry, from path: String, sha256: String?) {
        guard Self.isUsersFile(path) else { return }
        write(entry, from: path, sha256: sha256, to: destination)
    }

    private func write(_ entry: Entry, from path: String, sha256: String?, to destination: CaptionDestination?) {
        let caption = entry.words
        library.perform(
            { library throws(LibraryError) -> Result<WriteBackResult, WriteBackError> in
                var known = entry
                if known.source != path || sha256 != nil {
                    known = try library.setSource(id: entry.id, path: path, sha256: sha256 ?? entry.sourceSHA256)
                }
                // The library only: where the photo came from is remembered, nothing written.
                guard let destination else {
                    return .success(WriteBackResult(paths: [], sidecarInstead: false, sha256: known.sourceSHA256))
                }
                do throws(WriteBackError) {
                    let result = try WriteBack.write(
                        caption, credits: entry.credits, source: path, expectedSHA256: known.sourceSHA256,
                        to: destination, library: library)
                    if destination == .photo && !result.sidecarInstead {
                        // The photo is written; a library that cannot note its new content
                        // only makes the next write-back skip it as changed.
                        _ = try? library.setSource(id: entry.id, path: path, sha256: result.sha256)
                    }
                    return .success(result)
                } catch {
                    return .failure(error)
                }
            },
            completion: { [weak self] outcome in
                guard let self else { return }
                switch outcome {
                case .failure(let error):
                    self.messages.show(problem: error.message)
                case .success(.failure(let error)):
                    self.refused(error, entry: entry, path: path)
                    self.onWritten?(.failure(error))
                case .success(.success(let result)):
                    self.onWritten?(.success(result))
                }
            })
    }

    /// The photo was left as it was: the bar says why, that the library has the caption,
    /// and offers the sidecar where one can help.
    private func refused(_ error: WriteBackError, entry: Entry, path: String) {
        let problem = error.message + " " + tr("The caption is saved in the library.")
        guard destination == .photo && error.sidecarMayHelp && error.kind != .changed else {
            return messages.show(problem: problem)
        }
        messages.show(problem: problem, actionLabel: tr("Write a _Sidecar")) { [weak self] in
            self?.write(entry, from: path, sha256: nil, to: .sidecar)
        }
    }
}
