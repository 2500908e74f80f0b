// What every test target shares: scratch folders that clean up after themselves, photos made
// on the spot, other programs (the built `caption` among them) run as child processes, and a
// raw look at a library's database.

import CPixbuf
import CSQLite
import CaptionLibrary
import CaptionText
import Foundation
import POSIXFiles

/// A fresh folder under the temporary directory, removed when the value goes.
/// World-traversable (0755) so that a test running the command line as user nobody can
/// reach inside.
public final class Scratch: @unchecked Sendable {
    public let path: String

    public init(_ prefix: String = "caption-test") {
        var template = Array((NSTemporaryDirectory() + prefix + "-XXXXXX").utf8CString)
        // The template array is never empty, so its base address exists.
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chmod(path, 0o755)
    }

    deinit {
        // Folders a test made read-only must be writable again to be removed.
        _ = try? Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "u+rwX", path]).waitUntilExit()
        try? FileManager.default.removeItem(atPath: path)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) -> String {
        let target = file(name)
        precondition(FileManager.default.createFile(atPath: target, contents: Data(bytes)), "cannot write \(target)")
        return target
    }

    public func folder(_ name: String) -> String {
        let target = file(name)
        try? FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        return target
    }

    /// Every name in a folder, hidden ones included.
    public func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}

public enum Photos {
    /// A photo `width`×`height` with pixels from `seed` (noisy, so JPEGs are not tiny and
    /// different seeds give different files), encoded by GdkPixbuf as `type` ("png",
    /// "jpeg", "bmp", "tiff", "ico"); JPEGs at quality 90 unless `options` say otherwise.
    public static func make(
        width: Int = 64, height: Int = 48, seed: UInt32 = 1, type: String = "png",
        options: [(String, String)]? = nil, noise: UInt32 = 255
    ) -> [UInt8] {
        // NULL only when the pixels cannot be allocated, which these small sizes never hit.
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height))!
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!  // a new pixbuf always has its pixels
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        var state = seed &* 2_654_435_761 | 1
        for y in 0..<height {
            for x in 0..<(width * 3) {
                state = state &* 1_664_525 &+ 1_013_904_223
                let base = UInt32((x / 3 + y) % 200)
                pixels[y * stride + x] = UInt8(truncatingIfNeeded: base &+ (state >> 24) % (noise + 1))
            }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let options = options ?? (type == "jpeg" ? [("quality", "90")] : [])
        var keys: [UnsafeMutablePointer<CChar>?] = options.map { strdup($0.0) } + [nil]
        var values: [UnsafeMutablePointer<CChar>?] = options.map { strdup($0.1) } + [nil]
        defer { (keys + values).forEach { free($0) } }
        let ok = gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, type, &keys, &values, &error)
        precondition(ok != 0, "saving a \(type) failed")
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
    }

    /// A gently noisy photo in `type`: smooth enough that encoders keep it small.
    public static func make(_ type: String, width: Int = 64, height: Int = 48, seed: UInt32 = 1) -> [UInt8] {
        make(width: width, height: height, seed: seed, type: type, noise: 39)
    }

    public static func png(seed: UInt32 = 1, width: Int = 64, height: Int = 48) -> [UInt8] {
        make(width: width, height: height, seed: seed, type: "png")
    }

    public static func jpeg(seed: UInt32 = 1, width: Int = 64, height: Int = 48) -> [UInt8] {
        make(width: width, height: height, seed: seed, type: "jpeg")
    }

    /// A 1×1 GIF, as bytes (GdkPixbuf cannot write GIF).
    public static let gif: [UInt8] =
        Array("GIF89a".utf8) + [
            0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00,
            0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00,
            0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B,
        ]

    /// A PNG whose header claims `width`×`height`, with one tiny IDAT: enough for a decoder
    /// to learn the size, nowhere near enough pixels. CRCs are right, so only the size is
    /// wrong with it.
    public static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ value: UInt32) -> [UInt8] {
            [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be(UInt32(data.count)) + body + be(crc32(body))
        }
        let header = be(width) + be(height) + [8, 2, 0, 0, 0]
        let compressed: [UInt8] = [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", compressed) + chunk("IEND", [])
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    public static func bytes(_ path: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: path) ?? Data())
    }

    public static func sha256(ofFile path: String) -> String {
        bytes(path).withUnsafeBytes { Hash.sha256($0) }
    }
}

/// Words that break careless code: quotes, format specifiers, markup, SQL, emoji, RTL and
/// CJK text, combining marks, backslashes.
public enum HostileText {
    public static let samples = [
        "He said \"hello\" and 'goodbye'",
        "%s%n%x%d %@ {0} \\(x) $HOME `id`",
        "<b>&amp;</b> &lt;script&gt;alert(1)&lt;/script&gt;",
        "Robert'); DROP TABLE entries;--",
        "👩‍👩‍👧 family 🎉🏳️‍🌈",
        "مرحبا بالعالم — שלום עולם",
        "東京の夜景　と 北京 서울",
        "e\u{301}te\u{301} (decomposed) and été",
        "back\\slash and nul-free tab-free text",
    ]
}

