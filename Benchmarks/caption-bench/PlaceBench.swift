// The place from GPS: GeoNames' index made once, then lookups at random points on land
// and sea, as medians and percentiles.

import PlaceNames

#if canImport(Glibc)
    import Glibc
#endif

func benchPlaces() {
    guard PlaceNames.isAvailable else { fail("places: GeoNames (libgeonames0) is not installed") }
    let clock = ContinuousClock()
    let made = clock.measure { PlaceNames.prepare() }
    var generator = SystemRandomNumberGenerator()
    var lookups: [Double] = []
    var found = 0
    for _ in 0..<10_000 {
        let latitude = Double.random(in: -60...70, using: &generator)
        let longitude = Double.random(in: -180...180, using: &generator)
        var place: Place?
        let elapsed = clock.measure { place = PlaceNames.nearest(latitude: latitude, longitude: longitude) }
        if place != nil { found += 1 }
        lookups.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    let (p50, p99) = (median(lookups), percentile99(lookups))
    let buildMilliseconds = Double(made.components.attoseconds) / 1e15 + Double(made.components.seconds) * 1e3
    print(
        "places: index made in \(Int(buildMilliseconds)) ms; a lookup p50 \(Int(p50)) µs, p99 \(Int(p99)) µs, max \(Int(lookups.max() ?? 0)) µs (10,000 random points, \(found) near a city)"
    )
    let json =
        "{\"index_ms\": \(buildMilliseconds), \"lookup_p50_us\": \(p50), \"lookup_p99_us\": \(p99), "
        + "\"lookup_max_us\": \(lookups.max() ?? 0), \"near_a_city\": \(found)}\n"
    Array(json.utf8).withUnsafeBytes { writeFile(".build/bench/places.json", $0) }
}
