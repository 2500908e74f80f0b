// Stationery pads from the command line: --add-pad, --pads, --use-pad and --no-pad, --pad
// with --add, --import, --set-credits and --credits, and their mistakes.

import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionCommand
@testable import CaptionLibrary

@Suite("Stationery pads on the command line")
struct PadCommandTests {
    @Test(
        "pad requests",
        arguments: [
            (["--pads"], Request.pads(.list)),
            (["--use-pad", "AP Sports"], .pads(.use("AP Sports"))),
            (["--no-pad"], .pads(.use(nil))),
            (["--add-pad", "t.xmp"], .pads(.add(file: "t.xmp", name: nil))),
            (["--add-pad", "t.xmp", "--pad", "Desk"], .pads(.add(file: "t.xmp", name: "Desk"))),
            (["--add", "p.jpg", "--pad", "Desk"], .add(library: nil, photo: "p.jpg", words: [:], pad: "Desk")),
            (["--import", "s.csv", "--pad=Desk"], .importSheet(library: nil, sheet: "s.csv", into: nil, pad: "Desk")),
            (
                ["--set-credits", "--source", "Wire", "--pad", "Desk"],
                .setCredits(changes: [.source: "Wire"], replacesPhotos: nil, pad: "Desk")
            ),
            (["--credits", "--pad", "Desk"], .showCredits(pad: "Desk")),
        ])
    func requests(arguments: [String], request: Request) throws {
        #expect(try Arguments.parse(arguments) == request)
    }

