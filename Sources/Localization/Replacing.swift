// String.replacing(_:with:) for strings, without the standard library's string-processing
// module.

extension String {
    /// `self` with each occurrence of `target` replaced by `replacement`, from the start,
    /// character by character, as the standard library's `replacing(_:with:)` does (an
    /// empty `target` matches before every character and at the end). This concrete
    /// overload is what every call with two strings picks. The generic one is in the
    /// string-processing module (`_StringProcessing`), whose code the program otherwise
    /// maps in and whose generic types it builds at every start, for the names that the
    /// first frame's messages fill in.
    public func replacing(_ target: String, with replacement: String) -> String {
        guard let first = target.first else {
            var result = replacement
            for character in self {
                result.append(character)
                result += replacement
            }
            return result
        }
        var result = ""
        var index = startIndex
        var copied = startIndex
        while index < endIndex {
            if self[index] == first, self[index...].starts(with: target) {
                result += self[copied..<index]
                result += replacement
                index = self.index(index, offsetBy: target.count)
                copied = index
            } else {
                index = self.index(after: index)
            }
        }
        result += self[copied...]
        return result
    }
}
