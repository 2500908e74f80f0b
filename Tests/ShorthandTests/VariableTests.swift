// Caption variables: each name's value from the photo, unknown and missing names refused.

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
