// caption --check: the caption checks over photos' own words (as other programs wrote
// them) and over the library's entries, one line per finding, the exit status saying
// whether anything was found.

import CaptionChecks
import CaptionLibrary
import CaptionMetadata
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionCommand

@Suite("Command line: --check")
struct CheckCommandTests {
    @Test("--check over photos reads each one's own words and names the photo, field and words; exit 1")
    func photosOwnWords() throws {
        let scratch = Scratch()
        let left = scratch.write("left.png", Photos.png())
        let tagged = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-dc:Title=Fans at XXX", "-XMP-dc:Description=Boats (at dusk",
                left,
            ])
        try #require(tagged.status == 0, "exiftool: \(tagged.stderr)")
        let clean = scratch.write("clean.png", Photos.png(seed: 2))
        let fine = try Tool.run(
            "exiftool",
            ["-q", "-overwrite_original", "-XMP-dc:Title=Pier", "-XMP-dc:Description=Boats at dusk", clean])
        try #require(fine.status == 0)
        let outcome = try Caption.run(["--check", left, clean])
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout
                == left + ": Title: “XXX” is a placeholder left in\n" + left
                + ": Subtitle: “(” is not closed or not opened\n")
        let none = try Caption.run(["--check", clean])
        #expect(none.status == 0 && none.stdout.isEmpty, "\(none.stdout)")
    }

    @Test("--check holds names against those the code replacements spell")
    func namesAgainstTheCodes() throws {
        let scratch = Scratch()
        let config = scratch.file("config")
        try FileManager.default.createDirectory(atPath: config + "/caption", withIntermediateDirectories: true)
        _ = scratch.write(
            "config/caption/replacements.tsv", Array("=bo\tBarack Obama (USA)\n=am\tAngela Merkel\n".utf8))
        let photo = scratch.write("summit.png", Photos.png())
        let tagged = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-dc:Title=Summit",
                "-XMP-dc:Description=Barak Obama greets Angela Merkel",
                photo,
            ])
        try #require(tagged.status == 0, "exiftool: \(tagged.stderr)")
        let outcome = try Caption.run(["--check", photo], environment: ["XDG_CONFIG_HOME": config])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == photo + ": Subtitle: “Barak Obama” is spelt “Barack Obama” in the codes\n")
        let without = try Caption.run(["--check", photo], environment: ["XDG_CONFIG_HOME": scratch.file("none")])
        #expect(without.status == 0 && without.stdout.isEmpty, "no codes, no names to hold it against")
    }

    @Test("--check takes the place a photo's GPS gives as named, as Done does, where the dateline check is on")
    func datelinePlaceFromGPS() throws {
        let scratch = Scratch()
        let config = scratch.file("config")
        #expect(CreditsFile.save(CheckChoices(off: []), to: config + "/caption/credits.ini") == nil)
        // Two phone photos with the same words, one taken in Lisbon, one with no position.
        var photos: [String] = []
        for (name, position) in [("lisbon.jpg", true), ("nowhere.jpg", false)] {
            let photo = scratch.write(name, Photos.make("jpeg", width: 64, height: 48, seed: 3))
            var tags = [
                "-q", "-overwrite_original", "-Make=Google", "-Model=Pixel 8", "-XMP-dc:Title=Trams",
                "-XMP-dc:Description=Tram 28 climbs to the castle, Lisbon, on Monday",
            ]
            if position {
                tags += ["-GPSLatitude=38.7139", "-GPSLatitudeRef=N", "-GPSLongitude=9.1394", "-GPSLongitudeRef=W"]
            }
            let tagged = try Tool.run("exiftool", tags + [photo])
            try #require(tagged.status == 0, "exiftool: \(tagged.stderr)")
            photos.append(photo)
        }
        let outcome = try Caption.run(["--check"] + photos, environment: ["XDG_CONFIG_HOME": config])
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout
                == photos[1] + ": Subtitle says no place, as a wire caption must (a city, or a dateline)\n",
            "the photo taken in Lisbon names its place")
    }

    @Test("--check leaves out the checks switched off in Preferences, kept beside the credits")
    func switchedOffChecks() throws {
        let scratch = Scratch()
        let config = scratch.file("config")
        let settings = config + "/caption/credits.ini"
        try FileManager.default.createDirectory(atPath: config + "/caption", withIntermediateDirectories: true)
        // What else the file holds stays as it was.
        _ = scratch.write("config/caption/credits.ini", Array("[credits]\ncreator=Ana Lima\n".utf8))
        #expect(CreditsFile.save(CheckChoices(off: [.leftovers, .names, .dateline]), to: settings) == nil)
        #expect(CreditsFile.checkChoices(settings) == CheckChoices(off: [.leftovers, .names, .dateline]))
        #expect(CreditsFile.read(settings).credits[.creator] == "Ana Lima")
        let photo = scratch.write("left.png", Photos.png())
        let tagged = try Tool.run(
            "exiftool",
            ["-q", "-overwrite_original", "-XMP-dc:Title=Fans at XXX", "-XMP-dc:Description=Boats (at dusk", photo])
        try #require(tagged.status == 0, "exiftool: \(tagged.stderr)")
        let outcome = try Caption.run(["--check", photo], environment: ["XDG_CONFIG_HOME": config])
        #expect(outcome.stdout == photo + ": Subtitle: “(” is not closed or not opened\n", "\(outcome.stdout)")
        // A value that is not a boolean leaves its check on.
        _ = scratch.write(
            "config/caption/credits.ini", Array("[checks]\nleftovers=perhaps\nbrackets=false\n".utf8))
        #expect(
            CreditsFile.checkChoices(settings) == CheckChoices(off: [.brackets, .dateline, .headlineCase]),
            "off unless asked for")
        let again = try Caption.run(["--check", photo], environment: ["XDG_CONFIG_HOME": config])
        #expect(again.stdout == photo + ": Title: “XXX” is a placeholder left in\n", "\(again.stdout)")
    }

    @Test("--check holds a headline to Title Case once the desk asks for it, with the headline as it should be")
    func headlineInTitleCase() throws {
        let scratch = Scratch()
        let config = scratch.file("config")
        let photo = scratch.write("storm.png", Photos.png())
        let tagged = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-dc:Title=Storm", "-XMP-dc:Description=Waves at the pier",
                "-XMP-photoshop:Headline=storm hits the coast of Portugal", photo,
            ])
        try #require(tagged.status == 0, "exiftool: \(tagged.stderr)")
        let environment = ["XDG_CONFIG_HOME": config]
        let before = try Caption.run(["--check", photo], environment: environment)
        #expect(before.status == 0 && before.stdout.isEmpty, "off by default: \(before.stdout)")
        var choices = CheckChoices()
        choices[.headlineCase] = true
        #expect(CreditsFile.save(choices, to: config + "/caption/credits.ini") == nil)
        let outcome = try Caption.run(["--check", photo], environment: environment)
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout == photo + ": Headline is not in Title Case: “Storm Hits the Coast of Portugal”\n",
            "\(outcome.stdout)")
    }

    @Test("--check follows the pad in use's own checks and dateline pattern, or those of --pad")
    func padsOwnChecks() throws {
        let scratch = Scratch()
        let config = scratch.file("config")
        let settings = config + "/caption/credits.ini"
        let pads = scratch.folder("config/caption/pads")
        let photo = scratch.write("ferry.png", Photos.png())
        let tagged = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-dc:Title=Ferry",
                "-XMP-dc:Description=LISBON, Portugal - Mai 17: The ferry docks", photo,
            ])
        try #require(tagged.status == 0, "exiftool: \(tagged.stderr)")
        let environment = ["XDG_CONFIG_HOME": config]
        // An agency's pad (made by exiftool) given its checks; a local pad without.
        let made = try Tool.run("exiftool", ["-q", "-o", pads + "/Wire.xmp", "-XMP-photoshop:Credit=Wire Agency"])
        try #require(made.status == 0, "exiftool: \(made.stderr)")
        #expect(
            StationeryPads.save(
                PadChecks(on: [.dateline], datelinePattern: "CITY, COUNTRY - MONTH D:"), as: "Wire", in: pads) == nil)
        #expect(StationeryPads.save(Credits([.creator: "Ana"]), as: "Local", in: pads) == nil)

        let plain = try Caption.run(["--check", photo], environment: environment)
        #expect(plain.status == 0 && plain.stdout.isEmpty, "no pad in use, the dateline off: \(plain.stdout)")
        let asked = try Caption.run(["--check", "--pad", "Wire", photo], environment: environment)
        #expect(asked.status == 1)
        let said =
            photo
            + ": Subtitle does not open with the dateline “CITY, COUNTRY - MONTH D:”: “MONTH” is wanted at “Mai”\n"
        #expect(asked.stdout == said, "\(asked.stdout)")
        #expect(CreditsFile.usePad("Wire", in: settings) == nil)
        let inUse = try Caption.run(["--check", photo], environment: environment)
        #expect(inUse.stdout == said, "the pad in use's checks: \(inUse.stdout)")
        let other = try Caption.run(["--check", "--pad", "Local", photo], environment: environment)
        #expect(other.status == 0 && other.stdout.isEmpty, "\(other.stdout)")
        let missing = try Caption.run(["--check", "--pad", "Nowhere", photo], environment: environment)
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains("The stationery pad “Nowhere” cannot be read (there is no such pad)"),
            "\(missing.stderr)")
    }

    @Test("--check over a caption sheet exiftool wrote names each row by its line, beside photos given")
    func aSheetsRows() throws {
        let scratch = Scratch()
        let first = scratch.write("first.png", Photos.png())
        let second = scratch.write("second.png", Photos.png(seed: 2))
        for (photo, title, description) in [
            (first, "Fans at XXX", "Boats at dusk"), (second, "Pier", "Boats at dusk"),
        ] {
            let tagged = try Tool.run(
                "exiftool",
                ["-q", "-overwrite_original", "-XMP-dc:Title=" + title, "-XMP-dc:Description=" + description, photo])
            try #require(tagged.status == 0, "exiftool: \(tagged.stderr)")
        }
        let sheet = try Tool.run("exiftool", ["-csv", "-XMP-dc:Title", "-XMP-dc:Description", first, second])
        try #require(sheet.status == 0, "exiftool: \(sheet.stderr)")
        // A colleague's edit: the second row's words typed twice, a row with no photo.
        let text = sheet.stdout.replacing("Pier", with: "Pier pier") + ",Lost,Row\n"
        let path = scratch.write("sheet.CSV", Array(text.utf8))
        let outcome = try Caption.run(["--check", path])
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout
                == path + ":2: Title: “XXX” is a placeholder left in\n" + path
                + ":3: Title: “Pier pier” is typed twice\n", "\(outcome.stdout)")
        #expect(outcome.stderr.contains(path + ":4: "), "the row without a photo said: \(outcome.stderr)")
        let missing = try Caption.run(["--check", scratch.file("none.csv")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("There is no sheet at " + scratch.file("none.csv")), "\(missing.stderr)")
    }

    @Test("--check over the library names each entry; a clean library exits 0 and says nothing")
    func libraryEntries() throws {
        let scratch = Scratch()
        let library = scratch.file("lib")
        for (seed, subtitle) in [(1, "Boats leave the the harbour"), (2, "Crowds on =bb at dawn"), (3, "Quiet pier")] {
            let photo = scratch.write("p\(seed).png", Photos.png(seed: UInt32(seed)))
            let added = try Caption.run(
                ["--library", library, "--add", photo, "--title", "Harbour", "--subtitle", subtitle])
            try #require(added.status == 0, "\(added.stderr)")
        }
        let outcome = try Caption.run(["--library", library, "--check"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout
                == "entry 1: Subtitle: “the the” is typed twice\nentry 2: Subtitle: the code “=bb” was not replaced\n")
        let empty = try Caption.run(["--library", scratch.file("empty"), "--check"])
        #expect(empty.status == 0 && empty.stdout.isEmpty)
    }

    @Test("--check with another mode is a mistake in the command line")
    func refusedWithAnotherMode() {
        expectRefused(
            ["--check", "--list"],
            "use only one of --add, --import, --list, --remove, --export, --write-back and --check")
        expectRefused(["--check", "--creator", "Ana"], "--set-credits and --credits go with")
    }
}
