// What the user is told about a photo that is accepted all the same: a warning, not an
// error (the photo is saved), in the window's notification and on the command line.

import Localization

public enum PhotoNotice: Sendable, Equatable {
    /// The file ends early and a decoder still shows it: kept exactly as it is
    /// (docs/decisions.md, "A photo cut short that a decoder shows is a photo").
    case incomplete

    /// Said while the photo is on the form, before it is saved. `path` is shown by its
    /// file name, as the form shows it.
    public func beforeSaving(_ path: String) -> String {
        switch self {
        case .incomplete:
            fill(
                tr("{name} looks incomplete (the end of the file is missing); it will be saved as it is"),
                ["name": Files.baseName(path)])
        }
    }

    /// Said once the photo is in the library (`caption --add`).
    public func afterSaving(_ path: String) -> String {
        switch self {
        case .incomplete:
            fill(
                tr("{name} looks incomplete (the end of the file is missing); it was added as it is"),
                ["name": Files.baseName(path)])
        }
    }
}
