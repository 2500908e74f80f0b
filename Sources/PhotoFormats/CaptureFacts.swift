// What the camera recorded about a photo, read from its Exif wherever the format keeps it:
// when it was taken, the camera and the lens. For the caption variables ({date}, {time},
// {camera}, {lens}), and where the camera focused (for the zoomed view).

public struct CaptureFacts: Sendable, Equatable {
    /// DateTimeOriginal as written: "2024:05:17 14:03:22".
    public var captured: String?
    /// Make and Model, with the make left out when the model already names it
    /// ("Canon EOS R5", not "Canon Canon EOS R5").
    public var camera: String?
    public var lens: String?
    /// Where the main subject is, as the camera or phone recorded it (Exif SubjectArea or
    /// SubjectLocation): in the picture as stored, before its orientation.
    public var subject: SubjectPoint?
    /// Where the photo was taken, as its GPS directory says.
    public var position: GeoPosition?

    public init(
        captured: String? = nil, camera: String? = nil, lens: String? = nil, subject: SubjectPoint? = nil,
        position: GeoPosition? = nil
    ) {
        self.captured = captured
        self.camera = camera
        self.lens = lens
        self.subject = subject
        self.position = position
    }

    public static let none = CaptureFacts()

    static let make = 271, model = 272, dateTime = 306, exifPointer = 34665
    static let dateTimeOriginal = 36867, lensModel = 42036
    static let orientation = 274, subjectArea = 37396, subjectLocation = 41492
    static let pixelXDimension = 40962, pixelYDimension = 40963
    static let gpsPointer = 34853, gpsLatitudeRef = 1, gpsLatitude = 2, gpsLongitudeRef = 3, gpsLongitude = 4

    /// The facts in a JPEG's Exif (APP1) or in a TIFF-based file (TIFF, DNG and the RAWs
    /// built on TIFF); none for anything else or damaged Exif.
    public static func read(_ bytes: UnsafeRawBufferPointer) -> CaptureFacts {
        let reader = ByteReader(bytes)
        if reader.matches([0xFF, 0xD8]) {
            guard let headers = JPEGSegments.headers(reader) else { return .none }
            let exifMark: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
            for segment in headers.segments where segment.marker == 0xE1 {
                let payload = segment.payload
                guard payload.count > 6, reader.matches(exifMark, at: payload.lowerBound) else { continue }
                let tiff = UnsafeRawBufferPointer(rebasing: bytes[(payload.lowerBound + 6)..<payload.upperBound])
                return fromTIFF(tiff)
            }
            return .none
        }
        return fromTIFF(bytes)
    }

    /// The facts in an Exif payload as PNG's eXIf and WebP's EXIF chunks hold it: a TIFF
    /// header and its directories, which some writers precede with JPEG's "Exif\0\0".
    public static func fromExif(_ bytes: UnsafeRawBufferPointer) -> CaptureFacts {
        let exifMark: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        if ByteReader(bytes).matches(exifMark) {
            return fromTIFF(UnsafeRawBufferPointer(rebasing: bytes[6...]))
        }
        return fromTIFF(bytes)
    }

    /// The facts in a HEIF's Exif item: a big-endian count of bytes to skip to the TIFF
    /// header, then the Exif.
    public static func fromHEIFExif(_ bytes: UnsafeRawBufferPointer) -> CaptureFacts {
        guard bytes.count > 4 else { return .none }
        let skip = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard skip >= 0, skip < bytes.count - 4 else { return .none }
        return fromExif(UnsafeRawBufferPointer(rebasing: bytes[(4 + skip)...]))
    }

    static func fromTIFF(_ bytes: UnsafeRawBufferPointer) -> CaptureFacts {
        guard let ifd0 = TIFFDirectory.first(bytes) else { return .none }
        let exif = ifd0.integer(exifPointer).flatMap { ifd0.directory(at: $0) }
        return CaptureFacts(
            captured: clean(exif?.text(dateTimeOriginal)) ?? clean(ifd0.text(dateTime)),
            camera: camera(make: ifd0.text(make), model: ifd0.text(model)), lens: clean(exif?.text(lensModel)),
            subject: exif.flatMap { subject(in: $0, orientation: ifd0.integer(orientation) ?? 1) },
            position: ifd0.integer(gpsPointer).flatMap { ifd0.directory(at: $0) }.flatMap(position(in:)))
    }

