// Exporting entries: each library photo written into a folder with its caption inside it
// (or beside it, in NAME.EXT.xmp), named after its title, through a synced temporary file.

import CaptionLibrary
import CaptionText
import Localization
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

/// One photo written by an export.
public struct ExportedPhoto: Sendable, Equatable {
    public var entryID: Int64
    /// The photo, in the export folder.
    public var photoPath: String
    /// `NAME.EXT.xmp` beside it, when the caption went there.
    public var sidecarPath: String?
    /// The caption was to go inside the photo but went into the sidecar: the format has no
    /// place exempi can write it (BMP, HEIF, AVIF, camera RAW), or exempi could not write it even into the photo stripped of its
    /// old metadata.
    public var couldNotEmbed: Bool

    public init(entryID: Int64, photoPath: String, sidecarPath: String?, couldNotEmbed: Bool) {
        self.entryID = entryID
        self.photoPath = photoPath
        self.sidecarPath = sidecarPath
        self.couldNotEmbed = couldNotEmbed
    }
}

public enum Exporter {
    /// Writes each entry's photo into `folder` (created if missing), in the order given:
    /// into `.photo`, with the caption embedded (see `Embedder`); into `.sidecar`, the photo
    /// exactly as the library holds it plus `NAME.EXT.xmp`. NAME comes from the title (`ExportName`) and
    /// is never one already taken: " (2)", " (3)"… follow. The library's copies are only
    /// read; nothing in the folder is ever replaced.
    ///
    /// Every file is written under a hidden temporary name in `folder`, synced, and renamed
    /// without replacing, so a crash leaves each photo whole or absent, never cut short;
    /// what a killed export left is removed by the next export into the folder.
    /// The folder itself is synced once, when the export ends (or stops): that makes the
    /// renames durable, and syncing it after every photo would cost a journal commit each
    /// (three quarters of the time on ext4) for nothing a crash could tell apart.
    /// A folder that is read-only or full stops the export with the message saying so; the
    /// photos written before then are whole, and no partial file is left. An entry whose
    /// photo the library cannot give (deleted or unreadable behind Caption's back) is
    /// passed over, `missing` is told why, and the export goes on. `exported` is
    /// told of each photo as it is placed. Safe to call from any thread.
    ///
    /// With `progress`, its total is set to the number of entries, it advances after each
    /// photo is placed, and a cancel stops the export before the next photo: every photo
    /// is then written whole or not at all, and the photos placed are returned.
    @discardableResult
    public static func export(
        _ entries: [Entry], from library: Library, to folder: String, into destination: CaptionDestination,
        progress: WorkProgress? = nil,
        exported: (ExportedPhoto) -> Void = { _ in },
        missing: (Int64, LibraryError) -> Void = { _, _ in }
    ) throws(LibraryError) -> [ExportedPhoto] {
        Exempi.open()
        var results: [ExportedPhoto] = []
        var remaining = entries[...]
        progress?.setTotal(entries.count)
        _ = try exportEach(
            next: { () throws(LibraryError) -> Entry? in remaining.popFirst() }, from: library, to: folder,
            into: destination, progress: progress,
            placed: { photo in
                exported(photo)
                results.append(photo)
            }, missing: missing)
        return results
    }

    /// What an export of the whole library did.
    public struct Summary: Sendable, Equatable {
        /// Photos placed.
        public var exported: Int
        /// Entries there were to export when it started.
        public var total: Int
        /// It stopped at a cancel, before `total`.
        public var cancelled: Bool
        /// Entries whose photo the library could not give (gone or unreadable), or that
        /// would have gone out with an old caption inside, and why; the export went on
        /// without them.
        public var missing: [(id: Int64, problem: LibraryError)]

        public init(exported: Int, total: Int, cancelled: Bool, missing: [(id: Int64, problem: LibraryError)] = []) {
            self.exported = exported
            self.total = total
            self.cancelled = cancelled
            self.missing = missing
        }

        public static func == (a: Summary, b: Summary) -> Bool {
            a.exported == b.exported && a.total == b.total && a.cancelled == b.cancelled
                && a.missing.map(\.id) == b.missing.map(\.id) && a.missing.map(\.problem) == b.missing.map(\.problem)
        }
    }

