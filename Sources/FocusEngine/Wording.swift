// Every sentence the engine produces, in one place so that it can be translated.

import Localization

/// Builds the user-visible messages. `translate` maps an English template to the user's
/// language (the app passes gettext); placeholders in braces survive translation because
/// they are filled in afterwards (Localization's `fill`), so a translator may move them.
public struct Wording: Sendable {
    public var translate: @Sendable (String) -> String

    public init(translate: @escaping @Sendable (String) -> String = { $0 }) {
        self.translate = translate
    }

    public var next: String { translate("Next") }
    public var done: String { translate("Done") }
    public var noPhoto: String { translate("No photo chosen") }

    public func label(_ label: ActivateLabel) -> String {
        label == .done ? done : next
    }

    /// The inline message under one item.
    public func message(for problem: Problem, of item: FormItem) -> String {
        switch problem {
        case .noPhoto:
            return noPhoto
        case .photoFailed(let message):
            return message
        case .required:
            return required([item])
        case .tooLong(let limit):
            return fill(
                translate("{item} is too long (at most {limit} characters)"),
                ["item": item.name, "limit": String(limit)])
        }
    }

    /// "Title required", "Title and subtitle required", "Title, subtitle and place required".
    public func required(_ items: [FormItem]) -> String {
        switch items.count {
        case 0:
            return ""
        case 1:
            return fill(translate("{item} required"), ["item": items[0].name])
        case 2:
            return fill(
                translate("{first} and {second} required"),
                ["first": items[0].name, "second": items[1].nameInSentence])
        default:
            let middle = items.dropFirst().dropLast().map(\.nameInSentence)
            let list = ([items[0].name] + middle).joined(separator: translate(", "))
            return fill(
                translate("{list} and {last} required"),
                ["list": list, "last": items[items.count - 1].nameInSentence])
        }
    }
}
