// Photos opened in Caption join GTK's recent files, as in every GNOME app that opens files.

import CGtk

@MainActor
enum RecentFiles {
    private static var painted = false
    private static var waiting: [String] = []

    /// Waits until a window has painted: the first use of the recent manager reads and
    /// parses the whole history file and starts watching it, which a photo given on the
    /// command line would otherwise put in front of the first frame. (An idle callback
    /// alone is not enough: the main loop is idle while the X server maps the window, so
    /// it ran before the first frame, 2–4 ms later with a long history.)
    static func add(_ paths: [String]) {
        guard painted else {
            waiting += paths
            return
        }
        MainThread.post(priority: G_PRIORITY_LOW) { addNow(paths) }
    }

    /// Called from a window's draw handler: what waited is added once the frame is done.
    static func windowPainted() {
        guard !painted else { return }
        painted = true
        let paths = waiting
        waiting = []
        if !paths.isEmpty { add(paths) }
    }

    private static func addNow(_ paths: [String]) { UserFiles.addToRecent(paths) }
}
