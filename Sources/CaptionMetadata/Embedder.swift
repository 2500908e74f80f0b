// Writing a caption into a photo file: Caption's own code for JPEG, PNG, WebP and TIFF
// (`Recaption`), exempi's for GIF, which has no other metadata to keep in step.

import CExempi
import CaptionLibrary
import CaptionText

#if canImport(Glibc)
    import Glibc
#endif

/// What ends up in a captioned photo is `Recaption`'s to say, for every format but GIF:
/// the caption's own fields change and every other byte stays. A GIF's XMP is written by
/// exempi (XMPFiles, safe update: a new file beside the old one, then a rename); GIF has
/// no Exif or IIM for the toolkit to reconcile.
enum Embedder {
    /// `path` holds `bytes`, which are in a format Caption knows. Gives the credits written:
    /// `credits` less those the photo says itself, unless they replace the photo's.
    @discardableResult
    static func embed(
        _ caption: CaptionWords, credits: Credits = .none, into path: String, holding bytes: [UInt8]
    ) throws(EmbeddingError) -> Credits {
        guard let format = Containers.format(of: bytes), format.holdsEmbeddedCaption else { throw .unsupported }
        let credits = PhotoCredits.leavingOutOwn(credits, photo: bytes, at: path)
        guard format == .gif else {
            let captioned = try Recaption.bytes(caption, credits: credits, bytes, format: format)
            if captioned != bytes { try replace(path, with: captioned) }
            return credits
        }
        if let failure = write(caption, credits: credits, into: path) {
            // A file system that ran out of room (or turned read-only) makes exempi fail
            // like a damaged file would; ask the file system before blaming the photo.
            if let code = DiskFile.roomProblem(besides: path, bytes: bytes.count) { throw .io(code) }
            throw .unwritable(failure)
        }
        return credits
    }

    private static func replace(_ path: String, with bytes: [UInt8]) throws(EmbeddingError) {
        if let code = DiskFile.rewrite(path, bytes) { throw .io(code) }
    }

    /// The XMP packet a file holds, as stored.
    static func storedPacket(_ path: String) -> PhotoMetadata.StoredPacket {
        Exempi.locked { () -> PhotoMetadata.StoredPacket in
            guard let file = xmp_files_open_new(path.pathBytes, Exempi.options(XMP_OPEN_READ, XMP_OPEN_ONLYXMP)) else {
                return .damaged
            }
            defer {
                xmp_files_close(file, XMP_CLOSE_NOOPTION)
                xmp_files_free(file)
            }
            return PhotoMetadata.storedPacket(file)
        }
    }

    /// exempi's part for a GIF, under its lock: the caption into the file's XMP, then the
    /// safe update. Returns the toolkit's error number, or nil when it is written.
    static func write(_ caption: CaptionWords, credits: Credits, into path: String) -> Int32? {
        Exempi.locked { () -> Int32? in
            let flags = Exempi.options(XMP_OPEN_FORUPDATE, XMP_OPEN_USESMARTHANDLER)
            guard let file = xmp_files_open_new(path.pathBytes, flags) else { return failure() }
            var closed = false
            defer {
                if !closed { xmp_files_close(file, XMP_CLOSE_NOOPTION) }
                xmp_files_free(file)
            }
            // Damaged XMP is not always an error to the toolkit (it may take a packet it
            // cannot parse for none): parse the packet separately to be sure.
            guard PhotoMetadata.storedPacket(file) != .damaged else { return failure(Int32(XMPErr_BadXMP)) }
            let packet: XMPPacket
            if let existing = xmp_files_get_new_xmp(file) {
                packet = XMPPacket(owning: existing)
            } else if Exempi.lastError == 0 {
                packet = XMPPacket()
            } else {
                return failure()
            }
            guard
                packet.setCaption(caption.map(PhotoMetadata.xmlSafe)),
                packet.setCredits(credits),
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
