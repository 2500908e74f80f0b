// The small picture a photo carries of itself, made ready to show while the photo decodes.

import CaptionLibrary
import POSIXFiles
import PhotoFormats
import Pixbufs

#if canImport(Glibc)
    import Glibc
#endif

extension PhotoDecoder {
    /// How much of the file is read to find the picture: a JPEG's Exif block is within its
    /// first 64 KB; a RAW's directories and smallest preview are near its start.
    static let embeddedSearchLength = 512 << 10

    /// The photo's embedded picture (a JPEG's Exif thumbnail, a RAW's smallest preview, a
    /// HEIF's thumbnail), cropped of the black bars cameras pad a 3:2 photo's 4:3 thumbnail
    /// with and turned as the photo is: the photo's shape, so the preview scales it up into
    /// the very place the photo will take, with no jump when the photo replaces it. nil when
    /// the photo has none or it does not decode. `info` is the photo's own (from
    /// `PhotoInspector`).
    static func embedded(_ path: String, info: PhotoInfo, scale: Int) -> DecodedPhoto? {
        if info.format == .heif || info.format == .avif { return heifThumbnail(path, info: info, scale: scale) }
        guard info.format == .jpeg || info.format.isRaw, let head = readHead(path) else { return nil }
        let found = head.withUnsafeBytes {
            info.format == .jpeg ? EmbeddedPicture.inJPEG($0) : EmbeddedPicture.inTIFF($0)
        }
        guard let found, let picture = head.withUnsafeBytes({ pixbuf(found, in: $0) }) else { return nil }
        let quarterTurn = found.orientation >= 5
        // A RAW's size is given as the camera was held; a JPEG's as stored.
        let stored =
            info.format.isRaw && quarterTurn
            ? PixelSize(width: info.height, height: info.width) : PixelSize(width: info.width, height: info.height)
        guard stored.width > 0, stored.height > 0, let cropped = crop(picture, toShapeOf: stored) else { return nil }
        return DecodedPhoto(
            surface: Surface(cropped.turned(orientation: found.orientation), scale: scale),
            width: quarterTurn ? stored.height : stored.width, height: quarterTurn ? stored.width : stored.height,
            source: .embedded)
    }

    /// libheif turns the thumbnail as it turns the photo, and the photo's size is given
    /// turned: only the bars are left to crop.
    private static func heifThumbnail(_ path: String, info: PhotoInfo, scale: Int) -> DecodedPhoto? {
        guard info.width > 0, info.height > 0, let pixbuf = HEIFPhoto.thumbnail(path: path),
            let cropped = crop(pixbuf, toShapeOf: PixelSize(width: info.width, height: info.height))
        else { return nil }
        return DecodedPhoto(
            surface: Surface(cropped, scale: scale), width: info.width, height: info.height, source: .embedded)
    }

    private static func readHead(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let head = POSIXFiles.read(descriptor, at: 0, count: embeddedSearchLength)
        return head.isEmpty ? nil : head
    }

    /// The picture's pixels, or nil.
    private static func pixbuf(_ picture: EmbeddedPicture, in bytes: UnsafeRawBufferPointer) -> Pixbuf? {
        let data = UnsafeRawBufferPointer(rebasing: bytes[picture.range])
        switch picture.coding {
        case .jpeg:
            return Pixbuf.decode(data)
        case .rgb(let width, let height):
            return data.baseAddress.flatMap { Pixbuf.rgb(width: width, height: height, rows: $0, stride: width * 3) }
        }
    }

    /// The middle of `picture` in the shape of `photo`: cameras pad a thumbnail of another
    /// shape with black bars, centred. Within 2 % it is the same shape.
    private static func crop(_ picture: Pixbuf, toShapeOf photo: PixelSize) -> Pixbuf? {
        let width = picture.width
        let height = picture.height
        let wanted = Double(photo.width) / Double(photo.height)
        let shape = Double(width) / Double(height)
        guard abs(shape / wanted - 1) > 0.02 else { return picture }
        let size =
            shape > wanted
            ? PixelSize(width: max(1, Int((Double(height) * wanted).rounded())), height: height)
            : PixelSize(width: width, height: max(1, Int((Double(width) / wanted).rounded())))
        return picture.cropped(
            x: (width - size.width) / 2, y: (height - size.height) / 2, width: size.width, height: size.height)
    }
}
