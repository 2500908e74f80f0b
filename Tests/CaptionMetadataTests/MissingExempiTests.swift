// exempi is opened when first needed, not linked: the program starts without it, the
// library works without it, and a write that needs it stops with one line, leaving
// every file as it was.

import CaptionLibrary
import CaptionTestSupport
import Foundation
import Testing

@Suite("Without exempi")
struct MissingExempiTests {
    /// A folder whose `libexempi.so.8` the dynamic linker finds first and cannot load, as
    /// on a system where the library is missing or damaged.
    static func brokenExempi(in scratch: Scratch) -> [String: String] {
        let folder = scratch.folder("broken")
        scratch.write("broken/libexempi.so.8", [])
        return ["LD_LIBRARY_PATH": folder]
    }

    static func expectOneLineNamingExempi(_ outcome: Outcome) {
        #expect(outcome.status == 1)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(outcome.stderr)")
        #expect(
            outcome.stderr.hasPrefix(
                "caption: cannot read or write photos’ metadata: the exempi library could not be opened ("))
        #expect(outcome.stderr.contains("libexempi.so.8"), "the dynamic linker's reason: \(outcome.stderr)")
    }

    @Test("the program does not link exempi: it is opened on the first metadata read or write")
    func notLinked() throws {
        let needed = try Tool.run("readelf", ["-d", Caption.binary])
        #expect(needed.status == 0)
        #expect(needed.stdout.contains("(NEEDED)"))
        #expect(!needed.stdout.contains("libexempi"), "\(needed.stdout)")
    }

    @Test("--add saves to the library without exempi: only photos' metadata needs it")
    func libraryWorksWithoutExempi() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.jpeg, in: scratch)
        let outcome = try Caption.run(
            ["--library", scratch.file("lib"), "--add", photo, "--title", "T", "--subtitle", "S"],
            environment: Self.brokenExempi(in: scratch))
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        #expect(try Library(directory: scratch.file("lib")).entry(id: 1)?.title == "T")
    }

    @Test("--add --in-place without exempi: one line, exit 1, the photo and its folder as they were")
    func inPlaceStopsCleanly() throws {
        let scratch = Scratch()
        let photos = scratch.folder("photos")
        let photo = try Photos.file(.jpeg, in: scratch, name: "photos/p.jpg")
        let before = Photos.sha256(ofFile: photo)
        let outcome = try Caption.run(
            ["--library", scratch.file("lib"), "--add", photo, "--title", "T", "--subtitle", "S", "--in-place"],
            environment: Self.brokenExempi(in: scratch))
        Self.expectOneLineNamingExempi(outcome)
        #expect(Photos.sha256(ofFile: photo) == before)
        #expect(scratch.names(in: photos) == ["p.jpg"], "no temporary file, no sidecar")
    }

    @Test("--add --sidecar without exempi: one line, exit 1, no sidecar written")
    func sidecarStopsCleanly() throws {
        let scratch = Scratch()
        let photos = scratch.folder("photos")
        let photo = try Photos.file(.jpeg, in: scratch, name: "photos/p.jpg")
        let outcome = try Caption.run(
            ["--library", scratch.file("lib"), "--add", photo, "--title", "T", "--subtitle", "S", "--sidecar"],
            environment: Self.brokenExempi(in: scratch))
        Self.expectOneLineNamingExempi(outcome)
        #expect(scratch.names(in: photos) == ["p.jpg"])
    }

    @Test("--export without exempi: one line, exit 1, nothing in the export folder")
    func exportStopsCleanly() throws {
        let scratch = Scratch()
        let photo = try Photos.file(.jpeg, in: scratch)
        let library = scratch.file("lib")
        let added = try Caption.run(["--library", library, "--add", photo, "--title", "T", "--subtitle", "S"])
        #expect(added.status == 0)
        let folder = scratch.folder("out")
        let outcome = try Caption.run(
            ["--library", library, "--export", folder], environment: Self.brokenExempi(in: scratch))
        Self.expectOneLineNamingExempi(outcome)
        #expect(scratch.names(in: folder) == [])
    }
}
