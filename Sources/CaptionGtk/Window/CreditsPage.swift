// The Preferences page of the standing credits, or of the stationery pad in use: a field per
// credit (Enter goes on to the next, a change is confirmed and said), whether they replace a
// photo's own, the writing choices, and the pad row. Saved as typing pauses.

import CaptionLibrary
import CaptionMetadata
import CaptionText
import Localization
import Shorthand

@MainActor
final class CreditsPage {
    /// A field per standing credit, and whether they replace a photo's own.
    let fields: [CreditField: TextEntry]
    let replaceButton: CheckButton
    /// Whether a photo without IPTC-IIM gets a block for older systems.
    let iimButton: CheckButton
    /// Whether the place of a photo's GPS position fills an unset City and Country.
    let placeButton: CheckButton
    /// Says a variable in the credits that Caption does not know, or that the file could
    /// not be written.
    let status: Label
    private let rule: Label
    let heading: Label
    /// The pad the page edits, and new or imported ones.
    let padRow: PadRow
    private let path: String
    private let lifetime: Lifetime
    private var pendingSave: SourceHandle?
    private var unsaved = false
    /// The stationery pad whose credits the page edits; nil: the standing credits' own.
    private var padInUse: String?
    /// The credits' fields are being filled from a pad: not the user's edit.
    private var filling = false
    /// A pad was chosen, made or imported here: the window makes it the one in use and
    /// hands its credits back (`PreferencesWindow.showCredits`).
    var onPadChosen: ((String?) -> Void)?
    /// The credits were saved: the form writes them from its next save on.
    var onChange: ((StandingCredits) -> Void)?
    /// The choices about writing were saved: writes follow them from now on.
    var onWritingChoicesChange: ((WritingChoices) -> Void)?
    /// Says what was just done, in the window's notification.
    var say: (String) -> Void = { _ in }

    init(_ builder: Builder, credits: StandingCredits, path: String, window: Window, lifetime: Lifetime) {
        self.path = path
        self.lifetime = lifetime
        var fields: [CreditField: TextEntry] = [:]
        for field in CreditField.allCases {
            let entry: TextEntry = builder["credit_" + field.rawValue]
            entry.text = credits.template[field]
            entry.accessibleName = CreditNames.name(field)
            // A screen reader reads an empty field's grey text as if it were its value: it
            // is said as an example, and the field as not set.
            entry.setPlaceholder(fill(tr("for example {example}"), ["example": entry.placeholder]))
            Self.describeEmptiness(entry)
            fields[field] = entry
        }
        self.fields = fields
        replaceButton = builder["credits_replace"]
        replaceButton.isActive = credits.template.replacesPhotos
        iimButton = builder["credits_iim"]
        let writing = CreditsFile.writingChoices(path)
        iimButton.isActive = writing.addsIIM
        placeButton = builder["credits_place"]
        placeButton.isActive = writing.placeFromGPS
        placeButton.accessibleDescription = CreditNames.placeRule(placeFromGPS: writing.placeFromGPS)
        iimButton.accessibleDescription = CreditNames.iimRule(addsIIM: iimButton.isActive)
        status = builder["credits_status"]
        rule = builder["credits_rule"]
        heading = builder["credits_heading"]
        padRow = PadRow(builder, folder: StationeryPads.folder(besides: path), inUse: credits.pad, window: window)
        status.text = credits.problem ?? ""
        padInUse = credits.pad
        nameHeading()
        sayRule()
        connect()
    }

    /// Focus on the first credit.
    func focus() { fields[.creator]?.grabFocus() }

    /// The page edits the credits in use: the pad's, which its heading names.
    private func nameHeading() {
        heading.text = padInUse.map { fill(tr("Stationery Pad “{pad}”"), ["pad": $0]) } ?? tr("Standing Credits")
    }

    /// Shows the credits now in use (another pad was chosen, here or in the window).
    func show(_ credits: StandingCredits) {
        // Typed and not yet saved (a key chose another pad in the main window): kept, in the
        // pad it was typed for.
        saveNow(tellingTheForm: false)
        padInUse = credits.pad
        nameHeading()
        filling = true
        for (field, entry) in fields {
            entry.text = credits.template[field]
            confirmed[field] = entry.text
            Self.describeEmptiness(entry)
        }
        filling = false
        unsaved = false
        status.text = credits.problem ?? ""
        padRow.show(inUse: credits.pad)
    }

    private func connectPads() {
        padRow.onChoose = { [weak self] name in
            guard let self else { return }
            // What was typed goes into the pad it was typed for, before the page changes.
            self.saveNow()
            self.onPadChosen?(name)
        }
        padRow.takeCredits = { [weak self] in
            guard let self else { return .none }
            self.saveNow()
            return self.credits
        }
        padRow.onSay = { [weak self] in self?.say($0) }
    }

