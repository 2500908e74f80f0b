// The one template filler every message goes through (Localization's `fill`): the engine's
// messages, the window's and the command line's.

import Localization
import Testing

@Test func placeholdersAreFilledWhereverTheTranslationPutsThem() {
    #expect(fill("{last} und {list} fehlen", ["list": "Titel", "last": "Untertitel"]) == "Untertitel und Titel fehlen")
}

@Test func anUnknownPlaceholderStaysAsWritten() {
    #expect(fill("{item} required, {typo}", ["item": "Title"]) == "Title required, {typo}")
}

@Test func aBraceNeverClosedStaysAsWritten() {
    #expect(fill("Photo: {name} {half", ["name": "a.jpg"]) == "Photo: a.jpg {half")
}

/// A value is never filled in again: a file named "{sidecar}.jpg" keeps its name.
@Test func valuesAreFilledInOnePass() {
    #expect(
        fill("Exported {photo} and {sidecar}", ["photo": "{sidecar}.jpg", "sidecar": "b.xmp"])
            == "Exported {sidecar}.jpg and b.xmp")
}

/// Localization's `replacing(_:with:)` for two strings gives what the standard library's
/// generic one gives (called here with substrings, which only the generic one takes).
@Test(arguments: [
    ("Photo: {name}", "{name}", "harbour.jpg"), ("{a}{a} and {a}", "{a}", "é"), ("aaaa", "aa", "b"),
    ("aaa", "aa", "b"), ("abc", "", "x"), ("", "", "x"), ("", "a", "b"), ("abc", "abcd", "x"),
    ("e\u{301}x", "e", "E"), ("e\u{301}x", "\u{E9}", "É"), ("no match", "{x}", "y"), ("--set-credit", "-", "_"),
    ("\"a\"\"b\"", "\"\"", "\""),
])
func replacingTwoStringsIsTheStandardLibrarysReplacing(text: String, target: String, replacement: String) {
    let expected = text.replacing(target[...], with: replacement[...])
    #expect(text.replacing(target, with: replacement) == expected)
}

@Test func replacingFillsEveryOccurrenceFromTheStart() {
    #expect("aaaa".replacing("aa", with: "b") == "bb")
    #expect("abc".replacing("", with: "x") == "xaxbxcx")
    // Characters, not code points: the "e" of "é" (e + combining acute) is not an "e".
    #expect("e\u{301}x".replacing("e", with: "E") == "e\u{301}x")
}
