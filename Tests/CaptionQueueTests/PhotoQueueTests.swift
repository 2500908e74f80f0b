// The queue's rules, without a display.

import Testing
import CaptionQueue

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

    @Test func oneOfOneShowsNoPosition() {
        var queue = PhotoQueue()
        _ = queue.append(["a"])
        #expect(queue.position == nil)
    }

    @Test func wordsStayWithTheirPhotoWhenSkippingAwayAndBack() {
        var queue = PhotoQueue()
        _ = queue.append(["a", "b"])
        queue.keep(title: "Harbour", subtitle: "")
        var moved = queue.move(by: 1)
        #expect(moved)
        #expect(queue.currentPhoto == QueuedPhoto(path: "b"))
        queue.keep(title: "Boats", subtitle: "At noon")
        moved = queue.move(by: -1)
        #expect(moved)
        #expect(queue.currentPhoto == QueuedPhoto(path: "a", title: "Harbour"))
        moved = queue.move(by: -1)
        #expect(!moved, "no wrapping: the start is the start")
        _ = queue.move(by: 1)
        #expect(queue.currentPhoto == QueuedPhoto(path: "b", title: "Boats", subtitle: "At noon"))
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
        queue.keep(title: "typed for b", subtitle: "")
        queue.restore(QueuedPhoto(path: "a", title: "A", subtitle: "a"))
        #expect(queue.currentPhoto == QueuedPhoto(path: "a", title: "A", subtitle: "a"))
        #expect(queue.photos.last == QueuedPhoto(path: "b", title: "typed for b"))
    }

    @Test func choosingAnotherPictureKeepsTheWords() {
        var queue = PhotoQueue()
        _ = queue.append(["a"])
        queue.keep(title: "Kept", subtitle: "")
        queue.replaceCurrent(with: "z")
        #expect(queue.currentPhoto == QueuedPhoto(path: "z", title: "Kept"))
    }
}
