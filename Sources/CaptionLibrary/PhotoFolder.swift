// The library's photos/ folder: photos stored under their content hash, each written to a
// temporary file, synced and renamed into place, so a name there always holds a whole photo.

import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

struct PhotoFolder: Sendable {
    /// photos/ itself, absolute.
    let path: String
    /// The library folder, which messages name.
    let library: String

    static let temporaryPrefix = ".tmp-"

    static func folderError(_ code: Int32, _ directory: String) -> LibraryError {
        switch code {
        case EACCES, EPERM, EROFS:
            return .make(
                .readOnly, "Cannot write to the library ({reason}): {folder}",
                ["reason": POSIXFiles.reason(code), "folder": directory])
        case ENOSPC, EDQUOT, EFBIG:
            return .make(
                .diskFull, "Not enough disk space for the library ({reason}): {folder}",
                ["reason": POSIXFiles.reason(code), "folder": directory])
        default:
            return .make(
                .io, "The library folder cannot be used ({reason}): {folder}",
                ["reason": POSIXFiles.reason(code), "folder": directory])
        }
    }

    /// Whether a file in photos/ is one of ours: 64 hex digits and a known extension.
    /// Read as UTF-8 bytes: `--list --json` asks it of every row.
    static func isPhotoName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { isPhotoName($0) }
    }

    static func isPhotoName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count > 65, bytes[64] == 0x2E else { return false }
        for byte in bytes[0..<64] where !((48...57).contains(byte) || (97...102).contains(byte)) { return false }
        let ext = UnsafeBufferPointer(rebasing: bytes[65...])
        return PhotoFormat.allCases.contains { $0.fileExtension.utf8.elementsEqual(ext) }
    }

    /// "photos/" and a name of ours: 64 hex digits and a known extension, no slash.
    static func isStoredPhoto(_ relative: String) -> Bool {
        var relative = relative
        return relative.withUTF8 { bytes in
            let prefix = "photos/".utf8
            guard bytes.count > prefix.count, bytes.prefix(prefix.count).elementsEqual(prefix) else { return false }
            return isPhotoName(UnsafeBufferPointer(rebasing: bytes[prefix.count...]))
        }
    }

    /// A photo put in place: the folder with its shared lock held (kept until the row that
    /// names the photo commits, so no clean-up takes it for an orphan), and whether this
    /// save wrote the file.
    struct Placement: ~Copyable {
        let folder: Files.Folder
        let wrote: Bool
    }

    /// Puts `data` at `target` (a name in this folder), unless a file there already holds it.
    func place(_ data: UnsafeRawBufferPointer, at target: String) throws(LibraryError) -> Placement {
        guard let folder = Files.Folder(path) else {
            throw Self.folderError(errno, library)
        }
        folder.lockShared()
        // A file under its final name was synced before its rename, so it is whole; and
        // the shared lock keeps anyone from removing it before the row commits. It is
        // compared byte for byte all the same: something outside Caption may have replaced
        // it, and then this copy puts the right photo back.
        var placed = false
        if !Files.hasContents(target, data) {
            let temporary = try writeCopy(data)
            guard rename(temporary, target) == 0 else {
                let code = errno
                unlink(temporary)
                throw Self.folderError(code, library)
            }
            placed = true
        }
        // Also when the file was there: its writer may have died before syncing the folder.
        if let code = folder.sync() {
            throw Self.folderError(code, library)
        }
        return Placement(folder: folder, wrote: placed)
    }

    /// Writes the photo to a new temporary file in photos/ and syncs it; returns its path.
    private func writeCopy(_ data: UnsafeRawBufferPointer) throws(LibraryError) -> String {
        var descriptor: Int32 = -1
        var temporary = ""
        for _ in 0..<8 {
            temporary = path + "/" + Self.temporaryPrefix + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw Self.folderError(errno, library) }
        var failure = POSIXFiles.writeAll(descriptor, data)
        if failure == nil && fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == nil && errno != EINTR { failure = errno }
        if let failure {
            unlink(temporary)
            throw Self.folderError(failure, library)
        }
        return temporary
    }

    /// How many stored photos the folder holds (by their names); nil when it cannot be read.
    func storedCount() -> Int? {
        Files.list(path).map { names in names.filter { Self.isPhotoName($0) }.count }
    }

    /// The file beside photos/ naming the database the photos belong to.
    static let identityName = "photos.id"

    /// The database identity recorded for photos/; nil when none is.
    func recordedIdentity() -> String? {
        guard let folder = Files.Folder(library) else { return nil }
        return folder.readSmallFile(Self.identityName).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Records `identity` for photos/, through a temporary file and a rename.
    func record(identity: String) {
        guard let folder = Files.Folder(library) else { return }
        if folder.replaceSmallFile(Self.identityName, with: Array(identity.utf8), temporaryPrefix: ".photos.id-") == nil
        {
            _ = folder.sync()
        }
    }

    /// Removes temporary files and unreferenced photos left by an interrupted save, when no
    /// save is under way (otherwise the next open does it), and only on the word of the
    /// database the photos belong to: its identity must be the one `photos.id` records. A
    /// library that records none (made before identities) takes this database's when every
    /// photo the database names is there, or when photos/ holds no photo. Other files are
    /// the user's; links are never followed, nor removed.
    func removeLeftovers(_ db: Database) throws(LibraryError) {
        guard let folder = Files.Folder(path), folder.tryLockExclusive(), let names = Files.list(path) else { return }
        let identity = try db.text("SELECT id FROM library")
        var photos: [String] = []
        for name in names {
            guard folder.isRegularFile(name) else { continue }
            if name.hasPrefix(Self.temporaryPrefix) {
                folder.remove(name)
            } else if Self.isPhotoName(name) {
                photos.append(name)
            }
        }
        var used: Set<String>?
        func referenced() throws(LibraryError) -> Set<String> {
            if let used { return used }
            var found: Set<String> = []
            let statement = try db.prepare("SELECT DISTINCT photo FROM entries")
            while try statement.step() { found.insert(statement.text(0)) }
            used = found
            return found
        }
        switch recordedIdentity() {
        case identity?:
            break
        case nil:
            let present = Set(photos.map { "photos/" + $0 })
            let named = try referenced()
            guard photos.isEmpty || (!named.isEmpty && named.isSubset(of: present)) else { return }
            record(identity: identity)
        default:
            return  // another database's photos: not this one's to judge
        }
        // Every row's photo exists, so equal counts mean nothing is left over; that spares
        // reading every row on each open of a large library.
        if used == nil, try db.integer("SELECT count(DISTINCT photo) FROM entries") == photos.count { return }
        let named = try referenced()
        for name in photos where !named.contains("photos/" + name) {
            folder.remove(name)
        }
    }
}
