// Caption sheets: the CSV exiftool writes read as it reads it, --import saving and writing
// each row, bad rows said by line, and --list --csv read back by exiftool.

import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionCommand
@testable import CaptionLibrary

@Suite("Caption sheets")
struct ImportCommandTests {
    // MARK: The CSV itself

    @Test func quotedCellsKeepCommasQuotesAndLineEnds() {
        let records = CSV.records("SourceFile,Title\r\n\"a, b.jpg\",\"Say \"\"cheese\"\"\nand smile\"\r\nc.jpg,plain\n")
        #expect(
            records.map(\.fields) == [
                ["SourceFile", "Title"], ["a, b.jpg", "Say \"cheese\"\nand smile"], ["c.jpg", "plain"],
            ])
        #expect(records.map(\.line) == [1, 2, 4], "a row's line is where it starts; a cell's line end counts")
    }

    @Test func aByteOrderMarkIsNotPartOfTheFirstColumn() {
        #expect(CaptionSheet.read("\u{FEFF}SourceFile,Title\na.jpg,T\n").rows.count == 1)
    }

    @Test func aQuoteNeverClosedIsSaidAtItsLineAndTheRowsBeforeStand() {
        let (rows, _) = CaptionSheet.read("SourceFile,Title\na.jpg,A\nb.jpg,\"B\nc.jpg,C\n")
        #expect(rows.count == 2)
        #expect((try? rows[0].get())?.photo == "a.jpg")
        guard case .failure(let problem) = rows[1] else {
            Issue.record("the open quote was not found")
            return
        }
        #expect(problem.line == 3)
    }

    @Test func columnsAreExiftoolsNamesWithOrWithoutTheirGroup() {
        #expect(CaptionSheet.column("Title") == .field(.title))
        #expect(CaptionSheet.column("IPTC:ObjectName") == .field(.title))
        #expect(CaptionSheet.column("XMP-dc:Description") == .field(.subtitle))
        #expect(CaptionSheet.column("caption-abstract") == .field(.subtitle))
        #expect(CaptionSheet.column("EXIF:Artist") == .credit(.creator))
        #expect(CaptionSheet.column("By-line") == .credit(.creator))
        #expect(CaptionSheet.column("CopyrightNotice") == .credit(.copyright))
        #expect(CaptionSheet.column("Country-PrimaryLocationCode") == .credit(.countryCode))
        #expect(CaptionSheet.column("Headline") == .field(.headline))
        #expect(CaptionSheet.column("IPTC:Keywords") == .field(.keywords))
        #expect(CaptionSheet.column("XMP-dc:Subject") == .field(.keywords))
        #expect(CaptionSheet.column("OriginalTransmissionReference") == .field(.jobID))
        #expect(CaptionSheet.column("Sub-location") == .field(.sublocation))
        #expect(CaptionSheet.column("Province-State") == .field(.state))
        #expect(CaptionSheet.column("SpecialInstructions") == .field(.instructions))
        #expect(CaptionSheet.column("Rating") == .unknown("Rating"))
    }

    @Test func emptyCellsSayNothingAndRowsOfTheWrongWidthAreRefused() {
        let (rows, leftOut) = CaptionSheet.read(
            "SourceFile,Title,Description,Rating\na.jpg,,D,5\nb.jpg,T,D,5,extra\n,T,D\n\n")
        #expect(leftOut == ["Rating"])
        #expect(rows.count == 3, "the blank line is no row")
        #expect((try? rows[0].get())?.words == [.subtitle: "D"])
        guard case .failure(let wide) = rows[1], case .failure(let nameless) = rows[2] else {
            Issue.record("bad rows were taken")
            return
        }
        #expect(wide.line == 3 && wide.message.contains("5 cells"))
        #expect(nameless.line == 4 && nameless.message.contains("SourceFile"))
    }

    @Test func cellsAreQuotedOnlyWhereTheyMustBe() {
        #expect(CSV.quoted("Harbour") == "Harbour")
        #expect(CSV.quoted("Boats, dusk") == "\"Boats, dusk\"")
        #expect(CSV.quoted("Say \"hi\"") == "\"Say \"\"hi\"\"\"")
        #expect(
            CSV.records(
                CaptionSheet.line(
                    photo: "a,b.jpg", words: CaptionWords(title: "T \"x\"", subtitle: "S\nT"), credits: .none))[0]
                .fields.prefix(3) == ["a,b.jpg", "T \"x\"", "S\nT"])
    }

    // MARK: The command line

    @Test(
        "import and listing requests",
        arguments: [
            (["--import", "s.csv"], Request.importSheet(library: nil, sheet: "s.csv", into: nil)),
            (["--import=s.csv", "--in-place"], .importSheet(library: nil, sheet: "s.csv", into: .photo)),
            (
                ["-l", "lib", "--sidecar", "--import", "s.csv"],
                .importSheet(library: "lib", sheet: "s.csv", into: .sidecar)
            ),
            (["--list", "--csv"], .list(library: nil, format: .csv)),
            (["--list"], .list(library: nil, format: .table)),
            (["--list", "--json"], .list(library: nil, format: .json)),
        ])
    func requests(arguments: [String], request: Request) throws {
        #expect(try Arguments.parse(arguments) == request)
    }

    @Test(
        "mistakes with --import and --csv",
        arguments: [
            (["--import", ""], "--import needs a sheet"),
            (["--import", "s.csv", "p.jpg"], "--import takes the photos from its sheet; unexpected p.jpg"),
            (
                ["--import", "s.csv", "--list"],
                "use only one of --add, --import, --list, --remove, --export, --write-back and --check"
            ),
            (["--import", "s.csv", "--in-place", "--sidecar"], "use either --in-place or --sidecar"),
            (["--csv"], "--csv goes with --list"),
            (["--list", "--csv", "--json"], "use either --json or --csv"),
            (["--list", "--csv=yes"], "option --csv takes no value"),
        ])
    func mistakes(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try Arguments.parse(arguments) }
    }

    // MARK: --import

    /// Camera-like JPEGs made by ImageMagick, captioned by exiftool with old words.
    func cameraPhotos(_ count: Int, in scratch: Scratch) throws -> [String] {
        let folder = scratch.file("photos")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let first = folder + "/IMG_0001.jpg"
        let made = try Tool.run("convert", ["-size", "96x64", "gradient:navy-orange", "-quality", "90", first])
        try #require(made.status == 0, "convert: \(made.stderr)")
        _ = try exiftool(
            [
                "-q", "-overwrite_original", "-Make=Canon", "-Model=Canon EOS R6", "-Title=Old",
                "-Description=Old words",
                "-Creator=Rui Costa", first,
            ])
        var paths = [first]
        for index in (1..<count).map({ $0 + 1 }) {
            let path = folder + "/IMG_" + String(format: "%04d", index) + ".jpg"
            try FileManager.default.copyItem(atPath: first, toPath: path)
            paths.append(path)
        }
        return paths
    }

    func exiftool(_ arguments: [String]) throws -> String {
        let outcome = try Tool.run("exiftool", arguments)
        try #require(outcome.status == 0, "exiftool: \(outcome.stderr)")
        return outcome.stdout
    }

    @Test func aSheetExiftoolWroteIsSavedAndWrittenIntoEachPhotoInOneGo() throws {
        let scratch = Scratch()
        let photos = try cameraPhotos(3, in: scratch)
        // The sheet as a desk gets it: exiftool's own listing, edited.
        var sheet = try exiftool(["-csv", "-Title", "-Description", "-Credit"] + photos)
        #expect(sheet.hasPrefix("SourceFile,"))
        sheet = sheet.replacing("Old words", with: "\"Boats at dusk, Lisbon\"").replacing(",Old,", with: ",Harbour,")
            .replacing(",Old\n", with: ",Harbour\n")
        let sheetPath = scratch.write("sheet.csv", Array(sheet.utf8))
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        let outcome = try Caption.run(
            ["--library", scratch.file("lib"), "--import", sheetPath, "--in-place"], environment: config)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr == "")
        let entries = try Library(directory: scratch.file("lib")).entries()
        #expect(entries.count == 3)
        #expect(Set(entries.map(\.title)) == ["Harbour"])
        #expect(Set(entries.compactMap(\.source)) == Set(photos))
        let read = try exiftool(["-s3", "-XMP-dc:Title", "-XMP-dc:Description", "-IPTC:Caption-Abstract", photos[2]])
        #expect(read == "Harbour\nBoats at dusk, Lisbon\nBoats at dusk, Lisbon\n")
    }

    @Test func aBadRowIsSaidWithItsLineAndTheOthersAreSaved() throws {
        let scratch = Scratch()
        let photos = try cameraPhotos(2, in: scratch)
        let sheet = scratch.write(
            "sheet.csv",
            Array(
                """
                SourceFile,Title,Description
                \(photos[0]),One,First
                \(scratch.file("gone.jpg")),Two,Second
                \(photos[1]),,\(String(repeating: "y", count: 241))
                \(photos[1]),Three,Third

                """.utf8))
        let outcome = try Caption.run(
            ["--library", scratch.file("lib"), "--import", sheet],
            environment: ["XDG_CONFIG_HOME": scratch.file("config")])
        #expect(outcome.status == 1)
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("caption: " + sheet + ":3: ") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("caption: " + sheet + ":4: Subtitle is too long") }, "\(lines)")
        let titles = try Library(directory: scratch.file("lib")).entries().map(\.title)
        #expect(Set(titles) == ["One", "Three"])
    }

    @Test func anEmptyCellIsTakenFromThePhoto() throws {
        let scratch = Scratch()
        let photos = try cameraPhotos(1, in: scratch)
        let sheet = scratch.write("sheet.csv", Array("SourceFile,Title,Description\n\(photos[0]),New title,\n".utf8))
        let outcome = try Caption.run(
            ["--library", scratch.file("lib"), "--import", sheet],
            environment: ["XDG_CONFIG_HOME": scratch.file("config")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(try Library(directory: scratch.file("lib")).entries().first)
        #expect(entry.words == CaptionWords(title: "New title", subtitle: "Old words"))
    }

    @Test func aCreditInTheSheetGoesOverThePhotosOwn() throws {
        let scratch = Scratch()
        let photos = try cameraPhotos(2, in: scratch)
        let sheet = scratch.write(
            "sheet.csv",
            Array("SourceFile,Title,Description,By-line\n\(photos[0]),T,D,Ana Lima\n\(photos[1]),T,D,\n".utf8))
        let outcome = try Caption.run(
            ["--library", scratch.file("lib"), "--import", sheet, "--in-place"],
            environment: ["XDG_CONFIG_HOME": scratch.file("config")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try exiftool(["-s3", "-XMP-dc:Creator", photos[0]]) == "Ana Lima\n")
        #expect(try exiftool(["-s3", "-XMP-dc:Creator", photos[1]]) == "Rui Costa\n", "no cell: the photo's own stays")
    }

    @Test(
        "a sheet that cannot be read is said and nothing is saved",
        arguments: [
            ("missing.csv", nil, "There is no sheet at"),
            (
                "latin1.csv",
                [0x53, 0x6F, 0x75, 0x72, 0x63, 0x65, 0x46, 0x69, 0x6C, 0x65, 0x0A, 0xE9, 0x0A] as [UInt8]?,
                "is not UTF-8 text"
            ),
            ("empty.csv", [], "the sheet is empty"),
            ("nameless.csv", Array("Title,Description\nT,D\n".utf8), "no SourceFile column"),
        ])
    func unreadableSheets(name: String, bytes: [UInt8]?, message: String) throws {
        let scratch = Scratch()
        let sheet = bytes.map { scratch.write(name, $0) } ?? scratch.file(name)
        let outcome = try Caption.run(
            ["--library", scratch.file("lib"), "--import", sheet],
            environment: ["XDG_CONFIG_HOME": scratch.file("config")])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(outcome.stdout == "")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("lib")), "no library made for nothing")
    }

    @Test func aFolderGivenAsTheSheetIsRefused() throws {
        let scratch = Scratch()
        let outcome = try Caption.run(
            ["--library", scratch.file("lib"), "--import", scratch.path],
            environment: ["XDG_CONFIG_HOME": scratch.file("config")])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("is not a file"))
    }

    // MARK: --list --csv

    @Test func theLibrarysSheetIsReadBackByExiftoolIntoOtherCopies() throws {
        let scratch = Scratch()
        let photos = try cameraPhotos(2, in: scratch)
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        for (photo, title) in zip(photos, ["Quay, at dawn", "Say \"cheese\""]) {
            let added = try Caption.run(
                ["--library", scratch.file("lib"), "--add", photo, "--title", title, "--subtitle", "Ferry"],
                environment: config)
            try #require(added.status == 0, "\(added.stderr)")
        }
        let listed = try Caption.run(["--library", scratch.file("lib"), "--list", "--csv"], environment: config)
        #expect(listed.status == 0)
        #expect(listed.stdout.hasPrefix("SourceFile,Title,Description,Headline,Subject,"))
        let sheet = scratch.write("out.csv", Array(listed.stdout.utf8))
        // exiftool writes the sheet's words into the photos it names.
        _ = try exiftool(["-q", "-overwrite_original", "-csv=" + sheet] + photos)
        #expect(try exiftool(["-s3", "-XMP-dc:Title", photos[0]]) == "Quay, at dawn\n")
        #expect(try exiftool(["-s3", "-XMP-dc:Title", photos[1]]) == "Say \"cheese\"\n")
        // And Caption reads it back as it wrote it.
        let again = try Caption.run(["--library", scratch.file("again"), "--import", sheet], environment: config)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            Set(try Library(directory: scratch.file("again")).entries().map(\.title)) == [
                "Quay, at dawn", "Say \"cheese\"",
            ])
    }

    @Test(
        "a sheet's optional columns, by their XMP or IIM names, are saved; --list --csv writes them as exiftool reads them back"
    )
    func optionalColumnsRoundTripThroughExiftool() throws {
        let scratch = Scratch()
        let photos = try cameraPhotos(2, in: scratch)
        let sheet = scratch.write(
            "in.csv",
            Array(
                """
                SourceFile,ObjectName,Caption-Abstract,Headline,Keywords,SpecialInstructions,OriginalTransmissionReference,Sub-location,Province-State,AltTextAccessibility,ExtDescrAccessibility,Event
                \(photos[0]),Quay,Ferry,Gale,"harbour, storm",Embargo,J-1,Pier 4,Lisboa,Waves,Grey waves,Storm Ana
                \(photos[1]),Dock,Boat,,,,,,,,,

                """.utf8))
        let config = ["XDG_CONFIG_HOME": scratch.file("config")]
        let imported = try Caption.run(["--library", scratch.file("lib"), "--import", sheet], environment: config)
        #expect(imported.status == 0, "\(imported.stderr)")
        let entries = try Library(directory: scratch.file("lib")).entries()
        let quay = try #require(entries.first { $0.title == "Quay" })
        #expect(quay.words[.headline] == "Gale" && quay.words.keywords == ["harbour", "storm"])
        #expect(quay.words[.instructions] == "Embargo" && quay.words[.jobID] == "J-1")
        #expect(quay.words[.sublocation] == "Pier 4" && quay.words[.state] == "Lisboa")
        #expect(quay.words[.altText] == "Waves" && quay.words[.extendedDescription] == "Grey waves")
        #expect(quay.words[.event] == "Storm Ana")
        #expect(try #require(entries.first { $0.title == "Dock" }).words.filledOptionalFields == [])

        let listed = try Caption.run(["--library", scratch.file("lib"), "--list", "--csv"], environment: config)
        #expect(listed.status == 0)
        let out = scratch.write("out.csv", Array(listed.stdout.utf8))
        _ = try exiftool(["-q", "-overwrite_original", "-sep", ", ", "-csv=" + out] + photos)
        let read = try exiftool([
            // Headline has the same name in IIM, where exiftool writes a bare name first.
            "-s3", "-sep", "|", "-Headline", "-XMP-dc:Subject", "-XMP-photoshop:Instructions",
            "-XMP-photoshop:TransmissionReference", "-XMP-iptcCore:Location", "-XMP-photoshop:State",
            "-XMP-iptcCore:AltTextAccessibility", "-XMP-iptcCore:ExtDescrAccessibility", "-XMP-iptcExt:Event",
            photos[0],
        ])
        #expect(read == "Gale\nharbour|storm\nEmbargo\nJ-1\nPier 4\nLisboa\nWaves\nGrey waves\nStorm Ana\n")
    }
}
