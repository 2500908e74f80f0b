// Where the installed program finds its own files: relative to its executable, so that
// /usr, /usr/local and a staged DESTDIR all work with no build tree around.

#if canImport(Glibc)
import Glibc
#endif

public enum Installation {
    /// The folder holding the running executable, from /proc/self/exe.
    public static var executableDirectory: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }

    /// PREFIX/share/locale when the executable sits in PREFIX/bin and that folder exists;
    /// otherwise nil, and gettext uses the system's default.
    public static var localeDirectory: String? {
        guard let bin = executableDirectory, bin.hasSuffix("/bin") else { return nil }
        let candidate = String(bin.dropLast(4)) + "/share/locale"
        return access(candidate, F_OK) == 0 ? candidate : nil
    }
}
