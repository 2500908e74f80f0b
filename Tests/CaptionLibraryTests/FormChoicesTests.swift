// The form's optional fields as the settings file keeps them: read back as written, and a
// file written by hand or by an older Caption read without surprises.

import CaptionLibrary
import CaptionText
import Foundation
import Testing

@Suite struct FormChoicesTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caption-form-\(UUID())").path

    func file(_ text: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/settings-\(UUID()).ini"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theChoicesAreReadBackAsWritten() throws {
        let path = try file("[credits]\ncreator=Ana Lima\n")
        var choices = FormChoices(on: [.headline, .event])
        choices.move(.event, by: -4)
        #expect(CreditsFile.save(choices, to: path) == nil)
        let read = CreditsFile.formChoices(path)
        #expect(read == choices)
        #expect(read.order.first == .event, "moved to the top of the list")
        #expect(read.shown == [.event, .headline])
        #expect(CreditsFile.read(path).credits[.creator] == "Ana Lima", "the credits in the same file stay")
    }

    @Test func aFileWithoutTheGroupShowsNoOptionalField() throws {
        let path = try file("[credits]\ncreator=Ana Lima\n")
        #expect(CreditsFile.formChoices(path).shown.isEmpty)
        #expect(CreditsFile.formChoices(folder + "/missing.ini").shown.isEmpty)
    }

    @Test func unknownNamesRequiredFieldsAndRepeatsArePassedOver() throws {
        let path = try file("[form]\nfields=event; title;colour;event;job_id\n")
        let read = CreditsFile.formChoices(path)
        #expect(read.shown == [.event, .jobID])
        #expect(read.order.count == CaptionField.optional.count, "every optional field is in the list once")
    }

    @Test func aFieldMovesWithinTheListOnly() {
        var choices = FormChoices()
        let upFromTheTop = choices.move(.headline, by: -1)
        #expect(!upFromTheTop, "the first cannot go up")
        let down = choices.move(.headline, by: 1)
        #expect(down)
        #expect(choices.order.prefix(2) == [.keywords, .headline])
        let downFromTheBottom = choices.move(.state, by: 1)
        #expect(!downFromTheBottom, "the last cannot go down")
    }
}
