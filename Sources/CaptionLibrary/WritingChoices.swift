// What the user chooses about writing into photos beyond the caption and its credits: for
// now, whether a photo without IPTC-IIM gets a block of its own.

import Threads

/// Chosen once for the whole process (the window from Preferences, the command line from
/// the same settings file), read by every write.
public struct WritingChoices: Sendable, Equatable {
    /// A JPEG or TIFF without IIM gets an IIM block with the caption and the credits:
    /// agencies' older systems read nothing else. On unless the user turns it off.
    public var addsIIM: Bool

    public init(addsIIM: Bool = true) {
        self.addsIIM = addsIIM
    }

    private static let chosen = Locked(WritingChoices())

    /// What writes follow from now on.
    public static var current: WritingChoices {
        get { chosen.withLock { $0 } }
        set { chosen.withLock { $0 = newValue } }
    }
}
