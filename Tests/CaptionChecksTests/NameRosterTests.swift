// Names a slip away from the roster's: found with the name meant, and nothing found where
// the caption spells a name right or holds ordinary words.

import CaptionText
import Testing

@testable import CaptionChecks

@Suite("Caption checks: names spelt otherwise than the roster")
struct NameRosterTests {
    /// A roster as Photo Mechanic's code replacement files hold it: a name, often followed
    /// by a number, a role or a team.
    static let roster = NameRoster(replacementTexts: [
        "Barack Obama", "Cristiano Ronaldo #7 of Portugal", "Ana Lima (BRA)", "Ana Lins", "Angela Merkel",
        "Lisbon", "Rui Costa, coach", "the ball", "Kylian Mbappé",
    ])

    func found(_ subtitle: String) -> [String] {
        CaptionChecks.findings(in: CaptionWords(title: "Harbour", subtitle: subtitle), names: Self.roster).map {
            "\($0.kind.rawValue) \($0.text) @\($0.offset) → \($0.suggestion ?? "-")"
        }
    }

    @Test(
        "a name a slip away is found with the name meant",
        arguments: [
            ("Barak Obama waves.", "nameNearMiss Barak Obama @0 → Barack Obama"),
            ("President Barrack Obama waves.", "nameNearMiss Barrack Obama @10 → Barack Obama"),
            ("Cristiano Ronlado scores.", "nameNearMiss Cristiano Ronlado @0 → Cristiano Ronaldo"),
            ("Angela Merkle speaks.", "nameNearMiss Angela Merkle @0 → Angela Merkel"),
            ("Kylian Mbappe runs.", "nameNearMiss Kylian Mbappe @0 → Kylian Mbappé"),
            ("Fans in Lisbom cheer.", "nameNearMiss Lisbom @8 → Lisbon"),
        ])
    func nearMisses(subtitle: String, expected: String) {
        #expect(found(subtitle) == [expected])
    }

    @Test(
        "names spelt right and ordinary words are not taken for slips",
        arguments: [
            "Barack Obama waves.", "Ana Lins and Ana Lima on the pier.", "Cristiano Ronaldo scores.",
            "Rui Costa watches.", "A ball on the beach.", "Lisbon at dusk.", "Barack Obama and Angela Merkel meet.",
        ])
    func rightSpellings(subtitle: String) {
        #expect(found(subtitle).isEmpty)
    }

    @Test func theRostersNamesComeFromCodeTextsAsDesksWriteThem() {
        #expect(NameRoster.name(in: "Cristiano Ronaldo #7 of Portugal") == "Cristiano Ronaldo")
        #expect(NameRoster.name(in: "Rui Costa, coach") == "Rui Costa")
        #expect(NameRoster.name(in: "Ana Lima (BRA)") == "Ana Lima")
        #expect(NameRoster.name(in: "Lisbon") == "Lisbon")
        #expect(NameRoster.name(in: "Lisbon harbour") == nil, "one capitalised word before others is no name")
        #expect(NameRoster.name(in: "the ball") == nil)
        #expect(NameRoster.name(in: "Conan O’Brien") == "Conan O’Brien")
    }

    @Test func distanceCountsOneSwapAsOneSlip() {
        #expect(NameRoster.distance(Array("Ronlado"), Array("Ronaldo"), atMost: 2) == 1)
        #expect(NameRoster.distance(Array("Obama"), Array("Obama"), atMost: 1) == 0)
        #expect(NameRoster.distance(Array("Osama"), Array("Obama"), atMost: 1) == 1)
        #expect(NameRoster.distance(Array("Ohio"), Array("Obama"), atMost: 2) == nil)
    }

    @Test func aSeasonsRosterFindsTheOneNameMeant() {
        // 20,000 names with every initial: the caption is held against the few that share
        // its words' initials, and the closest is the one said.
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let names = (0..<20_000).map { index in
            "\(letters[index % 26])layer\(index) \(letters[(index / 26) % 26])urname\(index % 977)"
        }
        let roster = NameRoster(names: names)
        let meant = names[12_345]
        var slip = Array(meant)
        slip.swapAt(3, 4)
        let words = CaptionWords(title: "Harbour", subtitle: "Goal by " + String(slip) + " at dusk")
        #expect(CaptionChecks.findings(in: words, names: roster).map(\.suggestion) == [meant])
        #expect(CaptionChecks.findings(in: CaptionWords(title: "Harbour", subtitle: meant), names: roster).isEmpty)
    }

    @Test func aCheckSwitchedOffFindsNothingAndTheOthersStillDo() {
        let words = CaptionWords(title: "Fans at XXX", subtitle: "Barak Obama waves waves (at dusk")
        let all = CaptionChecks.findings(in: words, names: Self.roster).map(\.kind)
        #expect(Set(all) == [.placeholder, .nameNearMiss, .doubledWord, .unbalanced])
        for check in CaptionCheck.allCases {
            let left = CaptionChecks.findings(in: words, names: Self.roster, choices: CheckChoices(off: [check]))
            #expect(!left.isEmpty && left.allSatisfy { $0.kind.check != check }, "\(check)")
        }
        #expect(
            CaptionChecks.findings(
                in: words, names: Self.roster, choices: CheckChoices(off: Set(CaptionCheck.allCases))
            )
            .isEmpty)
    }
}