    /// GPSLatitude and GPSLongitude (degrees, minutes, seconds), south and west negative by
    /// their references; nil when either is missing, damaged or off the globe.
    static func position(in gps: TIFFDirectory) -> GeoPosition? {
        func degrees(_ tag: Int, _ reference: Int, negative: Character) -> Double? {
            guard let parts = gps.rationals(tag), parts.count >= 3 else { return nil }
            let value = parts[0] + parts[1] / 60 + parts[2] / 3600
            return gps.text(reference)?.first == negative ? -value : value
        }
        guard let latitude = degrees(gpsLatitude, gpsLatitudeRef, negative: "S"),
            let longitude = degrees(gpsLongitude, gpsLongitudeRef, negative: "W"),
            latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        return GeoPosition(latitude: latitude, longitude: longitude)
    }

    /// SubjectArea's first two values (a point, or the centre of a circle or rectangle), or
    /// else SubjectLocation; with the picture's size where Exif gives it.
    static func subject(in exif: TIFFDirectory, orientation: Int) -> SubjectPoint? {
        let point = [subjectArea, subjectLocation].lazy.compactMap { tag -> [Int]? in
            guard let values = exif.integers(tag), values.count >= 2 else { return nil }
            return values
        }.first
        guard let point else { return nil }
        let width = exif.integer(pixelXDimension)
        let height = exif.integer(pixelYDimension)
        return SubjectPoint(
            x: point[0], y: point[1], width: width.flatMap { $0 > 0 ? $0 : nil },
            height: height.flatMap { $0 > 0 ? $0 : nil }, orientation: (1...8).contains(orientation) ? orientation : 1)
    }

    /// Make and Model as one name, the make left out when the model already names it.
    public static func camera(make: String?, model: String?) -> String? {
        let make = clean(make)
        let model = clean(model)
        if let make, let model, !model.lowercased().hasPrefix(make.lowercased().split(separator: " ").first ?? "") {
            return make + " " + model
        }
        return model ?? make
    }

    /// Exif text without its NUL padding and blanks; nil when nothing is left.
    public static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        let kept = text.unicodeScalars.filter { $0 != "\0" }
        let trimmed = String(String.UnicodeScalarView(kept)).split(separator: " ", omittingEmptySubsequences: true)
            .joined(separator: " ")
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// A place on the Earth in degrees: north and east positive.
public struct GeoPosition: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A point in a photo's stored picture, as Exif gives the subject's place: pixels from the
/// top left before the orientation is applied.
public struct SubjectPoint: Sendable, Equatable {
    public var x: Int
    public var y: Int
    /// The stored picture's size as Exif states it, when it does.
    public var width: Int?
    public var height: Int?
    /// Exif's orientation, 1 to 8.
    public var orientation: Int

    public init(x: Int, y: Int, width: Int? = nil, height: Int? = nil, orientation: Int = 1) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.orientation = orientation
    }

    /// The point as fractions (0 to 1) of the photo as it is shown, turned as its
    /// orientation says. Exif's size goes with the point (the camera wrote both); `stored`,
    /// the decoder's, stands in when Exif has none. Nil for a point outside the picture.
    public func upright(stored: (width: Int, height: Int)) -> (x: Double, y: Double)? {
        let width = Double(width ?? stored.width)
        let height = Double(height ?? stored.height)
        guard width > 0, height > 0, x >= 0, y >= 0, Double(x) <= width, Double(y) <= height else { return nil }
        let fx = Double(x) / width
        let fy = Double(y) / height
        switch orientation {
        case 2: return (1 - fx, fy)
        case 3: return (1 - fx, 1 - fy)
        case 4: return (fx, 1 - fy)
        case 5: return (fy, fx)
        case 6: return (1 - fy, fx)
        case 7: return (1 - fy, 1 - fx)
        case 8: return (fy, 1 - fx)
        default: return (fx, fy)
        }
    }
}
