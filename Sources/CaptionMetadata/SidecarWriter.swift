// The caption in an XMP sidecar beside the user's photo (`IMG_1.jpg.xmp`, as darktable and
// digiKam name it), merged into what such a sidecar already holds, written atomically.

import CExempi
import CaptionLibrary
import CaptionText
import Localization
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

public enum SidecarWriter {
    /// `PHOTO.EXT.xmp`: darktable's and digiKam's name, which keeps `IMG_1.jpg` and
    /// `IMG_1.cr2` (a RAW+JPEG pair) from sharing one sidecar. Caption writes this one.
    public static func path(for photo: String) -> String { photo + ".xmp" }

    /// `PHOTO.xmp`: Adobe's name (Lightroom, Bridge), read too, and updated when it is
    /// already there, so that it shows no old words either.
    public static func adobePath(for photo: String) -> String? {
        let slash = photo.lastIndex(of: "/").map { photo.index(after: $0) } ?? photo.startIndex
        guard let dot = photo[slash...].lastIndex(of: "."), dot > slash else { return nil }
        return String(photo[..<dot]) + ".xmp"
    }

    /// Writes `caption` into `PHOTO.EXT.xmp` (created, or updated keeping everything else
    /// it holds: ratings, tags, darktable's history) and into `PHOTO.xmp` when that exists;
    /// returns the paths written. Each goes through a temporary file in the same folder,
    /// synced, then renamed over; an existing sidecar keeps its permission bits. A sidecar
    /// that is a symbolic link, or holds XMP that does not parse, is left alone and said
    /// so: it is the user's data.
    public static func write(
        _ caption: CaptionWords, credits: Credits = .none, besides photo: String
    ) throws(WriteBackError) -> [String] {
        Exempi.open()
        signal(SIGXFSZ, SIG_IGN)
        var info = stat()
        guard lstat(photo, &info) == 0 else { throw .fromErrno(errno, path: photo) }
        let folder = InPlaceWriter.folder(of: photo)
        var folderInfo = stat()
        guard stat(folder, &folderInfo) == 0 else { throw .fromErrno(errno, path: photo) }
        if folderInfo.st_mode & S_IWUSR == 0 || access(folder, W_OK | X_OK) != 0 {
            throw .make(.readOnlyFolder, "The photo's folder is read-only: {path}", path: photo)
        }
        var targets = [path(for: photo)]
        if let adobe = adobePath(for: photo), DiskFile.exists(adobe) { targets.append(adobe) }
        // The photo's own credits stand over a sidecar's: a reader that prefers the sidecar
        // would otherwise show the standing credit instead of the photo's.
        let credits = PhotoCredits.leavingOutOwn(credits, photoAt: photo)
        // Its temporary files are a write's: the folder is held as a write in place holds it.
        let folderLock = InPlaceWriter.claimFolder(folder)
        defer { if folderLock >= 0 { close(folderLock) } }
        for target in targets { try write(caption, credits: credits, to: target, folder: folder) }
        return targets
    }

    /// The sidecars other apps keep beside `photo` (`PHOTO.EXT.xmp`, `PHOTO.xmp`) that are
    /// there now: a photo captioned in place must not leave old words in them.
    public static func existing(besides photo: String) -> [String] {
        [path(for: photo), adobePath(for: photo)].compactMap { $0 }.filter { candidate in
            var info = stat()
            return lstat(candidate, &info) == 0
        }
    }

    /// The sidecar's new text, or why it cannot be written: a link, a read-only file, XMP
    /// that does not parse. Writes nothing.
    static func prepared(
        _ caption: CaptionWords, credits: Credits = .none, for target: String
    ) throws(WriteBackError) -> (
        text: String, existing: stat?
    ) {
        var existing = stat()
        let exists = lstat(target, &existing) == 0
        if exists && existing.st_mode & S_IFMT == S_IFLNK {
            throw .make(
                .symlink, "The sidecar is a symbolic link; Caption does not write through links: {path}", path: target)
        }
        if exists && existing.st_mode & S_IWUSR == 0 {
            throw .make(.readOnlyFile, "The sidecar is read-only: {path}", path: target)
        }
        var old: [UInt8]?
        if exists {
            switch DiskFile.read(target) {
            case .success(let bytes): old = bytes
            case .failure(let failure): throw .fromErrno(failure.code, path: target)
            }
        }
        guard let text = merged(caption, credits: credits, into: old) else {
            throw .make(.io, "The sidecar holds XMP that cannot be read; it is left as it is: {path}", path: target)
        }
        return (text, exists ? existing : nil)
    }

    static func write(
        _ caption: CaptionWords, credits: Credits = .none, to target: String, folder: String
    ) throws(WriteBackError) {
        let (text, existing) = try prepared(caption, credits: credits, for: target)
        let temporary: String
        switch DiskFile.temporary(
            in: folder, extension: "xmp", holding: Array(text.utf8), prefix: InPlaceWriter.temporaryPrefix)
        {
        case .success(let made): temporary = made
        case .failure(let failure): throw .fromErrno(failure.code, path: target)
        }
        var leftover: String? = temporary
        defer { if let leftover { unlink(leftover) } }
        if let existing {
            _ = chown(temporary, existing.st_uid, existing.st_gid)
            _ = chmod(temporary, existing.st_mode & 0o7777)
        }
        if let code = DiskFile.sync(temporary) { throw .fromErrno(code, path: target) }
        guard rename(temporary, target) == 0 else { throw .fromErrno(errno, path: target) }
        leftover = nil
        _ = DiskFile.sync(folder, folder: true)
    }

    /// The sidecar's text: `old` (a sidecar's bytes) with the caption set as in a photo
    /// (`XMPPacket.setCaption`), or the caption alone; nil when `old` does not parse.
    static func merged(_ caption: CaptionWords, credits: Credits = .none, into old: [UInt8]?) -> String? {
        Exempi.locked { () -> String? in
            guard let packet = XMPPacket.stored(in: old) else { return nil }
            guard
                packet.setCaption(caption.map(PhotoMetadata.xmlSafe)),
                packet.setCredits(credits.leavingOut(own: packet.ownCredits))
            else { return nil }
            return packet.serializedForSidecar()
        }
    }
}
