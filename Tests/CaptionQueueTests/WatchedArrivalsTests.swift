// Which files of a watched folder are checked and when, each taken once, and the order
// photos join the queue in.

import Testing

@testable import CaptionQueue

@Suite struct WatchedArrivalsTests {
    @Test func aFileBeingWrittenIsCheckedOnlyOnceItIsClosed() {
        var arrivals = WatchedArrivals()
        do {
            let checked = arrivals.note(.written, path: "/in/a.jpg")
            #expect(!checked, "created: still being written")
        }
        do {
            let checked = arrivals.note(.written, path: "/in/a.jpg")
            #expect(!checked)
        }
        do {
            let checked = arrivals.note(.doneWriting, path: "/in/a.jpg")
            #expect(checked)
        }
    }

    @Test func aPhotoIsTakenOnceWhateverHappensToItAfter() {
        var arrivals = WatchedArrivals()
        do {
            let checked = arrivals.note(.movedIn, path: "/in/a.jpg")
            #expect(checked)
        }
        arrivals.settle("/in/a.jpg", as: .taken)
        do {
            let checked = arrivals.note(.written, path: "/in/a.jpg")
            #expect(!checked)
        }
        do {
            let checked = arrivals.note(.doneWriting, path: "/in/a.jpg")
            #expect(!checked, "touched again: not taken twice")
        }
        do {
            let checked = arrivals.found("/in/a.jpg")
            #expect(!checked)
        }
        #expect(arrivals.isSettled("/in/a.jpg"))
    }

    @Test func anIncompleteFileIsCheckedAgainWhenItNextChanges() {
        var arrivals = WatchedArrivals()
        do {
            let checked = arrivals.note(.doneWriting, path: "/in/a.jpg")
            #expect(checked)
        }
        arrivals.settle("/in/a.jpg", as: .incomplete)
        #expect(!arrivals.isSettled("/in/a.jpg"))
        do {
            let checked = arrivals.note(.written, path: "/in/a.jpg")
            #expect(!checked)
        }
        do {
            let checked = arrivals.note(.doneWriting, path: "/in/a.jpg")
            #expect(checked)
        }
    }

    @Test func aFileRemovedAndWrittenAgainIsANewArrival() {
        var arrivals = WatchedArrivals()
        _ = arrivals.note(.movedIn, path: "/in/a.jpg")
        arrivals.settle("/in/a.jpg", as: .passedOver)
        _ = arrivals.note(.removed, path: "/in/a.jpg")
        do {
            let checked = arrivals.note(.movedIn, path: "/in/a.jpg")
            #expect(checked)
        }
    }

    @Test(arguments: [
        "/in/.a.jpg.Xy12", "/in/a.jpg.part", "/in/a.JPG.PART", "/in/a.jpg.tmp", "/in/a.jpg.crdownload",
        "/in/a.jpg.filepart", "/in/a.jpg~",
    ])
    func uploadScratchFilesAreNeverChecked(path: String) {
        var arrivals = WatchedArrivals()
        do {
            let checked = arrivals.note(.doneWriting, path: path)
            #expect(!checked)
        }
        do {
            let checked = arrivals.note(.movedIn, path: path)
            #expect(!checked)
        }
    }

    @Test func photosJoinInTheOrderTheyWereTakenThenByName() {
        let order = WatchedArrivals.ordered([
            ("/in/IMG_10.jpg", "2024:05:17 14:03:25"),
            ("/in/IMG_2.jpg", nil),
            ("/in/IMG_9.jpg", "2024:05:17 14:03:22"),
            ("/in/IMG_1.jpg", nil),
            ("/in/z.jpg", "2024:05:17 14:03:22"),
            ("/in/b.jpg", "2023:12:31 23:59:59"),
        ])
        #expect(
            order == ["/in/b.jpg", "/in/IMG_9.jpg", "/in/z.jpg", "/in/IMG_10.jpg", "/in/IMG_1.jpg", "/in/IMG_2.jpg"])
    }
}
