// Caption variables: each name's value from the photo, unknown and missing names refused.

import CaptionText
import Testing

@testable import Shorthand

@Suite struct VariableTests {
    let facts = PhotoFacts(
        captured: "2024:05:17 14:03:22", camera: "Canon EOS R5", lens: "RF24-105mm F4 L IS USM",
        fileName: "IMG_0042.CR3", position: 3)

    @Test func everyNameExpands() {
        #expect(
            Variables.expand("{date} {time} {camera} {lens} {filename} #{n}", facts: facts)
                == .success("2024-05-17 14:03 Canon EOS R5 RF24-105mm F4 L IS USM IMG_0042.CR3 #3"))
    }

    @Test func textWithoutVariablesIsUnchanged() {
        #expect(Variables.expand("Brooklyn Bridge {", facts: facts) == .success("Brooklyn Bridge {"))
        #expect(!Variables.appear(in: "a {} b { date} {1}"))
        #expect(Variables.appear(in: "a {n}"))
    }

    @Test func doubledBracesAreBracesAsText() {
        #expect(Variables.expand("{{n}} is {n}, }} {{", facts: facts) == .success("{n} is 3, } {"))
        #expect(Variables.appear(in: "{{item}}"))
        #expect(Variables.expand("{{item}} {{limit}}", facts: PhotoFacts(fileName: "a")) == .success("{item} {limit}"))
    }

    @Test func anUnknownNameIsAProblemNotText() {
        #expect(Variables.expand("On {day}", facts: facts) == .failure(.unknown(name: "day")))
        // Names are lower case, as documented.
        #expect(Variables.expand("{Date}", facts: facts) == .failure(.unknown(name: "Date")))
    }

    @Test func aValueThePhotoLacksIsAProblem() {
        let bare = PhotoFacts(fileName: "scan.png")
        #expect(Variables.expand("{date}", facts: bare) == .failure(.missing(name: "date")))
        #expect(Variables.expand("{lens}", facts: bare) == .failure(.missing(name: "lens")))
        #expect(Variables.expand("{n}", facts: bare) == .failure(.missing(name: "n")))
        #expect(Variables.expand("{filename}", facts: bare) == .success("scan.png"))
    }

    @Test func aCameraThatDidNotKnowTheTimeHasNoDate() {
        for blank in ["0000:00:00 00:00:00", "    :  :     :  :  ", "2024:05", "20x4:05:17 14:03:22"] {
            let facts = PhotoFacts(captured: blank, fileName: "a.jpg")
            #expect(Variables.expand("{date}", facts: facts) == .failure(.missing(name: "date")), "\(blank)")
        }
    }

    @Test func variablesNextToCJKAndEmojiKeepTheirNeighbours() {
        #expect(Variables.expand("拍摄于{date}👍", facts: facts) == .success("拍摄于2024-05-17👍"))
    }
}

@Suite struct CreditVariableTests {
    @Test func yearIsTheYearTakenElseThisYear() {
        let taken = PhotoFacts(captured: "2019:12:31 23:59:59", fileName: "a.jpg")
        #expect(Variables.expand("© {year} Ana Lima", facts: taken) == .success("© 2019 Ana Lima"))
        // A camera without a clock writes zeros: no year taken, so this year's.
        let undated = PhotoFacts(captured: "0000:00:00 00:00:00", fileName: "a.jpg")
        #expect(Variables.expand("{year}", facts: undated) == .success(Variables.currentYear()))
        #expect(
            Variables.expand("{year}", facts: PhotoFacts(fileName: "scan.png")) == .success(Variables.currentYear()))
        #expect(Int(Variables.currentYear()).map { $0 >= 2026 } == true)
    }

    @Test func creditsExpandForThePhotoAndLeaveOutWhatItLacks() {
        var credits = Credits([.creator: "Ana Lima", .copyright: "© {year} Ana Lima", .source: "{camera} / {lens}"])
        credits.replacesPhotos = true
        let facts = PhotoFacts(captured: "2021:06:01 10:00:00", camera: "Canon EOS R5", fileName: "a.jpg")
        let (expanded, leftOut) = credits.expanded(facts: facts)
        #expect(expanded[.creator] == "Ana Lima")
        #expect(expanded[.copyright] == "© 2021 Ana Lima")
        #expect(expanded[.source] == "", "the photo names no lens: the credit is left out, not written with a hole")
        #expect(leftOut == [.source])
        #expect(expanded.replacesPhotos)
    }

    @Test func theGPSPlaceFillsOnlyACityOrCountryLeftUnset() {
        let facts = PhotoFacts(fileName: "a.jpg", city: "Lisbon", country: "Portugal", countryCode: "PT")
        let credits = Credits([.creator: "Ana Lima", .country: "Portugal (mainland)", .city: "{lens}"])
        let (filled, leftOut) = credits.expanded(facts: facts, placeFromGPS: true)
        #expect(filled[.country] == "Portugal (mainland)", "a credit set is the user's")
        #expect(filled[.countryCode] == "PT")
        #expect(filled[.city] == "", "a credit set and left out for this photo stays out")
        #expect(leftOut == [.city])
        let unset = Credits([.creator: "Ana Lima"]).expanded(facts: facts, placeFromGPS: true).credits
        #expect(unset[.city] == "Lisbon" && unset[.country] == "Portugal")
        #expect(Credits([.creator: "Ana Lima"]).expanded(facts: facts).credits[.city] == "", "only when asked")
        let nowhere = PhotoFacts(fileName: "b.jpg")
        #expect(Credits().expanded(facts: nowhere, placeFromGPS: true).credits.isEmpty, "no position, no place")
    }

    @Test func aPadsFieldWordsExpandAndOneWithoutAValueIsLeftOut() {
        let credits = Credits(fieldWords: [.event: "{city} marathon", .jobID: "{lens}-1"])
        let facts = PhotoFacts(fileName: "a.jpg", city: "Lisbon")
        let expanded = credits.expanded(facts: facts).credits
        #expect(expanded.fieldWords == [.event: "Lisbon marathon"])
        #expect(expanded.filling(CaptionWords(title: "t", subtitle: "s"))[.event] == "Lisbon marathon")
        var typed = CaptionWords(title: "t", subtitle: "s")
        typed[.event] = "Typed"
        #expect(expanded.filling(typed)[.event] == "Typed", "the caption's own words win")
    }

    @Test func unknownNamesAreFoundOnceInOrder() {
        #expect(Variables.unknownNames(in: "{foo} {year} {bar} {foo} {{baz}}") == ["foo", "bar"])
        #expect(Variables.unknownNames(in: "© {year} Ana Lima").isEmpty)
    }

    @Test func blankCreditsAreNoCredits() {
        var credits = Credits([.creator: "  ", .city: ""])
        #expect(credits.isEmpty)
        credits[.source] = "\t"
        #expect(credits.setFields.isEmpty)
        credits[.source] = "Desk"
        #expect(credits.setFields == [.source])
        #expect(credits.leavingOut([.source]).isEmpty)
        credits.replacesPhotos = true
        #expect(credits.leavingOut([.source]) == credits)
    }
}
