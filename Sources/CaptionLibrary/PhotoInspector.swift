// Photo checks shared by the window and the library: what a file is, how big, whether it
// is whole and decodes. Only photo formats are accepted (see PhotoFormat, in PhotoFormats).
// A file GdkPixbuf decodes (warnings included) is a photo; camera RAW is one when LibRaw
// opens it.

import POSIXFiles
@_exported import PhotoFormats
import Pixbufs
import Threads

#if canImport(Glibc)
    import Glibc
#endif

extension PhotoFormat {
    /// SVG, plain or as XML: said apart from "not an image" because the fix differs.
    static func looksLikeVector(_ head: UnsafeRawBufferPointer) -> Bool {
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        let start = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        guard start.hasPrefix("<") else { return false }
        return text.contains("<svg") || text.contains("<!DOCTYPE svg")
    }
}

/// What a photo is, found without decoding its pixels.
public struct PhotoInfo: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var format: PhotoFormat
    public var byteCount: Int
    /// The file ends early (its format's own structure says so) and a decoder shows it all
    /// the same, with grey or missing rows: a photo, kept as it is, and the user is told.
    /// Only the full check knows; the quick one reads no further than the header.
    public var isIncomplete: Bool

    public init(width: Int, height: Int, format: PhotoFormat, byteCount: Int, isIncomplete: Bool = false) {
        self.width = width
        self.height = height
        self.format = format
        self.byteCount = byteCount
        self.isIncomplete = isIncomplete
    }
}

/// A photo read and fully checked, ready to be saved: the bytes exactly as checked (a
/// save stores these, not whatever the file holds by then), what they are, and their
/// SHA-256. Holds the whole file in memory (at most 256 MiB).
public struct LoadedPhoto: Sendable {
    /// The path it was read from, for messages and the entry's original name.
    public let path: String
    public let info: PhotoInfo
    /// Lowercase hex; the copy in the library is named after it.
    public let sha256: String
    let bytes: [UInt8]

    /// What the user should hear about a photo that is accepted: nil for a whole one.
    public var notice: PhotoNotice? { info.isIncomplete ? .incomplete : nil }
}

/// Checks photos. Every function is safe to call from any thread: each uses its own
/// GdkPixbuf loader, and GdkPixbuf serialises the loaders that are not thread-safe.
public enum PhotoInspector {
    public static let maximumBytes = POSIXFiles.maximumPhotoBytes
    /// The most memory one decode of a photo may take. GdkPixbuf's loaders hold the whole
    /// picture (the PNG, GIF and BMP loaders decode it at full size even when asked for
    /// less), and so does the view at 100 %: the limit is that picture's memory, so a long
    /// thin picture of many pixels is taken when it fits (docs/decisions.md).
    public static let maximumDecodedBytes = 1 << 30
    /// The pixels of the largest photo whose decode fits, for decoders that count pixels.
    public static let maximumPixels = maximumDecodedBytes / 4

    /// The memory GdkPixbuf takes for a picture `width` × `height`: rows of at most four
    /// bytes a pixel (RGBA), each a whole number of 32-bit words.
    static func decodedBytes(width: Int, height: Int) -> Int {
        let (row, over) = width.multipliedReportingOverflow(by: 4)
        let (all, overAll) = ((row + 3) / 4 * 4).multipliedReportingOverflow(by: height)
        return over || overAll ? Int.max : all
    }

    static func fitsInMemory(width: Int, height: Int) -> Bool {
        decodedBytes(width: width, height: height) <= maximumDecodedBytes
    }

