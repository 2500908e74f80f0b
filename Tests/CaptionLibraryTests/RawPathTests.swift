// Paths are bytes: a library folder, an export folder and a photo whose names are not UTF-8
// (a Latin-1 é, 0xE9) reach the system as they are, and are shown with U+FFFD.

import CaptionTestSupport
import POSIXFiles
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Paths that are not UTF-8")
struct RawPathTests {
    /// `name` + the byte 0xE9, as a Latin-1 system names "café".
    func latin1(_ name: String) -> String { name + FilePath.string(fromBytes: [0xE9]) }

    /// The names in a folder, as their bytes.
    func names(in folder: String) -> [[UInt8]] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var found: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = entryName(entry)
            if name != "." && name != ".." { found.append(FilePath.bytes(name)) }
        }
        return found.sorted { $0.lexicographicallyPrecedes($1) }
    }

    func write(_ path: String, _ bytes: [UInt8]) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(POSIXFiles.writeAll(descriptor, bytes) == nil)
    }

    @Test func bytesThatAreNotUTF8ComeBackAsTheyWere() {
        let samples: [[UInt8]] = [
            Array("plain/ascii.jpg".utf8), Array("港口/café.jpg".utf8),
            [0x63, 0x61, 0x66, 0xE9],  // Latin-1
            [0x80], [0xC0, 0x80],  // a lone continuation, an overlong NUL
            [0xED, 0xA0, 0x80],  // a surrogate
            [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
            [0xE6, 0xB8],  // a character cut short
            [0xF4, 0x8F, 0xBA, 0x80],  // U+10FE80 itself, as UTF-8
        ]
        for bytes in samples {
            let held = FilePath.string(fromBytes: bytes)
            #expect(FilePath.bytes(held) == bytes, "\(bytes)")
            #expect(held.pathBytes.dropLast().map { UInt8(bitPattern: $0) } == bytes)
        }
        #expect(FilePath.string(fromBytes: Array("港口".utf8)) == "港口", "UTF-8 is read as text")
        #expect(FilePath.display(FilePath.string(fromBytes: [0x63, 0x61, 0x66, 0xE9])) == "caf\u{FFFD}")
    }

    @Test func aLibraryAnExportFolderAndAPhotoNamedInLatin1AreUsedAsNamed() throws {
        let scratch = Scratch()
        // Foundation, which removes the scratch folder, cannot name these.
        defer { _ = try? Tool.run("/bin/sh", ["-c", "rm -rf \"$1\"/*", "sh", scratch.path]) }
        let photo = scratch.file(latin1("caf") + ".png")
        try write(photo, Photos.png(seed: 5))
        let library = scratch.file(latin1("lib-"))
        let added = try Caption.run(["--library", library, "--add", photo, "--title", "Quay", "--subtitle", "Dusk"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(names(in: scratch.path).contains(Array("lib-".utf8) + [0xE9]), "the folder as named, byte for byte")
        #expect(!names(in: scratch.path).contains(Array("lib-\u{FFFD}".utf8)))

        let listed = try Caption.run(["--library", library, "--list", "--json"])
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("\"originalName\": \"caf\u{FFFD}.png\""), "shown with U+FFFD: \(listed.stdout)")

        let out = scratch.file(latin1("out-"))
        let exported = try Caption.run(["--library", library, "--export", out])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(names(in: out) == [Array("Quay.png".utf8)])
        #expect(exported.stdout.contains("out-\u{FFFD}/Quay.png"))

        let inPlace = try Caption.run([
            "--library", library, "--add", photo, "--title", "Quay two", "--subtitle", "Dusk", "--in-place",
        ])
        #expect(inPlace.status == 0, "\(inPlace.stderr)")
        let title = try Tool.run("exiftool", ["-s3", "-XMP-dc:Title", photo])
        #expect(title.stdout == "Quay two\n", "written into the photo itself: \(title.stderr)")
        #expect(names(in: scratch.path).count == 3, "no other file beside it")
    }

    @Test func aMissingPhotoNamedInLatin1IsNamedReadably() throws {
        let scratch = Scratch()
        let outcome = try Caption.run([
            "--library", scratch.file("lib"), "--add", scratch.file(latin1("gone") + ".jpg"), "--title", "T",
            "--subtitle", "S",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("gone\u{FFFD}.jpg"), "\(outcome.stderr)")
    }
}