/// The outcome of running a program.
public struct Outcome: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

public enum Tool {
    /// Runs a program found in /usr/bin (or by absolute path) and waits for it, in the C
    /// locale so that messages are the English ones; its exit status, or 128 + the signal
    /// that ended it.
    ///
    /// Spawned with posix_spawn, its output caught in two anonymous memory files, rather
    /// than through Foundation's Process and Pipe: with many tests running programs at once
    /// (the camera-photo tests run exiftool thousands of times), a pipe's file descriptor
    /// was closed under a read in another thread ("Bad file descriptor", a fatal error in
    /// FileHandle) once in a sanitizer run.
    /// `input`, when given, is what the program reads on standard input (else /dev/null).
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String] = [:],
        in folder: String? = nil, input: String? = nil
    ) throws -> Outcome {
        let path = program.hasPrefix("/") ? program : "/usr/bin/" + program
        var env = ProcessInfo.processInfo.environment
        env["LANGUAGE"] = "C"
        env["LC_ALL"] = "C.UTF-8"
        for (key, value) in environment { env[key] = value }
        let out = caption_memory_file()
        let err = caption_memory_file()
        defer {
            if out >= 0 { close(out) }
            if err >= 0 { close(err) }
        }
        guard out >= 0, err >= 0 else { throw ToolFailure(description: "no memory file for \(program)'s output") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let inputFile = input == nil ? -1 : caption_memory_file()
        defer { if inputFile >= 0 { close(inputFile) } }
        if let input {
            guard inputFile >= 0 else { throw ToolFailure(description: "no memory file for \(program)'s input") }
            // Written at its start without moving the offset the program reads from.
            let bytes = Array(input.utf8)
            guard bytes.withUnsafeBytes({ pwrite(inputFile, $0.baseAddress, $0.count, 0) }) == bytes.count else {
                throw ToolFailure(description: "\(program)'s input could not be written")
            }
            posix_spawn_file_actions_adddup2(&actions, inputFile, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, out, 1)
        posix_spawn_file_actions_adddup2(&actions, err, 2)
        // posix_spawn's own chdir action is not visible to Swift here: a shell changes folder.
        let command =
            folder.map { ["/bin/sh", "-c", "cd \"$1\" || exit 127; shift; exec \"$@\"", "sh", $0, path] + arguments }
            ?? [path] + arguments
        // Each argument's own bytes: a path that is not UTF-8 reaches the program as it is.
        let argv = command.map { strdup($0.pathBytes) } + [nil]
        let envp = env.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw ToolFailure(description: "\(path) could not be started: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return Outcome(
            status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal, stdout: Self.contents(out),
            stderr: Self.contents(err))
    }

    /// Starts `path` with its standard output into a pipe of this process's own making
    /// (standard input and error on /dev/null) and does not wait: the child's number and the
    /// pipe's reading end, which the caller reads (`read`) and closes once.
    public static func start(_ path: String, _ arguments: [String]) throws -> (pid: pid_t, output: Int32) {
        var ends: [Int32] = [-1, -1]
        // Close-on-exec from the start: a program another test starts meanwhile must not
        // hold the writing end, or its end would wait for that program.
        guard g_unix_open_pipe(&ends, FD_CLOEXEC, nil) != 0 else {
            throw ToolFailure(description: "no pipe for \(path)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0.pathBytes) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            throw ToolFailure(description: "\(path) could not be started: \(String(cString: strerror(spawned)))")
        }
        return (pid, ends[0])
    }

    /// What can be read from `descriptor` now, waiting for at least a byte: empty at its end.
    public static func readSome(_ descriptor: Int32) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 1 << 12)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            return count > 0 ? Array(chunk[0..<count]) : []
        }
    }

    /// Everything written to a memory file, from its start.
    private static func contents(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
            offset += off_t(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

public struct ToolFailure: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
}

/// The `caption` program, as a user runs it.
public enum Caption {
    /// The `caption` binary built beside this test bundle, or $CAPTION_BINARY.
    public static let binary: String = {
        if let given = ProcessInfo.processInfo.environment["CAPTION_BINARY"] { return given }
        let bundle =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("caption").path
    }()

    public static let isRoot = getuid() == 0

    /// Runs caption with `arguments`; `shellPrefix` (e.g. "ulimit -f 8;") runs it through
    /// /bin/sh; `unprivileged` drops to user nobody when the tests run as root, since root
    /// reads and writes through any permission.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], shellPrefix: String? = nil,
        unprivileged: Bool = false, in folder: String? = nil, binary: String = binary, input: String? = nil
    ) throws
        -> Outcome
    {
        var command = [binary] + arguments
        if unprivileged && isRoot {
            command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        }
        if let shellPrefix {
            command = ["/bin/sh", "-c", shellPrefix + " exec \"$@\"", "sh"] + command
        }
        return try Tool.run(command[0], Array(command.dropFirst()), environment: environment, in: folder, input: input)
    }

    /// Starts caption without waiting; stdout and stderr go to /dev/null.
    public static func spawn(_ arguments: [String]) -> pid_t {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([binary] + arguments).map { strdup($0.pathBytes) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&pid, binary, &actions, nil, argv, environ)
        precondition(status == 0, "posix_spawn failed: \(status)")
        return pid
    }

    /// Waits for a child; its exit status, or 128 + the signal that ended it.
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Makes a folder tree belong to user nobody, for a command run `unprivileged`.
    /// Runs `body` with this thread's file access checked as nobody's: under root, which
    /// reads every file, that is how a test meets a folder its user may not read. (Leaving
    /// file-system user 0 drops the capabilities that override permissions; coming back
    /// restores them.)
    public static func withFileAccessOfNobody<T>(_ body: () throws -> T) rethrows -> T {
        guard isRoot else { return try body() }
        // glibc's setfsuid and setfsgid, which its Swift module does not bring (sys/fsuid.h).
        typealias SetID = @convention(c) (UInt32) -> Int32
        func function(_ name: String) -> SetID {
            // RTLD_DEFAULT (a null handle): glibc, which every process has, defines both.
            unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), name), to: SetID.self)
        }
        let (setUser, setGroup) = (function("setfsuid"), function("setfsgid"))
        _ = setGroup(65534)
        _ = setUser(65534)
        defer {
            _ = setUser(0)
            _ = setGroup(0)
        }
        return try body()
    }

    public static func giveToNobody(_ path: String) throws {
        guard isRoot else { return }
        _ = try Tool.run("/bin/chown", ["-R", "65534:65534", path])
    }
}

