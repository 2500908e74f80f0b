// Translations through gettext, set up once at start-up and used by every module that speaks.

import CIntl

public enum Localization {
    public static let domain = "caption"

    /// Follows LANGUAGE / LC_ALL / LANG. `localeDirectory` is the installed
    /// share/locale; nil keeps the system default.
    public static func setUp(localeDirectory: String?) {
        setlocale(LC_ALL, "")
        if let localeDirectory {
            bindtextdomain(domain, localeDirectory)
        }
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
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