    /// The quick check, for showing a message as soon as a photo is chosen: the file is a
    /// readable, non-empty regular file of at most 256 MiB, in an accepted format, whose
    /// header gives a picture that decodes in at most 1 GiB. Reads only as far as the header
    /// (all of a TIFF, whose decoder reads the whole file first); decodes nothing.
    public static func inspect(_ path: String) throws(LibraryError) -> PhotoInfo {
        let file = try PhotoFile(opening: path)
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var filled = 0
        // The signature needs the first few bytes; a read may return fewer than asked.
        while filled < 32 {
            let count = try file.read(into: &chunk, from: filled)
            if count == 0 { break }
            filled += count
        }
        let format = try chunk.withBytes { (head) throws(LibraryError) -> PhotoFormat in
            try recognise(UnsafeRawBufferPointer(rebasing: head[..<filled]), path: path)
        }
        if format.isRaw {
            // LibRaw reads only the RAW's directories to tell its size.
            guard let size = RawPhoto.size(path: path) else { throw damaged(path) }
            return PhotoInfo(width: size.width, height: size.height, format: format, byteCount: file.size)
        }
        if format == .heif || format == .avif,
            let size = chunk.withUnsafeBytes({ ISOBMFF.primarySize(UnsafeRawBufferPointer(rebasing: $0[..<filled])) })
        {
            try checkPixels(size, path: path)
            return PhotoInfo(width: size.width, height: size.height, format: format, byteCount: file.size)
        }
        let head = Array(chunk[..<min(filled, 32)])
        let decoder = PhotoDecoder(mode: .headerOnly, format: format)
        var count = filled
        while count > 0 && !decoder.knowsSize {
            let ok = chunk.withUnsafeBytes { decoder.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            if !ok { break }
            count = try file.read(into: &chunk, from: 0)
        }
        _ = decoder.close()
        if format == .tiff && !decoder.knowsSize && !decoder.refused {
            // GdkPixbuf's TIFF loader says nothing of a TIFF it does not read (12-bit or
            // floating-point samples); libtiff may read it, so its directory gives the size.
            let bytes = try PhotoFile(opening: path).readAll()
            if let size = bytes.withUnsafeBytes({ TIFFDirectory.first($0)?.shownSize }) {
                try checkPixels(size, path: path)
                return PhotoInfo(width: size.width, height: size.height, format: format, byteCount: file.size)
            }
        }
        // A GIF with no colour table or a BMP stored top row first and run-length coded is
        // refused by its loader at the header; the full check decodes it mended.
        if (format == .gif || format == .bmp) && !decoder.knowsSize,
            let size = head.withUnsafeBytes({ PhotoStructure.headerSize($0, format: format) })
        {
            try checkPixels(size, path: path)
            return PhotoInfo(width: size.width, height: size.height, format: format, byteCount: file.size)
        }
        return try decoder.result(format: format, byteCount: file.size, path: path)
    }

    /// A look at the first bytes only, for sorting out files dropped on the window: true
    /// for a format Caption takes, false for a file that was read and is not one (or is not
    /// a regular file), nil when it cannot be told here (missing, unreadable, empty, too
    /// large), which the full check names once the photo is on the form.
    public static func startsLikePhoto(_ path: String) -> Bool? {
        do throws(LibraryError) {
            let file = try PhotoFile(opening: path)
            var head = [UInt8](repeating: 0, count: 32)
            var filled = 0
            while filled < head.count {
                let count = try file.read(into: &head, from: filled)
                if count == 0 { break }
                filled += count
            }
            return head.withUnsafeBytes { PhotoFormat.sniff(UnsafeRawBufferPointer(rebasing: $0[..<filled])) != nil }
        } catch {
            return error.kind == .photoNotRegular ? false : nil
        }
    }

    /// The full check: everything `inspect` checks, and a decoder shows the file (whether
    /// it is whole is `isIncomplete`).
    public static func verify(_ path: String) throws(LibraryError) -> PhotoInfo {
        try load(path).info
    }

    /// Reads a photo once and checks it fully (as `verify`), hashing it meanwhile on a
    /// second thread: everything a save needs from the photo itself. The window loads
    /// while the user types, so pressing Enter only has to store it.
    public static func load(_ path: String) throws(LibraryError) -> LoadedPhoto {
        let bytes = try PhotoFile(opening: path).readAll()
        return try bytes.withBytes { (data) throws(LibraryError) -> LoadedPhoto in
            var checked: Result<PhotoInfo, LibraryError> = .failure(LibraryError(.io, ""))
            var hash = ""
            Parallel.run(
                [
                    {
                        checked = Result { () throws(LibraryError) -> PhotoInfo in
                            try LoaderWarnings.quiet { () throws(LibraryError) -> PhotoInfo in
                                try verify(data, path: path)
                            }
                        }
                    }
                ],
                {
                    hash = Hash.sha256(data)
                })
            return LoadedPhoto(path: path, info: try checked.get(), sha256: hash, bytes: bytes)
        }
    }

    /// The full check on a photo already in memory; `path` is for messages only. The
    /// incremental loader first (it stops at the header of a photo with too many pixels);
    /// where it fails, the whole-file loader, as every viewer uses it (arithmetic-coded
    /// JPEGs, for one, decode only that way). "Damaged" only when neither shows the file:
    /// one cut short that a decoder still shows is a photo, marked incomplete
    /// (docs/decisions.md).
    static func verify(_ bytes: UnsafeRawBufferPointer, path: String) throws(LibraryError) -> PhotoInfo {
        let format = try recognise(bytes, path: path)
        // GdkPixbuf decodes a truncated JPEG, PNG, GIF, BMP or WebP without an error (it
        // fills the missing rows), so the format's own structure is what tells the user.
        let complete = PhotoStructure.isComplete(bytes, format: format)
        if format.isRaw {
            // LibRaw opens a RAW cut short without a word: what counts then is whether the
            // preview the window shows is still all there.
            guard let size = RawPhoto.size(bytes), complete || RawPhoto.hasPreview(bytes) else {
                throw damaged(path)
            }
            return PhotoInfo(
                width: size.width, height: size.height, format: format, byteCount: bytes.count,
                isIncomplete: !complete)
        }
        // libheif refuses any HEIF or AVIF whose boxes point past the end (and says so on
        // standard error, which the command line keeps to one line): no need to ask it.
        if !complete && (format == .heif || format == .avif) { throw damaged(path) }
        if format == .heif || format == .avif, let size = ISOBMFF.primarySize(bytes) {
            try checkPixels(size, path: path)
        }
        // JPEG decoding at an eighth of the size still runs every scan through the decoder
        // (so damage there is found) at a fraction of the cost.
        let decoder = PhotoDecoder(mode: format == .jpeg ? .eighth : .full, format: format)
        let written = decoder.write(bytes)
        let closed = decoder.close()
        // A file cut short whose loader took every byte and has a picture, even if closing
        // complained ("Not all frames of the GIF image were loaded"), shows in every viewer.
        if written && (closed || !complete) && decoder.hasPixels {
            var info = try decoder.result(format: format, byteCount: bytes.count, path: path)
            info.isIncomplete = !complete
            return info
        }
        // The loader refused a photo over the limit before decoding: that stands.
        if decoder.refused { _ = try decoder.result(format: format, byteCount: bytes.count, path: path) }
        // The size for the pixel limit: the loader's header, or the TIFF's own directory.
        var known: (width: Int, height: Int)? = decoder.knowsSize ? decoder.headerSize : nil
        if format == .tiff, let directory = TIFFDirectory.first(bytes),
            let width = directory.integer(256), let height = directory.integer(257)
        {
            known = (width, height)
        }
        if format == .gif || format == .bmp {
            // A header of no size is no picture; GdkPixbuf's size query would complain of it
            // on standard error.
            guard let size = PhotoStructure.headerSize(bytes, format: format) else { throw damaged(path) }
            known = known ?? size
        }
        // A TIFF is decoded small: its size is its directory's, and libtiff (which reads the
        // TIFFs GdkPixbuf's loader refuses) then never holds the whole picture.
        let fitted = format == .tiff && known != nil
        let whole: Pixbuf
        switch WholeFileDecode.pixbuf(bytes, size: known, fitting: fitted ? (1024, 1024) : nil) {
        case .success(let picture): whole = picture
        case .failure(let failure):
            // A TIFF whose samples no decoder here reads is named, not damaged.
            if format == .tiff, failure.isUnsupported, let directory = TIFFDirectory.first(bytes) {
                if directory.sampleLayout.format == 3 {
                    throw LibraryError.make(
                        .unsupportedFormat, "{bits}-bit floating-point TIFF is not supported: {path}",
                        ["bits": String(directory.sampleLayout.bits), "path": path])
                }
                throw LibraryError.make(
                    .unsupportedFormat, "This kind of TIFF is not supported ({reason}): {path}",
                    ["reason": failure.message, "path": path])
            }
            throw damaged(path)
        }
        var width = whole.width
        var height = whole.height
        if fitted, let shown = TIFFDirectory.first(bytes)?.shownSize {
            (width, height) = shown
        } else if let orientation = whole.option("orientation").flatMap({ Int($0) }), (5...8).contains(orientation) {
            swap(&width, &height)
        }
        guard width > 0 && height > 0 else { throw damaged(path) }
        return PhotoInfo(
            width: width, height: height, format: format, byteCount: bytes.count, isIncomplete: !complete)
    }

    static func damaged(_ path: String) -> LibraryError {
        LibraryError.make(.photoDamaged, "The photo is damaged or incomplete: {path}", ["path": path])
    }

    static func checkPixels(_ size: (width: Int, height: Int), path: String) throws(LibraryError) {
        guard !fitsInMemory(width: size.width, height: size.height) else { return }
        throw tooManyPixels(size, path: path)
    }

    static func tooManyPixels(_ size: (width: Int, height: Int), path: String) -> LibraryError {
        let needed = decodedBytes(width: size.width, height: size.height)
        return LibraryError.make(
            .photoTooManyPixels,
            "The photo is too large to decode ({width} × {height} pixels take {size} MiB; at most {limit} MiB): {path}",
            [
                "width": String(size.width), "height": String(size.height),
                "size": needed == Int.max ? "∞" : String((needed + (1 << 20) - 1) >> 20),
                "limit": String(maximumDecodedBytes >> 20), "path": path,
            ])
    }

    /// The accepted format of these first bytes, or the error saying why not. `rawAvailable`
    /// is asked for RAW photos only, since asking opens LibRaw.
    static func recognise(
        _ head: UnsafeRawBufferPointer, path: String, rawAvailable: () -> Bool = { RawPhoto.isAvailable }
    ) throws(LibraryError) -> PhotoFormat {
        switch PhotoFormat.sniff(head) {
        case nil:
            if PhotoFormat.looksLikeVector(head) {
                throw LibraryError.make(
                    .vectorImage,
                    "A vector drawing (SVG), not a photo; export it as PNG or JPEG first: {path}", ["path": path])
            }
            throw LibraryError.make(
                .notAnImage,
                "Not an image Caption can read (JPEG, PNG, WebP, HEIF, AVIF, GIF, TIFF, BMP or camera RAW): {path}",
                ["path": path])
        case .unsupported(let name):
            throw LibraryError.make(
                .unsupportedFormat, "{format} photos are not supported: no decoder for them here: {path}",
                ["format": name, "path": path])
        case .photo(let format):
            let decodable =
                format.isRaw ? rawAvailable() : format.pixbufLoaders.contains(where: PhotoDecoder.installed.contains)
            if !decodable {
                throw LibraryError.make(
                    .noDecoder, "{format} photos cannot be read here: no decoder for them is installed: {path}",
                    ["format": format.displayName, "path": path])
            }
            return format
        }
    }
}
