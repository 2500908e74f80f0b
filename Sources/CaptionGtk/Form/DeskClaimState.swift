// What the form makes of the answers to its photo's claim on a library other editors share:
// what an answer asks of the form, and which photos it must ask about again.

import CaptionLibrary

/// What the answer to the claim of the photo on the form asks of the form.
enum ClaimResponse: Equatable {
    /// The photo is the form's, or the server could not say: nothing changes.
    case stay
    /// Someone captioned it and nothing was typed for it here: it leaves the queue.
    case leaveQueue
    /// Someone captioned it, and words were typed for it here: they stay (never dropped),
    /// and Enter saves them as a second caption.
    case keepAsSecondCaption
    /// Another editor has it, and keys were already handled for it: the form stays with it,
    /// so that the next keys land where those did.
    case stayWhileTaken(editor: String)
    /// Another editor has it: the form passes over it to the nearest photo no one has.
    case passOver(editor: String)

    /// `wordsTyped`: the queue holds words for the photo; `keyed`: a key was handled since
    /// it came onto the form.
    init(_ claim: PhotoClaim?, wordsTyped: Bool, keyed: Bool) {
        switch claim {
        case nil, .yours?: self = .stay
        case .captioned?: self = wordsTyped || keyed ? .keepAsSecondCaption : .leaveQueue
        case .taken(let editor)?: self = keyed ? .stayWhileTaken(editor: editor) : .passOver(editor: editor)
        }
    }
}

/// The photos the form must ask about again, by path.
struct DeskClaimState: Equatable {
    /// Photos of the queue other editors had when last asked; forgotten at each renewal,
    /// so that a photo they moved on from comes round again.
    private(set) var takenElsewhere: Set<String> = []
    /// The photo on the form when another editor has it and every other photo of the
    /// queue is taken too: asked about again when the library changes.
    private(set) var waitingOn: String?
    /// The photo on the form whose claim could not be asked (the server was gone): asked
    /// again with the next renewal.
    private(set) var unclaimed: String?

    /// The answer for the photo at `path`, on the form.
    mutating func answered(_ claim: PhotoClaim?, for path: String) {
        unclaimed = claim == nil ? path : nil
        waitingOn = nil
        if case .taken? = claim { takenElsewhere.insert(path) }
    }

    /// Another editor has the photo at `path` and every other photo of the queue too: the
    /// form stays with it until the library changes.
    mutating func wait(on path: String) { waitingOn = path }

    /// Whether the photo on the form is to be claimed again when the library changes or a
    /// claim is renewed (`held`: the form holds its claim, which another editor's save
    /// after an outage may have taken back).
    func asksAgain(about path: String, held: Bool) -> Bool {
        held || waitingOn == path || unclaimed == path
    }

    /// A renewal: photos other editors had are asked about again.
    mutating func renewed() { takenElsewhere = [] }
}
