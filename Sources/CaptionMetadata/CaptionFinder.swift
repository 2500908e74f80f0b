// A photo's caption as other apps left it, found the way the Metadata Working Group says:
// a sidecar beside it first, then the file's XMP, IPTC-IIM and Exif; and where it was found.

import CExempi
import CaptionLibrary
import CaptionText
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

/// Where words were found.
public enum CaptionOrigin: Sendable, Equatable {
    /// An XMP sidecar beside the photo, at this path.
    case sidecar(String)
    /// The photo's own XMP.
    case xmp
    /// The photo's IPTC-IIM (ObjectName, Caption-Abstract).
    case iptc
    /// The photo's Exif ImageDescription.
    case exif
}

/// A caption found, and where.
public struct FoundCaption: Sendable, Equatable {
    public var caption: PhotoCaption
    /// nil when there are no words.
    public var origin: CaptionOrigin?
    /// The photo's XMP was too large to read (`XMPPacketLimit`), so its words, if any,
    /// were not looked for there.
    public var xmpTooLarge: Bool

    public init(caption: PhotoCaption, origin: CaptionOrigin?, xmpTooLarge: Bool = false) {
        self.caption = caption
        self.origin = origin
        self.xmpTooLarge = xmpTooLarge
    }
}

public enum CaptionFinder {
    /// The caption of the photo at `path`, in this order, the first place with words
    /// winning (title and description are taken together, from one place):
    /// 1. `PHOTO.EXT.xmp` (darktable, digiKam, Caption), then `PHOTO.xmp` (Adobe): a
    ///    sidecar is where those apps keep the newer words;
    /// 2. the file, in MWG order: XMP; IIM where the XMP has no words, or where the
    ///    Photoshop IPTC digest shows the IIM was changed after the XMP was written (by
    ///    an app that knows no XMP), which exempi's smart handler works out; Exif
    ///    ImageDescription last, and never a camera's stock text ("OLYMPUS DIGITAL
    ///    CAMERA", "SONY DSC").
    /// Damaged metadata anywhere reads as no words there. Safe from any thread.
    public static func find(_ path: String) -> FoundCaption {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return FoundCaption(caption: .none, origin: nil)
        }
        for sidecar in [SidecarWriter.path(for: path)] + [SidecarWriter.adobePath(for: path)].compactMap({ $0 }) {
            let words = sidecarWords(sidecar)
            if words != .none { return FoundCaption(caption: words, origin: .sidecar(sidecar)) }
        }
        // The toolkit parses whatever packet it opens, however large: such a photo's XMP
        // and IIM are not read (its Exif still is).
        let oversized = PhotoMetadata.hasOversizedXMP(path)
        let unreadable = oversized || PhotoMetadata.claimsMoreXMPThanItHolds(path)
        let stored = PhotoMetadata.read(path, oversized: unreadable)
        let reconciled = unreadable ? .none : reconciledWords(path)
        let exif = exifDescription(path)
        // The toolkit's reading differs from the stored XMP where IIM won (the title can
        // come from nowhere else) or where it took Exif ImageDescription for the
        // description, without the spaces cameras pad it with. Exif alone never overrides
        // words the XMP has.
        let fromExif = reconciled[.subtitle].map { Self.unpadded($0) == exif.map(Self.unpadded) } ?? false
        let fromIIM =
            reconciled != .none
            && (reconciled[.title] != stored[.title] || (reconciled[.subtitle] != stored[.subtitle] && !fromExif))
        if fromIIM { return FoundCaption(caption: reconciled, origin: .iptc) }
        if stored != .none { return FoundCaption(caption: stored, origin: .xmp) }
        if let exif, !isStockText(exif) {
            return FoundCaption(
                caption: PhotoCaption([.subtitle: exif]), origin: .exif, xmpTooLarge: oversized)
        }
        return FoundCaption(caption: .none, origin: nil, xmpTooLarge: oversized)
    }

    /// A sidecar's dc:title and dc:description; none when it is missing or damaged.
    static func sidecarWords(_ path: String) -> PhotoCaption {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size < 16 << 20,
            case .success(let bytes) = DiskFile.read(path)
        else { return .none }
        return Exempi.locked { () -> PhotoCaption in
            guard let packet = bytes.withUnsafeBytes({ XMPPacket(parsing: $0) }) else { return .none }
            return PhotoCaption(packet)
        }
    }

    /// The words as exempi's smart handler reconciles XMP, IIM and Exif (JPEG, TIFF).
    static func reconciledWords(_ path: String) -> PhotoCaption {
        Exempi.locked { () -> PhotoCaption in
            guard let file = xmp_files_open_new(path.pathBytes, Exempi.options(XMP_OPEN_READ, XMP_OPEN_USESMARTHANDLER))
            else {
                return .none
            }
            defer {
                xmp_files_close(file, XMP_CLOSE_NOOPTION)
                xmp_files_free(file)
            }
            guard let xmp = xmp_files_get_new_xmp(file) else { return .none }
            let packet = XMPPacket(owning: xmp)
            return PhotoCaption(packet)
        }
    }

    /// Exif IFD0 ImageDescription, as text.
    static func exifDescription(_ path: String) -> String? {
        guard case .success(let bytes) = DiskFile.read(path), let format = Containers.format(of: bytes),
            let blob = Containers.exifBlob(bytes, format: format), let tiff = TIFF(blob),
            let entry = tiff.entries.first(where: { $0.tag == ExifText.imageDescription }), entry.type == 2,
            let value = tiff.value(of: entry)
        else { return nil }
        let text = String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
        return PhotoMetadata.meaningful(text)
    }

    /// Exif text as exempi gives it: without the spaces or NULs a camera fills the field with.
    static func unpadded(_ text: String) -> Substring {
        let padding: (Character) -> Bool = { $0 == " " || $0 == "\0" }
        guard let first = text.firstIndex(where: { !padding($0) }), let last = text.lastIndex(where: { !padding($0) })
        else { return "" }
        return text[first...last]
    }

    /// What cameras write into ImageDescription by themselves: upper-case ASCII naming
    /// the camera, not words anyone typed.
    static func isStockText(_ text: String?) -> Bool {
        guard let text else { return true }
        let trimmed = text.trimmingCharacters(in: " ")
        let stock = ["DIGITAL CAMERA", "DSC", "CAMERA", "DIGITAL IMAGE", "KODAK", "MINOLTA", "SAMSUNG", "PENTAX"]
        return trimmed.unicodeScalars.allSatisfy { $0.isASCII && !("a"..."z").contains($0) }
            && stock.contains { trimmed.contains($0) }
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
