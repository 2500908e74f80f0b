// Hostile photos, at least fifty, each through the real `caption --add`: a clear message or
// a clean save, never a crash, a hang over two seconds or a memory blow-up.

import CPixbuf
import CaptionTestSupport
import Foundation
import Testing

@testable import CaptionLibrary

/// One hostile case: how to make it, and what must come of it.
struct HostileCase: CustomStringConvertible, Sendable {
    enum Outcome: Sendable {
        case saved(width: Int, height: Int)
        /// Refused with a message starting so.
        case refused(String)
        /// Either, as long as it is clean: bit flips may land where a decoder does not look.
        case savedOrRefused
        /// A file cut short: saved with one line saying it looks incomplete when a decoder
        /// still shows it, else refused as damaged (where the cut falls decides which).
        case incompleteOrDamaged
    }

    let name: String
    let outcome: Outcome
    let make: @Sendable (Scratch) throws -> String
    var description: String { name }
}

enum HostileCases {
    static let formats: [(type: String, ext: String, bytes: @Sendable () -> [UInt8])] = [
        ("jpeg", "jpg", { Photos.jpeg(width: 96, height: 64) }),
        ("png", "png", { Photos.png(width: 96, height: 64) }),
        ("gif", "gif", { animatedGIF }),
        ("tiff", "tif", { Photos.make(width: 96, height: 64, type: "tiff") }),
        ("bmp", "bmp", { Photos.make(width: 96, height: 64, type: "bmp") }),
    ]

    static var all: [HostileCase] {
        var cases: [HostileCase] = []
        for format in formats {
            cases.append(
                HostileCase(name: "empty \(format.type)", outcome: .refused("The photo file is empty")) {
                    $0.write("empty.\(format.ext)", [])
                })
            for fraction in [10, 50, 90] {
                cases.append(
                    HostileCase(
                        name: "\(format.type) cut at \(fraction)%",
                        outcome: .incompleteOrDamaged
                    ) {
                        let bytes = format.bytes()
                        return $0.write("cut.\(format.ext)", Array(bytes.prefix(max(1, bytes.count * fraction / 100))))
                    })
            }
            for seed in 1...3 {
                cases.append(
                    HostileCase(name: "\(format.type) with flipped bits (seed \(seed))", outcome: .savedOrRefused) {
                        var bytes = format.bytes()
                        var random = SplitMix(seed: UInt64(seed))
                        // Past the signature, so the format is still recognised and a decoder runs.
                        for _ in 0..<8 {
                            let index = Int.random(in: 16..<bytes.count, using: &random)
                            bytes[index] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
                        }
                        return $0.write("flipped.\(format.ext)", bytes)
                    })
            }
            cases.append(
                HostileCase(
                    name: "random bytes named .\(format.ext)", outcome: .refused("Not an image Caption can read")
                ) {
                    var random = SplitMix(seed: 99)
                    return $0.write(
                        "random.\(format.ext)", (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) })
                })
        }
        let webpHeader =
            Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [UInt8](repeating: 7, count: 40)
        cases += [
            HostileCase(name: "empty webp", outcome: .refused("The photo file is empty")) { $0.write("e.webp", []) },
            HostileCase(name: "webp header with garbage", outcome: .savedOrRefused) { $0.write("g.webp", webpHeader) },
            HostileCase(name: "webp cut short", outcome: .savedOrRefused) {
                $0.write("c.webp", Array(webpHeader.prefix(14)))
            },
            HostileCase(name: "PNG declaring 100000×100000 pixels", outcome: .refused("The photo is too large")) {
                $0.write("bomb.png", Photos.pngHeader(width: 100_000, height: 100_000))
            },
            HostileCase(name: "PNG declaring 4 billion pixels wide", outcome: .savedOrRefused) {
                $0.write("wide.png", Photos.pngHeader(width: 0x7FFF_FFFF, height: 1))
            },
            HostileCase(name: "animated GIF", outcome: .saved(width: 2, height: 2)) {
                $0.write("anim.gif", animatedGIF)
            },
            HostileCase(name: "1×1 PNG", outcome: .saved(width: 1, height: 1)) {
                $0.write("one.png", Photos.png(width: 1, height: 1))
            },
            HostileCase(name: "CMYK JPEG", outcome: .saved(width: 96, height: 64)) {
                try converted($0, "cmyk.jpg", ["-colorspace", "CMYK"])
            },
            HostileCase(name: "16-bit PNG", outcome: .saved(width: 96, height: 64)) {
                try converted($0, "deep.png", ["-depth", "16"])
            },
            HostileCase(name: "text file named .jpg", outcome: .refused("Not an image Caption can read")) {
                $0.write("notes.jpg", Array("Dear diary, today I took no photos.\n".utf8))
            },
            HostileCase(name: "SVG drawing", outcome: .refused("A vector drawing (SVG)")) {
                $0.write(
                    "drawing.svg",
                    Array(
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><image href=\"/etc/passwd\"/></svg>"
                            .utf8))
            },
            HostileCase(name: "FIFO", outcome: .refused("Not a regular file")) {
                let path = $0.file("pipe.jpg")
                mkfifo(path, 0o600)
                return path
            },
            HostileCase(name: "device file", outcome: .refused("Not a regular file")) { _ in "/dev/zero" },
            HostileCase(name: "folder", outcome: .refused("This is a folder, not a photo")) {
                let path = $0.file("folder.jpg")
                mkdir(path, 0o700)
                return path
            },
            HostileCase(name: "missing file", outcome: .refused("Photo not found")) { $0.file("gone.jpg") },
        ]
        for orientation in 1...8 {
            let turned = orientation >= 5
            cases.append(
                HostileCase(
                    name: "EXIF orientation \(orientation)",
                    outcome: .saved(width: turned ? 64 : 96, height: turned ? 96 : 64)
                ) {
                    $0.write(
                        "oriented-\(orientation).jpg", withOrientation(Photos.jpeg(width: 96, height: 64), orientation))
                })
        }
        return cases
    }

    /// Two 2×2 frames with a graphic control extension each: an animation.
    static let animatedGIF: [UInt8] = {
        let header =
            Array("GIF89a".utf8) + [0x02, 0x00, 0x02, 0x00, 0x80, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF]
        let loop: [UInt8] = [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
        let frame: [UInt8] = [
            0x21, 0xF9, 0x04, 0x00, 0x0A, 0x00, 0x00, 0x00,
            0x2C, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x02, 0x00, 0x00,
            0x02, 0x02, 0x84, 0x51, 0x00,
        ]
        return header + loop + frame + frame + [0x3B]
    }()

    /// A JPEG with an EXIF block whose only tag is the orientation, right after SOI.
    static func withOrientation(_ jpeg: [UInt8], _ orientation: Int) -> [UInt8] {
        let tiff: [UInt8] = [
            0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00,  // little endian, IFD at 8
            0x01, 0x00,  // one entry
            0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00,  // 0x0112 SHORT ×1
            UInt8(orientation), 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,
        ]  // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg.prefix(2)) + app1 + Array(jpeg.dropFirst(2))
    }

    /// A 96×64 photo run through ImageMagick with `options` (colour spaces and depths that
    /// GdkPixbuf cannot write).
    static func converted(_ scratch: Scratch, _ name: String, _ options: [String]) throws -> String {
        let source = scratch.write("source-\(name).png", Photos.png(width: 96, height: 64))
        let target = scratch.file(name)
        let process = try Process.run(
            URL(fileURLWithPath: "/usr/bin/convert"), arguments: [source] + options + [target])
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        return target
    }
}

