// Writing a caption into the user's own photo file: a copy in the same folder, captioned,
// synced and read back, then renamed over the original, so the original is never damaged.

import CMetadataSupport
import CaptionLibrary
import CaptionText
import Localization
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

/// A photo file Caption has written a caption into.
public struct WrittenPhoto: Sendable, Equatable {
    public var path: String
    /// The file's SHA-256 now (Caption's own write changes it): what `--write-back`
    /// compares with next time to tell whether someone else changed the file.
    public var sha256: String
    /// The sidecars beside it that were updated with it.
    public var sidecars: [String]
}

public enum InPlaceWriter {
    /// Temporary files start with this; hidden, and named so that a leftover (after a
    /// crash between writing and renaming) says whose it is.
    static let temporaryPrefix = ".caption-write-"

    /// Writes `caption` into the photo at `path`, keeping everything else in it.
    ///
    /// The photo is read once; with `expectedSHA256`, content that differs is someone
    /// else's change, and is left alone (`.changed`). A copy is made in the same folder
    /// (so the rename below cannot cross file systems), captioned (`Embedder`: XMP, and
    /// IIM, Exif and the XP tags where the photo has them), synced, and read back: the
    /// caption must be there, the pixels must decode identically, and the rest of the
    /// metadata must be as it was (`ReadBack`). The copy gets the original's permission
    /// bits, owner, group and extended attributes; then, if the original is still what
    /// was read, the copy is renamed over it and the folder is synced. Any failure removes
    /// the copy and leaves the original untouched; a kill leaves the original either as
    /// it was or fully captioned (rename is atomic), and at worst a hidden
    /// `.caption-write-*` file behind.
    ///
    /// The modification time is not kept: the file's content did change, and backup and
    /// sync tools (rsync, Syncthing, Déjà Dup) find changed files by it. The photo's own
    /// date (Exif DateTimeOriginal) is untouched.
    ///
    /// A file without write permission for its owner counts as read-only even for root,
    /// and so does a folder: the user marked them so, and a rename would get past the
    /// mark. Symbolic links are refused rather than followed or replaced. Safe to call from
    /// any thread.
    public static func write(
        _ caption: CaptionWords, credits: Credits = .none, into path: String, expectedSHA256: String? = nil
    ) throws(WriteBackError) -> WrittenPhoto {
        Exempi.open()
        // Past the file size limit a write raises SIGXFSZ; ignored, it fails with EFBIG.
        signal(SIGXFSZ, SIG_IGN)
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .fromErrno(errno, path: path) }
        if info.st_mode & S_IFMT == S_IFLNK {
            throw .make(
                .symlink, "The photo is a symbolic link; Caption does not write through links: {path}", path: path)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .make(.missing, "The photo is not a regular file: {path}", path: path)
        }
        // A new file renamed over one of its names would leave the others with the old
        // words, and writing through every name gives up the all-or-nothing rename (and
        // reaches into whatever linked them: backup snapshots, an importer's copies).
        if info.st_nlink > 1 {
            throw .make(
                .hardLinked,
                "The photo has other names (hard links), which would keep the old words; Caption does not write it: {path}",
                path: path)
        }
        let folder = Self.folder(of: path)
        let original = try readOriginal(path)
        let sha = original.withUnsafeBytes { Hash.sha256($0) }
        if let expectedSHA256, expectedSHA256 != sha {
            throw .make(.changed, "The photo was changed by another program since Caption read it: {path}", path: path)
        }
        guard let format = Containers.format(of: original), format.holdsEmbeddedCaption else {
            let name = Containers.format(of: original)?.displayName ?? "?"
            throw WriteBackError(
                .unsupportedFormat,
                fill(
                    tr("A {format} photo cannot hold the caption inside; use a sidecar: {path}"),
                    ["format": name, "path": path]))
        }
        try checkWritable(path, info: info, folder: folder)
        // Sidecars beside the photo win over it in darktable, digiKam and Caption itself:
        // each must take the new words too, so each is checked before the photo changes.
        let sidecars = SidecarWriter.existing(besides: path)
        for sidecar in sidecars { _ = try SidecarWriter.prepared(caption, credits: credits, for: sidecar) }

