// The Preferences page of the form's fields: each optional field turned on or off, and moved
// up or down (Alt+Up, Alt+Down, or the arrows beside it). Saved and shown on the form at once.

import CGtk
import CaptionLibrary
import CaptionText
import Localization

@MainActor
final class FieldsPage {
    /// One check button per place in the list; the field at a place changes as fields move,
    /// and focus moves with the field.
    let buttons: [CheckButton]
    let status: Label
    private(set) var choices: FormChoices
    private let path: String
    /// Set while the buttons are refilled: their toggles are not the user's.
    private var filling = false
    /// The form's fields changed: the window shows them from now on.
    var onChange: ((FormChoices) -> Void)?

    init(_ builder: Builder, path: String) {
        self.path = path
        choices = CreditsFile.formChoices(path)
        status = builder["fields_status"]
        let list: Box = builder["fields_list"]
        var places: [(button: CheckButton, up: Button, down: Button)] = []
        for _ in choices.order {
            let row = Box(rowSpacing: 6)
            let place = (
                button: CheckButton(label: ""), up: Button(iconName: "go-up-symbolic"),
                down: Button(iconName: "go-down-symbolic")
            )
            place.up.setTooltip(tr("Move Up (Alt+Up)"))
            place.down.setTooltip(tr("Move Down (Alt+Down)"))
            place.up.accessibleName = tr("Move Up")
            place.down.accessibleName = tr("Move Down")
            // The keyboard moves a field with Alt+Up and Alt+Down from its check button, which
            // says so: the arrows would be nine more stops for Tab.
            for arrow in [place.up, place.down] {
                arrow.setFlat()
                arrow.setCanFocus(false)
            }
            row.packStart(place.button, expand: true)
            row.packEnd(place.down)
            row.packEnd(place.up)
            list.packStart(row)
            places.append(place)
        }
        buttons = places.map(\.button)
        for (index, place) in places.enumerated() {
            place.button.connect(.toggled) { [weak self] in self?.toggled(at: index) }
            place.button.connect(.keyPress, after: false) { [weak self] event in
                guard let self, event.has(GDK_MOD1_MASK) else { return false }
                switch event.key {
                case GDK_KEY_Up, GDK_KEY_KP_Up: self.move(at: index, by: -1)
                case GDK_KEY_Down, GDK_KEY_KP_Down: self.move(at: index, by: 1)
                default: return false
                }
                return true
            }
            place.up.connect(.clicked) { [weak self] in self?.move(at: index, by: -1) }
            place.down.connect(.clicked) { [weak self] in self?.move(at: index, by: 1) }
        }
        showChoices()
    }

    /// Focus on the first field's switch.
    func focus() { buttons.first?.grabFocus() }

    /// Each place shows its field: its name, whether it is on, and where it stands.
    private func showChoices() {
        filling = true
        defer { filling = false }
        let count = choices.order.count
        for (place, field) in choices.order.enumerated() {
            let button = buttons[place]
            button.label = field.names { tr($0) }.name
            button.isActive = choices.on.contains(field)
            button.accessibleDescription = fill(
                tr("{place} of {count} in the list. Alt+Up and Alt+Down move it"),
                ["place": String(place + 1), "count": String(count)])
        }
    }

    private func toggled(at place: Int) {
        guard !filling else { return }
        let field = choices.order[place]
        if buttons[place].isActive { choices.on.insert(field) } else { choices.on.remove(field) }
        changed()
    }

    /// Moves the field at `place`; focus goes with it. The edge of the list is a bell.
    private func move(at place: Int, by step: Int) {
        let field = choices.order[place]
        guard choices.move(field, by: step) else { return buttons[place].errorBell() }
        showChoices()
        buttons[place + step].grabFocus()
        changed()
    }

    private func changed() {
        onChange?(choices)
        status.text = CreditsFile.save(choices, to: path) ?? ""
    }
}
