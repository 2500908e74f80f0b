// Where a stationery pad keeps its own checks: properties in Caption's namespace, which
// other apps keep as they are (Photo Mechanic opens and saves such a template unharmed).

import CExempi
import CaptionChecks
import CaptionText

extension XMPPacket {
    static let caption = "https://caption-app.github.io/xmp/1.0/"
    static let checksOn = "ChecksOn"
    static let checksOff = "ChecksOff"
    static let datelinePattern = "DatelinePattern"

    /// The pad's checks: `caption:ChecksOn` and `caption:ChecksOff`, bags of the checks'
    /// names as Preferences' file writes them (`dateline`, `headline_case`), and
    /// `caption:DatelinePattern`. A name Caption does not know is passed over.
    var padChecks: PadChecks {
        func checks(_ name: String) -> Set<CaptionCheck> {
            var found: Set<CaptionCheck> = []
            var index = 1
            while let item = text(Self.caption, "\(name)[\(index)]") {
                if let check = CaptionCheck(rawValue: item.trimmingWhiteSpace) { found.insert(check) }
                index += 1
            }
            return found
        }
        // Present and empty is a pad that asks for no pattern, whatever Preferences' says.
        return PadChecks(
            on: checks(Self.checksOn), off: checks(Self.checksOff),
            datelinePattern: text(Self.caption, Self.datelinePattern))
    }

    /// Replaces the pad's checks with `checks`; `.none` removes them. False when the
    /// toolkit refuses a value.
    func setPadChecks(_ checks: PadChecks) -> Bool {
        for name in [Self.checksOn, Self.checksOff, Self.datelinePattern] {
            xmp_delete_property(pointer, Self.caption, name)
        }
        let options = UInt32(XMP_PROP_VALUE_IS_ARRAY.rawValue)
        // In the order Preferences lists them, so that a saved pad reads the same each time.
        for (name, set) in [(Self.checksOn, checks.on), (Self.checksOff, checks.off)] {
            for check in CaptionCheck.allCases where set.contains(check) {
                guard xmp_append_array_item(pointer, Self.caption, name, options, check.rawValue, 0) else {
                    return false
                }
            }
        }
        if let pattern = checks.datelinePattern {
            return xmp_set_property(pointer, Self.caption, Self.datelinePattern, pattern, 0)
        }
        return true
    }
}
