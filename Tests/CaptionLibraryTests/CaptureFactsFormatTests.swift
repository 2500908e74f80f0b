// The caption variables' facts (time taken, camera, lens) from every format Caption takes,
// on photos made from one camera JPEG by the encoders people use: heif-enc, avifenc,
// cwebp -metadata exif, ImageMagick and exiftool for PNG's eXIf, and a DNG read by LibRaw,
// each under two time zones.

import CaptionTestSupport
import Foundation
import PhotoFormats
import Testing

@testable import CaptionLibrary

@Suite struct CaptureFactsFormatTests {
    static let taken = "2024:05:17 14:03:22"
    static let camera = "Canon EOS R5"
    static let lens = "RF24-105mm F4 L IS USM"
    static let expected = "\(taken)\t\(camera)\t\(lens)"

    /// A JPEG as a camera writes it, its Exif set by exiftool.
    static func cameraJPEG(in scratch: Scratch) throws -> String {
        let source = try ExternalPhotos.make(
            .restartJPEG, in: scratch.path, width: 320, height: 240, name: "camera.jpg")
        try tag(source)
        return source
    }

    static func tag(_ path: String) throws {
        let outcome = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-Make=Canon", "-Model=Canon EOS R5", "-DateTimeOriginal=\(taken)",
                "-LensModel=\(lens)", path,
            ])
        #expect(outcome.status == 0, "exiftool: \(outcome.stderr)")
    }

    /// The photo at `path` made from `source` by `kind`'s encoder.
    static func encode(_ source: String, as kind: String, in scratch: Scratch) throws -> String {
        let target = scratch.file("camera." + kind)
        let outcome: Outcome
        switch kind {
        case "heic": outcome = try Tool.run("heif-enc", ["-q", "60", "-o", target, source])
        case "avif": outcome = try Tool.run("avifenc", ["-s", "10", "-j", "1", source, target])
        case "webp": outcome = try Tool.run("cwebp", ["-quiet", "-metadata", "exif", source, "-o", target])
        default:
            // ImageMagick drops the Exif (-strip); exiftool writes it as PNG's eXIf chunk.
            let converted = try Tool.run("convert", [source, "-strip", target])
            #expect(converted.status == 0, "convert: \(converted.stderr)")
            outcome = try Tool.run(
                "exiftool", ["-q", "-overwrite_original", "-tagsFromFile", source, "-exif:all", target])
        }
        #expect(outcome.status == 0, "\(kind): \(outcome.stderr)")
        return target
    }

    static func facts(_ path: String, libRaw: Bool = false, zone: String) throws -> String {
        let tool = URL(fileURLWithPath: Caption.binary).deletingLastPathComponent()
            .appendingPathComponent("caption-capture-facts").path
        let outcome = try Tool.run(tool, (libRaw ? ["--libraw"] : []) + [path], environment: ["TZ": zone])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return outcome.stdout.trimmingCharacters(in: .newlines)
    }

    @Test(
        "each format's Exif gives the same time, camera and lens, in any time zone",
        arguments: ["jpg", "heic", "avif", "webp", "png"])
    func eachFormat(kind: String) throws {
        let scratch = Scratch()
        let source = try Self.cameraJPEG(in: scratch)
        let photo = kind == "jpg" ? source : try Self.encode(source, as: kind, in: scratch)
        // The encoders keep the Exif: the photo carries it where its format says.
        for zone in ["UTC", "Asia/Tokyo"] {
            #expect(try Self.facts(photo, zone: zone) == Self.expected, "\(kind) under TZ=\(zone)")
        }
    }

    @Test("LibRaw's reading of a RAW gives the camera's own clock in any time zone")
    func rawThroughLibRaw() throws {
        let scratch = Scratch()
        let dng = try ExternalPhotos.make(.dng, in: scratch.path, name: "camera.dng")
        try Self.tag(dng)
        for zone in ["UTC", "America/New_York", "Asia/Tokyo"] {
            #expect(try Self.facts(dng, libRaw: true, zone: zone) == Self.expected, "TZ=\(zone)")
            #expect(try Self.facts(dng, zone: zone) == Self.expected, "TZ=\(zone)")
        }
    }

    @Test("a photo without Exif, a PNG without eXIf and a WebP without EXIF have no facts")
    func noFacts() throws {
        let scratch = Scratch()
        for kind in [ExternalPhotos.Kind.webp, .heic, .avif] {
            let photo = try ExternalPhotos.make(kind, in: scratch.path)
            #expect(CaptureFactsReader.facts(at: photo) == .none, "\(kind)")
        }
        let png = scratch.file("plain.png")
        #expect(try Tool.run("convert", ["-size", "8x8", "xc:red", png]).status == 0)
        #expect(CaptureFactsReader.facts(at: png) == .none)
        #expect(CaptureFactsReader.facts(at: scratch.file("missing.jpg")) == .none)
    }

    @Test("chunks that claim more than the file holds end the walk without facts")
    func truncatedChunks() throws {
        let scratch = Scratch()
        let source = try Self.cameraJPEG(in: scratch)
        for kind in ["webp", "png"] {
            let photo = try Self.encode(source, as: kind, in: scratch)
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: photo)))
            // Cut inside the Exif chunk: its header says more than is there.
            let exif = Array((kind == "webp" ? "EXIF" : "eXIf").utf8)
            let at = try #require(
                (0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == exif }, "\(kind) has its Exif chunk")
            bytes.removeSubrange((at + 20)...)
            let cut = scratch.file("cut." + kind)
            try Data(bytes).write(to: URL(fileURLWithPath: cut))
            #expect(CaptureFactsReader.facts(at: cut) == .none, "\(kind)")
        }
    }
}
