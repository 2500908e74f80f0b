// What can go wrong with a photo or the library, as one translatable line naming the problem.

import Localization

/// A photo or library problem.
public typealias LibraryError = CodedError<LibraryErrorKind>

public enum LibraryErrorKind: Sendable, Hashable {
    // The photo.
    case photoMissing
    case photoIsFolder
    case photoNotRegular
    case photoUnreadable
    case photoEmpty
    case photoTooLarge
    case photoTooManyPixels
    case notAnImage
    case vectorImage
    case noDecoder
    /// A photo format Caption knows and cannot show (JPEG XL, floating-point TIFF).
    case unsupportedFormat
    case photoDamaged
    // The library.
    case readOnly
    /// A desk's library this user has been given no access to.
    case noAccess
    case corrupt
    case notALibrary
    case newerSchema
    /// The database is gone or empty while the photos folder still holds photos.
    case databaseMissing
    /// The library folder, its photos folder or its database is a link, belongs to
    /// someone else, or can be written by other users.
    case unsafeFolder
    case locked
    case diskFull
    case noSuchEntry
    case io
    /// A library on a PostgreSQL server: the server, or libpq, could not be reached.
    case unreachable
    /// A PostgreSQL address that is not one, or that holds a password.
    case badAddress
    /// Text the storage cannot keep as it is (a NUL character, for PostgreSQL).
    case unstorableText
    /// The entry was changed by another editor or program since it was read, so a change
    /// made to what was read is not saved over theirs.
    case changedElsewhere
    /// Another editor of a shared library has the photo on their form (a claim), so a
    /// save of it here waits until they move on.
    case takenElsewhere
    /// The photo holds an older caption that the new one cannot replace inside it: sent
    /// out as it is, it would carry the old words.
    case oldCaptionInside
}

extension CodedError where Kind == LibraryErrorKind {
    /// Whether the fault is the photo's (the window shows it by the photo) rather than the
    /// library's.
    public var isAboutPhoto: Bool {
        switch kind {
        case .photoMissing, .photoIsFolder, .photoNotRegular, .photoUnreadable, .photoEmpty,
            .photoTooLarge, .photoTooManyPixels, .notAnImage, .vectorImage, .noDecoder,
            .unsupportedFormat, .photoDamaged:
            return true
        default:
            return false
        }
    }
}
