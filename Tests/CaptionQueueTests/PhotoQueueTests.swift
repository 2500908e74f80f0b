// The queue's rules, without a display.

import CaptionText
import Testing

@testable import CaptionQueue

@Suite struct PhotoQueueTests {
    @Test func firstPhotosBecomeCurrentAndTheRestWait() {
        var queue = PhotoQueue()
        let becameCurrent = queue.append(["a", "b", "c"])
        #expect(becameCurrent)
        #expect(queue.currentPhoto?.path == "a")
        #expect(queue.position.map { [$0.index, $0.count] } == [1, 3])
        let changedAgain = queue.append(["d"])
        #expect(!changedAgain)
        #expect(queue.position.map { [$0.index, $0.count] } == [1, 4])
    }

    @Test func neighboursAreTheNextThenThePreviousPhoto() {
        var queue = PhotoQueue()
        #expect(queue.neighbours.isEmpty)
        _ = queue.append(["a"])
        #expect(queue.neighbours.isEmpty)
        _ = queue.append(["b", "c"])
        #expect(queue.neighbours == ["b"])
        _ = queue.move(by: 1)
        #expect(queue.neighbours == ["c", "a"])
        _ = queue.move(by: 1)
        #expect(queue.neighbours == ["b"])
        // A save takes the current photo out: its neighbours become each other's.
        _ = queue.move(by: -1)
        queue.removeCurrent()
        #expect(queue.currentPhoto?.path == "c")
        #expect(queue.neighbours == ["a"])
    }

    @Test func photosSavedTogetherLeaveAndComeBackInFrontInOrder() {
        var queue = PhotoQueue()
        _ = queue.append(["a", "b", "c", "d", "e"])
        _ = queue.move(by: 1)
        queue.keep(CaptionWords(title: "Bridge", subtitle: "Dusk"))
        #expect(queue.photosWithoutWords.map(\.path) == ["a", "c", "d", "e"])
        queue.remove(["b", "c", "e"])
        #expect(queue.photos.map(\.path) == ["a", "d"])
        #expect(queue.currentPhoto?.path == "d", "the first one left after the current one")
        queue.restore([
            QueuedPhoto(path: "b", words: CaptionWords(title: "Bridge", subtitle: "Dusk")), QueuedPhoto(path: "c"),
        ])
        #expect(queue.photos.map(\.path) == ["a", "b", "c", "d"])
        #expect(queue.currentPhoto == QueuedPhoto(path: "b", words: CaptionWords(title: "Bridge", subtitle: "Dusk")))
        // With nothing left after the current photo, the last one left becomes current.
        queue.remove(["b", "c", "d"])
        #expect(queue.currentPhoto?.path == "a")
        queue.remove(["a"])
        #expect(queue.currentPhoto == nil)
        #expect(queue.photos.isEmpty)
    }

    @Test func oneOfOneShowsNoPosition() {
        var queue = PhotoQueue()
        _ = queue.append(["a"])
        #expect(queue.position == nil)
    }

    @Test func wordsStayWithTheirPhotoWhenSkippingAwayAndBack() {
        var queue = PhotoQueue()
        _ = queue.append(["a", "b"])
        queue.keep(CaptionWords(title: "Harbour", subtitle: ""))
        var moved = queue.move(by: 1)
        #expect(moved)
        #expect(queue.currentPhoto == QueuedPhoto(path: "b"))
        queue.keep(CaptionWords(title: "Boats", subtitle: "At noon"))
        moved = queue.move(by: -1)
        #expect(moved)
        #expect(queue.currentPhoto == QueuedPhoto(path: "a", words: CaptionWords(title: "Harbour")))
        moved = queue.move(by: -1)
        #expect(!moved, "no wrapping: the start is the start")
        _ = queue.move(by: 1)
        #expect(queue.currentPhoto == QueuedPhoto(path: "b", words: CaptionWords(title: "Boats", subtitle: "At noon")))
    }

