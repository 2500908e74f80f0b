// The standing credits as the form has them: what Preferences hold, the credits a photo's
// caption is saved with (variables expanded from that photo), and the line under the
// fields that says which are set.

import CaptionLibrary
import CaptionQueue
import CaptionText
import Localization
import PlaceNames
import Shorthand

struct StandingCredits: Equatable {
    /// As typed in Preferences, variables unexpanded.
    var template: Credits
    /// Why the settings file could not be read (then nothing is written).
    var problem: String?
    /// The stationery pad whose credits these are; nil: the standing credits' own.
    var pad: String?

    init(_ reading: CreditsFile.Reading) {
        template = reading.credits
        template.pad = reading.pad
        problem = reading.problem
        pad = reading.pad
    }

    static let none = StandingCredits(CreditsFile.Reading(credits: .none))

    /// The credits a caption of the photo at `path` is saved with, and those left out
    /// because a variable in them has no value for it. Reads the photo's Exif: called on
    /// the library's queue, beside the save.
    nonisolated static func forPhoto(_ template: Credits, at path: String) -> (credits: Credits, leftOut: [CreditField])
    {
        let placeFromGPS = WritingChoices.current.placeFromGPS
        guard template.needFacts(placeFromGPS: placeFromGPS) else { return (template, []) }
        let facts = CaptureFactsReader.facts(at: path)
        return template.expanded(
            facts: PhotoFacts(
                capture: facts, place: PlaceNames.place(of: facts), fileName: PhotoQueue.name(of: path), position: nil),
            placeFromGPS: placeFromGPS)
    }

    /// Whether any credit set would be left out of another creator's photo: only then is a
    /// photo's creator worth reading.
    var leavesAuthorshipOutOfOthersPhotos: Bool {
        problem == nil && !template.replacesPhotos && template.setFields.contains { Credits.authorship.contains($0) }
    }

    /// The credits of authorship that are set and would not go into a photo whose own
    /// creator is `creator`: another creator's photo keeps its authorship unless the credits
    /// replace the photo's own.
    func authorshipLeftOut(photoCreator creator: String?) -> [CreditField] {
        guard problem == nil, let creator, template.namesAnotherCreator([.creator: creator]), !template.replacesPhotos
        else { return [] }
        return template.setFields.filter { Credits.authorship.contains($0) }
    }

    /// The line under the fields: the credits each caption gets (expanded for this photo
    /// once its facts are known, with the place of its GPS position where City or Country
    /// is unset), and what is left out; "" when none are set.
    func line(facts: PhotoFacts?, photoCreator: String? = nil) -> String {
        if let problem { return problem }
        var credits = template
        var leftOut: [CreditField] = []
        if let facts {
            (credits, leftOut) = template.expanded(facts: facts, placeFromGPS: WritingChoices.current.placeFromGPS)
        }
        guard !credits.isEmpty || !leftOut.isEmpty else {
            return pad.map { fill(tr("The stationery pad “{pad}” sets no credits"), ["pad": $0]) } ?? ""
        }
        let set = (credits.setFields.map { credits[$0] } + credits.fieldWordLines { tr($0) }).joined(separator: " · ")
        var line =
            pad.map { fill(tr("Stationery pad “{pad}”: {credits}"), ["pad": $0, "credits": set]) }
            ?? fill(tr("Credits: {credits}"), ["credits": set])
        if !leftOut.isEmpty {
            line +=
                " "
                + fill(
                    tr("({credits} left out: this photo has no value for a variable in them)"),
                    ["credits": leftOut.map(CreditNames.name).joined(separator: ", ")])
        }
        let authorship = authorshipLeftOut(photoCreator: photoCreator)
        if let photoCreator, !authorship.isEmpty {
            line +=
                " "
                + fill(
                    tr("({credits} left out: this photo is {creator}'s)"),
                    ["credits": authorship.map(CreditNames.name).joined(separator: ", "), "creator": photoCreator])
        }
        return line
    }

    /// The line's tooltip and accessible description: each credit by its name, and whether
    /// a photo's own are kept.
    var details: String {
        guard !template.isEmpty else { return "" }
        let lines =
            template.setFields.map { CreditNames.name($0) + ": " + template[$0] } + template.fieldWordLines { tr($0) }
        let padLine = pad.map { [fill(tr("Stationery pad: {pad}"), ["pad": $0])] } ?? []
        return (padLine + lines + [CreditNames.rule(replacesPhotos: template.replacesPhotos)]).joined(separator: "\n")
    }
}
