// A mutex that ThreadSanitizer can see, for state shared between threads.

#if canImport(Glibc)
    import Glibc
#endif

/// pthread's mutex behind a class, so that it has a fixed address. Synchronization's
/// `Mutex` locks with futexes inside a module built without ThreadSanitizer's
/// instrumentation, so `make test-sanitizers` reported the accesses it orders as races;
/// pthread's mutex it intercepts, and sees the order.
public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value only reached under a `Lock`: `Mutex`'s shape, for the same reason as `Lock`.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try lock.withLock { () throws(Failure) -> Result in try body(&value) }
    }
}
