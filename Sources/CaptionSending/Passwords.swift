// The destinations' passwords in the Secret Service (GNOME Keyring), through libsecret.

import CSecret
import Localization

/// Passwords by destination name. Every call may wait on the Secret Service (and, where
/// the keyring is locked, on the user unlocking it): never call one on the main thread.
public enum Passwords {
    /// Keeps `password` for the destination `name`, replacing one kept before.
    public static func store(_ password: String, for name: String) throws(SendError) {
        var message: UnsafeMutablePointer<CChar>?
        let label = fill(tr("Caption: sending to {destination}"), ["destination": name])
        guard caption_secret_store(name, label, password, &message) == 1 else {
            throw keyringError(message)
        }
    }

    /// The password kept for `name`; nil when none is.
    public static func password(for name: String) throws(SendError) -> String? {
        var message: UnsafeMutablePointer<CChar>?
        guard let password = caption_secret_lookup(name, &message) else {
            if message != nil || caption_secret_available() == 0 { throw keyringError(message) }
            return nil
        }
        defer { caption_secret_free(password) }
        return String(cString: password)
    }

    /// Forgets the password of `name`; nothing when there is none.
    public static func remove(for name: String) throws(SendError) {
        var message: UnsafeMutablePointer<CChar>?
        guard caption_secret_clear(name, &message) == 1 else { throw keyringError(message) }
    }

    private static func keyringError(_ message: UnsafeMutablePointer<CChar>?) -> SendError {
        guard let message else {
            return SendError(.keyring, tr("libsecret is not installed, so there is no keyring to keep the password"))
        }
        defer { g_free(message) }
        return SendError(
            .keyring,
            fill(tr("the keyring (Secret Service) could not be used: {reason}"), ["reason": String(cString: message)]))
    }
}
