// What the metadata tests add to CaptionTestSupport: photos in each format, Debian's own
// metadata readers (exiftool, exiv2), and decoded pixels to compare.

import CPixbuf
import CaptionLibrary
import CaptionTestSupport
import Foundation
import Testing

extension Photos {
    /// A photo file in `format`, in `scratch`. WebP comes from Debian's cwebp (GdkPixbuf
    /// here has no WebP encoder), lossy or lossless: both give the simple format.
    static func file(
        _ format: PhotoFormat, in scratch: Scratch, name: String? = nil, seed: UInt32 = 1,
        lossless: Bool = false
    ) throws -> String {
        let name = name ?? "photo-\(seed).\(format.fileExtension)"
        switch format {
        case .webp:
            let png = scratch.write(name + ".source.png", make("png", seed: seed))
            let target = scratch.file(name)
            let outcome = try Tool.run("cwebp", ["-quiet"] + (lossless ? ["-lossless"] : []) + [png, "-o", target])
            try #require(outcome.status == 0, "cwebp failed: \(outcome.stderr)")
            try FileManager.default.removeItem(atPath: png)
            return target
        case .jpeg: return scratch.write(name, make("jpeg", seed: seed))
        case .png: return scratch.write(name, make("png", seed: seed))
        case .tiff: return scratch.write(name, make("tiff", seed: seed))
        case .gif, .bmp: return scratch.write(name, make(format == .bmp ? "bmp" : "png", seed: seed))
        case .heif: return try ExternalPhotos.make(.heic, in: scratch.path, name: name)
        case .avif: return try ExternalPhotos.make(.avif, in: scratch.path, name: name)
        case .dng: return try ExternalPhotos.make(.dng, in: scratch.path, name: name)
        default: throw ExternalPhotos.Failure(description: "no test file of \(format) can be made here")
        }
    }

}

/// What a third-party reader found in a file.
struct Seen: Equatable {
    var title: String?
    /// dc:description.
    var summary: String?
    /// Exif IFD0 ImageDescription.
    var exifDescription: String?
    /// The IPTC tags found, by name.
    var iptc: [String] = []
    /// What the reader complained about (its warnings, or a failure).
    var complaints: [String] = []
}

/// Debian's exiftool and exiv2, as another photo application would read a file.
enum Readers {
    /// The tags among `names` that exiv2 reads in the file (exiv2's keys), each with its
    /// value: a language alternative's default item, the datasets of a repeated IIM tag
    /// (keywords) joined by ", ".
    static func exiv2Tags(_ path: String, _ names: Set<String>) throws -> [String: String] {
        let outcome = try Tool.run("exiv2", ["-Pkt", path])
        try #require(outcome.status == 0 || outcome.status == 253, "exiv2: \(outcome.stderr)")
        var found: [String: String] = [:]
        for line in outcome.stdout.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            let key = String(line[..<space])
            guard names.contains(key) else { continue }
            var value = String(line[space...].drop { $0 == " " })
            if value.hasPrefix("lang=\"x-default\" ") { value.removeFirst("lang=\"x-default\" ".count) }
            found[key] = found[key].map { $0 + ", " + value } ?? value
        }
        return found
    }

    /// The same through GExiv2, as Shotwell and gThumb read (Tests/fixtures/read-credits):
    /// the credits, or the tags given.
    static func gexiv2Tags(_ path: String, _ names: [String] = []) throws -> [String: String] {
        let outcome = try Tool.run(CameraPhotos.folder + "/read-credits", [path] + names)
        try #require(outcome.status == 0, "read-credits: \(outcome.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: String])
    }

    static func exiftool(_ path: String) throws -> Seen {
        let outcome = try Tool.run(
            "exiftool",
            [
                "-j", "-G1", "-XMP-dc:Title", "-XMP-dc:Description",
                "-IFD0:ImageDescription", "-IPTC:all", "-ExifTool:Warning", "-ExifTool:Error", path,
            ])
        var seen = Seen()
        if outcome.status != 0 { seen.complaints.append("exiftool exit \(outcome.status): \(outcome.stderr)") }
        let parsed = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]]
        let object = parsed?.first ?? [:]
        func text(_ key: String) -> String? { object[key].map { "\($0)" } }
        seen.title = text("XMP-dc:Title")
        seen.summary = text("XMP-dc:Description")
        seen.exifDescription = text("IFD0:ImageDescription")
        seen.iptc = object.keys.filter { $0.hasPrefix("IPTC:") }.sorted()
        seen.complaints += ["ExifTool:Warning", "ExifTool:Error"].compactMap(text)
        return seen
    }

    static func exiv2(_ path: String) throws -> Seen {
        let outcome = try Tool.run("exiv2", ["-Pkt", path])
        var seen = Seen()
        // exiv2 exits 253 for a file with no metadata at all, and says so on stderr.
        if outcome.status != 0 && outcome.status != 253 { seen.complaints.append("exiv2 exit \(outcome.status)") }
        let noise = outcome.stderr.split(separator: "\n").filter { !$0.contains("No Exif data found in the file") }
        seen.complaints += noise.map(String.init)
        for line in outcome.stdout.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            let key = String(line[..<space])
            var value = String(line[space...].drop { $0 == " " })
            if value.hasPrefix("lang=\"x-default\" ") { value.removeFirst("lang=\"x-default\" ".count) }
            switch key {
            case "Xmp.dc.title": seen.title = value
            case "Xmp.dc.description": seen.summary = value
            case "Exif.Image.ImageDescription": seen.exifDescription = value
            default: if key.hasPrefix("Iptc.") { seen.iptc.append(key) }
            }
        }
        return seen
    }

    /// The first object of exiftool's `-j` output.
    static func firstObject(_ json: String) throws -> [String: Any]? {
        (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first
    }

    /// Both readers see this title and description, and neither complains.
    static func expect(
        _ path: String, title: String?, description: String?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for (name, seen) in [("exiftool", try exiftool(path)), ("exiv2", try exiv2(path))] {
            #expect(seen.title == title, "\(name): title", sourceLocation: sourceLocation)
            #expect(seen.summary == description, "\(name): description", sourceLocation: sourceLocation)
            #expect(seen.complaints.isEmpty, "\(name) complains: \(seen.complaints)", sourceLocation: sourceLocation)
        }
    }
}

enum PixelReader {
    /// The decoded pixels, row after row without padding, as GdkPixbuf gives them.
    static func pixels(_ path: String) throws -> [UInt8] {
        var error: UnsafeMutablePointer<GError>?
        let loaded = gdk_pixbuf_new_from_file(path, &error)
        let message = error.map { String(cString: $0.pointee.message) } ?? ""
        g_clear_error(&error)
        let pixbuf = try #require(loaded, "GdkPixbuf cannot decode \(path): \(message)")
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let width = Int(gdk_pixbuf_get_width(pixbuf))
        let height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let pixels = try #require(gdk_pixbuf_get_pixels(pixbuf))
        var result: [UInt8] = []
        for y in 0..<height {
            result += UnsafeBufferPointer(start: pixels + y * stride, count: width * channels)
        }
        return result
    }
}
