// What the metadata tests share: scratch folders, photos in each format, Debian's own
// metadata readers (exiftool, exiv2) and WebP tools, and the built `caption` binary.

import CPixbuf
import Foundation
import PhotoTestSupport
import Testing
@testable import CaptionLibrary

/// A fresh folder under the temporary directory, removed when the value goes.
/// World-traversable so that a test running the command line as user nobody can reach in.
final class Scratch {
    let path: String

    init() {
        var template = Array((NSTemporaryDirectory() + "caption-metadata-XXXXXX").utf8CString)
        // The template array is never empty, so its base address exists.
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chmod(path, 0o755)
    }

    deinit {
        // Folders a test made read-only must be writable again to be removed.
        _ = try? Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "u+rwX", path]).waitUntilExit()
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let target = file(name)
        precondition(FileManager.default.createFile(atPath: target, contents: Data(bytes)), "cannot write \(target)")
        return target
    }

    func folder(_ name: String) -> String {
        let target = file(name)
        try? FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        return target
    }

    /// Every name in a folder, hidden ones included.
    func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}

enum Photos {
    /// A noisy photo `width`×`height` encoded by GdkPixbuf as `type` ("jpeg", "png", "tiff").
    static func make(_ type: String, width: Int = 64, height: Int = 48, seed: UInt32 = 1) -> [UInt8] {
        // NULL only when the pixels cannot be allocated, which these sizes never hit.
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height))!
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!  // a new pixbuf always has its pixels
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        var state = seed &* 2_654_435_761 | 1
        for y in 0..<height {
            for x in 0..<(width * 3) {
                state = state &* 1_664_525 &+ 1_013_904_223
                pixels[y * stride + x] = UInt8(truncatingIfNeeded: UInt32((x / 3 + y) % 200) &+ (state >> 24) % 40)
            }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        let options: [(String, String)] = type == "jpeg" ? [("quality", "90")] : []
        var keys: [UnsafeMutablePointer<CChar>?] = options.map { strdup($0.0) } + [nil]
        var values: [UnsafeMutablePointer<CChar>?] = options.map { strdup($0.1) } + [nil]
        defer { (keys + values).forEach { free($0) } }
        let ok = gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, type, &keys, &values, nil)
        precondition(ok != 0, "saving a \(type) failed")
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
    }

    /// A photo file in `format`, in `scratch`. WebP comes from Debian's cwebp (GdkPixbuf
    /// here has no WebP encoder), lossy or lossless: both give the simple format.
    static func file(_ format: PhotoFormat, in scratch: Scratch, name: String? = nil, seed: UInt32 = 1,
                     lossless: Bool = false) throws -> String {
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

    static func bytes(_ path: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: path) ?? Data())
    }

    static func sha256(_ path: String) -> String {
        bytes(path).withUnsafeBytes { Hash.sha256($0) }
    }
}

/// The outcome of running a program.
struct Outcome {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum Tool {
    /// Runs a program found on PATH (or by absolute path) and waits for it.
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:],
                    in folder: String? = nil) throws -> Outcome {
        let process = Process()
        let path = program.hasPrefix("/") ? program : "/usr/bin/" + program
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        var env = ProcessInfo.processInfo.environment
        env["LANGUAGE"] = "C"
        env["LC_ALL"] = "C.UTF-8"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both before waiting, so that a full pipe cannot stall the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData, as: UTF8.self))
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
    static func exiftool(_ path: String) throws -> Seen {
        let outcome = try Tool.run("exiftool", ["-j", "-G1", "-XMP-dc:Title", "-XMP-dc:Description",
                                                "-IFD0:ImageDescription", "-IPTC:all", "-ExifTool:Warning", "-ExifTool:Error", path])
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

    /// Both readers see this title and description, and neither complains.
    static func expect(_ path: String, title: String?, description: String?,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (name, seen) in [("exiftool", try exiftool(path)), ("exiv2", try exiv2(path))] {
            #expect(seen.title == title, "\(name): title", sourceLocation: sourceLocation)
            #expect(seen.summary == description, "\(name): description", sourceLocation: sourceLocation)
            #expect(seen.complaints.isEmpty, "\(name) complains: \(seen.complaints)", sourceLocation: sourceLocation)
        }
    }
}

enum Caption {
    /// The `caption` binary built beside this test bundle, or $CAPTION_BINARY.
    static let binary: String = {
        if let given = ProcessInfo.processInfo.environment["CAPTION_BINARY"] { return given }
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("caption").path
    }()

    static let isRoot = getuid() == 0

    /// Runs caption; `shellPrefix` (e.g. "ulimit -f 8;") runs it through /bin/sh, and
    /// `unprivileged` drops to user nobody when the tests run as root (root writes
    /// through any permission).
    static func run(_ arguments: [String], shellPrefix: String? = nil, unprivileged: Bool = false) throws -> Outcome {
        var command = [binary] + arguments
        if unprivileged && isRoot {
            command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        }
        if let shellPrefix {
            command = ["/bin/sh", "-c", shellPrefix + " exec \"$@\"", "sh"] + command
        }
        return try Tool.run(command[0], Array(command.dropFirst()))
    }

    /// Makes a folder tree belong to user nobody, for a command run `unprivileged`.
    static func giveToNobody(_ path: String) throws {
        guard isRoot else { return }
        _ = try Tool.run("/bin/chown", ["-R", "65534:65534", path])
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
        let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let pixels = try #require(gdk_pixbuf_get_pixels(pixbuf))
        var result: [UInt8] = []
        for y in 0..<height {
            result += UnsafeBufferPointer(start: pixels + y * stride, count: width * channels)
        }
        return result
    }
}
