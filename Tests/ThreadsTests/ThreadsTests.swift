// The thread helpers on their own: work split across threads, and work kept niced.

import Dispatch
import Testing
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// The calling thread's nice value (on Linux, PRIO_PROCESS with 0 names the thread).
private func threadNiceness() -> Int32 {
    getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
}

/// Where one job ran, and at what priority.
private struct Sighting: Sendable, Equatable {
    var thread: pthread_t
    var niceness: Int32
}

private func sighting() -> Sighting { Sighting(thread: pthread_self(), niceness: threadNiceness()) }

/// What the threads saw, behind a lock ThreadSanitizer sees.
extension Locked {
    fileprivate func update(_ body: (inout Value) -> Void) { withLock(body) }
    fileprivate var value: Value { withLock { $0 } }
}

private struct Refusal: Error, Equatable { var reason: String }

@Suite struct ThreadsTests {
    @Test func lockedKeepsEveryChangeFromManyThreads() {
        let count = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1_000 { count.withLock { $0 += 1 } }
        }
        #expect(count.withLock { $0 } == 8_000)
    }

    @Test func lockedPassesTheBodysErrorOnAndUnlocks() {
        let value = Locked("kept")
        #expect(throws: Refusal(reason: "no")) {
            try value.withLock { (_) throws(Refusal) -> Void in throw Refusal(reason: "no") }
        }
        // Not left locked by the throw: a second lock from this thread would deadlock.
        #expect(value.withLock { $0 } == "kept")
    }

    @Test func parallelRunsEveryPieceAndReturnsOnlyWhenAllAreDone() {
        let done = Locked<[Int]>([])
        let threads = Locked<Set<UInt>>([])
        Parallel.run(
            (0..<3).map { index in
                {
                    usleep(20_000)  // long enough that an early return would show
                    threads.update { _ = $0.insert(pthread_self()) }
                    done.update { $0.append(index) }
                }
            },
            {
                threads.update { _ = $0.insert(pthread_self()) }
                done.update { $0.append(99) }
            })
        #expect(done.value.sorted() == [0, 1, 2, 99])
        #expect(threads.value.count == 4, "each background piece on a thread of its own")
    }

    @Test func lowPriorityWorkRunsNicedAndLeavesTheCallerAsItWas() {
        let before = threadNiceness()
        let seen = Locked<Sighting?>(nil)
        let finished = DispatchSemaphore(value: 0)
        LowPriorityThread.run {
            seen.update { $0 = sighting() }
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        let job = seen.value
        #expect(job?.niceness == min(before + 10, 19))
        #expect(job?.thread != pthread_self())
        #expect(threadNiceness() == before)
    }

    @Test func aLowPriorityQueueRunsItsJobsInOrderOnOneNicedThread() {
        let before = threadNiceness()
        let queue = LowPriorityQueue()
        let seen = Locked<[Sighting]>([])
        let order = Locked<[Int]>([])
        let finished = DispatchSemaphore(value: 0)
        for index in 0..<50 {
            queue.async {
                order.update { $0.append(index) }
                seen.update { $0.append(sighting()) }
                if index == 49 { finished.signal() }
            }
        }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(order.value == Array(0..<50))
        let sightings = seen.value
        #expect(Set(sightings.map { UInt($0.thread) }).count == 1)
        #expect(sightings.allSatisfy { $0.niceness == min(before + 10, 19) })
        #expect(threadNiceness() == before)
    }
}
