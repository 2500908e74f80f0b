// Variables in a caption: `{date}`, `{time}`, `{year}`, `{camera}`, `{lens}`, `{filename}`,
// `{n}`, and the place from the photo's GPS position (`{city}`, `{state}`, `{country}`,
// `{countrycode}`), expanded from the photo when the caption is saved. The form shows the
// expansion as it will be saved, and the save uses the same.

import CaptionText

#if canImport(Glibc)
    import Glibc
#endif

/// What a photo tells about itself, for the variables.
public struct PhotoFacts: Sendable, Equatable {
    /// Exif DateTimeOriginal as the camera wrote it: "2024:05:17 14:03:22" (local time,
    /// with no zone: it is shown as written).
    public var captured: String?
    public var camera: String?
    public var lens: String?
    public var fileName: String
    /// The photo's place in the queue, from 1.
    public var position: Int?
    /// The city nearest to where the photo was taken, its state or province, its country and
    /// the country's two-letter code, as GeoNames names them; nil without a GPS position or
    /// near no city.
    public var city: String?
    public var state: String?
    public var country: String?
    public var countryCode: String?

    public init(
        captured: String? = nil, camera: String? = nil, lens: String? = nil, fileName: String, position: Int? = nil,
        city: String? = nil, state: String? = nil, country: String? = nil, countryCode: String? = nil
    ) {
        self.captured = captured
        self.camera = camera
        self.lens = lens
        self.fileName = fileName
        self.position = position
        self.city = city
        self.state = state
        self.country = country
        self.countryCode = countryCode
    }
}

public enum Variables {
    /// Every name, in the order the documentation gives them.
    public static let names = [
        "date", "time", "year", "camera", "lens", "filename", "n", "city", "state", "country", "countrycode",
    ]

    /// Every name as typed, for messages: "{date}, {time}, … {countrycode}".
    public static var typedNames: String { names.map { "{" + $0 + "}" }.joined(separator: ", ") }

    /// Why a field cannot be expanded: a name Caption does not know, or one this photo has
    /// no value for (no capture time in its Exif, no lens recorded).
    public enum Problem: Error, Sendable, Equatable {
        case unknown(name: String)
        case missing(name: String)
    }

    /// A piece of a field: text as it is, or a `{name}`. `{{` and `}}` are a brace as text,
    /// so a caption can say "{n}" literally by typing "{{n}}".
    enum Piece: Equatable {
        case text(String)
        case variable(String)
    }

    static func pieces(of text: String) -> [Piece] {
        let scalars = Array(text.unicodeScalars)
        var pieces: [Piece] = []
        var plain = String.UnicodeScalarView()
        var index = 0
        func flush() {
            if !plain.isEmpty { pieces.append(.text(String(plain))) }
            plain = String.UnicodeScalarView()
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if (scalar == "{" || scalar == "}") && next == scalar {
                plain.append(scalar)
                index += 2
                continue
            }
            guard scalar == "{" else {
                plain.append(scalar)
                index += 1
                continue
            }
            var end = index + 1
            while end < scalars.count, scalars[end].properties.isAlphabetic, scalars[end].isASCII { end += 1 }
            if end < scalars.count, scalars[end] == "}", end > index + 1 {
                flush()
                var name = String.UnicodeScalarView()
                name.append(contentsOf: scalars[(index + 1)..<end])
                pieces.append(.variable(String(name)))
                index = end + 1
            } else {
                plain.append(scalar)
                index += 1
            }
        }
        flush()
        return pieces
    }

    /// Whether saving changes `text`: it holds a `{name}` or a doubled brace. Only then does
    /// the form show what will be saved.
    public static func appear(in text: String) -> Bool {
        guard text.unicodeScalars.contains(where: { $0 == "{" || $0 == "}" }) else { return false }
        return pieces(of: text) != [.text(text)]
    }

    /// `text` with every variable replaced by the photo's value, or the first problem.
    public static func expand(_ text: String, facts: PhotoFacts) -> Result<String, Problem> {
        guard text.unicodeScalars.contains(where: { $0 == "{" || $0 == "}" }) else { return .success(text) }
        var out = ""
        for piece in pieces(of: text) {
            switch piece {
            case .text(let plain): out += plain
            case .variable(let name):
                guard names.contains(name) else { return .failure(.unknown(name: name)) }
                guard let value = value(name, facts), !value.isEmpty else { return .failure(.missing(name: name)) }
                out += value
            }
        }
        return .success(out)
    }

