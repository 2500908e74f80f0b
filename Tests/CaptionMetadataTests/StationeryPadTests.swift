// Stationery pads as XMP files: Photo Mechanic-shaped templates made by exiftool read as
// pads, pads written here read by exiftool with the template's other fields kept, the pad
// in use standing in for the credits, and files that are no pad refused.

import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionMetadata

@Suite("Stationery pads")
struct StationeryPadTests {
    /// A metadata template as Photo Mechanic saves one, made by exiftool: an XMP file with
    /// the credits and fields Caption does not show (Headline, Instructions).
    static func template(_ path: String, _ tags: [String]) throws {
        let outcome = try Tool.run("exiftool", ["-q", "-o", path] + tags)
        try #require(outcome.status == 0, "exiftool: \(outcome.stderr)")
    }

    static let agencyTags = [
        "-XMP-dc:Creator=Ana Lima", "-XMP-photoshop:Credit=Agência Lusa", "-XMP-dc:Rights=© 2026 Lusa",
        "-XMP-photoshop:Source=Lusa", "-XMP-photoshop:City=Lisboa", "-XMP-photoshop:Country=Portugal",
        "-XMP-iptcCore:CountryCode=PT", "-XMP-photoshop:Headline=Match day", "-XMP-photoshop:Instructions=No sales",
    ]

