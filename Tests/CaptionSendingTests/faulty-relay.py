#!/usr/bin/env python3
"""A TCP relay in front of a server that spoils its first connection once the client has
sent COUNT bytes through it: "cut" closes it, as a network that drops in the middle of an
upload; "stall" stops passing anything on and holds it open, as a server that stops
answering. The connections after it pass whole. Prints the port it listens on, then relays
until killed.
Usage: faulty-relay.py SERVER_PORT COUNT cut|stall"""
import socket
import sys
import threading

server_port, count, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(8)
print(listener.getsockname()[1], flush=True)


def pump(source, target, limit):
    sent = 0
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            if limit is not None and sent + len(data) >= limit:
                target.sendall(data[: limit - sent])
                if mode == "stall":
                    # Open and silent: only the client's own patience ends it (this thread
                    # waits on nothing that ever comes; the relay is killed after the test).
                    threading.Event().wait()
                break
            target.sendall(data)
            sent += len(data)
    except OSError:
        pass
    # Both ends at once: a cut, not a polite end of the stream.
    for end in (source, target):
        try:
            end.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        end.close()


first = True
while True:
    client, _ = listener.accept()
    server = socket.create_connection(("127.0.0.1", server_port))
    limit = count if first else None
    first = False
    threading.Thread(target=pump, args=(client, server, limit), daemon=True).start()
    threading.Thread(target=pump, args=(server, client, None), daemon=True).start()
