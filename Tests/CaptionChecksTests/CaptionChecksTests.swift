// The caption checks on words as editors find them in captions: each kind found where it
// is, and nothing found in a clean caption (a check that cries wolf is switched off).

import CaptionText
import Testing

@testable import CaptionChecks

@Suite("Caption checks: what an editor would send back")
struct CaptionChecksTests {
    func found(_ subtitle: String, title: String = "Harbour") -> [String] {
        CaptionChecks.findings(in: CaptionWords(title: title, subtitle: subtitle)).map {
            "\($0.kind.rawValue) \($0.text) @\($0.offset)"
        }
    }

    @Test(
        "placeholders left in are found, with where they are",
        arguments: [
            ("Name to come, 34, walks the pier.", ["placeholder Name to come @0"]),
            ("Fans cheer as XXX scores.", ["placeholder XXX @14"]),
            ("Mayor TK opens the bridge.", ["placeholder TK @6"]),
            ("Details TBD at dusk.", ["placeholder TBD @8"]),
            ("More to come, said the mayor.", ["placeholder More to come @0"]),
        ])
    func placeholders(subtitle: String, expected: [String]) {
        #expect(found(subtitle) == expected)
    }

    @Test("a code or a variable not replaced is found")
    func codesAndVariables() {
        #expect(found("Crowds on =bb at dawn.") == ["unreplacedCode =bb @10"])
        #expect(found("Taken {place} at dawn.") == ["unfilledVariable {place} @6"])
        #expect(found("Braces {{as text}} stay.").isEmpty, "{{ is a brace as text")
        #expect(found("2 = 2, as the sign says.").isEmpty, "an equals sign between words is no code")
        // The form checks words as typed: a variable it knows is still to be filled.
        let typed = CaptionWords(title: "Harbour {date}", subtitle: "Taken {place} on {n}")
        #expect(
            CaptionChecks.findings(in: typed, variables: ["date", "n"]).map(\.text) == ["{place}"],
            "known variables are filled at the save")
        // Saved words are final: a brace left in them is one the user meant.
        #expect(CaptionChecks.findings(in: typed, variables: nil).isEmpty)
    }

    @Test("a word typed twice is found, in any case; numbers and words apart are not")
    func doubledWords() {
        #expect(found("Boats leave the the harbour.") == ["doubledWord the the @12"])
        #expect(found("The the harbour.") == ["doubledWord The the @0"])
        #expect(found("Scores 2 2 at half time.").isEmpty, "a score is numbers")
        #expect(found("The boat, the harbour.").isEmpty, "a comma between is two phrases")
    }

    @Test("a bracket or quotation mark not closed, or closed without opening, is found")
    func unbalanced() {
        #expect(found("Boats (at dusk leave.") == ["unbalanced ( @6"])
        #expect(found("Boats at dusk) leave.") == ["unbalanced ) @13"])
        #expect(found("He said “go now.") == ["unbalanced “ @8"])
        #expect(found("He said \"go\" and \"stay.") == ["unbalanced \" @17"])
        #expect(found("（港口）的黄昏「渔船」").isEmpty)
        #expect(found("Boats (at dusk) leave, “quietly”.").isEmpty)
    }

    @Test("a clean caption has nothing to say, in either field, in any script")
    func cleanCaptions() {
        #expect(found("Boats leave the harbour at dusk (file photo).").isEmpty)
        #expect(found("渔船在黄昏离港").isEmpty)
        #expect(found("It's Lisbon's tram, 28.", title: "Tram 28 — Lisbon").isEmpty)
        #expect(found("Max Taxxi and the Texas team.").isEmpty, "x inside a word is no placeholder")
    }

    @Test("each field is checked, title first, and the message names the field and the words")
    func messages() {
        let findings = CaptionChecks.findings(in: CaptionWords(title: "XXX at the pier", subtitle: "Crowds on =bb."))
        #expect(findings.map(\.field) == [.title, .subtitle])
        #expect(
            findings.map(\.message) == [
                "Title: “XXX” is a placeholder left in", "Subtitle: the code “=bb” was not replaced",
            ])
    }

    @Test(
        "a headline is held to Title Case: minor words inside stay small, the first and last and after a colon do not",
        arguments: [
            ("storm hits the coast of Portugal", "Storm Hits the Coast of Portugal"),
            ("what they fought for", "What They Fought For"),
            ("Benfica v Porto: the title at stake", "Benfica v Porto: The Title at Stake"),
            ("prices go up in the EU", "Prices Go Up in the EU"),
            ("iPhone sales rise", "iPhone Sales Rise"),
            ("4th win in a row for McDonald's team", "4th Win in a Row for McDonald's Team"),
        ])
    func titleCase(typed: String, titled: String) {
        #expect(TitleCase.titled(typed) == titled)
        #expect(TitleCase.titled(titled) == titled, "a headline in Title Case is left as it is")
    }

    @Test("the headline's case is checked only when the desk asks, as one finding with the headline as it should be")
    func headlineCaseFinding() {
        var words = CaptionWords(title: "Storm", subtitle: "Waves at the pier, Lisbon, Dec 6")
        words[.headline] = "storm hits the coast"
        #expect(CaptionChecks.findings(in: words).isEmpty, "off by default")
        var choices = CheckChoices()
        choices[.headlineCase] = true
        let found = CaptionChecks.findings(in: words, choices: choices)
        #expect(
            found == [
                CaptionFinding(
                    kind: .notTitleCase, field: .headline, text: "storm hits the coast", offset: 0, length: 20,
                    suggestion: "Storm Hits the Coast")
            ])
        #expect(found.first?.message == "Headline is not in Title Case: “Storm Hits the Coast”")
        words[.headline] = "Storm Hits the Coast"
        #expect(CaptionChecks.findings(in: words, choices: choices).isEmpty)
    }
}
