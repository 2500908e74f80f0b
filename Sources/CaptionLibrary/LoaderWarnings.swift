// GdkPixbuf loaders' own warnings about a damaged file, kept off standard error while
// Caption checks a photo: the check says what is wrong, in one line of its own.

import CPixbuf

#if canImport(Glibc)
    import Glibc
#endif

enum LoaderWarnings {
    /// Set, on a thread, while it checks a photo.
    nonisolated(unsafe) private static var key = pthread_key_t()

    /// A handler for warnings without a log domain (how the loaders outside GdkPixbuf,
    /// libheif's among them, call `g_warning`): dropped on a thread that is checking a
    /// photo, passed on to GLib's default handler elsewhere. Installed once.
    private static let installed: Void = {
        pthread_key_create(&key, nil)
        _ = g_log_set_handler(
            nil, GLogLevelFlags(rawValue: G_LOG_LEVEL_WARNING.rawValue),
            { domain, level, message, _ in
                guard pthread_getspecific(LoaderWarnings.key) == nil else { return }
                g_log_default_handler(domain, level, message, nil)
            }, nil)
    }()

    /// Runs `body` (on this thread) with the loaders' warnings about the photo dropped.
    static func quiet<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        _ = installed
        // Any value but null marks the thread.
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(key, nil) }
        return try body()
    }
}