    static func value(_ name: String, _ facts: PhotoFacts) -> String? {
        switch name {
        case "date": return facts.captured.flatMap(date)
        case "time": return facts.captured.flatMap(time)
        // The year the photo was taken, for a copyright notice; a photo that does not say
        // when gets the year it is captioned in (when it is published, as the notice's
        // year may be).
        case "year": return facts.captured.flatMap { exifParts($0).first } ?? currentYear()
        case "camera": return facts.camera
        case "lens": return facts.lens
        case "filename": return facts.fileName
        case "n": return facts.position.map(String.init)
        case "city": return facts.city
        case "state": return facts.state
        case "country": return facts.country
        case "countrycode": return facts.countryCode
        default: return nil
        }
    }

    /// "2024:05:17 14:03:22" -> "2024-05-17" (ISO 8601, the same in every language).
    static func date(_ exif: String) -> String? {
        let parts = exifParts(exif)
        guard parts.count >= 3 else { return nil }
        return parts[0] + "-" + parts[1] + "-" + parts[2]
    }

    static func currentYear() -> String {
        var now = Glibc.time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return String(Int(parts.tm_year) + 1900)
    }

    /// The names in `text` that are not variables, in order, each once.
    public static func unknownNames(in text: String) -> [String] {
        var unknown: [String] = []
        for case .variable(let name) in pieces(of: text) where !names.contains(name) && !unknown.contains(name) {
            unknown.append(name)
        }
        return unknown
    }

    /// "2024:05:17 14:03:22" -> "14:03" (24-hour).
    static func time(_ exif: String) -> String? {
        let parts = exifParts(exif)
        guard parts.count >= 5 else { return nil }
        return parts[3] + ":" + parts[4]
    }

    /// The numbers of an Exif date and time, checked for shape: "YYYY:MM:DD HH:MM:SS".
    /// Cameras that do not know the time write blanks or zeros: no date then.
    private static func exifParts(_ exif: String) -> [String] {
        let parts = exif.split(whereSeparator: { $0 == ":" || $0 == " " }).map(String.init)
        guard parts.count >= 5, parts[0].count == 4, parts[0] != "0000",
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return [] }
        return parts
    }
}

extension PhotoFacts {
    /// The place's value for one of `Credits.placeFields`.
    func place(of field: CreditField) -> String? {
        switch field {
        case .city: city
        case .country: country
        case .countryCode: countryCode
        default: nil
        }
    }
}

extension Credits {
    /// The credits as they go into this photo: variables expanded, and a credit whose
    /// variable has no value for it (`{lens}` on a photo without one) left out, named in
    /// `leftOut`, rather than written with a hole in it.
    /// A pad's words for a field are expanded the same way; a field's words with a variable
    /// that has no value are left out, and the field stays as the caption leaves it.
    /// With `placeFromGPS`, a City, Country or country code left unset is the place of the
    /// photo's GPS position, where it has one.
    public func expanded(facts: PhotoFacts, placeFromGPS: Bool = false) -> (credits: Credits, leftOut: [CreditField]) {
        var leftOut: [CreditField] = []
        var expanded = compactMap { field, text -> String? in
            guard case .success(let value) = Variables.expand(text, facts: facts) else {
                leftOut.append(field)
                return nil
            }
            return value
        }
        expanded.fieldWords = fieldWords.compactMapValues { text in
            guard case .success(let value) = Variables.expand(text, facts: facts) else { return nil }
            return value
        }
        if placeFromGPS {
            // A credit the user set and left out for this photo stays out: it is not the place's.
            for field in Self.placeFields where self[field].isEmpty {
                if let value = facts.place(of: field) { expanded[field] = value }
            }
        }
        return (expanded, leftOut)
    }

    /// Whether the photo must be read for these credits: a credit or a field's words hold a
    /// variable, or (with `placeFromGPS`) the place may fill one left unset.
    public func needFacts(placeFromGPS: Bool) -> Bool {
        holdsVariables || placeFromGPS && Self.placeFields.contains { self[$0].isEmpty }
    }

    /// The credits the photo's GPS place may fill.
    static let placeFields: [CreditField] = [.city, .country, .countryCode]

    /// Whether a credit or a field's words hold a variable.
    public var holdsVariables: Bool {
        setFields.contains { Variables.appear(in: self[$0]) } || fieldWords.values.contains(where: Variables.appear)
    }
}
