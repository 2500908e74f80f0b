// The command line, run as the built `caption` binary: exit status 0 / 1 / 2, the form's
// messages on stderr, the list as a table and as JSON, and bad libraries and disks.

import CSQLite
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionCommand
@testable import CaptionLibrary

@Suite("Command line")
struct CommandLineTests {
    @Test("--add saves and prints the entry number; --list shows it; --remove removes it (exit 0)")
    func addListRemove() throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        let library = scratch.file("lib")
        let added = try Caption.run([
            "--library", library, "--add", photo, "--title", "  Harbour\nat dawn ", "--subtitle", "Boats",
        ])
        #expect(added.status == 0)
        #expect(added.stdout == "Saved entry 1\n")
        #expect(added.stderr == "")
        let entry = try #require(try Library(directory: library).entry(id: 1))
        #expect(entry.title == "Harbour at dawn", "normalised by the engine's rule")

        let listed = try Caption.run(["--library", library, "--list"])
        #expect(listed.status == 0)
        #expect(listed.stdout == "ID  Title            Subtitle\n 1  Harbour at dawn  Boats\n")

        let removed = try Caption.run(["--library", library, "--remove", "1"])
        #expect(removed.status == 0)
        #expect(removed.stdout == "Removed entry 1\n")
        #expect(try Caption.run(["--library", library, "--list"]).stdout == "The library is empty.\n")
        #expect(try Caption.run(["--library", library, "--list", "--json"]).stdout == "[]\n")
    }

    @Test(
        "--add with a missing caption prints the form's summary on stderr and exits 1, saving nothing",
        arguments: [
            (["--title", "", "--subtitle", ""], ["Title and subtitle required"]),
            (["--subtitle", "only"], ["Title required"]),
            (["--title", "only"], ["Subtitle required"]),
            (["--title", " \u{3000}\t", "--subtitle", "x"], ["Title required"]),
            (
                ["--title", String(repeating: "x", count: 121), "--subtitle", "s"],
                ["Title is too long (at most 120 characters)"]
            ),
            (
                ["--title", "", "--subtitle", String(repeating: "y", count: 241)],
                ["Title required", "Subtitle is too long (at most 240 characters)"]
            ),
        ])
    func formRules(arguments: [String], lines: [String]) throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        let outcome = try Caption.run(["--library", scratch.file("lib"), "--add", photo] + arguments)
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == lines.map { "caption: " + $0 + "\n" }.joined())
        #expect(try Library(directory: scratch.file("lib")).entries().isEmpty)
    }

    @Test("the window without a display says so in one line and exits 1")
    func windowWithoutDisplay() throws {
        let scratch = Scratch()
        let outcome = try Caption.run(
            ["--library", scratch.file("lib")],
            shellPrefix: "unset DISPLAY WAYLAND_DISPLAY;")
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr.hasPrefix("caption: cannot open a window: no display"))
        #expect(outcome.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("lib")), "nothing was created")
    }

    @Test("--help lists the whole command line; --version prints the version")
    func helpAndVersion() throws {
        let help = try Caption.run(["--help"])
        #expect(help.status == 0)
        for usage in [
            "--add PHOTO --title TITLE --subtitle SUBTITLE", "--list [--json | --csv]", "--remove ID",
            "--import SHEET.csv [--in-place | --sidecar]",
            "[--library DIR] [--watch DIR [--subfolders]] [PHOTO...]",
        ] {
            #expect(help.stdout.contains(usage))
        }
        let version = try Caption.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "caption \(captionVersion)\n")
    }

    @Test("--add with an empty photo path says no photo was chosen (exit 1)")
    func noPhoto() throws {
        let scratch = Scratch()
        let outcome = try Caption.run([
            "--library", scratch.file("lib"), "--add", "", "--title", "T", "--subtitle", "S",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "caption: No photo chosen\n")
    }

    @Test("--add with a photo cut short that still shows saves it as it is, says so in one line, and exits 0")
    func incompletePhoto() throws {
        let scratch = Scratch()
        let whole = Photos.jpeg(width: 200, height: 150)
        let cut = Array(whole.dropLast(20))
        let path = scratch.write("harbour.jpg", cut)
        let outcome = try Caption.run([
            "--library", scratch.file("lib"), "--add", path, "--title", "Harbour", "--subtitle", "Dusk",
        ])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "Saved entry 1\n")
        #expect(
            outcome.stderr
                == "caption: harbour.jpg looks incomplete (the end of the file is missing); it was added as it is\n")
        let photos = try FileManager.default.contentsOfDirectory(atPath: scratch.file("lib/photos"))
        #expect(photos.count == 1)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: scratch.file("lib/photos/" + photos[0])))) == cut)
        // A whole photo says nothing on standard error.
        let wholePath = scratch.write("whole.jpg", whole)
        let quiet = try Caption.run([
            "--library", scratch.file("lib"), "--add", wholePath, "--title", "T", "--subtitle", "S",
        ])
        #expect(quiet.status == 0 && quiet.stderr == "")
    }

    @Test("--add with a bad photo prints the photo's own message, alone, and exits 1")
    func badPhoto() throws {
        let scratch = Scratch()
        let text = scratch.write("notes.png", Array("text".utf8))
        var outcome = try Caption.run([
            "--library", scratch.file("lib"), "--add", text, "--title", "", "--subtitle", "",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "caption: Not an image Caption can read (JPEG, PNG, WebP, HEIF, AVIF, GIF, TIFF, BMP or camera RAW): \(text)\n"
        )
        // Cut inside its header: nothing can show it.
        let cut = scratch.write("cut.jpg", Array(Photos.jpeg().prefix(40)))
        outcome = try Caption.run(["--library", scratch.file("lib"), "--add", cut, "--title", "T", "--subtitle", "S"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "caption: The photo is damaged or incomplete: \(cut)\n")
        outcome = try Caption.run([
            "--library", scratch.file("lib"), "--add", scratch.path, "--title", "T", "--subtitle", "S",
        ])
        #expect(outcome.stderr == "caption: This is a folder, not a photo: \(scratch.path)\n")
    }

    @Test(
        "usage mistakes exit 2",
        arguments: [
            ["--bogus"], ["--remove", "abc"], ["--json"], ["--add"], ["--list", "x.jpg"], ["--title", "T"],
            ["--headline", "H"], ["--list", "--job-id", "J"], ["--add", "x.jpg", "--alt_text", "A"],
        ])
    func usage(arguments: [String]) throws {
        let outcome = try Caption.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("caption: "))
    }

    @Test(
        "--add takes every optional field by its option; --list --json gives those that hold words, keywords as a list"
    )
    func optionalFieldsOnTheCommandLine() throws {
        let scratch = Scratch()
        let library = scratch.file("lib")
        let photo = scratch.write("p.png", Photos.png())
        let added = try Caption.run([
            "--library", library, "--add", photo, "--title", "T", "--subtitle", "S", "--headline", "  Gale  ",
            "--keywords", "harbour;storm，港口, harbour", "--alt-text", "Waves", "--extended-description", "Grey",
            "--event", "Storm Ana", "--special-instructions", "Embargo", "--job-id", "J-1", "--sublocation", "Pier",
            "--state", "Lisboa",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let plain = try Caption.run(["--library", library, "--add", photo, "--title", "U", "--subtitle", "V"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let listed = try Caption.run(["--library", library, "--list", "--json"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let full = try #require(parsed.first { $0["title"] as? String == "T" })
        #expect(full["headline"] as? String == "Gale", "trimmed as the form trims")
        #expect(full["keywords"] as? [String] == ["harbour", "storm", "港口"])
        #expect(full["altText"] as? String == "Waves" && full["extendedDescription"] as? String == "Grey")
        #expect(full["event"] as? String == "Storm Ana" && full["specialInstructions"] as? String == "Embargo")
        #expect(full["jobId"] as? String == "J-1" && full["sublocation"] as? String == "Pier")
        #expect(full["state"] as? String == "Lisboa")
        let bare = try #require(parsed.first { $0["title"] as? String == "U" })
        #expect(Set(bare.keys).isDisjoint(with: ["headline", "keywords", "altText", "jobId", "state"]))
    }

    @Test("an optional field over its limit is refused with the form's message, and nothing is saved")
    func anOptionalFieldOverItsLimitIsRefused() throws {
        let scratch = Scratch()
        let library = scratch.file("lib")
        let photo = scratch.write("p.png", Photos.png())
        let outcome = try Caption.run([
            "--library", library, "--add", photo, "--title", "T", "--subtitle", "S", "--job-id",
            String(repeating: "x", count: 33),
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "caption: Job ID is too long (at most 32 characters)\n")
        #expect(try Caption.run(["--library", library, "--list", "--json"]).stdout == "[]\n")
    }

    @Test("--remove of a number that is not there exits 1 with one line naming it")
    func removeMissing() throws {
        let scratch = Scratch()
        let outcome = try Caption.run(["--library", scratch.file("lib"), "--remove", "7"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "caption: There is no entry 7 in the library\n")
    }

    @Test(
        "--list --json prints valid JSON whose strings round-trip hostile text, with absolute photo paths and UTC times"
    )
    func json() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        let library = try Library(directory: directory)
        let photo = scratch.write("Ünïcode name \"q\".png", Photos.png())
        for (index, text) in HostileText.samples.enumerated() {
            _ = try library.add(photoAt: photo, words: CaptionWords(title: text, subtitle: "#\(index) \\ \" / "))
        }
        // Control characters never pass the form, but the JSON writer must still escape them.
        _ = try library.add(
            photoAt: photo, words: CaptionWords(title: "bell\u{07} tab\t nl\n del\u{7F} ls\u{2028}", subtitle: "s"))
        let outcome = try Caption.run(["--library", directory, "--list", "--json"])
        #expect(outcome.status == 0)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        let entries = try library.entries()
        #expect(parsed.count == entries.count)
        for (object, entry) in zip(parsed, entries) {
            #expect((object["id"] as? Int).map(Int64.init) == entry.id)
            #expect(object["title"] as? String == entry.title)
            #expect(object["subtitle"] as? String == entry.subtitle)
            #expect(object["photo"] as? String == library.photoPath(of: entry))
            #expect(object["width"] as? Int == 64 && object["height"] as? Int == 48)
            #expect(object["originalName"] as? String == "Ünïcode name \"q\".png")
            #expect(object["created"] as? String == entry.created.iso8601)
            #expect(object["updated"] as? String == entry.updated.iso8601)
        }
        #expect(outcome.stdout.contains("東京の夜景"), "non-ASCII stays UTF-8, not \\u escapes")
        #expect(outcome.stdout.contains("bell\\u0007 tab\\t nl\\n del\\u007f ls\\u2028"))
    }

    @Test("a relative --library is taken from the working folder, and --list --json still gives absolute photo paths")
    func relativeLibrary() throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        #expect(
            try Caption.run(
                ["--library", "rel/lib", "--add", "p.png", "--title", "T", "--subtitle", "S"], in: scratch.path
            ).status == 0)
        let listed = try Caption.run(["--library", "./rel/lib", "--list", "--json"], in: scratch.path)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let path = try #require(parsed.first?["photo"] as? String)
        #expect(path.hasPrefix(scratch.path + "/rel/lib/photos/"))
        #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: photo))
    }

    @Test("the JSON string writer escapes quotes, backslashes and every control character")
    func jsonEscaping() {
        #expect(JSON.string("a\"b\\c/d") == "\"a\\\"b\\\\c/d\"")
        #expect(JSON.string("\u{00}\u{1F}\u{08}\u{0C}\r") == "\"\\u0000\\u001f\\b\\f\\r\"")
        #expect(JSON.string("é😀") == "\"é😀\"")
    }

    @Test("without --library the library lives in $XDG_DATA_HOME/caption, or ~/.local/share/caption")
    func defaultLocation() throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        var outcome = try Caption.run(
            ["--add", photo, "--title", "T", "--subtitle", "S"],
            environment: ["XDG_DATA_HOME": scratch.file("data"), "HOME": scratch.file("home")])
        #expect(outcome.status == 0)
        #expect(FileManager.default.fileExists(atPath: scratch.file("data/caption/library.sqlite3")))
        outcome = try Caption.run(
            ["--list"], environment: ["XDG_DATA_HOME": "relative/ignored", "HOME": scratch.file("home")])
        #expect(outcome.status == 0)
        #expect(FileManager.default.fileExists(atPath: scratch.file("home/.local/share/caption/library.sqlite3")))
    }

    @Test("a corrupt database: --list and --add exit 1 with one line, and the file is not changed")
    func corruptDatabase() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("lib/photos"), withIntermediateDirectories: true)
        let garbage = [UInt8](repeating: 0x5A, count: 4096)
        scratch.write("lib/library.sqlite3", garbage)
        let photo = scratch.write("p.png", Photos.png())
        for arguments in [["--list"], ["--add", photo, "--title", "T", "--subtitle", "S"]] {
            let outcome = try Caption.run(["--library", scratch.file("lib")] + arguments)
            #expect(outcome.status == 1)
            #expect(
                outcome.stderr
                    == "caption: The library database is damaged; it was left as it is: \(scratch.file("lib"))/library.sqlite3\n"
            )
        }
        #expect(FileManager.default.contents(atPath: scratch.file("lib/library.sqlite3")) == Data(garbage))
    }

    @Test("a locked database: --add waits for the busy timeout, then exits 1 saying so")
    func lockedDatabase() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        _ = try Library(directory: directory)
        let other = RawDatabase(directory + "/library.sqlite3")
        #expect(other.execute("BEGIN EXCLUSIVE") == SQLITE_OK)
        defer { other.execute("ROLLBACK") }
        let photo = scratch.write("p.png", Photos.png())
        let outcome = try Caption.run(["--library", directory, "--add", photo, "--title", "T", "--subtitle", "S"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("caption: The library is in use by another program and stayed locked"))
    }

    @Test("an unreadable photo, run as an ordinary user: exit 1, 'Cannot read the photo (Permission denied)'")
    func unreadablePhoto() throws {
        let scratch = Scratch()
        let photo = scratch.write("secret.png", Photos.png())
        chmod(photo, 0)
        let library = scratch.file("lib")
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        chmod(library, 0o777)
        let outcome = try Caption.run(
            ["--library", library, "--add", photo, "--title", "T", "--subtitle", "S"], unprivileged: true)
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "caption: Cannot read the photo (Permission denied): \(photo)\n")
    }

    @Test(
        "a library folder that cannot be created or written: exit 1, naming the folder; an existing library stays intact"
    )
    func readOnlyFolder() throws {
        let scratch = Scratch()
        let photo = scratch.write("p.png", Photos.png())
        chmod(photo, 0o644)
        // A folder the user may not create anything in.
        let parent = scratch.file("locked")
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        chmod(parent, 0o555)
        var outcome = try Caption.run(
            ["--library", parent + "/lib", "--add", photo, "--title", "T", "--subtitle", "S"], unprivileged: true)
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "caption: Cannot write to the library (Permission denied): \(parent)/lib\n")

        // An existing library of the user's own, made read-only.
        let library = scratch.file("lib")
        let entry = try Library(directory: library).add(
            photoAt: photo, words: CaptionWords(title: "kept", subtitle: "s"))
        if Caption.isRoot {
            _ = try Process.run(URL(fileURLWithPath: "/bin/chown"), arguments: ["-R", "65534:65534", library])
                .waitUntilExit()
        }
        chmod(library, 0o500)
        chmod(library + "/photos", 0o500)
        let before = FileManager.default.contents(atPath: library + "/library.sqlite3")
        outcome = try Caption.run(
            ["--library", library, "--add", photo, "--title", "T2", "--subtitle", "S"], unprivileged: true)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("caption: Cannot write to the library ("))
        #expect(outcome.stderr.hasSuffix("\(library)\n"))
        #expect(FileManager.default.contents(atPath: library + "/library.sqlite3") == before)
        chmod(library, 0o700)
        chmod(library + "/photos", 0o700)
        #expect(try Library(directory: library).entries() == [entry])
    }

    @Test("a full disk (ulimit -f) while copying the photo: exit 1, 'Not enough disk space', library intact")
    func fullDiskForPhoto() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        let small = scratch.write("small.png", Photos.png())
        let kept = try Library(directory: directory).add(
            photoAt: small, words: CaptionWords(title: "kept", subtitle: "s"))
        let big = scratch.write(
            "big.jpg", Photos.make(width: 400, height: 300, seed: 9, type: "jpeg", options: [("quality", "95")]))
        #expect(big.count > 0)
        let outcome = try Caption.run(
            ["--library", directory, "--add", big, "--title", "T", "--subtitle", "S"],
            shellPrefix: "ulimit -f 64;")  // 32 KiB in 512-byte blocks
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "caption: Not enough disk space for the library (File too large): \(directory)\n")
        #expect(try Library(directory: directory).entries() == [kept])
        #expect(try consistencyProblems(directory) == [])
    }

    @Test("a full disk (ulimit -f) while the database grows: exit 1 with a clean message, library intact")
    func fullDiskForDatabase() throws {
        let scratch = Scratch()
        let directory = scratch.file("lib")
        let first = scratch.write("a.gif", Photos.gif)
        let kept = try Library(directory: directory).add(
            photoAt: first, words: CaptionWords(title: "kept", subtitle: "s"))
        let size = try #require(Files.size(directory + "/library.sqlite3"))
        // The photo (a few dozen bytes) fits; the database's write-ahead log does not.
        let blocks = max(2, Int(size) / 512 / 4)
        let second = scratch.write("b.png", Photos.png(seed: 3, width: 4, height: 4))
        let outcome = try Caption.run(
            [
                "--library", directory, "--add", second, "--title", String(repeating: "t", count: 120), "--subtitle",
                "S",
            ],
            shellPrefix: "ulimit -f \(blocks);")
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("caption: Not enough disk space for the library ("), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
        #expect(try Library(directory: directory).entries() == [kept])
        #expect(try consistencyProblems(directory) == [])
    }
}