    @Test func savingMovesOnToTheNextPhoto() {
        var queue = PhotoQueue()
        _ = queue.append(["a", "b", "c"])
        queue.removeCurrent()
        #expect(queue.currentPhoto?.path == "b")
        #expect(queue.position.map { [$0.index, $0.count] } == [1, 2])
        _ = queue.move(by: 1)
        queue.removeCurrent()
        #expect(queue.currentPhoto?.path == "b", "after the last, the one before")
        queue.removeCurrent()
        #expect(queue.currentPhoto == nil)
        #expect(queue.photos.isEmpty)
    }

    @Test func undoneSaveComesBackInFront() {
        var queue = PhotoQueue()
        _ = queue.append(["a", "b"])
        queue.removeCurrent()
        queue.keep(CaptionWords(title: "typed for b", subtitle: ""))
        queue.restore(QueuedPhoto(path: "a", words: CaptionWords(title: "A", subtitle: "a")))
        #expect(queue.currentPhoto == QueuedPhoto(path: "a", words: CaptionWords(title: "A", subtitle: "a")))
        #expect(queue.photos.last == QueuedPhoto(path: "b", words: CaptionWords(title: "typed for b")))
    }

    @Test func aFailedSaveComesBackBeforeThePhotoOnTheFormWhichStays() {
        var queue = PhotoQueue()
        _ = queue.append(["a", "b", "c"])
        queue.removeCurrent()
        queue.keep(CaptionWords(title: "typed for b"))
        let failed = QueuedPhoto(path: "a", words: CaptionWords(title: "A", subtitle: "a"))
        let moved = queue.putBack([failed])
        #expect(!moved, "the photo on the form changed")
        #expect(queue.currentPhoto == QueuedPhoto(path: "b", words: CaptionWords(title: "typed for b")))
        #expect(queue.photos.map(\.path) == ["a", "b", "c"])
        #expect(queue.position?.index == 2)
        // With the queue done, it comes back onto the form.
        var done = PhotoQueue()
        _ = done.append(["x"])
        done.removeCurrent()
        let cameOn = done.putBack([failed])
        #expect(cameOn)
        #expect(done.currentPhoto == failed)
        let nothing = done.putBack([])
        #expect(!nothing)
    }

    @Test func choosingAnotherPictureKeepsTheWords() {
        var queue = PhotoQueue()
        _ = queue.append(["a"])
        queue.keep(CaptionWords(title: "Kept", subtitle: ""))
        queue.replaceCurrent(with: "z")
        #expect(queue.currentPhoto == QueuedPhoto(path: "z", words: CaptionWords(title: "Kept")))
    }
}

/// Paths handed to the window, sorted out against the queue without a file system: kinds
/// and real paths come from the tables here.
@Suite struct IncomingPhotosTests {
    let kinds: [String: IncomingKind] = [
        "/p/a.jpg": .photo, "/p/b.jpg": .photo, "/p/notes.txt": .notPhoto, "/p/list.pdf": .notPhoto,
        "/trip": .folder([
            "/trip/IMG_10.jpg", "/trip/img_9.jpg", "/trip/readme.txt", "/trip/.thumb.jpg",
            "/trip/sub", "/trip/a.jpg",
        ]),
        "/trip/IMG_10.jpg": .photo, "/trip/img_9.jpg": .photo, "/trip/readme.txt": .notPhoto,
        "/trip/.thumb.jpg": .photo, "/trip/sub": .folder(["/trip/sub/deep.jpg"]), "/trip/sub/deep.jpg": .photo,
        "/trip/a.jpg": .photo, "/empty": .folder(["/empty/notes.txt"]), "/empty/notes.txt": .notPhoto,
        "/links/a.jpg": .photo,
    ]

    func sort(_ paths: [String], queued: [String] = []) -> IncomingPhotos {
        var queue = PhotoQueue()
        _ = queue.append(queued)
        return queue.sortIncoming(
            paths, kind: { kinds[$0] ?? .photo },
            identity: { $0 == "/links/a.jpg" ? "/p/a.jpg" : $0 })
    }

