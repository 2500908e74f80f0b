// The thread helpers on their own: work split across threads, and work kept niced.

import Dispatch
import Synchronization
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

@Suite struct ThreadsTests {
    @Test func parallelRunsEveryPieceAndReturnsOnlyWhenAllAreDone() {
        let done = Mutex<[Int]>([])
        let threads = Mutex<Set<UInt>>([])
        Parallel.run(
            (0..<3).map { index in
                {
                    usleep(20_000)  // long enough that an early return would show
                    threads.withLock { _ = $0.insert(pthread_self()) }
                    done.withLock { $0.append(index) }
                }
            },
            {
                threads.withLock { _ = $0.insert(pthread_self()) }
                done.withLock { $0.append(99) }
            })
        #expect(done.withLock { $0.sorted() } == [0, 1, 2, 99])
        #expect(threads.withLock { $0.count } == 4, "each background piece on a thread of its own")
    }

    @Test func lowPriorityWorkRunsNicedAndLeavesTheCallerAsItWas() {
        let before = threadNiceness()
        let seen = Mutex<Sighting?>(nil)
        let finished = DispatchSemaphore(value: 0)
        LowPriorityThread.run {
            seen.withLock { $0 = sighting() }
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        let job = seen.withLock { $0 }
        #expect(job?.niceness == min(before + 10, 19))
        #expect(job?.thread != pthread_self())
        #expect(threadNiceness() == before)
    }

    @Test func aLowPriorityQueueRunsItsJobsInOrderOnOneNicedThread() {
        let before = threadNiceness()
        let queue = LowPriorityQueue()
        let seen = Mutex<[Sighting]>([])
        let order = Mutex<[Int]>([])
        let finished = DispatchSemaphore(value: 0)
        for index in 0..<50 {
            queue.async {
                order.withLock { $0.append(index) }
                seen.withLock { $0.append(sighting()) }
                if index == 49 { finished.signal() }
            }
        }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(order.withLock { $0 } == Array(0..<50))
        let sightings = seen.withLock { $0 }
        #expect(Set(sightings.map { UInt($0.thread) }).count == 1)
        #expect(sightings.allSatisfy { $0.niceness == min(before + 10, 19) })
        #expect(threadNiceness() == before)
    }
}
