// The command line's standing credits: --set-credits and --credits parsed, their mistakes
// (exit 2), and the settings file they write, read back by the next command.

import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionCommand

@Suite("Arguments and commands: --set-credits, --credits")
struct CreditsArgumentsTests {
    @Test(
        "credits requests",
        arguments: [
            (
                ["--set-credits", "--creator", "Ana Lima", "--copyright=© {year} Ana Lima", "--country-code", "PT"],
                Request.setCredits(
                    changes: [.creator: "Ana Lima", .copyright: "© {year} Ana Lima", .countryCode: "PT"],
                    replacesPhotos: nil)
            ),
            (
                ["--set-credits", "--credit-line", "", "--replace-own"],
                .setCredits(changes: [.creditLine: ""], replacesPhotos: true)
            ),
            (["--set-credits", "--keep-own"], .setCredits(changes: [:], replacesPhotos: false)),
            (["--set-credits", "--no-iim"], .setCredits(changes: [:], replacesPhotos: nil, addsIIM: false)),
            (["--set-credits", "--iim"], .setCredits(changes: [:], replacesPhotos: nil, addsIIM: true)),
            (["--credits"], .showCredits()),
        ])
    func parses(arguments: [String], expected: Request) throws {
        #expect(try Arguments.parse(arguments) == expected)
    }

    @Test(
        "credits mistakes",
        arguments: [
            (["--set-credits"], "--set-credits needs a credit to set"),
            (["--creator", "Ana"], "--creator, --credit-line and the other credits go with --set-credits"),
            (
                ["--set-credits", "--creator", "Ana", "--list"],
                "--set-credits and --credits go with the credits' own options only"
            ),
            (["--set-credits", "--creator", "Ana", "photo.jpg"], "--set-credits and --credits go with"),
            (["--set-credits", "--credits"], "use either --set-credits or --credits"),
            (["--set-credits", "--copyright", "© {yaer}"], "Unknown variable {yaer} in --copyright"),
            (["--set-credits", "--creator"], "option --creator needs a value"),
            (["--credits=x"], "option --credits takes no value"),
            (["--no-iim=yes"], "option --no-iim takes no value"),
            (["--iim", "photo.jpg"], "--set-credits and --credits go with"),
        ])
    func refuses(arguments: [String], message: String) {
        expectRefused(arguments, message)
    }

    @Test("--set-credits changes only the credits given; --credits prints them; the file is the one Preferences read")
    func setAndShow() throws {
        let scratch = Scratch()
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        let none = try Caption.run(["--credits"], environment: config)
        #expect(none.status == 0 && none.stdout.hasPrefix("No standing credits are set."), "\(none.stdout)")
        let first = try Caption.run(
            ["--set-credits", "--creator", "Ana Lima", "--copyright", "© {year} Ana Lima"], environment: config)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try Caption.run(
            ["--set-credits", "--source", "Desk", "--creator", "", "--replace-own"], environment: config)
        #expect(second.status == 0, "\(second.stderr)")
        let shown = try Caption.run(["--credits"], environment: config)
        #expect(
            shown.stdout
                == "Copyright notice: © {year} Ana Lima\nSource: Desk\nThey replace the credits a photo already carries.\n"
                + "IPTC-IIM is added to JPEG and TIFF photos that have none.\n"
                + "City, Country and country code are written only as set here.\n"
        )
        let reading = CreditsFile.read(scratch.file("config") + "/caption/credits.ini")
        var expected = Credits([.copyright: "© {year} Ana Lima", .source: "Desk"])
        expected.replacesPhotos = true
        #expect(reading == CreditsFile.Reading(credits: expected))