@Suite("Hostile photos")
struct HostilePhotoTests {
    @Test func thereAreAtLeastFiftyCases() {
        #expect(HostileCases.all.count >= 50)
    }

    @Test("each hostile photo gives a clear message or a clean save", arguments: HostileCases.all)
    func hostile(_ hostile: HostileCase) throws {
        let scratch = Scratch()
        let photo = try hostile.make(scratch)
        let library = scratch.file("library")
        let started = Date()
        // 1 GiB and 10 s of processor at most: a decoder that tried to allocate a bomb's
        // pixels would fail here rather than take the machine's memory. Under a sanitizer
        // (make test-sanitizers) the address-space limit would stop the sanitizer's own
        // shadow memory, so AddressSanitizer's allocation cap stands in for it.
        let sanitized = ProcessInfo.processInfo.environment["CAPTION_SANITIZER"] != nil
        let outcome = try Caption.run(
            ["--library", library, "--add", photo, "--title", "T", "--subtitle", "S"],
            environment: ["ASAN_OPTIONS": "max_allocation_size_mb=1024:detect_leaks=0"],
            shellPrefix: sanitized ? "ulimit -t 20;" : "ulimit -v 1048576; ulimit -t 10;")
        let seconds = Date().timeIntervalSince(started)
        #expect(seconds < (sanitized ? 10 : 2), "\(hostile.name) took \(seconds) s")
        #expect(
            outcome.status == 0 || outcome.status == 1, "\(hostile.name): exit \(outcome.status), \(outcome.stderr)")
        if outcome.status == 1 {
            #expect(outcome.stderr.hasPrefix("caption: "), "\(hostile.name)")
            #expect(
                outcome.stderr.split(separator: "\n").count == 1, "\(hostile.name): one line, got \(outcome.stderr)")
        }
        switch hostile.outcome {
        case .saved(let width, let height):
            #expect(outcome.status == 0, "\(hostile.name): \(outcome.stderr)")
            let entry = try Library(directory: library).entries().first
            #expect(
                entry?.width == width && entry?.height == height, "\(hostile.name): stored \(String(describing: entry))"
            )
        case .refused(let message):
            #expect(outcome.status == 1)
            #expect(outcome.stderr.hasPrefix("caption: " + message), "\(hostile.name): \(outcome.stderr)")
            let stored = (try? FileManager.default.contentsOfDirectory(atPath: library + "/photos")) ?? []
            #expect(stored.isEmpty, "\(hostile.name): a refused photo left \(stored)")
        case .incompleteOrDamaged:
            let stored = (try? FileManager.default.contentsOfDirectory(atPath: library + "/photos")) ?? []
            if outcome.status == 0 {
                #expect(
                    outcome.stderr.hasPrefix("caption: cut.")
                        && outcome.stderr.hasSuffix(
                            " looks incomplete (the end of the file is missing); it was added as it is\n"),
                    "\(hostile.name): \(outcome.stderr)")
                #expect(outcome.stderr.split(separator: "\n").count == 1)
                let bytes = try Data(contentsOf: URL(fileURLWithPath: photo))
                #expect(
                    try stored.map { try Data(contentsOf: URL(fileURLWithPath: library + "/photos/" + $0)) } == [bytes],
                    "\(hostile.name): stored as it is")
            } else {
                #expect(outcome.stderr.hasPrefix("caption: The photo is damaged or incomplete"), "\(hostile.name)")
                #expect(stored.isEmpty, "\(hostile.name): a refused photo left \(stored)")
            }
        case .savedOrRefused:
            if outcome.status == 0 {
                #expect(try consistencyProblems(library) == [])
            }
        }
    }

    @Test("a HEIF whose item locations point nowhere: one line, without the loader's own warnings")
    func heifWithBrokenLocationsSaysOneLine() throws {
        let scratch = Scratch()
        let heic = try ExternalPhotos.make(.heic, in: scratch.path)
        var bytes = Photos.bytes(heic)
        let iloc = try #require(
            bytes.indices.dropLast(4).first { bytes[$0..<($0 + 4)].elementsEqual(Array("iloc".utf8)) })
        let size =
            Int(bytes[iloc - 4]) << 24 | Int(bytes[iloc - 3]) << 16 | Int(bytes[iloc - 2]) << 8 | Int(bytes[iloc - 1])
        // The last item's extent (offset and length) past any file.
        for index in (iloc + size - 12)..<(iloc + size - 4) { bytes[index] = 0xFF }
        let broken = scratch.write("broken.heic", bytes)
        let outcome = try Caption.run([
            "--library", scratch.file("lib"), "--add", broken, "--title", "T", "--subtitle", "S",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "caption: The photo is damaged or incomplete: \(broken)\n", "\(outcome.stderr)")
    }

    /// A 700-byte JPEG whose standard XMP points at extended XMP and whose one extended part
    /// says the whole is 0xFFFFFFFF bytes.
    static func extendedXMPBomb(_ scratch: Scratch) throws -> String {
        let guid = Array("0123456789ABCDEF0123456789ABCDEF".utf8)
        let packet =
            "<?xpacket begin='\u{FEFF}' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'>"
            + "<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><rdf:Description rdf:about=''"
            + " xmlns:xmpNote='http://ns.adobe.com/xmp/note/' xmpNote:HasExtendedXMP='"
            + String(decoding: guid, as: UTF8.self) + "'/></rdf:RDF></x:xmpmeta><?xpacket end='w'?>"
        let standard = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(packet.utf8)
        let extended =
            Array("http://ns.adobe.com/xmp/extension/".utf8) + [0] + guid + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]
            + Array("<x:xmpmeta/>".utf8)
        func segment(_ payload: [UInt8]) -> [UInt8] {
            [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        let jpeg = Photos.jpeg(width: 16, height: 16)
        return scratch.write(
            "bomb.jpg", Array(jpeg.prefix(2)) + segment(standard) + segment(extended) + jpeg.dropFirst(2))
    }

    @Test("extended XMP announcing 4 GiB allocates nothing: --add reading the words and --export answer in 1 GiB")
    func extendedXMPBombAllocatesNothing() throws {
        let scratch = Scratch()
        let bomb = try Self.extendedXMPBomb(scratch)
        let library = scratch.file("lib")
        // As the hostile photos run: 1 GiB of address space, or AddressSanitizer's cap.
        let sanitized = ProcessInfo.processInfo.environment["CAPTION_SANITIZER"] != nil
        func run(_ arguments: [String]) throws -> Outcome {
            try Caption.run(
                ["--library", library] + arguments,
                environment: ["ASAN_OPTIONS": "max_allocation_size_mb=1024:detect_leaks=0"],
                shellPrefix: sanitized ? "ulimit -t 20;" : "ulimit -v 1048576; ulimit -t 10;")
        }
        let untitled = try run(["--add", bomb, "--subtitle", "S"])
        #expect(untitled.status == 1 && untitled.stderr == "caption: Title required\n", "\(untitled.stderr)")
        let added = try run(["--add", bomb, "--title", "T", "--subtitle", "S"])
        #expect(added.status == 0, "\(added.stderr)")
        let exported = try run(["--export", scratch.file("out")])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.file("out/T.jpg")))
    }
}
