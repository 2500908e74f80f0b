// The place a photo was taken, from its GPS position: the nearest city GeoNames knows
// (Debian's libgeonames0), found in an index of every city made once.

import CGeonames
import PhotoFormats
import Shorthand
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// A city, with GeoNames' own names for it, its state or province and its country.
public struct Place: Sendable, Equatable {
    public var city: String
    public var state: String
    public var country: String
    /// ISO 3166's two letters, as GeoNames gives them ("PT").
    public var countryCode: String

    public init(city: String, state: String, country: String, countryCode: String) {
        self.city = city
        self.state = state
        self.country = country
        self.countryCode = countryCode
    }
}

public enum PlaceNames {
    /// How far from a city a photo may be taken and still be said to be taken there. The
    /// data holds the larger cities (24,361 in Debian 12's): a photo in their suburbs and
    /// nearby villages gets their name, one out at sea or in open country none.
    public static let radiusKilometres = 40.0

    private static let index = Locked<Index??>(nil)

    /// The nearest city within `radiusKilometres`; nil at sea, far from every city, or when
    /// GeoNames is not installed. The first call makes the index (a few hundred
    /// milliseconds): call it off the main thread. Safe from any thread.
    public static func nearest(latitude: Double, longitude: Double) -> Place? {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return index.withLock { (made: inout Index??) -> Place? in
            if made == nil { made = .some(Index.make()) }
            return made??.nearest(latitude: latitude, longitude: longitude, within: radiusKilometres)
        }
    }

    /// The city nearest where a photo was taken, by the GPS position its camera recorded;
    /// nil without one. As `nearest`, off the main thread.
    public static func place(of capture: CaptureFacts) -> Place? {
        capture.position.flatMap { nearest(latitude: $0.latitude, longitude: $0.longitude) }
    }

    /// Makes the index now, so that the first photo with a position is not the one to wait.
    public static func prepare() { _ = nearest(latitude: 0, longitude: 0) }

    /// Whether GeoNames is installed at all.
    public static var isAvailable: Bool { caption_geonames() != nil }

    /// Every city's position in whole-degree cells, for finding the few near a point.
    struct Index {
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        /// Each city's weight: the digits of its population.
        var weights: [Double] = []
        var places: [Place] = []
        var cells: [Int: [Int32]] = [:]

        static func cell(latitude: Int, longitude: Int) -> Int { (latitude + 90) * 361 + (longitude + 180) }

        static func make() -> Index? {
            // The table is the library's, static, or nil when it could not be opened.
            guard let geonames = caption_geonames()?.pointee else { return nil }
            var index = Index()
            let count = max(0, Int(geonames.get_n_cities()))
            index.places.reserveCapacity(count)
            for number in 0..<count {
                guard let city = geonames.get_city(Int32(number)) else { continue }
                defer { geonames.city_free(city) }
                func text(_ read: (UnsafeMutableRawPointer?) -> UnsafePointer<CChar>?) -> String {
                    read(city).map { String(cString: $0) } ?? ""
                }
                let latitude = geonames.city_get_latitude(city)
                let longitude = geonames.city_get_longitude(city)
                guard latitude.isFinite, longitude.isFinite else { continue }
                let place = Place(
                    city: text(geonames.city_get_name), state: text(geonames.city_get_state),
                    country: text(geonames.city_get_country), countryCode: text(geonames.city_get_country_code))
                guard !place.city.isEmpty else { continue }
                let key = cell(latitude: Int(latitude.rounded(.down)), longitude: Int(longitude.rounded(.down)))
                index.cells[key, default: []].append(Int32(index.places.count))
                index.latitudes.append(latitude)
                index.longitudes.append(longitude)
                index.weights.append(log10(Double(max(geonames.city_get_population(city), 10))))
                index.places.append(place)
            }
            return index
        }

        /// The nearest city no farther than `radius` kilometres (the great-circle distance),
        /// a big city's distance shrunk by the digits of its population: a point is taken
        /// at a city's centre, and a harbour across the river from a suburb's centre is the
        /// capital's, not the suburb's.
        func nearest(latitude: Double, longitude: Double, within radius: Double) -> Place? {
            let degree = 111.2  // kilometres in a degree of latitude
            let latitudeSpan = Int((radius / degree).rounded(.up))
            let shrink = max(cos(latitude * .pi / 180), 0.01)
            let longitudeSpan = min(180, Int((radius / (degree * shrink)).rounded(.up)))
            let baseLatitude = Int(latitude.rounded(.down))
            let baseLongitude = Int(longitude.rounded(.down))
            var best: (distance: Double, index: Int)?
            for cellLatitude in (baseLatitude - latitudeSpan)...(baseLatitude + latitudeSpan)
            where (-90...89).contains(cellLatitude) {
                for offset in -longitudeSpan...longitudeSpan {
                    // Across the 180th meridian the cells go on from the other side.
                    var cellLongitude = baseLongitude + offset
                    if cellLongitude < -180 { cellLongitude += 360 }
                    if cellLongitude > 179 { cellLongitude -= 360 }
                    for found in cells[Self.cell(latitude: cellLatitude, longitude: cellLongitude)] ?? [] {
                        let index = Int(found)
                        let distance = Self.kilometres(latitude, longitude, latitudes[index], longitudes[index])
                        let weighed = distance / weights[index]
                        if distance <= radius, weighed < best?.distance ?? .infinity { best = (weighed, index) }
                    }
                }
            }
            return best.map { places[$0.index] }
        }

        /// The great-circle distance (haversine, on a sphere of the Earth's mean radius).
        static func kilometres(
            _ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double
        )
            -> Double
        {
            let radians = Double.pi / 180
            let dLatitude = (latitude2 - latitude1) * radians
            let dLongitude = (longitude2 - longitude1) * radians
            let a =
                sin(dLatitude / 2) * sin(dLatitude / 2)
                + cos(latitude1 * radians) * cos(latitude2 * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
            return 2 * 6371.0 * asin(min(1, sqrt(a)))
        }
    }
}

extension PhotoFacts {
    /// The variables' facts of a photo: what its camera recorded, and the city its GPS
    /// position is near.
    public init(capture: CaptureFacts, place: Place?, fileName: String, position: Int?) {
        self.init(
            captured: capture.captured, camera: capture.camera, lens: capture.lens, fileName: fileName,
            position: position, city: place?.city, state: place?.state, country: place?.country,
            countryCode: place?.countryCode)
    }
}
