// What the user chooses about writing into photos beyond the caption and its credits:
// whether a photo without IPTC-IIM gets a block of its own, and whether the place of its GPS
// position stands in for a City or Country left unset.

import Threads

/// Chosen once for the whole process (the window from Preferences, the command line from
/// the same settings file), read by every write.
public struct WritingChoices: Sendable, Equatable {
    /// A JPEG or TIFF without IIM gets an IIM block with the caption and the credits:
    /// agencies' older systems read nothing else. On unless the user turns it off.
    public var addsIIM: Bool
    /// The City, Country and country code credits, where none is set, are the place the
    /// photo's GPS position gives (`Credits.expanded`); a photo without one gets none. Off
    /// unless the user turns it on: a photo's metadata changes only where the user asked.
    public var placeFromGPS: Bool

    public init(addsIIM: Bool = true, placeFromGPS: Bool = false) {
        self.addsIIM = addsIIM
        self.placeFromGPS = placeFromGPS
    }

    private static let chosen = Locked(WritingChoices())

    /// What writes follow from now on.
    public static var current: WritingChoices {
        get { chosen.withLock { $0 } }
        set { chosen.withLock { $0 = newValue } }
    }
}
