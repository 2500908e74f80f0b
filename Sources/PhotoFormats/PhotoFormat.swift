// What a photo file is, from its first bytes: the one place that knows the signatures.
// Intake (CaptionLibrary), metadata (CaptionMetadata) and the previews all ask here.

/// The formats Caption accepts: raster formats that cameras, phones and editors save
/// photos in, and camera RAW (shown through the preview its camera embeds). Vector
/// drawings (SVG) are refused because they have no pixel size of their own and rendering
/// one runs a whole XML toolkit; icons, cursors and old bitmap formats (ICO, ANI, ICNS,
/// XPM, XBM, PNM, TGA, QTIF) are refused because nobody captions them, and each decoder
/// left out is one less parser that sees untrusted bytes. A format is recognised by its
/// content, never by its file name.
public enum PhotoFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp, tiff, bmp
    /// HEIF with HEVC pictures (HEIC, iPhones), through libheif's GdkPixbuf loader.
    case heif
    /// AV1 pictures in HEIF's container, through libavif's GdkPixbuf loader.
    case avif
    /// Camera RAW, through LibRaw: Adobe DNG, Canon CR2 and CR3, Nikon NEF, Sony ARW,
    /// Fujifilm RAF, Olympus ORF, Panasonic RW2.
    case dng, cr2, cr3, nef, arw, raf, orf, rw2

    /// The extension of the copy in the library.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .tiff: return "tif"
        case .heif: return "heic"
        default: return rawValue
        }
    }

    /// For file chooser filters and drag-and-drop (shared-mime-info's names).
    public var mimeType: String {
        switch self {
        case .dng: return "image/x-adobe-dng"
        case .cr2: return "image/x-canon-cr2"
        case .cr3: return "image/x-canon-cr3"
        case .nef: return "image/x-nikon-nef"
        case .arw: return "image/x-sony-arw"
        case .raf: return "image/x-fuji-raf"
        case .orf: return "image/x-olympus-orf"
        case .rw2: return "image/x-panasonic-rw2"
        default: return "image/" + rawValue
        }
    }

    public var displayName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .gif: return "GIF"
        case .webp: return "WebP"
        case .tiff: return "TIFF"
        case .bmp: return "BMP"
        case .heif: return "HEIF"
        case .avif: return "AVIF"
        case .dng: return "DNG"
        case .cr2: return "Canon CR2"
        case .cr3: return "Canon CR3"
        case .nef: return "Nikon NEF"
        case .arw: return "Sony ARW"
        case .raf: return "Fujifilm RAF"
        case .orf: return "Olympus ORF"
        case .rw2: return "Panasonic RW2"
        }
    }

    /// Camera RAW: stored as it is, shown through its embedded preview (LibRaw).
    public var isRaw: Bool {
        switch self {
        case .dng, .cr2, .cr3, .nef, .arw, .raf, .orf, .rw2: return true
        default: return false
        }
    }

    /// The names of the GdkPixbuf loaders that decode it (any one will do); none for RAW.
    /// libheif's loader (heif-gdk-pixbuf) calls itself "heif/avif" and reads both.
    public var pixbufLoaders: [String] {
        switch self {
        case .heif: return ["heif/avif", "heif"]
        case .avif: return ["avif", "heif/avif"]
        default: return isRaw ? [] : [rawValue]
        }
    }

    /// Whether Caption writes the caption into the file itself; the others get it in a
    /// sidecar. BMP has no place for it; Debian 12's exempi (2.6.3) cannot put XMP into
    /// HEIF or AVIF ("Can't inject XMP"); a RAW is never rewritten (sidecars are what RAW
    /// workflows expect, and proprietary maker notes do not survive rewriting).
    public var holdsEmbeddedCaption: Bool {
        switch self {
        case .jpeg, .png, .gif, .webp, .tiff: return true
        default: return false
        }
    }
}

/// What the first bytes of a file say it is.
public enum Sniffed: Equatable, Sendable {
    /// A format Caption accepts.
    case photo(PhotoFormat)
    /// A photo format Caption knows but nothing here decodes: named, never "damaged".
    case unsupported(name: String)
}

extension PhotoFormat {
    /// The format whose signature starts `head` (the more of the file, the surer: a TIFF
    /// camera RAW is told from a plain TIFF by its first directory), or nil.
    public static func sniff(_ head: UnsafeRawBufferPointer) -> Sniffed? {
        let reader = ByteReader(head)
        if reader.matches([0xFF, 0xD8, 0xFF]) { return .photo(.jpeg) }
        if reader.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .photo(.png) }
        if reader.matches(Array("GIF87a".utf8)) || reader.matches(Array("GIF89a".utf8)) { return .photo(.gif) }
        if reader.matches(Array("RIFF".utf8)) && reader.matches(Array("WEBP".utf8), at: 8) { return .photo(.webp) }
        if reader.matches(Array("FUJIFILMCCD-RAW ".utf8)) { return .photo(.raf) }
        if reader.matches(Array("IIRO".utf8)) || reader.matches(Array("IIRS".utf8))
            || reader.matches(Array("MMOR".utf8))
        {
            return .photo(.orf)
        }
        if reader.matches([0x49, 0x49, 0x55, 0x00]) { return .photo(.rw2) }
        if reader.matches([0x49, 0x49, 0x2A, 0x00]) || reader.matches([0x4D, 0x4D, 0x00, 0x2A])
            || reader.matches([0x49, 0x49, 0x2B, 0x00]) || reader.matches([0x4D, 0x4D, 0x00, 0x2B])
        {
            // IFD0 may lie beyond `head` (ImageMagick writes it last): then a plain TIFF.
            return .photo(TIFFDirectory.first(head)?.cameraRaw ?? .tiff)
        }
        if reader.matches(Array("BM".utf8)) && head.count >= 26 { return .photo(.bmp) }
        if let brands = ISOBMFF.brands(head) {
            if brands.contains("crx ") { return .photo(.cr3) }
            if brands.contains("avif") || brands.contains("avis") { return .photo(.avif) }
            if !brands.isDisjoint(with: ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]) {
                return .photo(.heif)
            }
            if brands.contains("jxl ") { return .unsupported(name: "JPEG XL") }
            return nil
        }
        // JPEG XL: a bare codestream, or the container's signature box.
        if reader.matches([0xFF, 0x0A])
            || reader.matches([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
        {
            return .unsupported(name: "JPEG XL")
        }
        if reader.matches(Array("8BPS".utf8)) { return .unsupported(name: "Photoshop (PSD)") }
        return nil
    }

    public static func sniff(_ bytes: [UInt8]) -> Sniffed? {
        bytes.withUnsafeBytes { sniff($0) }
    }

    /// The accepted format of these bytes, or nil (unknown, or known and not decodable).
    public static func of(_ bytes: [UInt8]) -> PhotoFormat? {
        if case .photo(let format) = sniff(bytes) { return format }
        return nil
    }
}
