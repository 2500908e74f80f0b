// Writing to standard output and standard error without C's shared FILE globals, which
// Swift 6 rightly will not touch from a concurrent context.

#if canImport(Glibc)
import Glibc
#endif

public enum Console {
    public static func out(_ text: String) { write(text, to: 1) }

    /// One line on standard error, prefixed with the program's name.
    public static func error(_ line: String) { write("caption: " + line + "\n", to: 2) }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // a closed pipe: nothing sensible left to say it on
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