    @Test func photosJoinInTheOrderGiven() {
        #expect(sort(["/p/b.jpg", "/p/a.jpg"]) == IncomingPhotos(photos: ["/p/b.jpg", "/p/a.jpg"]))
    }

    @Test func aFolderGivesItsOwnPhotosByNameNumbersByValue() {
        let sorted = sort(["/trip"])
        #expect(
            sorted.photos == ["/trip/a.jpg", "/trip/img_9.jpg", "/trip/IMG_10.jpg"],
            "no subfolder, hidden file or text file; 9 before 10; case ignored")
        #expect(!sorted.leftOut, "what a folder holds besides photos is passed over quietly")
    }

    @Test func aFolderWithoutPhotosIsNamed() {
        #expect(sort(["/empty"]) == IncomingPhotos(foldersWithoutPhotos: ["/empty"]))
    }

    @Test func filesThatAreNotPhotosAreRefused() {
        #expect(
            sort(["/p/notes.txt", "/p/a.jpg", "/p/list.pdf"])
                == IncomingPhotos(photos: ["/p/a.jpg"], notPhotos: ["/p/notes.txt", "/p/list.pdf"]))
    }

    @Test func aPhotoAlreadyQueuedIsNotQueuedAgainByItsRealPath() {
        #expect(
            sort(["/p/a.jpg", "/links/a.jpg", "/p/b.jpg"], queued: ["/p/a.jpg"])
                == IncomingPhotos(photos: ["/p/b.jpg"], alreadyQueued: ["/p/a.jpg", "/links/a.jpg"]))
        #expect(
            sort(["/p/b.jpg", "/p/b.jpg"]) == IncomingPhotos(photos: ["/p/b.jpg"], alreadyQueued: ["/p/b.jpg"]),
            "twice in one drop")
    }

    @Test func nameOrderIsAFileManagersOrder() {
        let names = ["b10.jpg", "B2.jpg", "a.jpg", "b02.jpg", "b1.jpg", "2024-01-09.jpg", "2024-01-10.jpg"]
        #expect(
            names.sorted(by: PhotoQueue.nameOrder)
                == ["2024-01-09.jpg", "2024-01-10.jpg", "a.jpg", "b1.jpg", "B2.jpg", "b02.jpg", "b10.jpg"])
    }

    /// The byte-wise reading of ASCII names orders every pair as the character-wise one.
    @Test func nameOrderReadsASCIINamesAsItReadsAnyName() {
        var state: UInt64 = 42
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let pieces = ["IMG_", "img_", "0", "00", "7", "10", "9", "_", "-", ".jpg", "a", "B", "é", "Z", "DSC", " "]
        let names = (0..<400).map { _ in (0..<(1 + next(5))).map { _ in pieces[next(pieces.count)] }.joined() }
        for a in names {
            for b in names.prefix(60) {
                #expect(PhotoQueue.nameOrder(a, b) == PhotoQueue.unicodeNameOrder(a, b), "\(a) against \(b)")
            }
        }
    }

    @Test func passingOverGoesOnTheWayTheFormMovedThenTheOtherWay() {
        var queue = PhotoQueue()
        _ = queue.append(["a", "b", "c", "d", "e"])
        _ = queue.move(by: 2)
        var moved = queue.moveToNearest(step: 1, passing: ["c", "d"])
        #expect(moved && queue.currentPhoto?.path == "e")
        moved = queue.moveToNearest(step: 1, passing: ["e"])
        #expect(moved && queue.currentPhoto?.path == "d", "at the end it goes back")
        moved = queue.moveToNearest(step: -1, passing: ["d", "c"])
        #expect(moved && queue.currentPhoto?.path == "b")
        moved = queue.moveToNearest(step: -1, passing: ["a", "c", "d", "e"])
        #expect(!moved, "every other photo is taken")
        #expect(queue.currentPhoto?.path == "b" && queue.photos.count == 5, "the form stays, the queue whole")
    }
}
