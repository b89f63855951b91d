# Runs a command with a Unix socket pair as its stdin and stdout, as Node-based MCP clients do,
# and relays this process's stdin and stdout to the other end. Exits with the command's status.
import os
import socket
import subprocess
import sys
import threading

ours, theirs = socket.socketpair()
child = subprocess.Popen(sys.argv[1:], stdin=theirs.fileno(), stdout=theirs.fileno())
theirs.close()


def pump_in():
    while True:
        data = os.read(0, 65536)
        if not data:
            ours.shutdown(socket.SHUT_WR)
            return
        ours.sendall(data)


threading.Thread(target=pump_in, daemon=True).start()
while True:
    data = ours.recv(65536)
    if not data:
        break
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]
sys.exit(child.wait())
