// A desk's dateline pattern: the openings agencies write pass, and where one parts from the
// pattern is found at the word, with the part of the pattern wanted there.

import CaptionText
import Testing

@testable import CaptionChecks

@Suite("Caption checks: the desk's dateline pattern")
struct DatelinePatternTests {
    func mismatch(_ pattern: String, _ subtitle: String) throws -> DatelinePattern.Mismatch? {
        try #require(DatelinePattern(pattern)).mismatch(in: subtitle)
    }

    @Test(
        "openings written as the pattern asks pass",
        arguments: [
            ("CITY, COUNTRY - MONTH D:", "LONDON, ENGLAND - MAY 17: Fans gather outside the stadium."),
            ("CITY, STATE - MONTH D:", "SPRINGFIELD, Ill. – Sept. 5: The mayor speaks."),
            ("CITY, STATE - MONTH D:", "NEW YORK, N.Y. — May 17th: Crowds on Fifth Avenue."),
            ("CITY, STATE - MONTH D:", "  ST. JOHN'S, Newfoundland - Jan 2: Ice on the harbour."),
            ("CITY (AP) - ", "LISBON (AP) — Fans cheer as the ferry docks."),
            ("DAY, MONTH D, YEAR -", "Tuesday, May 5, 2026 - The first ferry of the season."),
            ("CITY, MONTH. D", "PORTO, Jan. 3 Boats on the Douro."),
        ])
    func openingsAsThePatternAsks(pattern: String, subtitle: String) throws {
        #expect(try mismatch(pattern, subtitle) == nil)
    }

    @Test func aMonthNotAMonthIsFoundAtItsWord() throws {
        let subtitle = "LISBON, Portugal - Mai 17: Fans cheer."
        let found = try #require(try mismatch("CITY, COUNTRY - MONTH D:", subtitle))
        #expect(found.wanted == "MONTH")
        #expect(Array(subtitle)[found.offset...].starts(with: "Mai"))
    }

    @Test func aMissingMarkIsWantedAsThePatternWritesIt() throws {
        let subtitle = "LISBON Portugal - May 17: Fans cheer."
        let found = try #require(try mismatch("CITY, COUNTRY - MONTH D:", subtitle))
        #expect(found.wanted == ",", "the city may be two words, so the comma is wanted after both")
        #expect(found.offset == 15)
    }

    @Test func aDayOutOfTheMonthIsNoDay() throws {
        #expect(try mismatch("CITY - MONTH D:", "PORTO - May 32: Boats.")?.wanted == "D")
        #expect(try mismatch("CITY - MONTH D:", "PORTO - May 3rd: Boats.") == nil)
        #expect(try mismatch("CITY - MONTH D:", "PORTO - May 3x: Boats.")?.wanted == "D")
    }

    @Test func aSubtitleThatEndsEarlyIsFoundAtItsEnd() throws {
        let found = try #require(try mismatch("CITY, STATE - MONTH D:", "PORTO, Douro"))
        #expect(found.offset == 12)
        #expect(found.wanted == "-")
    }

    @Test func capitalsThatNameNoPartAreWrittenAsTheyAre() throws {
        let pattern = try #require(DatelinePattern("(AP) -"))
        #expect(!pattern.namesAPart)
        #expect(pattern.mismatch(in: "(AP) - Boats") == nil)
        #expect(pattern.mismatch(in: "(Reuters) - Boats") == DatelinePattern.Mismatch(offset: 1, wanted: "AP) -"))
        #expect(try #require(DatelinePattern("CITYSCAPE:")).namesAPart == false, "a part is a whole word")
        #expect(DatelinePattern("  ") == nil, "nothing to ask")
    }

    @Test func theFindingSaysThePatternAndSelectsTheWord() throws {
        let words = CaptionWords(title: "Harbour", subtitle: "Lisbon - May 17: Boats")
        let choices = CheckChoices(off: [], datelinePattern: "CITY, COUNTRY - MONTH D:")
        let found = CaptionChecks.findings(in: words, choices: choices)
        #expect(found.map(\.kind) == [.notAsDateline], "the pattern replaces the place-and-date words")
        let finding = try #require(found.first)
        #expect(finding.text == "-")
        #expect(finding.offset == 7 && finding.length == 1)
        #expect(
            finding.message
                == "Subtitle does not open with the dateline “CITY, COUNTRY - MONTH D:”: “,” is wanted at “-”")
        let short = CaptionChecks.findings(in: CaptionWords(title: "H", subtitle: "Lisbon,"), choices: choices)
        #expect(
            short.first?.message
                == "Subtitle does not open with the dateline “CITY, COUNTRY - MONTH D:”: it ends where “COUNTRY” is wanted"
        )
        #expect(
            CaptionChecks.findings(in: words, choices: CheckChoices(datelinePattern: choices.datelinePattern)).isEmpty,
            "the dateline check off, the pattern asks nothing")
    }

    @Test func aPadsChecksGoOverPreferences() {
        let preferences = CheckChoices(off: [.dateline, .headlineCase, .names], datelinePattern: "")
        let pad = PadChecks(on: [.dateline], off: [.brackets], datelinePattern: "CITY -")
        let applied = pad.applied(to: preferences)
        #expect(applied.off == [.headlineCase, .names, .brackets])
        #expect(applied.datelinePattern == "CITY -")
        #expect(PadChecks.none.applied(to: preferences) == preferences)
        #expect(PadChecks(on: [.names], off: [.names]).off.isEmpty, "on wins where a pad says both")
        let owning = PadChecks(owning: preferences)
        #expect(owning.applied(to: CheckChoices(off: [])) == preferences)
        #expect(!owning.isEmpty)
        #expect(
            PadChecks(datelinePattern: "").applied(to: CheckChoices(datelinePattern: "CITY -")).datelinePattern == "",
            "a pad may ask for no pattern where Preferences has one")
    }
}