    /// Every entry of the library, oldest first (so the first photo with a title gets its
    /// plain name), as `export(_:from:to:into:)` writes them; read a page at a time, so
    /// memory stays flat however many entries there are, and the library is locked only
    /// while a page is read. Entries saved after it starts are left for the next export.
    public static func exportAll(
        from library: Library, to folder: String, into destination: CaptionDestination,
        progress: WorkProgress = WorkProgress(),
        exported: (ExportedPhoto) -> Void = { _ in },
        missing: (Int64, LibraryError) -> Void = { _, _ in }
    ) throws(LibraryError) -> Summary {
        Exempi.open()
        let total = try library.count()
        progress.setTotal(total)
        guard total > 0, let last = try library.newestCursor() else {
            return Summary(exported: 0, total: 0, cancelled: false)
        }
        var page: ArraySlice<Entry> = []
        var cursor: EntryCursor?
        var finished = false
        let next = { () throws(LibraryError) -> Entry? in
            if page.isEmpty && !finished {
                let read = try library.entries(after: cursor, order: .oldestFirst, limit: pageSize, through: last)
                finished = read.count < pageSize
                cursor = read.last.map(EntryCursor.init)
                page = read[...]
            }
            return page.popFirst()
        }
        var count = 0
        var skipped: [(id: Int64, problem: LibraryError)] = []
        let cancelled = try exportEach(
            next: next, from: library, to: folder, into: destination, progress: progress,
            placed: { photo in
                count += 1
                exported(photo)
            },
            missing: { id, problem in
                skipped.append((id, problem))
                missing(id, problem)
            })
        return Summary(exported: count, total: total, cancelled: cancelled, missing: skipped)
    }

    /// Entries read at a time by `exportAll`.
    static let pageSize = 256

    /// The loop both exports share; true when it stopped at a cancel.
    private static func exportEach(
        next: () throws(LibraryError) -> Entry?, from library: Library, to folder: String,
        into destination: CaptionDestination, progress: WorkProgress?,
        placed: (ExportedPhoto) -> Void, missing: (Int64, LibraryError) -> Void
    ) throws(LibraryError) -> Bool {
        // Past the file size limit (`ulimit -f`) a write raises SIGXFSZ, which would kill
        // the process; ignored, the write fails with EFBIG and is reported like a full disk.
        signal(SIGXFSZ, SIG_IGN)
        if let code = POSIXFiles.makeFolders(folder, mode: 0o777) { throw folderError(code, folder) }
        let claimed = DiskFile.claimExportFolder(folder)
        defer { if claimed >= 0 { close(claimed) } }
        var cancelled = false
        do {
            while true {
                if progress?.isCancelled == true {
                    cancelled = true
                    break
                }
                guard let entry = try next() else { break }
                let result: ExportedPhoto
                do throws(LibraryError) {
                    result = try export(entry, from: library, to: folder, sidecar: destination == .sidecar)
                } catch  where error.kind == .photoUnreadable || error.kind == .oldCaptionInside {
                    // One photo the library cannot give, or that would carry old words,
                    // stops none of the others.
                    progress?.advance()
                    missing(entry.id, error)
                    continue
                }
                progress?.advance()
                placed(result)
            }
        } catch {
            _ = DiskFile.sync(folder, folder: true)  // what was placed stays placed
            throw error
        }
        if let code = DiskFile.sync(folder, folder: true) { throw folderError(code, folder) }
        return cancelled
    }

    private static func export(
        _ entry: Entry, from library: Library, to folder: String,
        sidecar: Bool
    ) throws(LibraryError) -> ExportedPhoto {
        // A row naming a file outside the library has no photo to read.
        // A desk's server gone mid-export stops the export here, once.
        let fetched = try library.fetchedPhotoPath(of: entry)
        let source = fetched ?? entry.photo
        let bytes: [UInt8]
        // The copy is named after its SHA-256 and is never a link: a copy that is a link, or
        // whose bytes are not that digest's, was put there by something else, and what it
        // holds (another photo, /etc/shadow) is not exported.
        let replaced = LibraryError(
            .photoUnreadable,
            fill(
                tr("The library's copy of the photo of entry {id} was replaced by something else: {path}"),
                ["id": String(entry.id), "path": source]))
        switch fetched.map({ DiskFile.read($0, followingLinks: false) })
            ?? .failure(Errno(code: ENOENT))
        {
        case .success(let read): bytes = read
        case .failure(let failure) where failure.code == ELOOP || failure.code == EINVAL:
            throw replaced
        case .failure(let failure):
            throw LibraryError(
                .photoUnreadable,
                fill(
                    tr("The library's copy of the photo of entry {id} cannot be read ({reason}): {path}"),
                    ["id": String(entry.id), "reason": POSIXFiles.reason(failure.code), "path": source]))
        }
        let digest = entry.photo.split(separator: "/").last?.split(separator: ".").first.map(String.init)
        guard bytes.withUnsafeBytes({ Hash.sha256($0) }) == digest else { throw replaced }
        let format = Containers.format(of: bytes)
        let ext = format?.fileExtension ?? extensionOf(entry.photo)
        let stem = ExportName.stem(from: entry.title, fallback: fill(tr("Photo {id}"), ["id": String(entry.id)]))
        let caption = entry.words
        let credits = entry.credits

        guard !sidecar, let format, format.holdsEmbeddedCaption else {
            return try placeWithSidecar(
                bytes, caption, credits: credits, entry: entry, stem: stem, ext: ext, folder: folder,
                couldNotEmbed: !sidecar)
        }
        let temporary = try made(DiskFile.temporary(in: folder, extension: ext, holding: bytes), folder)
        var leftover: String? = temporary
        defer { if let leftover { unlink(leftover) } }
        do throws(EmbeddingError) {
            try Embedder.embed(caption, credits: credits, into: temporary, holding: bytes)
        } catch {
            if case .io(let code) = error { throw folderError(code, folder) }
            // Words of its own that the new ones could not replace would go out with the
            // photo, and an agency's system reads those, not a sidecar: it stays behind.
            let inside = CaptionFinder.find(temporary)
            if inside.origin != nil, !inside.caption.holds(caption) {
                var reason = tr("its metadata cannot be written")
                if case .refused(let why) = error { reason = why }
                throw LibraryError(
                    .oldCaptionInside,
                    fill(
                        tr(
                            "The photo of entry {id} still holds its old caption, which Caption cannot replace ({reason}); it was not exported"
                        ), ["id": String(entry.id), "reason": reason]))
            }
            // Nothing of its own to mislead: the photo goes out whole, its caption beside it.
            return try placeWithSidecar(
                bytes, caption, credits: credits, entry: entry, stem: stem, ext: ext, folder: folder,
                couldNotEmbed: true)
        }
        if let code = DiskFile.sync(temporary) { throw folderError(code, folder) }
        let path = try place(temporary, stem: stem, ext: ext, folder: folder)
        leftover = nil
        return ExportedPhoto(entryID: entry.id, photoPath: path, sidecarPath: nil, couldNotEmbed: false)
    }

