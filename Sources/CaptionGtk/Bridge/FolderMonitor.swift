// GIO's monitor of one folder (inotify on Linux): what happens to the files in it, told as
// FolderChange, with renames and moves as such.

import CGtk
import CaptionQueue
import POSIXFiles

@MainActor
final class FolderMonitor {
    private let object: GObjectRef

    /// Watches `folder` itself (not its subfolders); nil when it cannot be watched (gone,
    /// not a folder, no rights). `changed` gets each file's path and what happened to it.
    init?(folder: String, changed: @escaping FolderChangeHandler) {
        let file = g_file_new_for_path(folder.pathBytes)!  // GIO makes a GFile for any path
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        guard let monitor = g_file_monitor_directory(file, G_FILE_MONITOR_WATCH_MOVES, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        object = GObjectRef(taking: UnsafeMutableRawPointer(monitor))
        object.pointer.connect(.folderChanged, changed)
    }

    /// No more reports, even while someone else still holds the monitor.
    func cancel() {
        g_file_monitor_cancel(object.pointer.assumingMemoryBound(to: GFileMonitor.self))
    }

    deinit {
        g_file_monitor_cancel(object.pointer.assumingMemoryBound(to: GFileMonitor.self))
    }
}
