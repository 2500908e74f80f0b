// The wire's place and date in a description: found missing as an editor would, nothing said
// where a dateline, a place or a date is there, and nothing at all unless a desk asks.

import CaptionText
import Testing

@testable import CaptionChecks

@Suite("Caption checks: a place and a date, as the wire asks")
struct DatelineTests {
    func found(_ subtitle: String, places: [String] = []) -> [CaptionFinding.Kind] {
        CaptionChecks.findings(
            in: CaptionWords(title: "Harbour", subtitle: subtitle), choices: CheckChoices(off: []), places: places
        )
        .map(\.kind)
    }

    @Test(
        "captions that say where and when pass",
        arguments: [
            "Barack Obama waves to supporters in Lisbon, Portugal, on Monday, May 17, 2024.",
            "LISBON, Portugal – Fans cheer as the ferry docks on Saturday.",
            "LISBON (AP) — Fans cheer on Sept. 3.",
            "Fans at Wembley on 2024-05-17.",
            "Crowds near Porto yesterday.",
        ])
    func whereAndWhen(subtitle: String) {
        #expect(found(subtitle).isEmpty)
    }

    @Test func aMissingPlaceAndAMissingDateAreEachSaid() {
        #expect(found("Fans cheer as the ferry docks.") == [.noPlace, .noDate])
        #expect(found("Fans cheer in Lisbon.") == [.noDate])
        #expect(found("Fans cheer at dusk, 2019.") == [.noPlace], "“at dusk” is no place")
    }

    @Test func thePlaceThePhotosGPSGivesCounts() {
        #expect(found("Tram 28 climbs to the Alfama, Lisbon, in May.", places: ["Lisbon", "Portugal"]).isEmpty)
        #expect(found("Tram 28 climbs to the castle in May.", places: ["Lisbon"]) == [.noPlace])
        #expect(found("Tram 28 climbs to Lisbon's castle in May.", places: ["Lisbon"]).isEmpty, "a possessive")
        #expect(found("Tram 28 climbs to Lisbon’s castle in May.", places: ["Lisbon"]).isEmpty)
    }

    @Test func theFindingsSitAtTheEndOfTheSubtitle() {
        let findings = CaptionChecks.findings(
            in: CaptionWords(title: "Harbour", subtitle: "Boats"), choices: CheckChoices(off: []))
        #expect(findings.map(\.field) == [.subtitle, .subtitle])
        #expect(findings.allSatisfy { $0.offset == 5 && $0.length == 0 })
        #expect(findings.first?.message == "Subtitle says no place, as a wire caption must (a city, or a dateline)")
    }

    @Test func offUnlessADeskAsksAndNothingForAnEmptySubtitle() {
        #expect(CaptionChecks.findings(in: CaptionWords(title: "Harbour", subtitle: "Boats")).isEmpty)
        #expect(found("").isEmpty && found("   ").isEmpty, "the required field's rule says it")
    }
}
