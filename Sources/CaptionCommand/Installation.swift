// Where the installed program finds its own files: relative to its executable, so that
// /usr, /usr/local and a staged DESTDIR all work with no build tree around.

import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

public enum Installation {
    /// The folder holding the running executable.
    public static var executableDirectory: String? { POSIXFiles.executableDirectory }

    /// The translations for this executable:
    /// - installed as PREFIX/bin/caption: PREFIX/share/locale;
    /// - built in a checkout as SCRATCH/TRIPLE/CONFIGURATION/caption (SwiftPM's layout, any
    ///   --scratch-path): SCRATCH/locale, where `make locale` compiles the catalogues.
    /// Otherwise, or when that folder is missing, nil: gettext uses the system's default.
    public static var localeDirectory: String? {
        guard let bin = executableDirectory else { return nil }
        let candidate: String?
        if bin.hasSuffix("/bin") {
            candidate = String(bin.dropLast(4)) + "/share/locale"
        } else {
            candidate = parent(of: bin).flatMap(parent(of:)).map { $0 + "/locale" }
        }
        guard let candidate, access(candidate, F_OK) == 0 else { return nil }
        return candidate
    }

    private static func parent(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        return String(path[..<slash])
    }
}
