// Where the library lives when no --library is given (the XDG data folder), and where a
// server library's photos are kept on this machine (the XDG cache folder).

#if canImport(Glibc)
    import Glibc
#endif

enum LibraryLocation {
    /// `$XDG_DATA_HOME/caption`, or `~/.local/share/caption` (XDG ignores a relative
    /// XDG_DATA_HOME).
    static func defaultDirectory() -> String {
        if let value = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), value.hasPrefix("/") {
            return value + "/caption"
        }
        return homeDirectory() + "/.local/share/caption"
    }

    /// `$XDG_CACHE_HOME/caption`, or `~/.cache/caption`.
    static func cacheDirectory() -> String {
        if let value = getenv("XDG_CACHE_HOME").map({ String(cString: $0) }), value.hasPrefix("/") {
            return value + "/caption"
        }
        return homeDirectory() + "/.cache/caption"
    }

    static func homeDirectory() -> String {
        if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty { return home }
        var record = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16384)
        if getpwuid_r(getuid(), &record, &buffer, buffer.count, &result) == 0, let result,
            let directory = result.pointee.pw_dir
        {
            return String(cString: directory)
        }
        return "/"
    }
}
