// What a command line asks for, as Arguments.parse gives it.

import CaptionMetadata
import CaptionText

/// What the user asked for.
public enum Request: Equatable, Sendable {
    /// `watch`: a folder whose new photos join the queue (with `subfolders`, theirs too).
    case window(library: String?, photos: [String], watch: String? = nil, subfolders: Bool = false)
    /// `words` holds the fields given (`--title`, `--subtitle`); the others come from the
    /// photo. With `into`, the caption also goes into the photo file or a sidecar beside it.
    /// With `pad`, the credits are that stationery pad's rather than the standing ones.
    case add(
        library: String?, photo: String, words: [CaptionField: String], into: CaptionDestination? = nil,
        pad: String? = nil)
    case list(library: String?, format: ListFormat = .table)
    /// The rows of a caption sheet (a CSV as exiftool's -csv writes it) saved as `--add`
    /// saves one photo, each also written into its photo or a sidecar with `into`, and sent
    /// to the destination `send` names, if any, once all are saved.
    case importSheet(
        library: String?, sheet: String, into: CaptionDestination?, pad: String? = nil, send: String? = nil)
    case remove(library: String?, id: Int64)
    /// The entries `ids` (all when empty) into `folder`, the caption embedded (`.photo`) or
    /// in NAME.xmp beside each untouched photo (`.sidecar`).
    case export(library: String?, folder: String, ids: [Int64], into: CaptionDestination)
    /// The saved captions of `ids` (all with a source when empty) into the photo files
    /// they came from, or into sidecars beside them.
    case writeBack(library: String?, ids: [Int64], into: CaptionDestination)
    /// The caption checks over `photos`' own words, or over every entry of the library
    /// when none is given.
    case check(library: String?, photos: [String], pad: String? = nil)
    /// The standing credits given (`--creator`…; "" clears one), and whether they replace
    /// a photo's own (nil: as before); the others stay as they are. With `pad`, the credits
    /// go into that stationery pad (made if it is new) rather than the standing ones.
    case setCredits(changes: [CreditField: String], replacesPhotos: Bool?, addsIIM: Bool? = nil, pad: String? = nil)
    /// Prints the standing credits, or those of the stationery pad `pad`.
    case showCredits(pad: String? = nil)
    /// The stationery pads: listed, one chosen for what follows, or a file added as one.
    case pads(PadRequest)
    /// The places photos are sent to: listed, added or removed.
    case destinations(DestinationRequest)
    /// The entries `ids`, each exported with its caption, sent to the destination named.
    case send(library: String?, destination: String, ids: [Int64])
    case help
    case version
}

/// What is asked of the stationery pads.
public enum PadRequest: Equatable, Sendable {
    /// `--pads`: each pad's name, the one in use marked.
    case list
    /// `--use-pad NAME`: its credits are written from now on; nil (`--no-pad`): the
    /// standing credits' own.
    case use(String?)
    /// `--add-pad FILE.xmp [--pad NAME]`: an XMP file (a Photo Mechanic template) becomes a pad.
    case add(file: String, name: String?)
}

/// What is asked of the destinations.
public enum DestinationRequest: Equatable, Sendable {
    /// `--destinations`: each one's name and address.
    case list
    /// `--add-destination NAME ADDRESS [--fingerprint KEY]`: checked by logging in, then
    /// kept, its password in the keyring.
    case add(name: String, address: String, fingerprint: String?)
    /// `--remove-destination NAME`, its password too.
    case remove(String)
}

/// How `--list` prints the entries.
public enum ListFormat: Equatable, Sendable {
    /// Number, title and subtitle in columns, for people.
    case table
    case json
    /// exiftool's CSV columns, which `--import` and `exiftool -csv=` read back.
    case csv
}

/// A mistake in the command line itself (exit status 2).
public struct UsageError: Error, Equatable {
    public var message: String
}
