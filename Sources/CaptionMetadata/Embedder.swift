// Writing a caption into a photo file with exempi's safe update, and the repairs around it:
// WebP that exempi would break, damaged metadata, IPTC where there was none, and the
// legacy fields exempi leaves alone.

import CExempi
import CaptionLibrary

#if canImport(Glibc)
    import Glibc
#endif

/// What ends up in an exported photo, by format:
/// - all: XMP dc:title and dc:description (`x-default`), written by exempi (XMPFiles, safe
///   update: a new file beside the old one, then a rename); an empty field removes its
///   property. The photo's other XMP stays, except that exempi moves a JPEG's or TIFF's
///   tiff: and exif: properties into its Exif, where they belong.
/// - JPEG: also Exif IFD0 ImageDescription = the description (the Metadata Working Group's
///   rule for JPEG), which exempi's JPEG handler writes as UTF-8 (creating the Exif APP1
///   segment when the photo had none) and removes with an empty description.
/// - TIFF: the same in its own IFD0 ImageDescription, by exempi's TIFF handler.
/// - IPTC-IIM, where the photo has it (JPEG, TIFF): exempi's smart handlers write the title
///   into ObjectName (2:05, cut at a character boundary to its 64 bytes; the whole title
///   stays in XMP) and the description into Caption-Abstract (2:120), as UTF-8 with the
///   character set 1:90, and update the Photoshop IPTC digest, as the Metadata Working
///   Group asks. A photo without IIM gets none: exempi would create a block, so its
///   Photoshop resources are put back as they were (none stays none).
/// - Fields other apps show instead (so that no old words survive anywhere): the Windows
///   XP tags XPTitle, XPSubject and XPComment where present (`ExifText`); Exif UserComment
///   where present (exempi in JPEG and TIFF, `ExifText` in PNG and WebP);
///   photoshop:Headline (and so IIM 2:105) when it held the old title; other dc:title and
///   dc:description languages (removed); in PNG, the "Title", "Description" and "Raw
///   profile type iptc" text chunks (removed); Exif ImageDescription in PNG and WebP
///   (exempi writes only their XMP).
/// - WebP in the simple format (one VP8 or VP8L chunk) is first rewritten in the extended
///   format (a VP8X chunk in front): exempi 2.6 overwrites the image chunk's header when it
///   converts such a file itself, which leaves a WebP no reader can open.
/// A photo whose metadata exempi cannot read (damaged XMP, Exif or IPTC) is written fresh:
/// its metadata segments or chunks are taken out and the caption written alone.
enum Embedder {
    /// `path` holds `bytes`, which are in a format Caption knows.
    static func embed(_ caption: PhotoCaption, into path: String, holding bytes: [UInt8]) throws(EmbeddingError) {
        guard let format = Containers.format(of: bytes), format.holdsEmbeddedCaption else { throw .unsupported }
        var current = bytes
        if format == .webp, let extended = Containers.extendedWebP(bytes) {
            try replace(path, with: extended)
            current = extended
        }
        var exifChunk: [UInt8]?
        if format == .webp, let (without, chunk) = RIFF.takingOutExif(current) {
            try replace(path, with: without)
            current = without
            exifChunk = chunk
        }
        // exempi rewrites a PNG's XMP chunk in place when the new packet is shorter, and
        // leaves the end of the old one after it: exiv2 then rejects the XML. So the packet
        // comes out of the file here and goes back through exempi as if new.
        var packet: [UInt8]?
        if format == .png, case .text(let text) = storedPacket(path), let stripped = Containers.withoutXMP(current) {
            try replace(path, with: stripped)
            current = stripped
            packet = text
        }
        var fresh = false
        while true {
            if let failure = write(caption, into: path, over: packet) {
                // A file system that ran out of room (or turned read-only) makes exempi fail
                // like a damaged file would; ask the file system before blaming the photo.
                if let code = DiskFile.roomProblem(besides: path, bytes: current.count) { throw .io(code) }
                guard !fresh, let stripped = Containers.withoutMetadata(current, format: format) else {
                    throw .unwritable(failure)
                }
                try replace(path, with: stripped)
                current = stripped
                packet = nil
                exifChunk = nil  // written fresh: the old Exif may be what was damaged
                fresh = true
                continue
            }
            break
        }
        // The legacy blocks exempi rewrote go back to what was handed to it.
        let written: [UInt8]
        switch DiskFile.read(path) {
        case .success(let read): written = read
        case .failure(let failure): throw .io(failure.code)
        }
        var repaired = Containers.restoringLegacy(written, as: current, format: format)
        if let exifChunk, let back = RIFF.puttingBackExif(repaired ?? written, exifChunk) { repaired = back }
        let safe = PhotoCaption(
            title: PhotoMetadata.xmlSafe(caption.title ?? ""),
            description: PhotoMetadata.xmlSafe(caption.description ?? ""))
        if let legacy = Containers.withCaptionInLegacyFields(repaired ?? written, format: format, safe) {
            repaired = legacy
        }
        if let scrubbed = Containers.withoutOldValues(repaired ?? written, original: current, format: format) {
            repaired = scrubbed
        }
        if let repaired { try replace(path, with: repaired) }
    }

