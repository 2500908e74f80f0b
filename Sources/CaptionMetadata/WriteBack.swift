// One saved caption into the photo file it came from, or into a sidecar beside it: what the
// command line's --write-back and the window's "also in the photo" share.

import CaptionLibrary
import CaptionText

/// Where a caption goes besides Caption's library, one choice for every way out: the
/// window's menu (nil there is the library only), `--add`, `--write-back`, and an export
/// (into the photos' copies, or into sidecars beside them).
public enum CaptionDestination: String, Sendable, CaseIterable {
    /// Into the photo file itself.
    case photo
    /// Into an XMP sidecar beside the photo.
    case sidecar
}

/// What a write-back did.
public struct WriteBackResult: Sendable, Equatable {
    /// The files written: the photo, or the sidecars.
    public var paths: [String]
    /// The caption was to go into the photo, which cannot hold it: it went into the sidecar.
    public var sidecarInstead: Bool
    /// The photo's SHA-256 now, for the library to remember as its source's.
    public var sha256: String?

    public init(paths: [String], sidecarInstead: Bool, sha256: String?) {
        self.paths = paths
        self.sidecarInstead = sidecarInstead
        self.sha256 = sha256
    }
}

public enum WriteBack {
    /// Writes `caption` for the photo at `source` (which must still have `expectedSHA256`
    /// when that is given, and must not be one of `library`'s own copies) into it (`.photo`: `InPlaceWriter`; a format that cannot hold
    /// it gets the sidecar) or beside it (`.sidecar`: `SidecarWriter`). Safe from any thread; the photo is as it was after any failure.
    public static func write(
        _ caption: CaptionWords, credits: Credits = .none, source: String, expectedSHA256: String?,
        to destination: CaptionDestination, library: Library? = nil
    ) throws(WriteBackError) -> WriteBackResult {
        // The library's copies are named after their content: written into, one would no
        // longer be what its name says, and a sidecar would be a stranger in photos/.
        if let library, library.holdsPhoto(at: source) {
            throw .make(
                .libraryCopy,
                "This is the library's own copy of a photo; Caption writes captions into the photo it came from: {path}",
                path: source)
        }
        switch destination {
        case .photo:
            do throws(WriteBackError) {
                let written = try InPlaceWriter.write(
                    caption, credits: credits, into: source, expectedSHA256: expectedSHA256)
                return WriteBackResult(
                    paths: [source] + written.sidecars, sidecarInstead: false, sha256: written.sha256)
            } catch  where error.kind == .unsupportedFormat {
                let paths = try sidecar(caption, credits: credits, source: source, expectedSHA256: expectedSHA256)
                return WriteBackResult(paths: paths, sidecarInstead: true, sha256: expectedSHA256)
            }
        case .sidecar:
            let paths = try sidecar(caption, credits: credits, source: source, expectedSHA256: expectedSHA256)
            return WriteBackResult(paths: paths, sidecarInstead: false, sha256: expectedSHA256)
        }
    }

    /// The sidecar, if the photo is still the one read: words beside another photo would
    /// be wrong.
    private static func sidecar(
        _ caption: CaptionWords, credits: Credits, source: String, expectedSHA256: String?
    ) throws(WriteBackError) -> [String] {
        if let expectedSHA256 {
            let current: String?
            switch DiskFile.read(source) {
            case .success(let bytes): current = bytes.withUnsafeBytes { Hash.sha256($0) }
            case .failure(let failure): throw .fromErrno(failure.code, path: source)
            }
            if current != expectedSHA256 {
                throw .make(
                    .changed, "The photo was changed by another program since Caption read it: {path}", path: source)
            }
        }
        return try SidecarWriter.write(caption, credits: credits, besides: source)
    }

    /// Whether the photo at `path` takes the caption inside (JPEG, PNG, TIFF, WebP, GIF),
    /// for the form to say where a caption will go; nil when it cannot be read.
    public static func holdsCaptionInside(_ path: String) -> Bool? {
        guard case .success(let bytes) = DiskFile.read(path), let format = Containers.format(of: bytes) else {
            return nil
        }
        return format.holdsEmbeddedCaption
    }
}
