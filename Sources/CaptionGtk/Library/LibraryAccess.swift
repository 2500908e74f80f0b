// The library as the window uses it: opened lazily, and only ever touched on one background
// queue, so a slow disk or a locked database never freezes the window.

import CaptionLibrary
import Dispatch

final class LibraryAccess: @unchecked Sendable {
    let directory: String
    /// The window's: its answers are dropped once the window has ended.
    let lifetime: Lifetime
    private let queue = DispatchQueue(label: "io.github.caption_app.Caption.library")
    /// Touched only on `queue`: that is what makes this class safe to share.
    private var opened: Library?

    init(directory: String?, lifetime: Lifetime) {
        self.directory = directory ?? Library.defaultDirectory()
        self.lifetime = lifetime
    }

    /// Runs `work` against the open library on the library queue, then hands its result to
    /// `completion` on the main thread, while the window lives: the work itself (a save)
    /// is always done.
    func perform<Value: Sendable>(
        _ work: @escaping @Sendable (Library) throws(LibraryError) -> Value,
        completion: @escaping @Sendable @MainActor (Result<Value, LibraryError>) -> Void
    ) {
        queue.async { [self] in
            let result: Result<Value, LibraryError>
            do throws(LibraryError) {
                let library: Library
                if let opened {
                    library = opened
                } else {
                    library = try Library(directory: directory)
                    opened = library
                }
                result = .success(try work(library))
            } catch {
                result = .failure(error)
            }
            lifetime.post { completion(result) }
        }
    }

    /// Where an entry's photo is, or nil for a row that names anything else.
    func photoPath(of entry: Entry) -> String? {
        Library.photoPath(of: entry, in: directory)
    }

    /// Waits for everything queued so far; tests use it, and so does quitting, so that a
    /// save in flight is never cut off.
    func drain() {
        queue.sync {}
    }
}