    private static func replace(_ path: String, with bytes: [UInt8]) throws(EmbeddingError) {
        if let code = DiskFile.rewrite(path, bytes) { throw .io(code) }
    }

    /// The XMP packet a file holds, as stored.
    static func storedPacket(_ path: String) -> PhotoMetadata.StoredPacket {
        Exempi.locked { () -> PhotoMetadata.StoredPacket in
            guard let file = xmp_files_open_new(path, Exempi.options(XMP_OPEN_READ, XMP_OPEN_ONLYXMP)) else {
                return .damaged
            }
            defer {
                xmp_files_close(file, XMP_CLOSE_NOOPTION)
                xmp_files_free(file)
            }
            return PhotoMetadata.storedPacket(file)
        }
    }

    /// exempi's part, under its lock: the caption into the file's XMP (or into `packet`, the
    /// XMP taken out of the file beforehand), then the safe update. Returns the toolkit's
    /// error number, or nil when it is written.
    static func write(_ caption: PhotoCaption, into path: String, over stored: [UInt8]? = nil) -> Int32? {
        Exempi.locked { () -> Int32? in
            let flags = Exempi.options(XMP_OPEN_FORUPDATE, XMP_OPEN_USESMARTHANDLER)
            guard let file = xmp_files_open_new(path, flags) else { return failure() }
            var closed = false
            defer {
                if !closed { xmp_files_close(file, XMP_CLOSE_NOOPTION) }
                xmp_files_free(file)
            }
            // Damaged XMP is not always an error to the toolkit (it may take a packet it
            // cannot parse for none): parse the packet separately to be sure.
            guard PhotoMetadata.storedPacket(file) != .damaged else { return failure(Int32(XMPErr_BadXMP)) }
            let packet: XMPPacket
            if let stored {
                guard let parsed = stored.withUnsafeBytes({ XMPPacket(parsing: $0) }) else {
                    return failure(Int32(XMPErr_BadXMP))
                }
                packet = parsed
            } else if let existing = xmp_files_get_new_xmp(file) {
                packet = XMPPacket(owning: existing)
            } else if Exempi.lastError == 0 {
                packet = XMPPacket()
            } else {
                return failure()
            }
            guard
                packet.setCaption(
                    title: PhotoMetadata.xmlSafe(caption.title ?? ""),
                    description: PhotoMetadata.xmlSafe(caption.description ?? "")),
                xmp_files_can_put_xmp(file, packet.pointer),
                xmp_files_put_xmp(file, packet.pointer)
            else { return failure() }
            closed = true
            guard xmp_files_close(file, XMP_CLOSE_SAFEUPDATE) else { return failure() }
            return nil
        }
    }

    /// The last exempi error, never 0: a refusal without a reason still refuses.
    private static func failure(_ code: Int32? = nil) -> Int32 {
        let code = code ?? Exempi.lastError
        return code == 0 ? Int32(XMPErr_TBD) : code
    }
}
