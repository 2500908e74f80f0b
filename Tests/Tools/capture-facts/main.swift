// Prints what the camera recorded about each photo given, a line each: the time taken, the
// camera and the lens, tab-separated ("-" for none). With --libraw first, as LibRaw reads a
// RAW. The time-zone tests run it under several TZs: the zone is the process's own.

import CaptionLibrary
import PhotoFormats

var arguments = Array(CommandLine.arguments.dropFirst())
let libRaw = arguments.first == "--libraw"
if libRaw { arguments.removeFirst() }
for path in arguments {
    let facts = libRaw ? RawPhoto.facts(path: path) ?? .none : CaptureFactsReader.facts(at: path)
    print([facts.captured, facts.camera, facts.lens].map { $0 ?? "-" }.joined(separator: "\t"))
}
