// Writing to standard output and standard error without C's shared FILE globals, which
// Swift 6 rightly will not touch from a concurrent context.

import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

public enum Console {
    /// A path's bytes that are not UTF-8 are shown as U+FFFD, as GLib shows file names.
    public static func out(_ text: String) { write(FilePath.display(text), to: 1) }

    /// One line on standard error, prefixed with the program's name.
    public static func error(_ line: String) { write("caption: " + FilePath.display(line) + "\n", to: 2) }

    /// Standard output gathered into blocks of 64 KiB: a long listing is written as it is
    /// made, in few system calls and constant memory.
    public struct Buffer {
        private var pending: [UInt8] = []
        private static let blockSize = 1 << 16

        public init() { pending.reserveCapacity(Buffer.blockSize + 4096) }

        public mutating func append(_ text: String) {
            pending.append(contentsOf: FilePath.display(text).utf8)
            if pending.count >= Buffer.blockSize { flush() }
        }

        /// Bytes of a literal.
        public mutating func append(bytes text: StaticString) {
            pending.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            if pending.count >= Buffer.blockSize { flush() }
        }

        /// Lets `body` append bytes directly.
        public mutating func withBytes(_ body: (inout [UInt8]) -> Void) {
            body(&pending)
            if pending.count >= Buffer.blockSize { flush() }
        }

        public mutating func flush() {
            Console.write(pending[...], to: 1)
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Text on standard error as it is, without prefix or line end (a progress line).
    public static func errorText(_ text: String) { write(text, to: 2) }

    private static func write(_ text: String, to descriptor: Int32) {
        write(Array(text.utf8)[...], to: descriptor)
    }

    private static func write(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) {
        var bytes = bytes
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
