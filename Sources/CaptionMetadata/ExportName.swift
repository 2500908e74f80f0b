// File names for exported photos, made from their titles: readable, safe on every file
// system a photo may be copied to, and never hidden or too long.

enum ExportName {
    /// Bytes of UTF-8 a stem may take: with " (9999)" and ".webp" or ".xmp" it stays well
    /// under the 255 bytes Linux file systems allow in one name.
    static let maximumStemBytes = 200

    /// Characters no file name may hold somewhere a photo goes (the slash on Linux; the
    /// others on FAT and exFAT memory cards, and on Windows shares).
    static let reserved: Set<Unicode.Scalar> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]

    /// Controls that reorder text: in a file name they make "photo‮gpj.exe" look like
    /// "photoexe.jpg".
    static let bidiControls: Set<UInt32> = [
        0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
        0x2066, 0x2067, 0x2068, 0x2069,
    ]

    /// The stem for an entry titled `title`: reserved characters become "_", control and
    /// bidirectional-control characters go, white space of any kind becomes one space,
    /// leading dots (a hidden file) and trailing dots and spaces (which Windows drops)
    /// go, and it is cut to `maximumStemBytes` between two characters. A Windows device name
    /// (`CON`, `AUX`, `COM1`…) gets "_" in front. `fallback` when nothing visible is left.
    static func stem(from title: String, fallback: String) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in title.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator
            {
                pendingSpace = !scalars.isEmpty
                continue
            }
            if scalar.properties.generalCategory == .control || bidiControls.contains(scalar.value) { continue }
            if pendingSpace {
                scalars.append(" ")
                pendingSpace = false
            }
            scalars.append(reserved.contains(scalar) ? "_" : scalar)
        }
        var text = String(scalars)
        while text.hasPrefix(".") || text.hasPrefix(" ") { text.removeFirst() }
        var cut = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            if bytes + size > maximumStemBytes { break }
            cut.append(character)
            bytes += size
        }
        while cut.hasSuffix(".") || cut.hasSuffix(" ") { cut.removeLast() }
        guard cut.unicodeScalars.contains(where: { !isInvisible($0) }) else { return fallback }
        // Windows (and so a share or a card read there) gives these names to devices, with
        // any extension: "CON.jpg" cannot be opened there.
        let device = cut.prefix { $0 != "." }.uppercased()
        if reservedDevices.contains(device) { cut = "_" + cut }
        return cut
    }

    /// Windows' device names.
    static let reservedDevices: Set<String> = Set(
        ["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })

    /// What shows nothing by itself: white space, default-ignorable code points (zero-width
    /// spaces, U+FEFF) and format characters. A name of only these looks like no name.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.properties.isDefaultIgnorableCodePoint
            || scalar.properties.generalCategory == .format
    }

    /// The name to try the `attempt`th time: "stem.ext", then "stem (2).ext", …
    static func name(_ stem: String, attempt: Int, extension ext: String) -> String {
        attempt <= 1 ? stem + "." + ext : stem + " (\(attempt))." + ext
    }
}
