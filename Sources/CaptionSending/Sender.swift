// Entries sent to a destination: each photo exported with its caption, as Ctrl+E writes it,
// then uploaded, retried with back-off while the server is away.

import CPixbuf
import CaptionLibrary
import CaptionMetadata
import Localization
import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

/// One file on a destination.
public struct SentFile: Sendable, Equatable {
    public var entryID: Int64
    /// Its name there, as the export named it (from the title).
    public var name: String
}

public enum Sender {
    /// Seconds waited before each new try of a send that failed for a reason that may pass
    /// (the server away, the connection cut, the server's disk full): three more tries,
    /// spread over about a quarter of a minute.
    public static let backOff: [Double] = [1, 3, 9]

    /// Sends each entry's photo to `destination`, with its caption embedded as an export
    /// embeds it (a format that cannot hold one goes with its `.xmp` sidecar), in the order
    /// given. `password` is the destination's (nil for a folder). `sent` is told of each
    /// file once it is complete on the server under its name; `retrying` of each failure
    /// that will be tried again, and after how many seconds; `missing` of an entry whose
    /// photo the library cannot give, which is passed over.
    ///
    /// Stops at the first failure that trying again cannot mend (the login refused, the
    /// server's key not the trusted one, the folder refused) or that outlasted the
    /// back-off, and throws it: the files sent before it are complete on the server, the
    /// one it was sending is not there under its name.
    public static func send(
        _ entries: [Entry], from library: Library, to destination: Destination, password: String?,
        patience: Patience = Patience(), backOff: [Double] = backOff,
        sent: (SentFile) -> Void = { _ in },
        retrying: (SendError, Double) -> Void = { _, _ in },
        missing: (Int64, LibraryError) -> Void = { _, _ in }
    ) throws(SendError) {
        if destination.kind == .folder {
            try exportIntoFolder(entries, from: library, to: destination, sent: sent, missing: missing)
            return
        }
        guard let password else {
            throw SendError(
                .keyring,
                fill(
                    tr("no password for {destination} is in the keyring: add the destination again"),
                    ["destination": destination.name]))
        }
        let staging = try stagingFolder()
        defer { removeFolder(staging) }
        for entry in entries {
            var placed: [ExportedPhoto] = []
            do throws(LibraryError) {
                placed = try Exporter.export([entry], from: library, to: staging, into: .photo, missing: missing)
            } catch {
                throw SendError(.photo, error.message)
            }
            for photo in placed {
                defer {
                    _ = unlink(photo.photoPath)
                    if let sidecar = photo.sidecarPath { _ = unlink(sidecar) }
                }
                // The sidecar first: the photo's arrival is what an agency's system acts on.
                for path in [photo.sidecarPath, photo.photoPath].compactMap({ $0 }) {
                    let name = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
                    try withRetries(backOff: backOff, retrying: retrying) { () throws(SendError) in
                        try Transfer.upload(path, as: name, to: destination, password: password, patience: patience)
                    }
                    if path == photo.photoPath { sent(SentFile(entryID: entry.id, name: name)) }
                }
            }
        }
    }

    /// Logs in to `destination` and looks at its folder, sending nothing: what adding a
    /// destination checks. A folder is checked for being one that can be written, or, when
    /// it is not there yet, one that can be made (the first photo makes it).
    public static func check(
        _ destination: Destination, password: String, patience: Patience = Patience()
    )
        throws(SendError)
    {
        if destination.kind == .folder {
            var folder = destination.folder
            while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
            // The nearest folder that is there is the one that must take a new entry.
            while access(folder, F_OK) != 0 && errno == ENOENT, let slash = folder.lastIndex(of: "/") {
                folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
            }
            guard access(folder, W_OK | X_OK) == 0 else {
                throw SendError(
                    .folderRefused,
                    fill(
                        tr("{folder} cannot be written: {reason}"),
                        ["folder": destination.folder, "reason": POSIXFiles.reason(errno)]))
            }
            return
        }
        try Transfer.check(destination, password: password, patience: patience)
    }

    private static func withRetries(
        backOff: [Double], retrying: (SendError, Double) -> Void, _ body: () throws(SendError) -> Void
    ) throws(SendError) {
        var waits = backOff[...]
        while true {
            do throws(SendError) {
                try body()
                return
            } catch {
                guard error.isTransient, let wait = waits.popFirst() else { throw error }
                retrying(error, wait)
                var time = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - wait.rounded(.down)) * 1e9))
                var left = timespec()
                while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
            }
        }
    }

    private static func exportIntoFolder(
        _ entries: [Entry], from library: Library, to destination: Destination, sent: (SentFile) -> Void,
        missing: (Int64, LibraryError) -> Void
    ) throws(SendError) {
        do throws(LibraryError) {
            try Exporter.export(
                entries, from: library, to: destination.folder, into: .photo,
                exported: { photo in
                    let path = photo.photoPath
                    let name = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
                    sent(SentFile(entryID: photo.entryID, name: name))
                }, missing: missing)
        } catch {
            throw SendError(.folderRefused, error.message)
        }
    }

    /// A private folder in the user's cache where each photo is written before it is sent.
    private static func stagingFolder() throws(SendError) -> String {
        let cache = g_get_user_cache_dir().map { String(cString: $0) } ?? "/tmp"
        let parent = cache + "/caption"
        _ = POSIXFiles.makeFolders(parent, mode: 0o700)
        var template = Array((parent + "/sending-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw SendError(
                .photo,
                fill(
                    tr("no room to prepare the photos in {folder}: {reason}"),
                    ["folder": parent, "reason": POSIXFiles.reason(errno)]))
        }
        return FilePath.string(fromCString: made)
    }

    private static func removeFolder(_ path: String) {
        if let folder = opendir(path) {
            while let item = readdir(folder) {
                let name = entryName(item)
                if name != "." && name != ".." { _ = unlink(path + "/" + name) }
            }
            closedir(folder)
        }
        rmdir(path)
    }
}
