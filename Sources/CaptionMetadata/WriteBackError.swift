// Why a caption could not be written into a photo the user owns, or beside it: one
// translated line for people, a kind for code (the window offers the sidecar on these).

import Localization
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

/// A caption that did not reach the photo file (or its sidecar). The photo is as it was.
public typealias WriteBackError = CodedError<WriteBackErrorKind>

public enum WriteBackErrorKind: Sendable, Hashable {
    /// The photo is gone, or is not a regular file.
    case missing
    /// A symbolic link: writing through it would replace the link with a file.
    case symlink
    /// The file is marked read-only (no write permission for its owner), or cannot be opened for writing.
    case readOnlyFile
    /// Its folder takes no new file (the temporary file goes there).
    case readOnlyFolder
    /// The photo belongs to another user, whom a rewritten file could not keep as owner.
    case otherOwner
    /// The photo has other names (hard links), which a rewritten file would not reach.
    case hardLinked
    /// The file is one of the library's own copies, not the user's photo.
    case libraryCopy
    /// The photo's metadata is in a shape Caption will not rewrite (the message says
    /// which): a sidecar can take the caption.
    case refusedStructure
    case diskFull
    /// The file's content is not what Caption read (or last wrote): someone else changed it.
    case changed
    /// The format has no place for the caption that Caption can write (HEIC, AVIF, RAW,
    /// BMP…): a sidecar is the place for it.
    case unsupportedFormat
    /// The written copy did not read back as it must (caption, pixels or other metadata):
    /// it was thrown away.
    case verificationFailed
    case io
}

extension CodedError where Kind == WriteBackErrorKind {
    /// Whether a sidecar beside the photo is worth offering instead: every failure but a
    /// missing photo and a read-only folder, which takes no sidecar either. (A full disk
    /// may still take a sidecar of a few hundred bytes.)
    public var sidecarMayHelp: Bool {
        switch kind {
        case .missing, .readOnlyFolder, .libraryCopy: return false
        default: return true
        }
    }

    static func make(_ kind: Kind, _ template: String, path: String, reason: String? = nil) -> WriteBackError {
        var values = ["path": path]
        if let reason { values["reason"] = reason }
        return make(kind, template, values)
    }

    /// The file system's refusal (errno) while writing beside `path`, in words.
    static func fromErrno(_ code: Int32, path: String) -> WriteBackError {
        let reason = POSIXFiles.reason(code)
        switch code {
        case ENOENT, ENOTDIR:
            return make(.missing, "The photo is no longer there: {path}", path: path)
        case EACCES, EPERM, EROFS:
            return make(
                .readOnlyFolder, "The photo's folder cannot be written to ({reason}): {path}", path: path,
                reason: reason)
        case ENOSPC, EDQUOT, EFBIG:
            return make(
                .diskFull, "Not enough disk space beside the photo ({reason}): {path}", path: path, reason: reason)
        default:
            return make(
                .io, "The caption could not be written into the photo ({reason}): {path}", path: path, reason: reason)
        }
    }
}