        // --add saves them with the entry, {year} expanded (a photo without a date: this
        // year), and --list --json gives them back.
        let photo = scratch.write("p.png", Photos.png())
        let library = scratch.file("lib")
        let added = try Caption.run(
            ["--library", library, "--add", photo, "--title", "T", "--subtitle", "S"], environment: config)
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try Caption.run(["--library", library, "--list", "--json"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let credits = try #require(parsed.first?["credits"] as? [String: Any])
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        #expect(credits["copyright"] as? String == "© \(year) Ana Lima")
        #expect(credits["source"] as? String == "Desk")
        #expect(credits["replacesOwn"] as? Bool == true)
        #expect(credits.count == 3)
    }

    @Test("a credit written in Windows-1252 is read, and kept (in UTF-8) by the next --set-credits")
    func windows1252CreditIsKept() throws {
        let scratch = Scratch()
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        let file = scratch.file("config") + "/caption/credits.ini"
        try FileManager.default.createDirectory(
            atPath: scratch.file("config") + "/caption", withIntermediateDirectories: true)
        // "© 2006 Rui Costa" as an editor on Windows saved it, and a comment in UTF-8.
        let legacy: [UInt8] =
            Array("# Ana's desk — credits\n[credits]\ncopyright=".utf8) + [0xA9]
            + Array(" 2006 Rui Costa\ncreator=Ana\n".utf8)
        try Data(legacy).write(to: URL(fileURLWithPath: file))
        let shown = try Caption.run(["--credits"], environment: config)
        #expect(shown.stdout.hasPrefix("Creator: Ana\nCopyright notice: © 2006 Rui Costa\n"), "\(shown.stdout)")
        let set = try Caption.run(["--set-credits", "--source", "Desk"], environment: config)
        #expect(set.status == 0, "\(set.stderr)")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.contains("copyright=© 2006 Rui Costa\n"), "\(written)")
        #expect(written.contains("# Ana's desk — credits"), "the comment stays: \(written)")
        #expect(
            CreditsFile.read(file).credits
                == Credits([.creator: "Ana", .copyright: "© 2006 Rui Costa", .source: "Desk"]))
    }

    @Test("a credits file that is not a key file is said, left as it is, and no credits are written")
    func unreadableFile() throws {
        let scratch = Scratch()
        let folder = scratch.file("config/caption")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = scratch.write("config/caption/credits.ini", Array("creator = no group\n\u{0}\u{1}".utf8))
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        let shown = try Caption.run(["--credits"], environment: config)
        #expect(shown.status == 1)
        #expect(shown.stderr.contains("The standing credits cannot be read"), "\(shown.stderr)")
        let photo = scratch.write("p.png", Photos.png())
        let added = try Caption.run(
            ["--library", scratch.file("lib"), "--add", photo, "--title", "T", "--subtitle", "S"], environment: config)
        #expect(added.status == 0)
        #expect(added.stderr.contains("The standing credits cannot be read"), "\(added.stderr)")
        #expect(try Library(directory: scratch.file("lib")).entries().first?.credits == Credits.none)
        #expect(Photos.bytes(file) == Array("creator = no group\n\u{0}\u{1}".utf8), "left as it was")
    }

