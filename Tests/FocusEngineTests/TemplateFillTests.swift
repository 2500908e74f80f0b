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