    @Test(
        "pad mistakes",
        arguments: [
            (["--pad", "Desk"], "--pad goes with --add, --import, --check, --set-credits, --credits or --add-pad"),
            (
                ["--list", "--pad", "Desk"],
                "--pad goes with --add, --import, --check, --set-credits, --credits or --add-pad"
            ),
            (
                ["--pads", "--pad", "Desk"],
                "--pad goes with --add, --import, --check, --set-credits, --credits or --add-pad"
            ),
            (["--pads", "--list"], "--pads, --use-pad, --no-pad and --add-pad go alone (--add-pad with --pad)"),
            (
                ["--use-pad", "A", "--no-pad"],
                "--pads, --use-pad, --no-pad and --add-pad go alone (--add-pad with --pad)"
            ),
            (["--use-pad", ""], "--use-pad: A stationery pad needs a name"),
            (["--add", "p.jpg", "--pad", "a/b"], "--pad: A stationery pad's name cannot hold “/”"),
            (["--add-pad", ""], "--add-pad needs an XMP file"),
            (["--pads=yes"], "option --pads takes no value"),
            (["--use-pad"], "option --use-pad needs a value"),
        ])
    func mistakes(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try Arguments.parse(arguments) }
    }

    /// A camera-like JPEG, by ImageMagick, whose own metadata names no credit.
    func cameraPhoto(in scratch: Scratch, name: String = "IMG_0001.jpg") throws -> String {
        let path = scratch.file(name)
        let made = try Tool.run("convert", ["-size", "96x64", "gradient:navy-orange", "-quality", "90", path])
        try #require(made.status == 0, "convert: \(made.stderr)")
        try exiftool(["-q", "-overwrite_original", "-Make=Nikon", "-Model=Z 9", path])
        return path
    }

    @discardableResult
    func exiftool(_ arguments: [String]) throws -> String {
        let outcome = try Tool.run("exiftool", arguments)
        try #require(outcome.status == 0, "exiftool: \(outcome.stderr)")
        return outcome.stdout
    }

    @Test func anAgencysTemplateBecomesThePadInUseAndItsCreditsGoIntoTheNextPhoto() throws {
        let scratch = Scratch()
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        let template = scratch.file("Lusa.XMP")
        try exiftool([
            "-q", "-o", template, "-XMP-photoshop:Credit=Agência Lusa", "-XMP-dc:Creator=Ana Lima",
            "-XMP-photoshop:Headline=Match day",
        ])
        let added = try Caption.run(["--add-pad", template], environment: config)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("Stationery pad: Lusa\nCreator: Ana Lima\nCredit line: Agência Lusa\n"))
        #expect(try Caption.run(["--pads"], environment: config).stdout == "  Lusa\n")

        let used = try Caption.run(["--use-pad", "Lusa"], environment: config)
        #expect(used.status == 0, "\(used.stderr)")
        #expect(try Caption.run(["--pads"], environment: config).stdout == "* Lusa\n")

        let photo = try cameraPhoto(in: scratch)
        let saved = try Caption.run(
            [
                "--library", scratch.file("lib"), "--add", photo, "--title", "Goal", "--subtitle", "Lisboa, 6 Dec",
                "--in-place",
            ],
            environment: config)
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(
            try exiftool(["-s3", "-XMP-photoshop:Credit", "-IPTC:Credit", "-XMP-dc:Creator", photo])
                == "Agência Lusa\nAgência Lusa\nAna Lima\n")
        #expect(try Library(directory: scratch.file("lib")).entries().first?.credits[.creditLine] == "Agência Lusa")
        let listed = try Caption.run(["--library", scratch.file("lib"), "--list", "--json"], environment: config)
        #expect(
            listed.stdout.contains(#""credits": {"creator": "Ana Lima", "creditLine": "Agência Lusa", "pad": "Lusa"}"#),
            "\(listed.stdout)")

        // Back to the standing credits: none are set.
        #expect(try Caption.run(["--no-pad"], environment: config).status == 0)
        #expect(try Caption.run(["--credits"], environment: config).stdout.hasPrefix("No standing credits are set.\n"))
    }

    @Test func aPadsWordsForEveryFieldGoWhereTheStandardPutsThemUnlessTheCaptionHasSome() throws {
        let scratch = Scratch()
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        // An agency's template in Photo Mechanic's shape, every optional field filled.
        let template = scratch.file("Wire.xmp")
        try exiftool([
            "-q", "-o", template, "-XMP-dc:Creator=Ana Lima", "-XMP-photoshop:Headline=Match day",
            "-XMP-dc:Subject=football", "-XMP-dc:Subject=Benfica",
            "-XMP-iptcCore:AltTextAccessibility=Players on a pitch",
            "-XMP-iptcCore:ExtDescrAccessibility=Two teams line up before kick-off",
            "-XMP-iptcExt:Event=League final", "-XMP-photoshop:Instructions=Embargo 20:00",
            "-XMP-photoshop:TransmissionReference=LIS-0042", "-XMP-iptcCore:Location=Estádio da Luz",
            "-XMP-photoshop:State=Lisboa",
        ])
        #expect(try Caption.run(["--add-pad", template], environment: config).status == 0)
        let shown = try Caption.run(["--credits", "--pad", "Wire"], environment: config)
        #expect(
            shown.stdout.contains("Creator: Ana Lima\nHeadline: Match day\nKeywords: football, Benfica\n"),
            "\(shown.stdout)")

        let photo = try cameraPhoto(in: scratch)
        let saved = try Caption.run(
            [
                "--library", scratch.file("lib"), "--add", photo, "--title", "Goal", "--subtitle", "Lisboa, 6 Dec",
                "--event", "Cup final", "--pad", "Wire", "--in-place",
            ],
            environment: config)
        #expect(saved.status == 0, "\(saved.stderr)")
        let entry = try #require(try Library(directory: scratch.file("lib")).entries().first)
        #expect(entry.words[.event] == "Cup final", "the caption's own words win over the pad's")
        #expect(entry.words[.jobID] == "LIS-0042")
        #expect(entry.words[.keywords] == "football, Benfica")
        let xmp = try exiftool([
            "-s3", "-XMP-photoshop:Headline", "-XMP-dc:Subject", "-XMP-iptcCore:AltTextAccessibility",
            "-XMP-iptcCore:ExtDescrAccessibility", "-XMP-iptcExt:Event", "-XMP-photoshop:Instructions",
            "-XMP-photoshop:TransmissionReference", "-XMP-iptcCore:Location", "-XMP-photoshop:State", photo,
        ])
        #expect(
            xmp == "Match day\nfootball, Benfica\nPlayers on a pitch\nTwo teams line up before kick-off\n"
                + "Cup final\nEmbargo 20:00\nLIS-0042\nEstádio da Luz\nLisboa\n")
        // The photo had no IIM: it gets a block for older systems, with the fields IIM has.
        let iim = try exiftool([
            "-s3", "-charset", "iptc=UTF8", "-IPTC:Headline", "-IPTC:Keywords", "-IPTC:SpecialInstructions",
            "-IPTC:OriginalTransmissionReference", "-IPTC:Sub-location", "-IPTC:Province-State", photo,
        ])
        #expect(iim == "Match day\nfootball, Benfica\nEmbargo 20:00\nLIS-0042\nEstádio da Luz\nLisboa\n")
    }

    @Test func padGivesThatPadsCreditsForOneCommandOnly() throws {
        let scratch = Scratch()
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        #expect(try Caption.run(["--set-credits", "--creator", "Own Name"], environment: config).status == 0)
        let made = try Caption.run(
            ["--set-credits", "--creator", "Rui Costa", "--pad", "Freelance"], environment: config)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.hasPrefix("Stationery pad: Freelance\nCreator: Rui Costa\n"), "a new name makes a pad")
        let photo = try cameraPhoto(in: scratch)
        let saved = try Caption.run(
            [
                "--library", scratch.file("lib"), "--add", photo, "--title", "T", "--subtitle", "S", "--pad",
                "Freelance",
            ],
            environment: config)
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try Library(directory: scratch.file("lib")).entries().first?.credits[.creator] == "Rui Costa")
        #expect(try Caption.run(["--credits"], environment: config).stdout.hasPrefix("Creator: Own Name\n"))
        #expect(try Caption.run(["--pads"], environment: config).stdout == "  Freelance\n", "none in use")
    }

    @Test func setCreditsChangesThePadInUse() throws {
        let scratch = Scratch()
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        #expect(try Caption.run(["--set-credits", "--creator", "Own Name"], environment: config).status == 0)
        #expect(
            try Caption.run(["--set-credits", "--source", "Lusa", "--pad", "Desk"], environment: config).status == 0)
        #expect(try Caption.run(["--use-pad", "Desk"], environment: config).status == 0)
        let set = try Caption.run(["--set-credits", "--city", "Porto", "--replace-own"], environment: config)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.hasPrefix("Stationery pad: Desk\nSource: Lusa\nCity: Porto\n"))
        #expect(set.stdout.contains("They replace the credits a photo already carries."))
        let pad = try exiftool([
            "-s3", "-XMP-photoshop:Source", "-XMP-photoshop:City", scratch.file("config/caption/pads/Desk.xmp"),
        ])
        #expect(pad == "Lusa\nPorto\n")
        #expect(CreditsFile.read(scratch.file("config/caption/credits.ini")).credits[.creator] == "Own Name")
    }

    @Test func aPadThatDoesNotExistSavesNothing() throws {
        let scratch = Scratch()
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        let photo = try cameraPhoto(in: scratch)
        let saved = try Caption.run(
            ["--library", scratch.file("lib"), "--add", photo, "--title", "T", "--subtitle", "S", "--pad", "Nope"],
            environment: config)
        #expect(saved.status == 1)
        #expect(saved.stderr == "caption: The stationery pad “Nope” cannot be read (there is no such pad)\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("lib")), "no library opened")
        let used = try Caption.run(["--use-pad", "Nope"], environment: config)
        #expect(used.status == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("config/caption/credits.ini")))
        let shown = try Caption.run(["--credits", "--pad", "Nope"], environment: config)
        #expect(shown.status == 1)
        #expect(shown.stderr == "caption: The stationery pad “Nope” cannot be read (there is no such pad)\n")
    }

    @Test func aPadInUseThatWasDeletedIsSaidAndNoCreditsAreWritten() throws {
        let scratch = Scratch()
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        #expect(
            try Caption.run(["--set-credits", "--source", "Lusa", "--pad", "Desk"], environment: config).status == 0)
        #expect(try Caption.run(["--use-pad", "Desk"], environment: config).status == 0)
        try FileManager.default.removeItem(atPath: scratch.file("config/caption/pads/Desk.xmp"))
        let photo = try cameraPhoto(in: scratch)
        let saved = try Caption.run(
            ["--library", scratch.file("lib"), "--add", photo, "--title", "T", "--subtitle", "S", "--in-place"],
            environment: config)
        #expect(saved.status == 0, "the caption is saved; the credits are not written")
        #expect(
            saved.stderr
                == "caption: The stationery pad “Desk” cannot be read (there is no such pad), so no credits are written\n"
        )
        #expect(try exiftool(["-s3", "-XMP-photoshop:Source", photo]) == "")
    }

    @Test func aFileThatIsNoXMPIsNotAddedAsAPad() throws {
        let scratch = Scratch()
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        let junk = scratch.write("junk.xmp", Array("not a template".utf8))
        let added = try Caption.run(["--add-pad", junk], environment: config)
        #expect(added.status == 1)
        #expect(added.stderr == "caption: The file cannot be a stationery pad (it is not an XMP file): \(junk)\n")
        #expect(try Caption.run(["--pads"], environment: config).stdout.hasPrefix("No stationery pads"))
    }
}
