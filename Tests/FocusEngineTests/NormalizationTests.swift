// How typed text becomes stored text.

import CaptionText
import FocusEngine
import Testing

@Suite struct NormalizationTests {
    @Test func trimsAllUnicodeWhiteSpaceIncludingIdeographicSpace() {
        #expect(TextNormalization.normalize("\u{3000}\u{00A0} 港口 \t\u{2003}") == "港口")
    }

    @Test func keepsInnerSpacing() {
        #expect(TextNormalization.normalize(" a  b ") == "a  b")
    }

    @Test func lineBreaksBecomeSpaces() {
        #expect(TextNormalization.normalize("one\ntwo\r\nthree\rfour\u{2028}five") == "one two three four five")
    }

    @Test func controlCharactersAreRemoved() {
        #expect(TextNormalization.normalize("a\u{0}b\u{7}c\u{1B}[31md\u{7F}") == "abc[31md")
    }

    @Test func formatStringsAndMarkupAreKeptLiterally() {
        for text in ["%s%n%x", "<b>&amp;</b>", "'; DROP TABLE entries; --", "مرحبا", "\u{202E}abc"] {
            #expect(TextNormalization.normalize(text) == text)
        }
    }

    @Test func combiningSequencesCountAsOne() {
        #expect(TextNormalization.length("e\u{301}") == 1)
        #expect(TextNormalization.length("🇳🇴") == 1)
    }

    @Test func aTabBecomesASpace() {
        #expect(TextNormalization.normalize("Harbour\tat dusk") == "Harbour at dusk")
    }

    @Test func textWithNothingVisibleIsEmpty() {
        for text in ["\u{200B}", "\u{FEFF}\u{200B}", "\u{202E}", " \u{2060}\u{200D} ", "\u{FE0F}"] {
            #expect(TextNormalization.normalize(text) == "", "\(text.unicodeScalars.map { $0.value })")
        }
        // Invisible characters inside visible text are the writer's (a joiner in an emoji,
        // a direction mark in mixed scripts) and stay.
        #expect(TextNormalization.normalize("\u{200F}שלום abc") == "\u{200F}שלום abc")
        #expect(TextNormalization.normalize("⛵️") == "⛵️")
    }

    @Test func aLetterUnderThousandsOfCombiningMarksCountsByItsLength() {
        let zalgo = "a" + String(repeating: "\u{301}", count: 40_000)
        #expect(zalgo.count == 1, "one grapheme cluster")
        #expect(TextNormalization.length(zalgo) == 1291)
        #expect(TextNormalization.length("a" + String(repeating: "\u{301}", count: 30)) == 1, "a real character")
        #expect(TextNormalization.length("👩‍👩‍👧‍👦") == 1)
    }

    @Test func oneTrimmerForEveryModuleKeepsInnerSpacingAndControlCharacters() {
        // The library's search and the code files trim with it too: only the ends go.
        #expect("\u{3000} 東京 \u{3000}塔\u{2003}\n".trimmingWhiteSpace == "東京 \u{3000}塔")
        #expect(" \t\u{85}\u{A0}".trimmingWhiteSpace == "")
        #expect("\u{200B}x\u{200B}".trimmingWhiteSpace == "\u{200B}x\u{200B}", "a zero-width space is not white space")
    }
}