/// A raw SQLite connection to a library's database, for checking it from outside.
/// Sendable for tests that hand it to a thread; SQLite's default serialized mode makes
/// that safe.
public final class RawDatabase: @unchecked Sendable {
    public let handle: OpaquePointer

    public init(_ path: String, create: Bool = false) {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), nil)
        precondition(code == SQLITE_OK && handle != nil, "cannot open \(path)")
        self.handle = handle!  // checked just above
    }

    deinit { sqlite3_close_v2(handle) }

    /// Takes the optional fields' columns and their search index out, as a library from
    /// before them was (their step is the schema's seventh).
    public static let dropOptionalFields =
        "DROP TRIGGER entries_more_insert; DROP TRIGGER entries_more_delete; DROP TRIGGER entries_more_update; "
        + "DROP TABLE entries_more; "
        + CaptionField.optional.map { "ALTER TABLE entries DROP COLUMN \($0.rawValue); " }.joined()

    /// Takes the standing credits' columns out of `entries` (and what came after them), as
    /// a library from before them was (their step is the schema's fifth).
    public static let dropCredits =
        dropOptionalFields
        + CreditField.allCases.map { "ALTER TABLE entries DROP COLUMN credit_\($0.rawValue); " }.joined()
        + "ALTER TABLE entries DROP COLUMN credits_replace; ALTER TABLE entries DROP COLUMN credits_pad; "

    /// The first column of every row, as text.
    public func strings(_ sql: String) -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            return ["error: " + String(cString: sqlite3_errmsg(handle))]
        }
        defer { sqlite3_finalize(statement) }
        var rows: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
        }
        return rows
    }

    @discardableResult
    public func execute(_ sql: String) -> Int32 {
        sqlite3_exec(handle, sql, nil, nil, nil)
    }
}

/// What is wrong with a library's folder, against the state it must always be in:
/// integrity_check ok, every row's photo present with the content its name promises, no
/// temporary file, no unreferenced photo. Empty when all is well; tests expect it empty.
public func consistencyProblems(_ directory: String) throws -> [String] {
    let library = try Library(directory: directory)
    let entries = try library.entries()
    let raw = RawDatabase(directory + "/library.sqlite3")
    var problems: [String] = []
    let integrity = raw.strings("PRAGMA integrity_check")
    if integrity != ["ok"] { problems.append("integrity_check: \(integrity)") }
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/photos")) ?? []
    let temporary = files.filter { $0.hasPrefix(".tmp-") }
    if !temporary.isEmpty { problems.append("temporary files left: \(temporary)") }
    let used = Set(entries.map(\.photo))
    for photo in used.sorted() {
        let path = directory + "/" + photo
        guard FileManager.default.fileExists(atPath: path) else {
            problems.append("missing \(photo)")
            continue
        }
        let name = (photo as NSString).lastPathComponent
        if Photos.sha256(ofFile: path) != String(name.prefix(64)) { problems.append("\(photo) holds other bytes") }
    }
    for file in files.sorted() where !file.hasPrefix(".tmp-") && !used.contains("photos/" + file) {
        problems.append("unreferenced \(file)")
    }
    return problems
}

public func mode(_ path: String) -> mode_t {
    var info = stat()
    stat(path, &info)
    return info.st_mode & 0o7777
}
