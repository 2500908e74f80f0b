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

/// What the threads saw, behind a lock ThreadSanitizer sees (`Lock`).
private final class Record<Value: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
    var value: Value { lock.withLock { stored } }
}

@Suite struct ThreadsTests {
    @Test func parallelRunsEveryPieceAndReturnsOnlyWhenAllAreDone() {
        let done = Record<[Int]>([])
        let threads = Record<Set<UInt>>([])
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
        let seen = Record<Sighting?>(nil)
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
        let seen = Record<[Sighting]>([])
        let order = Record<[Int]>([])
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