        let ext =
            path.split(separator: "/").last.flatMap { name in
                name.lastIndex(of: ".").map { String(name[name.index(after: $0)...]) }
            } ?? format.fileExtension
        let folderLock = claimFolder(folder)
        defer { if folderLock >= 0 { close(folderLock) } }
        let temporary: String
        switch DiskFile.temporary(in: folder, extension: ext, holding: original, prefix: temporaryPrefix) {
        case .success(let made): temporary = made
        case .failure(let failure): throw .fromErrno(failure.code, path: path)
        }
        var leftover: String? = temporary
        defer { if let leftover { unlink(leftover) } }

        let written: Credits
        do throws(EmbeddingError) {
            written = try Embedder.embed(caption, credits: credits, into: temporary, holding: original)
        } catch {
            switch error {
            case .io(let code): throw .fromErrno(code, path: path)
            case .refused(let reason):
                throw .make(
                    .refusedStructure,
                    "The caption cannot be written into this photo ({reason}); use a sidecar: {path}",
                    path: path, reason: reason)
            case .unsupported, .unwritable:
                throw .make(
                    .unsupportedFormat,
                    "The caption cannot be written into this photo's metadata; use a sidecar: {path}",
                    path: path)
            }
        }
        let bytes: [UInt8]
        switch DiskFile.read(temporary) {
        case .success(let read): bytes = read
        case .failure(let failure): throw .fromErrno(failure.code, path: path)
        }
        if let problem = ReadBack.problem(
            original: original, written: bytes, at: temporary, path: path, format: format, caption: caption,
            credits: written)
        {
            throw .make(
                .verificationFailed,
                "The captioned copy did not read back correctly ({reason}); the photo is untouched: {path}", path: path,
                reason: problem)
        }
        try keepAttributes(of: path, info: info, on: temporary, caption: caption)
        if let code = DiskFile.sync(temporary) { throw .fromErrno(code, path: path) }

