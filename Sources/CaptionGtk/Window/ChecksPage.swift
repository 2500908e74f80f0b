// The Preferences page of the checks at Done: a switch per check and the desk's dateline
// pattern, for every caption or, while a stationery pad is in use, that pad's own. Saved as
// they change, and followed from the next Done on.

import CaptionChecks
import CaptionLibrary
import CaptionMetadata
import Localization

@MainActor
final class ChecksPage {
    let buttons: [CaptionCheck: CheckButton]
    /// Whether the pad in use has checks of its own; shown only while a pad is in use.
    let padButton: CheckButton
    let patternEntry: TextEntry
    /// Says that the switches could not be saved, or how a pattern will be read.
    let status: Label
    private let path: String
    /// The pad in use, whose own checks the page edits when it has them.
    private(set) var pad: String?
    /// Set while the page is filled: its toggles are not the user's.
    private var filling = false
    private let lifetime: Lifetime
    private var pendingSave: SourceHandle?
    /// The checks changed: the form's next Done follows them.
    var onChange: ((CheckChoices) -> Void)?

    init(_ builder: Builder, path: String, pad: String?, lifetime: Lifetime) {
        self.path = path
        self.lifetime = lifetime
        var buttons: [CaptionCheck: CheckButton] = [:]
        for check in CaptionCheck.allCases { buttons[check] = builder["check_" + check.rawValue] }
        self.buttons = buttons
        padButton = builder["checks_pad"]
        patternEntry = builder["dateline_pattern"]
        status = builder["checks_status"]
        patternEntry.setPlaceholder(fill(tr("for example {example}"), ["example": patternEntry.placeholder]))
        patternEntry.accessibleDescription =
            (builder["dateline_pattern_about", as: Label.self]).text
        show(pad: pad)
        for button in buttons.values {
            button.connect(.toggled) { [weak self] in
                guard let self, !self.filling else { return }
                self.patternEntry.isSensitive = self.buttons[.dateline]?.isActive == true
                self.save()
            }
        }
        padButton.connect(.toggled) { [weak self] in self?.padToggled() }
        patternEntry.connect(.changed) { [weak self] in
            guard let self, !self.filling else { return }
            self.sayHowThePatternReads()
            self.pendingSave?.cancel()
            self.pendingSave = self.lifetime.after(milliseconds: PreferencesWindow.saveDelay) { [weak self] in
                self?.save()
            }
        }
        patternEntry.connect(.activate) { [weak self] in self?.saveNow() }
        patternEntry.connect(.focusOut) { [weak self] in
            self?.saveNow()
            return false
        }
    }

    /// Focus on the first switch: the pad's, when a pad is in use.
    func focus() {
        if pad != nil { padButton.grabFocus() } else { buttons[.leftovers]?.grabFocus() }
    }

    /// The checks as the page says them.
    var choices: CheckChoices {
        CheckChoices(
            off: Set(buttons.filter { !$0.value.isActive }.map(\.key)), datelinePattern: patternEntry.text)
    }

    private var padsFolder: String { StationeryPads.folder(besides: path) }

    /// Shows the checks that apply with `pad` in use (nil: none): the pad's own where it
    /// has them, else Preferences'.
    func show(pad: String?) {
        saveNow()
        self.pad = pad
        let own = pad.map { StationeryPads.checks(of: $0, in: padsFolder) } ?? .none
        let shown = own.applied(to: CreditsFile.checkChoices(path))
        filling = true
        defer { filling = false }
        padButton.isVisible = pad != nil
        if let pad {
            padButton.label = fill(tr("_Own checks for the stationery pad “{pad}”"), ["pad": pad])
        }
        padButton.isActive = !own.isEmpty
        sayWhoseChecks()
        for (check, button) in buttons { button.isActive = shown.allows(check) }
        patternEntry.text = shown.datelinePattern
        patternEntry.isSensitive = shown.allows(.dateline)
        sayHowThePatternReads()
    }

    /// Writes what is typed in the pattern, if a save is waiting for typing to pause.
    func saveNow() {
        guard pendingSave != nil else { return }
        save()
    }

    private func padToggled() {
        guard !filling, let pad else { return }
        sayWhoseChecks()
        if padButton.isActive {
            // The pad starts from what applied until now.
            save()
            return
        }
        pendingSave?.cancel()
        pendingSave = nil
        if let problem = StationeryPads.save(PadChecks.none, as: pad, in: padsFolder) {
            status.text = problem
            return
        }
        status.text = ""
        show(pad: pad)
        onChange?(choices)
    }

    /// Into the pad in use when it has checks of its own, else Preferences' file; the form
    /// follows either way.
    private func save() {
        pendingSave?.cancel()
        pendingSave = nil
        let choices = self.choices
        let problem =
            if let pad, padButton.isActive {
                StationeryPads.save(PadChecks(owning: choices), as: pad, in: padsFolder)
            } else {
                CreditsFile.save(choices, to: path)
            }
        status.text = problem ?? patternNote(choices.datelinePattern)
        onChange?(choices)
    }

    private func sayWhoseChecks() {
        padButton.accessibleDescription =
            padButton.isActive
            ? tr("While this pad is in use, the switches and the pattern below are its own")
            : tr("The switches below apply to every caption")
    }

    private func sayHowThePatternReads() {
        status.text = patternNote(patternEntry.text)
    }

    /// A pattern naming none of the parts is matched as written; said, since a part in
    /// lower case ("city") is the likely slip.
    private func patternNote(_ text: String) -> String {
        guard let pattern = DatelinePattern(text), !pattern.namesAPart else { return "" }
        return fill(
            tr("“{pattern}” names none of CITY, STATE, COUNTRY, MONTH, D, DAY and YEAR: it is matched as written"),
            ["pattern": pattern.text])
    }
}
