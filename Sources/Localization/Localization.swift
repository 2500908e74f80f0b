// Translations through gettext, set up once at start-up and used by every module that speaks.

import CIntl

#if canImport(Glibc)
    import Glibc
#endif

public enum Localization {
    public static let domain = "caption"

    /// Follows LANGUAGE / LC_ALL / LC_MESSAGES / LANG. `localeDirectory` holds the
    /// catalogues (LL/LC_MESSAGES/caption.mo); nil keeps the system default.
    public static func setUp(localeDirectory: String?) {
        letLanguageChooseWithoutLocale()
        setlocale(LC_ALL, "")
        if let localeDirectory {
            bindtextdomain(domain, localeDirectory)
        }
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
    }

    /// gettext ignores LANGUAGE while the messages locale is "C", and "C" is what a session
    /// with no locale variable at all gets (a container, `env -i`, some service managers),
    /// so `LANGUAGE=zh_CN caption` would stay English there. When LANGUAGE asks for a
    /// language and nothing else chose a locale, C.UTF-8 keeps C's conventions and lets
    /// LANGUAGE choose. It goes into the environment, not only setlocale, because GTK calls
    /// setlocale(LC_ALL, "") again when it starts. An explicit LANG=C still means C.
    static func letLanguageChooseWithoutLocale() {
        func isSet(_ name: String) -> Bool {
            guard let value = getenv(name) else { return false }
            return value.pointee != 0
        }
        guard isSet("LANGUAGE"), !isSet("LC_ALL"), !isSet("LC_MESSAGES"), !isSet("LANG") else { return }
        setenv("LC_MESSAGES", "C.UTF-8", 1)
    }
}

/// The translation of an English message, or the message itself.
public func tr(_ message: String) -> String {
    // gettext returns its argument itself when there is no translation, and a C string
    // made from a Swift String lives only for the call: compare inside withCString
    // rather than read a pointer that may already be freed.
    message.withCString { original in
        guard let translated = caption_gettext(original), translated != original else { return message }
        return String(cString: translated)
    }
}

/// The translation of a message whose wording depends on a count ("1 code", "2 codes"), in
/// the plural form the language uses for `count`; English when there is no translation.
public func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
    singular.withCString { one in
        plural.withCString { many in
            guard let translated = caption_ngettext(one, many, UInt(max(count, 0))) else {
                return count == 1 ? singular : plural
            }
            if translated == one { return singular }
            if translated == many { return plural }
            return String(cString: translated)
        }
    }
}

/// `{key}` in an already translated template replaced by its value, so a translator may move
/// the placeholders; an unknown key, or a brace never closed, stays as written.
public func fill(_ template: String, _ values: [String: String]) -> String {
    var result = ""
    var rest = template[...]
    while let open = rest.firstIndex(of: "{") {
        result += rest[..<open]
        guard let close = rest[open...].firstIndex(of: "}") else {
            rest = rest[open...]
            break
        }
        let key = String(rest[rest.index(after: open)..<close])
        result += values[key] ?? String(rest[open...close])
        rest = rest[rest.index(after: close)...]
    }
    return result + rest
}