        // The last look before the rename: the file must still be the one read, else the
        // other program's change would be lost.
        var now = stat()
        guard lstat(path, &now) == 0 else { throw .fromErrno(errno, path: path) }
        let same =
            now.st_ino == info.st_ino && now.st_dev == info.st_dev && now.st_size == info.st_size
            && now.st_mtim.tv_sec == info.st_mtim.tv_sec && now.st_mtim.tv_nsec == info.st_mtim.tv_nsec
        if !same || (try? readOriginal(path)) != original {
            throw .make(.changed, "The photo was changed by another program while Caption wrote it: {path}", path: path)
        }
        guard rename(temporary, path) == 0 else { throw .fromErrno(errno, path: path) }
        leftover = nil
        _ = DiskFile.sync(folder, folder: true)  // the rename is done; a failed sync only delays its durability
        for sidecar in sidecars { try SidecarWriter.write(caption, credits: written, to: sidecar, folder: folder) }
        return WrittenPhoto(
            path: path, sha256: bytes.withUnsafeBytes { Hash.sha256($0) }, sidecars: sidecars)
    }

    /// Takes a shared lock on `folder` for this write, after removing what killed writes
    /// left there: with the folder's exclusive lock no other write is running in it, so
    /// every hidden temporary file of ours is a leftover; without it (another write holds
    /// the folder) only those older than a day are. Returns the folder's descriptor, which
    /// holds the lock until closed; -1 when the folder cannot be opened.
    static func claimFolder(_ folder: String) -> Int32 {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            removeLeftovers(in: folder)
            return -1
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
            removeLeftovers(in: folder, olderThan: -1)
        } else {
            removeLeftovers(in: folder)
        }
        // Shared from here: other writes in the folder may run beside this one; an export
        // or a later write's clean-up waits for none of them and removes nothing of theirs.
        _ = flock(descriptor, LOCK_SH | LOCK_NB)
        return descriptor
    }

    /// What a killed write left in the folder: our hidden temporary files (exempi's own
    /// temporary file is named after ours) older than `seconds`, which no write still
    /// running can own. Anything else in the folder is never touched.
    static func removeLeftovers(in folder: String, olderThan seconds: Int = 86_400) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        let now = time(nil)
        while let entry = readdir(directory) {
            let name = entryName(entry)
            guard name.hasPrefix(temporaryPrefix) else { continue }
            var info = stat()
            let path = folder + "/" + name
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                Int(now) - Int(info.st_mtim.tv_sec) > seconds
            else { continue }
            unlink(path)
        }
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func readOriginal(_ path: String) throws(WriteBackError) -> [UInt8] {
        switch DiskFile.read(path) {
        case .success(let bytes): return bytes
        case .failure(let failure):
            if failure.code == EACCES || failure.code == EPERM {
                throw .make(
                    .readOnlyFile, "The photo cannot be read ({reason}): {path}", path: path,
                    reason: POSIXFiles.reason(failure.code))
            }
            throw .fromErrno(failure.code, path: path)
        }
    }

    /// The user's marks first (mode bits, which root would get past), then the kernel's
    /// word (access(2): ownership, ACLs, a read-only mount).
    private static func checkWritable(_ path: String, info: stat, folder: String) throws(WriteBackError) {
        if info.st_mode & S_IWUSR == 0 || access(path, W_OK) != 0 {
            throw .make(.readOnlyFile, "The photo is read-only: {path}", path: path)
        }
        var folderInfo = stat()
        guard stat(folder, &folderInfo) == 0 else { throw .fromErrno(errno, path: path) }
        if folderInfo.st_mode & S_IWUSR == 0 || access(folder, W_OK | X_OK) != 0 {
            throw .make(.readOnlyFolder, "The photo's folder is read-only: {path}", path: path)
        }
        if info.st_uid != geteuid() && geteuid() != 0 {
            throw .make(.otherOwner, "The photo belongs to another user: {path}", path: path)
        }
    }

    /// Mode, owner and group, and the extended attributes (user.*, and security.* where
    /// the kernel lets them be set) of `path`, onto the temporary copy. The comment KDE's
    /// Dolphin and Baloo show (`user.xdg.comment`) is a caption too: one already there
    /// takes the new words, as the JPEG comment does; none is made.
    private static func keepAttributes(
        of path: String, info: stat, on temporary: String, caption: CaptionWords
    ) throws(WriteBackError) {
        if chown(temporary, info.st_uid, info.st_gid) != 0 && geteuid() == 0 {
            throw .make(.otherOwner, "The photo's owner could not be kept: {path}", path: path)
        }
        guard chmod(temporary, info.st_mode & 0o7777) == 0 else { throw .fromErrno(errno, path: path) }
        for name in ExtendedAttributes.names(path) {
            guard var value = ExtendedAttributes.value(path, name) else { continue }
            if name == ExtendedAttributes.comment {
                let words = caption.subtitle.isEmpty ? caption.title : caption.subtitle
                if words.isEmpty { continue }
                value = Array(words.utf8)
            }
            if !ExtendedAttributes.set(temporary, name, value) && name.hasPrefix("user.") {
                throw .make(.io, "The photo's extended attributes could not be kept: {path}", path: path)
            }
        }
    }
}

/// Extended attributes of a file (never following a link).
enum ExtendedAttributes {
    /// The freedesktop.org comment, in UTF-8 without a terminating NUL.
    static let comment = "user.xdg.comment"

    static func names(_ path: String) -> [String] {
        let size = llistxattr(path, nil, 0)
        guard size > 0 else { return [] }
        var buffer = [CChar](repeating: 0, count: size)
        let got = llistxattr(path, &buffer, size)
        guard got > 0 else { return [] }
        return buffer[0..<got].split(separator: 0).map {
            String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    static func value(_ path: String, _ name: String) -> [UInt8]? {
        let size = lgetxattr(path, name, nil, 0)
        guard size >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: max(size, 1))
        let got = lgetxattr(path, name, &buffer, size)
        guard got >= 0 else { return nil }
        return Array(buffer[0..<got])
    }

    static func set(_ path: String, _ name: String, _ value: [UInt8]) -> Bool {
        lsetxattr(path, name, value, value.count, 0) == 0
    }
}
