// A stationery pad's own checks: read from a pad written by hand as an agency would hand one
// out, written beside the template's credits and fields without harming them (exiftool
// still reads every one), and applied over Preferences' while the pad is in use.

import CaptionChecks
import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@testable import CaptionMetadata

@Suite("Stationery pads' own checks")
struct PadChecksTests {
    /// An agency's pad as a text editor leaves it: IPTC Core's credits, and Caption's own
    /// checks, with a name Caption does not know among them.
    static let handWritten = """
        <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
            xmlns:caption="https://caption-app.github.io/xmp/1.0/"
            photoshop:Credit="Wire Agency"
            caption:DatelinePattern="CITY, STATE - MONTH D:">
           <caption:ChecksOn><rdf:Bag><rdf:li>dateline</rdf:li><rdf:li> headline_case </rdf:li></rdf:Bag></caption:ChecksOn>
           <caption:ChecksOff><rdf:Bag><rdf:li>names</rdf:li><rdf:li>spelling</rdf:li></rdf:Bag></caption:ChecksOff>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """

    @Test func aPadWrittenByHandGivesItsChecks() throws {
        let scratch = Scratch()
        let pads = scratch.folder("pads")
        try Data(Self.handWritten.utf8).write(to: URL(fileURLWithPath: pads + "/Wire.xmp"))
        #expect(
            StationeryPads.checks(of: "Wire", in: pads)
                == PadChecks(on: [.dateline, .headlineCase], off: [.names], datelinePattern: "CITY, STATE - MONTH D:"))
        #expect(try StationeryPads.credits(of: "Wire", in: pads).get()[.creditLine] == "Wire Agency")
        #expect(StationeryPads.checks(of: "Missing", in: pads) == .none, "no pad, no checks of its own")
        #expect(StationeryPads.checks(of: "../x", in: pads) == .none)
    }

    @Test func checksSavedIntoATemplateKeepItsCreditsAndFieldsForExiftool() throws {
        let scratch = Scratch()
        let pads = scratch.folder("pads")
        try StationeryPadTests.template(pads + "/Desk.xmp", StationeryPadTests.agencyTags)
        let checks = PadChecks(on: [.dateline], off: [.brackets], datelinePattern: "CITY, COUNTRY - MONTH D:")
        #expect(StationeryPads.save(checks, as: "Desk", in: pads) == nil)
        #expect(StationeryPads.checks(of: "Desk", in: pads) == checks)
        // The credits saved from the Credits page afterwards keep the checks.
        var credits = try StationeryPads.credits(of: "Desk", in: pads).get()
        credits[.creditLine] = "Lusa/Reuters"
        #expect(StationeryPads.save(credits, as: "Desk", in: pads) == nil)
        #expect(StationeryPads.checks(of: "Desk", in: pads) == checks)
        let read = try Tool.run("exiftool", ["-j", "-G1", pads + "/Desk.xmp"])
        try #require(read.status == 0, "\(read.stderr)")
        let object = try #require(try Readers.firstObject(read.stdout))
        #expect(object["XMP-photoshop:Credit"] as? String == "Lusa/Reuters")
        #expect(object["XMP-photoshop:Headline"] as? String == "Match day")
        #expect("\(object["XMP-dc:Creator"] ?? "")" == "Ana Lima")
        #expect(scratch.names(in: pads) == ["Desk.xmp"], "no temporary file left")

        #expect(StationeryPads.save(PadChecks.none, as: "Desk", in: pads) == nil)
        #expect(StationeryPads.checks(of: "Desk", in: pads) == .none, "taken away whole")
        #expect(try StationeryPads.credits(of: "Desk", in: pads).get()[.creditLine] == "Lusa/Reuters")
    }

    @Test func thePadInUsesChecksGoOverPreferences() throws {
        let scratch = Scratch()
        let creditsFile = scratch.file("caption/credits.ini")
        #expect(CreditsFile.save(CheckChoices(off: [.leftovers], datelinePattern: "CITY -"), to: creditsFile) == nil)
        #expect(CreditsFile.checkChoices(creditsFile) == CheckChoices(off: [.leftovers], datelinePattern: "CITY -"))
        let pads = StationeryPads.folder(besides: creditsFile)
        #expect(StationeryPads.save(Credits([.creator: "A"]), as: "Plain", in: pads) == nil)
        #expect(StationeryPads.save(PadChecks(on: [.leftovers], off: [.dateline]), as: "Wire", in: pads) == nil)

        #expect(StationeryPads.checkChoices(creditsPath: creditsFile) == CreditsFile.checkChoices(creditsFile))
        #expect(CreditsFile.usePad("Wire", in: creditsFile) == nil)
        #expect(
            StationeryPads.checkChoices(creditsPath: creditsFile)
                == CheckChoices(off: [.dateline], datelinePattern: "CITY -"), "the pad's switches, the desk's pattern")
        #expect(
            StationeryPads.checkChoices(pad: "Plain", creditsPath: creditsFile)
                == CreditsFile.checkChoices(creditsFile), "a pad without checks of its own follows Preferences")
    }

    @Test func aPadThatIsNotXMPIsNotGivenChecks() throws {
        let scratch = Scratch()
        let pads = scratch.folder("pads")
        try Data("not xmp <<".utf8).write(to: URL(fileURLWithPath: pads + "/Broken.xmp"))
        let problem = StationeryPads.save(PadChecks(on: [.dateline]), as: "Broken", in: pads)
        #expect(problem == "The stationery pad “Broken” could not be saved (it is not an XMP file)")
        #expect(try String(contentsOfFile: pads + "/Broken.xmp", encoding: .utf8) == "not xmp <<", "left as it was")
    }
}
