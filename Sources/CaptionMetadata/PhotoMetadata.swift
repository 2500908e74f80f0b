// The caption a photo carries in its XMP, read and written: the title and description that
// gThumb, digiKam, darktable, Shotwell and Geeqie show.

import CExempi
import CaptionLibrary
import CaptionText
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The words a photo carries, by field: only the fields it has words for (an empty or
/// blank value counts as none).
public struct PhotoCaption: Sendable, Equatable {
    public private(set) var found: [CaptionField: String]

    public init(_ found: [CaptionField: String] = [:]) {
        self.found = found.filter { PhotoMetadata.meaningful($0.value) != nil }
    }

    /// What a photo reads as once Caption has written `words` into it.
    public init(_ words: CaptionWords) {
        self.init(Dictionary(uniqueKeysWithValues: CaptionField.allCases.map { ($0, words[$0]) }))
    }

    /// Each field's words as the XMP packet holds them.
    init(_ packet: XMPPacket) {
        self.init(
            Dictionary(
                uniqueKeysWithValues: CaptionField.allCases.compactMap { field in
                    packet.words(field).map { (field, $0) }
                }))
    }

    public static let none = PhotoCaption()

    /// Whether these are the words a photo reads as once `words` were written into it:
    /// Title and Subtitle as they are, and each optional field that holds words (one left
    /// empty leaves the photo's own, whatever it is).
    public func holds(_ words: CaptionWords) -> Bool {
        (CaptionField.required + words.filledOptionalFields).allSatisfy {
            found[$0] == PhotoMetadata.meaningful(words[$0])
        }
    }

    public subscript(field: CaptionField) -> String? { found[field] }
}

/// Why a caption could not be written into a photo.
public enum EmbeddingError: Error, Equatable, Sendable {
    /// The format has no place for XMP that exempi can write (BMP), or the file is not a
    /// photo Caption knows.
    case unsupported
    /// exempi refused the file even after its old metadata was taken out; the XMP
    /// Toolkit's error number (XMPErr_…).
    case unwritable(Int32)
    /// The file system refused a write; the error number (errno).
    case io(Int32)
    /// Caption will not write into this file, for the reason given (translated): a
    /// structure it cannot follow, or cannot fill without changing something else.
    case refused(String)
}

public enum PhotoMetadata {
    /// The words in a photo's own XMP packet. Safe to call from any thread (the window
    /// calls it off the main thread for each photo it opens).
    ///
    /// Only XMP counts: exempi would otherwise fill dc:description from Exif
    /// ImageDescription, where cameras write "OLYMPUS DIGITAL CAMERA", and dc:title from
    /// IPTC. A photo that cannot be read, or whose XMP is damaged, has no words: its
    /// metadata must never stop it from being opened.
    public static func read(_ path: String) -> PhotoCaption {
        read(path, oversized: hasOversizedXMP(path) || claimsMoreXMPThanItHolds(path))
    }

    /// `read`, told whether the photo's XMP is too large to parse (then it has no words).
    static func read(_ path: String, oversized: Bool) -> PhotoCaption {
        // exempi opens whatever it is given: a FIFO would block it for good.
        var info = stat()
        guard !oversized, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .none }
        return Exempi.locked { () -> PhotoCaption in
            guard let file = xmp_files_open_new(path.pathBytes, Exempi.options(XMP_OPEN_READ, XMP_OPEN_ONLYXMP)) else {
                return .none
            }
            defer {
                xmp_files_close(file, XMP_CLOSE_NOOPTION)
                xmp_files_free(file)
            }
            guard case .text(let text) = storedPacket(file),
                let parsed = text.withUnsafeBytes({ XMPPacket(parsing: $0) })
            else { return .none }
            return PhotoCaption(parsed)
        }
    }

    /// Whether the photo's extended XMP claims more than the file holds (a JPEG's
    /// `HasExtendedXMP` part announcing 4 GiB): the XMP Toolkit would allocate what it
    /// claims, so such a photo's XMP is not opened with it, as an oversized one is not.
    static func claimsMoreXMPThanItHolds(_ path: String) -> Bool {
        guard case .success(let bytes) = DiskFile.read(path), Containers.format(of: bytes) == .jpeg,
            let jpeg = JPEG(bytes)
        else { return false }
        return JPEGXMP.announcesMoreThanTheFile(jpeg)
    }

    /// Whether the photo stores an XMP packet too large to parse (`XMPPacket.maximumElements`),
    /// found by Caption's own walkers before the XMP Toolkit, which parses whatever it opens,
    /// sees it. Formats Caption does not walk are left to the toolkit.
    static func hasOversizedXMP(_ path: String) -> Bool {
        guard case .success(let bytes) = DiskFile.read(path), let format = Containers.format(of: bytes),
            [.jpeg, .png, .webp, .tiff].contains(format)
        else { return false }
        return XMPPacket.isOversized(ReadBack.storedPackets(bytes, path: path, format: format))
    }

    /// A file's XMP packet exactly as stored; the toolkit's own reading merges legacy Exif
    /// and IPTC into what it returns, which is not what the photo says in XMP.
    enum StoredPacket: Equatable {
        case none
        /// The packet is not well-formed XMP, or the metadata around it cannot be read.
        case damaged
        case text([UInt8])
    }

    /// The packet of a file opened with exempi, checked to parse. Inside `Exempi.locked`.
    static func storedPacket(_ file: OpaquePointer) -> StoredPacket {
        let text = XMPString()
        guard xmp_files_get_xmp_xmpstring(file, text.pointer, nil) else {
            return Exempi.lastError == 0 ? .none : .damaged
        }
        guard text.bytes.count > 0 else { return .none }
        guard XMPPacket(parsing: text.bytes) != nil else { return .damaged }
        return .text(Array(text.bytes))
    }

    /// Text that shows something, as it is; nil for a missing, empty or blank one.
    static func meaningful(_ text: String?) -> String? {
        guard let text, text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else { return nil }
        return text
    }

    /// A sidecar's content: an XMP packet holding only the caption (an empty field is left
    /// out), in UTF-8, for a file saved as `NAME.xmp` beside `NAME.jpg`.
    public static func sidecar(_ caption: CaptionWords, credits: Credits = .none) -> String {
        Exempi.locked { () -> String in
            let packet = XMPPacket()
            for field in CaptionField.allCases { _ = packet.setWords(field, xmlSafe(caption[field])) }
            _ = packet.setCredits(credits)
            // Serialising a packet just built from plain strings does not fail.
            return packet.serializedForSidecar() ?? ""
        }
    }

    /// Writes `caption` into the photo at `path`, in place, keeping its other metadata;
    /// see `Embedder` for what goes where. `path` must be a file the caller owns and may
    /// lose (the exporter's temporary copy): exempi's safe update replaces it with a new
    /// file, and a photo whose metadata is damaged is written again without it.
    public static func embed(
        _ caption: CaptionWords, credits: Credits = .none, inCopyAt path: String
    ) throws(EmbeddingError) {
        let bytes: [UInt8]
        switch DiskFile.read(path) {
        case .success(let read): bytes = read
        case .failure(let failure): throw .io(failure.code)
        }
        try Embedder.embed(caption, credits: credits, into: path, holding: bytes)
    }

    /// Characters XML 1.0 cannot carry, even escaped, leave: the C0 controls other than tab
    /// and line breaks, and the noncharacters U+FFFE and U+FFFF. The form never lets them
    /// through; an entry made another way might hold them, and XMP with them is unreadable.
    static func xmlSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafeInXML) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isUnsafeInXML(scalar) { scalars.append(scalar) }
        return String(scalars)
    }

    private static func isUnsafeInXML(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
            || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }
}