    @Test func aTemplateMadeByExiftoolIsReadAsAPadWithEveryCredit() throws {
        let scratch = Scratch()
        let file = scratch.file("Lusa Sports.XMP")
        try Self.template(file, Self.agencyTags)
        let pads = scratch.file("pads")
        #expect(try StationeryPads.add(file, in: pads).get() == "Lusa Sports", "named after the file, any case")
        let credits = try StationeryPads.credits(of: "Lusa Sports", in: pads).get()
        #expect(
            credits
                == Credits(
                    [
                        .creator: "Ana Lima", .creditLine: "Agência Lusa", .copyright: "© 2026 Lusa", .source: "Lusa",
                        .city: "Lisboa", .country: "Portugal", .countryCode: "PT",
                    ], fieldWords: [.headline: "Match day", .instructions: "No sales"]))
    }

    @Test func aPadSavedHereIsReadByExiftoolAndKeepsTheTemplatesOtherFields() throws {
        let scratch = Scratch()
        let pads = scratch.folder("pads")
        try Self.template(pads + "/Desk.xmp", Self.agencyTags)
        var credits = try StationeryPads.credits(of: "Desk", in: pads).get()
        credits[.creditLine] = "Lusa/Reuters"
        credits[.city] = ""
        // As the Credits page of Preferences saves a pad: the credits alone.
        credits.fieldWords = [:]
        #expect(StationeryPads.save(credits, as: "Desk", in: pads) == nil)
        let read = try Tool.run("exiftool", ["-j", "-G1", pads + "/Desk.xmp"])
        try #require(read.status == 0, "\(read.stderr)")
        let object = try #require(try Readers.firstObject(read.stdout))
        #expect(object["XMP-photoshop:Credit"] as? String == "Lusa/Reuters")
        #expect(object["XMP-photoshop:City"] == nil, "a credit cleared leaves the pad")
        #expect(
            object["XMP-photoshop:Headline"] as? String == "Match day", "a field's words the save did not hold stay")
        #expect(object["XMP-photoshop:Instructions"] as? String == "No sales")
        #expect("\(object["XMP-dc:Creator"] ?? "")" == "Ana Lima")
        #expect(scratch.names(in: pads) == ["Desk.xmp"], "no temporary file left")
    }

    @Test func aNewPadIsMadeInAFolderThatDidNotExist() throws {
        let scratch = Scratch()
        let pads = scratch.file("config/caption/pads")
        #expect(StationeryPads.save(Credits([.creator: "Rui Costa"]), as: "Freelance", in: pads) == nil)
        #expect(StationeryPads.names(in: pads) == ["Freelance"])
        #expect(try StationeryPads.credits(of: "Freelance", in: pads).get() == Credits([.creator: "Rui Costa"]))
    }

    @Test func padsAreListedByNameInReadingOrderAndOnlyXMPFilesArePads() throws {
        let scratch = Scratch()
        let pads = scratch.folder("pads")
        for name in ["b.xmp", "A.XMP", "c.Xmp", ".hidden.xmp", "notes.txt", "xmp"] {
            _ = scratch.write("pads/" + name, Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8))
        }
        #expect(StationeryPads.names(in: pads) == ["A", "b", "c"])
        #expect(StationeryPads.names(in: scratch.file("missing")) == [])
    }

    @Test(arguments: [
        ("junk.xmp", Array("this is not XMP".utf8), "it is not an XMP file"),
        ("empty.xmp", [UInt8](), "it is not an XMP file"),
    ])
    func aFileThatIsNoXMPIsNotAddedAndNothingIsWritten(name: String, bytes: [UInt8], reason: String) {
        let scratch = Scratch()
        let file = scratch.write(name, bytes)
        let pads = scratch.file("pads")
        let outcome = StationeryPads.add(file, in: pads)
        #expect(outcome == .failure(PadProblem(pad: String(name.dropLast(4)), reason: reason, file: file)))
        #expect(outcome.failureMessage == "The file cannot be a stationery pad (\(reason)): \(file)")
        #expect(!FileManager.default.fileExists(atPath: pads))
    }

    @Test func aMissingFileOrAFolderIsNotAddedAsAPad() {
        let scratch = Scratch()
        let pads = scratch.file("pads")
        #expect(StationeryPads.add(scratch.file("gone.xmp"), in: pads).failureMessage?.contains("No such file") == true)
        #expect(
            StationeryPads.add(scratch.folder("folder.xmp"), in: pads).failureMessage
                == "The file cannot be a stationery pad (not a regular file): " + scratch.file("folder.xmp"))
    }

    @Test(arguments: [
        ("", "A stationery pad needs a name"), ("a/b", "A stationery pad's name cannot hold “/”"),
        (".hidden", "A stationery pad's name cannot start with a dot"),
        (String(repeating: "é", count: 126), "A stationery pad's name is too long"),
    ])
    func aNameThatCannotBeAFileNameIsRefused(name: String, reason: String) {
        let scratch = Scratch()
        #expect(StationeryPads.isAcceptable(name) == reason)
        #expect(StationeryPads.save(Credits([.creator: "X"]), as: name, in: scratch.file("pads")) == reason)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("pads")))
    }

    @Test func aPadThatIsNotXMPIsNotWrittenOver() throws {
        let scratch = Scratch()
        _ = scratch.folder("pads")
        let file = scratch.write("pads/Desk.xmp", Array("kept as it is".utf8))
        let saved = StationeryPads.save(Credits([.creator: "X"]), as: "Desk", in: scratch.file("pads"))
        #expect(saved == "The stationery pad “Desk” could not be saved (it is not an XMP file)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "kept as it is")
    }

    @Test func thePadInUseStandsForTheCreditsAndKeepsTheChoiceAboutAPhotosOwn() throws {
        let scratch = Scratch()
        let creditsFile = scratch.file("caption/credits.ini")
        #expect(CreditsFile.save(Credits([.creator: "Own Name"], replacesPhotos: true), to: creditsFile) == nil)
        try Self.template(scratch.folder("caption/pads") + "/Lusa.xmp", Self.agencyTags)
        #expect(StationeryPads.folder(besides: creditsFile) == scratch.file("caption/pads"))
        #expect(StationeryPads.standing(creditsFile).pad == nil)
        #expect(StationeryPads.standing(creditsFile).credits[.creator] == "Own Name")

        #expect(CreditsFile.usePad("Lusa", in: creditsFile) == nil)
        let reading = StationeryPads.standing(creditsFile)
        #expect(reading.pad == "Lusa")
        #expect(reading.problem == nil)
        #expect(reading.credits[.creditLine] == "Agência Lusa")
        #expect(reading.credits.replacesPhotos, "the choice about a photo's own holds for every pad")
        #expect(CreditsFile.read(creditsFile).credits[.creator] == "Own Name", "the standing credits are kept")

        #expect(CreditsFile.usePad(nil, in: creditsFile) == nil)
        #expect(StationeryPads.standing(creditsFile).credits[.creator] == "Own Name")
    }

    @Test func aPadInUseThatIsGoneGivesNoCreditsAndSaysSo() throws {
        let scratch = Scratch()
        let creditsFile = scratch.file("caption/credits.ini")
        #expect(CreditsFile.save(Credits([.creator: "Own Name"]), to: creditsFile) == nil)
        #expect(CreditsFile.usePad("Gone", in: creditsFile) == nil)
        let reading = StationeryPads.standing(creditsFile)
        #expect(reading.credits.isEmpty, "not the standing credits in its place: the user chose the pad")
        #expect(
            reading.problem
                == "The stationery pad “Gone” cannot be read (there is no such pad), so no credits are written")
    }
}

extension Result where Failure == PadProblem {
    fileprivate var failureMessage: String? {
        if case .failure(let problem) = self { return problem.message }
        return nil
    }
}
