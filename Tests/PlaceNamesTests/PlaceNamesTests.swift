// The place from a photo's GPS position: photos tagged by exiftool at known coordinates (a
// harbour, a capital, the open sea, none), read as a camera's Exif is, and the nearest
// GeoNames city within the radius.

import CaptionTestSupport
import Foundation
import PhotoFormats
import Shorthand
import Testing

@testable import PlaceNames

@Suite("The place from GPS, offline")
struct PlaceNamesTests {
    /// A camera JPEG with its position written by exiftool, the way phones write it
    /// (degrees, minutes, seconds as rationals; N/S and E/W as references).
    func photo(_ scratch: Scratch, _ name: String, latitude: Double?, longitude: Double?) throws -> String {
        let path = scratch.write(name, Photos.make("jpeg", width: 64, height: 48, seed: 3))
        var arguments = ["-q", "-overwrite_original", "-Make=Google", "-Model=Pixel 8"]
        if let latitude, let longitude {
            arguments += [
                "-GPSLatitude=\(abs(latitude))", "-GPSLatitudeRef=\(latitude < 0 ? "S" : "N")",
                "-GPSLongitude=\(abs(longitude))", "-GPSLongitudeRef=\(longitude < 0 ? "W" : "E")",
            ]
        }
        let tagged = try Tool.run("exiftool", arguments + [path])
        try #require(tagged.status == 0, "exiftool: \(tagged.stderr)")
        return path
    }

    func place(of path: String) throws -> Place? {
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let facts = bytes.withUnsafeBytes { CaptureFacts.read($0) }
        return facts.position.flatMap { PlaceNames.nearest(latitude: $0.latitude, longitude: $0.longitude) }
    }

    @Test("GeoNames is installed where the tests run")
    func geonamesIsThere() {
        #expect(PlaceNames.isAvailable, "libgeonames0 is a test dependency (make test installs it)")
    }

    @Test("a photo's GPS position reads as exiftool wrote it, south and west negative")
    func positionReadsAsWritten() throws {
        let scratch = Scratch()
        let path = try photo(scratch, "rio.jpg", latitude: -22.9068, longitude: -43.1729)
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let position = try #require(bytes.withUnsafeBytes { CaptureFacts.read($0) }.position)
        #expect(abs(position.latitude - -22.9068) < 0.0001 && abs(position.longitude - -43.1729) < 0.0001)
        let none = try photo(scratch, "none.jpg", latitude: nil, longitude: nil)
        let noBytes = try #require(FileManager.default.contents(atPath: none))
        #expect(noBytes.withUnsafeBytes { CaptureFacts.read($0) }.position == nil)
    }

    @Test(
        "the nearest city within the radius, with GeoNames' names",
        arguments: [
            ("lisbon-harbour.jpg", 38.7035, -9.1604, "Lisbon", "PT"),
            ("almada.jpg", 38.6790, -9.1569, "Almada", "PT"),
            ("capital.jpg", 52.5163, 13.3777, "Berlin", "DE"),
            ("wellington.jpg", -41.2865, 174.7762, "Wellington", "NZ"),
        ])
    func nearestCity(name: String, latitude: Double, longitude: Double, city: String, code: String) throws {
        let scratch = Scratch()
        let found = try place(of: try photo(scratch, name, latitude: latitude, longitude: longitude))
        #expect(found?.city == city, "\(String(describing: found))")
        #expect(found?.countryCode == code)
        #expect(found?.country.isEmpty == false)
    }

    @Test("the open sea, and a photo without a position, have no place")
    func noPlace() throws {
        let scratch = Scratch()
        #expect(try place(of: try photo(scratch, "atlantic.jpg", latitude: 35.0, longitude: -40.0)) == nil)
        #expect(try place(of: try photo(scratch, "none.jpg", latitude: nil, longitude: nil)) == nil)
    }

    @Test("{city}, {state}, {country} and {countrycode} expand from the place; without one they say so")
    func variables() {
        let place = Place(city: "Lisbon", state: "Lisbon", country: "Portugal", countryCode: "PT")
        let facts = PhotoFacts(capture: CaptureFacts(), place: place, fileName: "a.jpg", position: 1)
        #expect(
            Variables.expand("{city}, {country} ({countrycode}) - {state}", facts: facts)
                == .success("Lisbon, Portugal (PT) - Lisbon"))
        let nowhere = PhotoFacts(capture: CaptureFacts(), place: nil, fileName: "a.jpg", position: 1)
        #expect(Variables.expand("{city}", facts: nowhere) == .failure(.missing(name: "city")))
    }
}
