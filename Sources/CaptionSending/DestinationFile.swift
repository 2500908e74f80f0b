// Where the destinations live: $XDG_CONFIG_HOME/caption/destinations.ini, one group a
// destination, its address and the server key the user accepted. No password.

import CaptionLibrary
import Localization

public enum DestinationFile {
    static let addressKey = "address"
    static let fingerprintKey = "fingerprint"

    public static var defaultPath: String { CreditsFile.settingsFolder + "/destinations.ini" }

    /// What the file holds, in its order; a group whose address names no destination
    /// (edited by hand) is named in `problems` and left out.
    public struct Reading: Sendable, Equatable {
        public var destinations: [Destination]
        public var problems: [String]
    }

    public static func read(_ path: String = defaultPath) -> Reading {
        guard let file = KeyFile.load(path) else { return Reading(destinations: [], problems: []) }
        var reading = Reading(destinations: [], problems: [])
        for name in file.groups {
            do throws(DestinationError) {
                let address = file.string(group: name, key: addressKey) ?? ""
                reading.destinations.append(
                    try Destination(
                        name: name, address: address, fingerprint: file.string(group: name, key: fingerprintKey)))
            } catch {
                reading.problems.append(
                    fill(
                        tr("{file}: destination “{name}”: {reason}"),
                        ["file": path, "name": name, "reason": error.message]))
            }
        }
        return reading
    }

    /// The destination called `name` (as typed: names are compared exactly).
    public static func destination(named name: String, in path: String = defaultPath) -> Destination? {
        read(path).destinations.first { $0.name == name }
    }

    /// Adds `destination`, or replaces the one of its name; nil when done, else the reason.
    public static func save(_ destination: Destination, to path: String = defaultPath) -> String? {
        KeyFile.update(path) { file in
            file.removeGroup(destination.name)
            file.set(destination.address, group: destination.name, key: addressKey)
            if let fingerprint = destination.fingerprint {
                file.set(fingerprint, group: destination.name, key: fingerprintKey)
            }
        }
    }

    /// Takes the destination `name` out; nil when done (or there was none), else the reason.
    public static func remove(_ name: String, from path: String = defaultPath) -> String? {
        KeyFile.update(path) { $0.removeGroup(name) }
    }
}
