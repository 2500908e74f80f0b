// Counts GLib's warnings and criticals (GTK's "assertion failed", "invalid unclassed
// pointer") while installed: a test of code that must not touch destroyed widgets asserts
// there were none.

import CGtk

@MainActor
final class GLibWarnings {
    final class Counter: @unchecked Sendable { var count = 0 }

    private let counter = Counter()
    private let previous: GLogFunc?

    init() {
        previous = g_log_set_default_handler(
            { _, level, _, data in
                guard let data else { return }
                let counted = G_LOG_LEVEL_CRITICAL.rawValue | G_LOG_LEVEL_WARNING.rawValue
                if level.rawValue & counted != 0 {
                    Unmanaged<Counter>.fromOpaque(data).takeUnretainedValue().count += 1
                }
            }, Unmanaged.passUnretained(counter).toOpaque())
    }

    var count: Int { counter.count }

    /// GLib's own handler again (it takes no data).
    func stop() { g_log_set_default_handler(previous, nil) }
}