    func connect() {
        connectPads()
        let order = CreditField.allCases
        for (index, field) in order.enumerated() {
            guard let entry = fields[field] else { continue }
            entry.connect(.changed) { [weak self] in
                guard let self, !self.filling else { return }
                Self.describeEmptiness(entry)
                self.edited()
            }
            confirmed[field] = entry.text
            // Enter goes on to the next credit, as in the form; after the last, to the choice.
            // A credit changed is confirmed as it is left, and saved at once.
            entry.connect(.activate) { [weak self] in
                guard let self else { return }
                if self.confirmed[field] != entry.text {
                    self.confirmed[field] = entry.text
                    self.saveNow()
                    let name = CreditNames.name(field)
                    self.say(
                        entry.text.isEmpty
                            ? fill(tr("{credit} cleared"), ["credit": name])
                            : fill(tr("{credit} set to {value}"), ["credit": name, "value": entry.text]))
                }
                if index + 1 < order.count, let next = self.fields[order[index + 1]] {
                    next.grabFocus()
                } else {
                    self.replaceButton.grabFocus()
                }
            }
        }
        replaceButton.connect(.toggled) { [weak self] in
            guard let self else { return }
            self.sayRule()
            self.unsaved = true
            self.saveNow()
        }
        iimButton.connect(.toggled) { [weak self] in self?.saveWritingChoices() }
        placeButton.connect(.toggled) { [weak self] in self?.saveWritingChoices() }
    }

    /// Applies from the next write on, in this window and the command line alike.
    private func saveWritingChoices() {
        let choices = WritingChoices(addsIIM: iimButton.isActive, placeFromGPS: placeButton.isActive)
        iimButton.accessibleDescription = CreditNames.iimRule(addsIIM: choices.addsIIM)
        placeButton.accessibleDescription = CreditNames.placeRule(placeFromGPS: choices.placeFromGPS)
        onWritingChoicesChange?(choices)
        if let problem = CreditsFile.save(choices, to: path) { status.text = problem }
    }

    /// Each credit as last confirmed by Enter (or as the page opened).
    private var confirmed: [CreditField: String] = [:]

    /// "Not set" after an empty credit's name, nothing once it holds words.
    private static func describeEmptiness(_ entry: TextEntry) {
        entry.accessibleDescription = entry.text.isEmpty ? tr("Not set") : ""
    }

    /// The credits as the fields and the choice say them.
    var credits: Credits {
        var credits = Credits(replacesPhotos: replaceButton.isActive)
        for (field, entry) in fields { credits[field] = entry.text }
        return credits
    }

    private func sayRule() {
        rule.text =
            replaceButton.isActive
            ? tr("A photo's own Creator, copyright notice and other credits are replaced by these.")
            : tr(
                "A photo that already names its Creator, copyright notice or another credit keeps it; these fill only what it lacks."
            )
        replaceButton.accessibleDescription = rule.text
    }

    private func edited() {
        unsaved = true
        // A variable Caption does not know is said at once; the credit is kept as typed,
        // and left out of photos until it is corrected.
        status.text = unknownVariable() ?? ""
        pendingSave?.cancel()
        pendingSave = lifetime.after(milliseconds: PreferencesWindow.saveDelay) { [weak self] in self?.saveNow() }
    }

    private func unknownVariable() -> String? {
        for field in CreditField.allCases {
            guard let name = Variables.unknownNames(in: fields[field]?.text ?? "").first else { continue }
            return fill(
                tr("Unknown variable {{name}} in {credit}: use {names}"),
                ["credit": CreditNames.name(field), "names": Variables.typedNames]
            ).replacing("{{name}}", with: "{" + name + "}")
        }
        return nil
    }

    /// Writes the credits if they changed, and tells the form.
    /// `tellingTheForm`: false when another pad is about to take the form's credits.
    func saveNow(reporting: Bool = true, tellingTheForm: Bool = true) {
        pendingSave?.cancel()
        pendingSave = nil
        guard unsaved else { return }
        unsaved = false
        let credits = self.credits
        let problem =
            if let pad = padInUse {
                StationeryPads.save(credits, as: pad, in: StationeryPads.folder(besides: path))
                    ?? CreditsFile.save(replacesPhotos: credits.replacesPhotos, to: path)
            } else {
                CreditsFile.save(credits, to: path)
            }
        if let problem {
            if reporting { status.text = problem }
            return
        }
        guard tellingTheForm else { return }
        // A pad is read again: it may hold words for the caption's fields, which this page
        // does not show and the save kept.
        onChange?(
            StandingCredits(
                padInUse == nil ? CreditsFile.Reading(credits: credits) : StationeryPads.standing(path)))
    }
}
