// {city} and {country} on the form: a phone's photo tagged with its position by exiftool
// is captioned with the place it was taken, looked up offline once the window is drawn.

import CGtk
import CaptionLibrary
import CaptionTestSupport
import CaptionText
import Foundation
import Testing

@_spi(Benchmarks) @testable import CaptionGtk

@MainActor
@Suite(.serialized) struct PlaceWindowTests {
    let folder = Harness.temporaryDirectory("caption-place")

    @Test func cityAndCountryComeFromThePhotosPosition() throws {
        let window = try Harness.makeWindow(library: folder + "/library")
        defer { Harness.close(window) }
        let photo = Harness.makePhoto(in: folder, name: "tram.jpg")
        let tagged = try Tool.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-GPSLatitude=38.7139", "-GPSLatitudeRef=N", "-GPSLongitude=9.1394",
                "-GPSLongitudeRef=W", photo,
            ])
        try #require(tagged.status == 0, "exiftool: \(tagged.stderr)")
        Harness.waitForPhoto(window) { window.form.enqueue([photo]) }
        #expect(Harness.spin { window.form.photoFacts?.city != nil }, "the place was never looked up")
        var saved: [CaptionLibrary.Entry] = []
        window.form.onSaved = { saved.append($0) }
        Harness.type(window.form.view.titleEntry, "Tram 28, {city}")
        Harness.type(window.form.view.subtitleEntry, "A tram climbs to the castle in {country}")
        window.activateAction("save")
        #expect(Harness.spin { saved.count == 1 }, "\(window.messages.text ?? "")")
        #expect(saved.first?.title == "Tram 28, Lisbon")
        #expect(saved.first?.subtitle == "A tram climbs to the castle in Portugal")
    }
}
