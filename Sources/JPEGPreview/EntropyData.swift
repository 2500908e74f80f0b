// A JPEG file read into memory with room after it, and its entropy-coded data unstuffed.

import POSIXFiles

#if canImport(Glibc)
    import Glibc
#endif

struct EntropyData {
    /// Zero bytes kept after the data: refills read eight bytes ahead, and a scan loop
    /// checks the end once an MCU, which can read at most 10 blocks × 64 codes × 31 bits.
    static let padding = 4096

    let buffer: UnsafeMutableBufferPointer<UInt8>
    let length: Int

    func deallocate() { buffer.deallocate() }

    /// The whole file, or nil when it cannot be read or is larger than a photo can be.
    static func read(_ path: String) -> EntropyData? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
            status.st_size > 0, status.st_size <= 512 << 20
        else { return nil }
        let size = Int(status.st_size)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size + padding)
        guard let base = buffer.baseAddress else { return nil }  // never: the capacity is not 0
        var done = 0
        while done < size {
            let got = Glibc.read(descriptor, base + done, size - done)
            if got < 0 && errno == EINTR { continue }
            // A file that shrank while being read is read as far as it goes.
            guard got > 0 else { break }
            done += got
        }
        guard done > 0 else {
            buffer.deallocate()
            return nil
        }
        return EntropyData(buffer: buffer, length: done)
    }

    /// Removes the zero byte JPEG stuffs after each 0xFF in `buffer[start..<end]`, in place,
    /// up to the first marker that is not a restart marker (the end of the scan). Restart
    /// markers are taken out too, and where each restart interval's data starts (from
    /// `start`, after unstuffing) is put in `restarts`. Returns the unstuffed length, or nil
    /// when there is no data, or restart markers come out of their order 0…7.
    static func unstuff(
        _ buffer: UnsafeMutableBufferPointer<UInt8>, from start: Int, to end: Int,
        restarts: inout [Int]
    ) -> Int? {
        guard let base = buffer.baseAddress, start < end else { return nil }
        var read = start
        var write = start
        while read < end {
            let remaining = end - read
            guard let found = memchr(base + read, 0xFF, remaining) else {
                if write != read { memmove(base + write, base + read, remaining) }
                write += remaining
                read = end
                break
            }
            let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let run = at - read
            if write != read && run > 0 { memmove(base + write, base + read, run) }
            write += run
            guard at + 1 < end else { break }
            let next = base[at + 1]
            if next == 0 {
                base[write] = 0xFF
                write += 1
                read = at + 2
            } else if (0xD0...0xD7).contains(next) {
                guard Int(next - 0xD0) == restarts.count % 8 else { return nil }
                restarts.append(write - start)
                read = at + 2
            } else {
                break  // a marker: the scan ends here
            }
        }
        return write > start ? write - start : nil
    }
}
