// What the form makes of a claim's answer on a shared library, without a window: words
// typed are never dropped, keys already handled keep the form where they landed, and the
// photos it must ask about again.

import Testing

@testable import CaptionGtk
@testable import CaptionLibrary

struct DeskClaimStateTests {
    @Test func aPhotoCaptionedElsewhereLeavesTheQueueOnlyWhenNothingWasTypedForIt() {
        #expect(ClaimResponse(.captioned, wordsTyped: false, keyed: false) == .leaveQueue)
        #expect(ClaimResponse(.captioned, wordsTyped: true, keyed: false) == .keepAsSecondCaption)
        #expect(ClaimResponse(.captioned, wordsTyped: false, keyed: true) == .keepAsSecondCaption)
    }

    @Test func aPhotoAnotherEditorHasIsPassedOverUnlessKeysLandedOnIt() {
        #expect(ClaimResponse(.taken(by: "Rui"), wordsTyped: true, keyed: false) == .passOver(editor: "Rui"))
        #expect(ClaimResponse(.taken(by: "Rui"), wordsTyped: false, keyed: true) == .stayWhileTaken(editor: "Rui"))
    }

    @Test func aPhotoThatIsYoursOrUnansweredStays() {
        #expect(ClaimResponse(.yours, wordsTyped: true, keyed: true) == .stay)
        #expect(ClaimResponse(nil, wordsTyped: false, keyed: false) == .stay)
    }

    @Test func aClaimTheServerCouldNotAnswerIsAskedAgainUntilItIs() {
        var desk = DeskClaimState()
        desk.answered(nil, for: "a.jpg")
        #expect(desk.asksAgain(about: "a.jpg", held: false))
        #expect(!desk.asksAgain(about: "b.jpg", held: false))
        desk.answered(.yours, for: "a.jpg")
        #expect(!desk.asksAgain(about: "a.jpg", held: false))
        #expect(desk.asksAgain(about: "a.jpg", held: true), "a held claim is checked again")
    }

    @Test func aPhotoWaitedOnIsAskedAgainAndTakenPhotosComeRoundAfterARenewal() {
        var desk = DeskClaimState()
        desk.answered(.taken(by: "Rui"), for: "a.jpg")
        desk.answered(.taken(by: "Eva"), for: "b.jpg")
        desk.wait(on: "b.jpg")
        #expect(desk.takenElsewhere == ["a.jpg", "b.jpg"])
        #expect(desk.asksAgain(about: "b.jpg", held: false))
        #expect(!desk.asksAgain(about: "a.jpg", held: false))
        desk.renewed()
        #expect(desk.takenElsewhere.isEmpty)
        desk.answered(.captioned, for: "b.jpg")
        #expect(!desk.asksAgain(about: "b.jpg", held: false), "an answer ends the wait")
    }
}