    @Test(
        "a credits file that is a FIFO is refused at once (nothing waits for a writer); one that is a link to a secret quotes none of it"
    )
    func specialAndLinkedFiles() throws {
        let scratch = Scratch()
        let folder = scratch.file("config/caption")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(mkfifo(folder + "/credits.ini", 0o600) == 0)
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        // Under timeout(1): before, opening the FIFO waited for a writer for ever.
        let photo = scratch.write("p.png", Photos.png())
        for arguments in [
            ["--credits"], ["--library", scratch.file("lib"), "--add", photo, "--title", "T", "--subtitle", "S"],
        ] {
            let outcome = try Tool.run("timeout", ["20", Caption.binary] + arguments, environment: config)
            #expect(outcome.status != 124, "\(arguments): it waited on the FIFO")
            #expect(
                outcome.stderr.contains(
                    "The standing credits cannot be read (not a regular file), so none are written: "
                        + folder + "/credits.ini"),
                "\(outcome.stderr)")
        }
        // A link to a file that is no key file (as /etc/shadow is not): named, nothing quoted.
        let secret = scratch.write("secret", Array("root:$6$salt$hash:19000:0:99999:7:::\n".utf8))
        #expect(unlink(folder + "/credits.ini") == 0)
        #expect(symlink(secret, folder + "/credits.ini") == 0)
        let shown = try Caption.run(["--credits"], environment: config)
        #expect(shown.status == 1)
        #expect(
            shown.stderr
                == "caption: The standing credits cannot be read (it is not a key file), so none are written: "
                + folder + "/credits.ini\n", "\(shown.stderr)")
        #expect(!shown.stderr.contains("root") && !shown.stdout.contains("root"))
    }

    @Test("a credits folder that cannot be written is one line, exit 1")
    func unwritableFile() throws {
        let scratch = Scratch()
        let blocker = scratch.write("config", [])  // a file where the folder would go
        let outcome = try Caption.run(["--set-credits", "--creator", "Ana"], environment: ["XDG_CONFIG_HOME": blocker])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("The standing credits could not be saved"), "\(outcome.stderr)")
    }

    /// A camera JPEG by ImageMagick, placed by exiftool at the harbour of Lisbon, or with no
    /// position; `city` is the photo's own City, if any.
    func photo(in scratch: Scratch, _ name: String, placed: Bool, city: String? = nil) throws -> String {
        let path = scratch.file(name)
        let made = try Tool.run("convert", ["-size", "96x64", "gradient:navy-orange", "-quality", "90", path])
        try #require(made.status == 0, "convert: \(made.stderr)")
        var tags = ["-q", "-overwrite_original", "-Make=Canon", "-Model=EOS R5"]
        if placed {
            tags += ["-GPSLatitude=38.7139", "-GPSLatitudeRef=N", "-GPSLongitude=9.1394", "-GPSLongitudeRef=W"]
        }
        if let city { tags.append("-XMP-photoshop:City=" + city) }
        let tagged = try Tool.run("exiftool", tags + [path])
        try #require(tagged.status == 0, "exiftool: \(tagged.stderr)")
        return path
    }

    func place(of photo: String) throws -> String {
        let read = try Tool.run(
            "exiftool",
            ["-s3", "-XMP-photoshop:City", "-XMP-photoshop:Country", "-XMP-iptcCore:CountryCode", "-IPTC:City", photo])
        try #require(read.status == 0, "exiftool: \(read.stderr)")
        return read.stdout
    }

    @Test("the place of a photo's GPS position fills an unset City and Country once turned on")
    func placeFromGPS() throws {
        let scratch = Scratch()
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        let library = scratch.file("lib")
        func add(_ photo: String) throws {
            let saved = try Caption.run(
                ["--library", library, "--add", photo, "--title", "Tram", "--subtitle", "Alfama", "--in-place"],
                environment: config)
            #expect(saved.status == 0, "\(saved.stderr)")
        }
        let settings = scratch.file("config") + "/caption/credits.ini"
        let before = try photo(in: scratch, "before.jpg", placed: true)
        try add(before)
        #expect(try place(of: before) == "", "off until asked for: nothing but the caption changes")
        #expect(
            try Caption.run(["--credits"], environment: config).stdout.contains("written only as set here"))

        // Turned on, as Preferences' switch writes it.
        #expect(CreditsFile.save(WritingChoices(addsIIM: true, placeFromGPS: true), to: settings) == nil)
        let placed = try photo(in: scratch, "placed.jpg", placed: true)
        try add(placed)
        #expect(try place(of: placed) == "Lisbon\nPortugal\nPT\nLisbon\n", "no credits set: the place is the photo's")
        let shown = try Caption.run(["--credits"], environment: config)
        #expect(
            shown.stdout.hasSuffix(
                "An unset City, Country and country code are the place of the photo's GPS position.\n"))

        let nowhere = try photo(in: scratch, "nowhere.jpg", placed: false)
        try add(nowhere)
        #expect(try place(of: nowhere) == "", "a photo without a position gets no place")

        let own = try photo(in: scratch, "own.jpg", placed: true, city: "Belém")
        try add(own)
        #expect(try place(of: own).hasPrefix("Belém\nPortugal\n"), "the photo's own City is kept")
    }
}
