// What the argument tests share: a command line refused with the message that says why.

import Testing

@testable import CaptionCommand

/// `arguments` are refused as a usage error whose message begins with `message`.
func expectRefused(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        _ = try Arguments.parse(arguments)
        Issue.record("\(arguments) was accepted", sourceLocation: sourceLocation)
    } catch {
        #expect(error.message.hasPrefix(message), "\(arguments): \(error.message)", sourceLocation: sourceLocation)
    }
}