    /// The photo as it is and `NAME.EXT.xmp`, placed under one free NAME.
    private static func placeWithSidecar(
        _ bytes: [UInt8], _ caption: CaptionWords, credits: Credits, entry: Entry, stem: String,
        ext: String, folder: String, couldNotEmbed: Bool
    ) throws(LibraryError) -> ExportedPhoto {
        let photo = try made(DiskFile.temporary(in: folder, extension: ext, holding: bytes), folder)
        var leftovers = [photo]
        defer { leftovers.forEach { unlink($0) } }
        let packet = Array(
            PhotoMetadata.sidecar(caption, credits: PhotoCredits.leavingOutOwn(credits, photo: bytes, at: photo)).utf8)
        let sidecar = try made(DiskFile.temporary(in: folder, extension: "xmp", holding: packet), folder)
        leftovers.append(sidecar)
        for path in [photo, sidecar] {
            if let code = DiskFile.sync(path) { throw folderError(code, folder) }
        }
        for attempt in 1...maximumAttempts {
            let photoPath = folder + "/" + ExportName.name(stem, attempt: attempt, extension: ext)
            // NAME.EXT.xmp, the name darktable and digiKam look for (and Caption reads first):
            // NAME.xmp would be found by neither beside a HEIC or a camera RAW.
            let sidecarPath = SidecarWriter.path(for: photoPath)
            if DiskFile.exists(photoPath) || DiskFile.exists(sidecarPath) { continue }
            if let code = DiskFile.placeWithoutReplacing(photo, at: photoPath) {
                if code == EEXIST { continue }
                throw folderError(code, folder)
            }
            if let code = DiskFile.placeWithoutReplacing(sidecar, at: sidecarPath) {
                // The photo just placed is ours: take it back and try the next name.
                if rename(photoPath, photo) != 0 { unlink(photoPath) }
                if code == EEXIST { continue }
                throw folderError(code, folder)
            }
            leftovers = []
            return ExportedPhoto(
                entryID: entry.id, photoPath: photoPath, sidecarPath: sidecarPath,
                couldNotEmbed: couldNotEmbed)
        }
        throw folderError(EEXIST, folder)
    }

    /// After this many names taken, something other than other photos is at work.
    static let maximumAttempts = 10_000

    private static func place(
        _ temporary: String, stem: String, ext: String, folder: String
    ) throws(LibraryError) -> String {
        for attempt in 1...maximumAttempts {
            let path = folder + "/" + ExportName.name(stem, attempt: attempt, extension: ext)
            if DiskFile.exists(path) { continue }
            guard let code = DiskFile.placeWithoutReplacing(temporary, at: path) else { return path }
            if code != EEXIST { throw folderError(code, folder) }
        }
        throw folderError(EEXIST, folder)
    }

    private static func made(_ result: Result<String, Errno>, _ folder: String) throws(LibraryError) -> String {
        switch result {
        case .success(let path): return path
        case .failure(let failure): throw folderError(failure.code, folder)
        }
    }

    private static func extensionOf(_ name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return "bin" }
        return String(name[name.index(after: dot)...])
    }

    /// The export folder's problem, in the words the library uses for its own folder.
    static func folderError(_ code: Int32, _ folder: String) -> LibraryError {
        let values = ["reason": POSIXFiles.reason(code), "folder": folder]
        switch code {
        case EACCES, EPERM, EROFS:
            return LibraryError(.readOnly, fill(tr("Cannot write to the export folder ({reason}): {folder}"), values))
        case ENOSPC, EDQUOT, EFBIG:
            return LibraryError(
                .diskFull, fill(tr("Not enough disk space in the export folder ({reason}): {folder}"), values))
        default:
            return LibraryError(.io, fill(tr("The export folder cannot be used ({reason}): {folder}"), values))
        }
    }
}
