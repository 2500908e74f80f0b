// caption --destinations, --add-destination, --remove-destination and --send.

import CaptionLibrary
import CaptionSending
import Localization

#if canImport(Glibc)
    import Glibc
#endif

extension Commands {
    static func destinations(_ request: DestinationRequest) -> Int32 {
        switch request {
        case .list:
            let reading = DestinationFile.read()
            for problem in reading.problems { Console.error(problem) }
            if reading.destinations.isEmpty && reading.problems.isEmpty {
                Console.out(tr("No destinations yet: add one with --add-destination NAME ADDRESS") + "\n")
            }
            for destination in reading.destinations {
                var line = destination.name + "\t" + destination.address
                if let fingerprint = destination.fingerprint { line += "\t" + fingerprint }
                Console.out(line + "\n")
            }
            return reading.problems.isEmpty ? 0 : 1
        case .add(let name, let address, let fingerprint):
            return addDestination(name: name, address: address, fingerprint: fingerprint)
        case .remove(let name):
            guard DestinationFile.destination(named: name) != nil else {
                Console.error(fill(tr("There is no destination “{name}”"), ["name": name]))
                return 1
            }
            if let reason = DestinationFile.remove(name) {
                Console.error(fill(tr("the destinations could not be saved: {reason}"), ["reason": reason]))
                return 1
            }
            do throws(SendError) {
                try Passwords.remove(for: name)
            } catch {
                Console.error(error.message)
                return 1
            }
            Console.out(fill(tr("Removed destination {name}"), ["name": name]) + "\n")
            return 0
        }
    }

    /// Checks the destination by logging in before keeping it: a wrong password or an
    /// unknown server is said now, not at the first photo.
    private static func addDestination(name: String, address: String, fingerprint: String?) -> Int32 {
        var destination: Destination
        do throws(DestinationError) {
            destination = try Destination(name: name, address: address, fingerprint: fingerprint)
        } catch {
            Console.error(error.message)
            return 2
        }
        var password = ""
        if destination.kind != .folder {
            guard
                let typed = readPassword(
                    prompt: fill(
                        tr("Password for {user} on {host}: "), ["user": destination.user, "host": destination.host]))
            else {
                Console.error(tr("no password was given"))
                return 1
            }
            password = typed
        }
        do throws(SendError) {
            try Sender.check(destination, password: password)
        } catch {
            guard case .unknownServer(let seen?) = error.kind, destination.fingerprint == nil,
                isatty(0) == 1, isatty(2) == 1
            else {
                Console.error(error.message)
                return 1
            }
            // On a terminal, as ssh asks: the user compares it with what the agency says.
            Console.errorText(
                fill(
                    tr(
                        "{host} identifies itself by the key {seen}.\nIs it the one the agency gave? Type yes to trust it: "
                    ),
                    ["host": destination.host, "seen": seen]))
            guard readLine()?.lowercased() == tr("yes") else {
                Console.error(tr("nothing was added"))
                return 1
            }
            destination.fingerprint = seen
            do throws(SendError) {
                try Sender.check(destination, password: password)
            } catch {
                Console.error(error.message)
                return 1
            }
        }
        if destination.kind != .folder {
            do throws(SendError) {
                try Passwords.store(password, for: destination.name)
            } catch {
                Console.error(error.message)
                return 1
            }
        }
        if let reason = DestinationFile.save(destination) {
            Console.error(fill(tr("the destinations could not be saved: {reason}"), ["reason": reason]))
            return 1
        }
        Console.out(
            fill(tr("Added destination {name}: {address}"), ["name": destination.name, "address": destination.address])
                + "\n")
        return 0
    }

    /// A line from standard input: typed without echo on a terminal, else the first line
    /// of what is piped in (for scripts, which take it from their own keyring). Nil when
    /// there is none.
    private static func readPassword(prompt: String) -> String? {
        guard isatty(0) == 1 else { return readLine(strippingNewline: true) }
        Console.errorText(prompt)
        var original = termios()
        tcgetattr(0, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSAFLUSH, &silent)
        defer {
            tcsetattr(0, TCSAFLUSH, &original)
            Console.errorText("\n")
        }
        return readLine(strippingNewline: true)
    }

    static func send(library: String?, to name: String, ids: [Int64]) -> Int32 {
        guard let (destination, password) = sendingReady(name) else { return 1 }
        do throws(LibraryError) {
            let opened = try openForReading(library)
            guard let entries = try entries(ids, in: opened) else { return 1 }
            return send(entries, from: opened, to: destination, password: password)
        } catch {
            Console.error(error.message)
            return 1
        }
    }

    /// The destination `name` and its password (nil for a folder); nil, said, when there is
    /// no such destination or the keyring cannot give the password.
    static func sendingReady(_ name: String) -> (Destination, String?)? {
        guard let destination = DestinationFile.destination(named: name) else {
            Console.error(fill(tr("There is no destination “{name}”: --destinations lists them"), ["name": name]))
            return nil
        }
        guard destination.kind != .folder else { return (destination, nil) }
        do throws(SendError) {
            return (destination, try Passwords.password(for: name))
        } catch {
            Console.error(error.message)
            return nil
        }
    }

    /// Sends `entries` to `destination`, a line each on standard output as it arrives; a
    /// failure tried again is said once. 0 when every one was sent.
    static func send(
        _ entries: [Entry], from library: Library, to destination: Destination, password: String?
    )
        -> Int32
    {
        var missing = 0
        // A server away is said once, not at every try.
        var said: Set<String> = []
        do throws(SendError) {
            try Sender.send(
                entries, from: library, to: destination, password: password,
                sent: { file in
                    Console.out(
                        fill(
                            tr("Sent entry {id} to {destination}: {name}"),
                            ["id": String(file.entryID), "destination": destination.name, "name": file.name])
                            + "\n")
                },
                retrying: { problem, wait in
                    guard said.insert(problem.message).inserted else { return }
                    Console.error(
                        fill(
                            tr("{reason}; trying again in {seconds} s"),
                            ["reason": problem.message, "seconds": String(Int(wait.rounded(.up)))]))
                },
                missing: { _, problem in
                    missing += 1
                    Console.error(problem.message)
                })
        } catch {
            Console.error(error.message)
            return 1
        }
        return missing == 0 ? 0 : 1
    }
}
