// Progress and cancellation of long work (exporting every entry; later, writing captions
// back to the originals and captioning the rest of a queue), shared by the window and the
// command line: no GTK, no I/O, safe from any thread.

import Localization
import Synchronization

/// How far a job over many items has come, and whether it was asked to stop. The job
/// calls `advance()` after each item is wholly done and checks `isCancelled` before
/// starting the next, so a stop leaves every item done or untouched. Whoever shows the
/// progress (a GTK progress bar, a line on a terminal) reads it when it likes: reading
/// and writing are atomic, and nothing is pushed to the reader.
public final class WorkProgress: Sendable {
    private let done = Atomic<Int>(0)
    private let all = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    public init(total: Int = 0) {
        all.store(total, ordering: .relaxed)
    }

    /// Items finished so far.
    public var completed: Int { done.load(ordering: .acquiring) }

    /// Items in the job; 0 while not yet known.
    public var total: Int {
        all.load(ordering: .acquiring)
    }

    public func setTotal(_ total: Int) {
        all.store(total, ordering: .releasing)
    }

    /// One more item done.
    public func advance() {
        done.add(1, ordering: .releasing)
    }

    /// Asks the job to stop before its next item. Any thread; idempotent.
    public func cancel() {
        stopped.store(true, ordering: .releasing)
    }

    public var isCancelled: Bool { stopped.load(ordering: .acquiring) }

    /// 0…1, or 0 while the total is unknown.
    public var fraction: Double {
        let total = self.total
        return total > 0 ? min(1, Double(completed) / Double(total)) : 0
    }

    /// "1,234 of 100,001".
    public var text: String {
        WorkProgress.text(completed: completed, total: total)
    }

    public static func text(completed: Int, total: Int) -> String {
        tr("{done} of {total}").replacing("{done}", with: grouped(completed)).replacing("{total}", with: grouped(total))
    }

    /// Digits in groups of three with commas ("100,001"), as both English and Chinese write
    /// them.
    public static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var result = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
