#!/usr/bin/env python3
"""A TCP relay for the tests: listens on a free port of 127.0.0.1 and passes
each connection on to a real server (s3rver), as a network would.

    relay = Relay("127.0.0.1", s3.port).start()                # plain
    relay = Relay(host, port, delay=0.01, chunk=2048).start()  # a slow network:
                          # at most `chunk` bytes a direction every `delay` s
    relay = Relay(host, port, tls=(cert_file, key_file)).start()
                          # TLS on its side (an https:// endpoint), plain to the server
    relay.endpoint        # 'http://127.0.0.1:N' (https:// with tls)
    relay.stop()

It changes no byte: what reaches the server is what the client sent.
"""
import socket
import ssl
import threading
import time


class Relay:
    def __init__(self, host, port, delay=0.0, chunk=65536, tls=None):
        self.target = (host, port)
        self.delay = delay
        self.chunk = chunk
        self.tls = tls
        self.sock = None
        self.threads = []
        self.stopping = False
        self.connections = 0

    @property
    def port(self):
        return self.sock.getsockname()[1]

    @property
    def endpoint(self):
        return "%s://127.0.0.1:%d" % ("https" if self.tls else "http", self.port)

    def start(self):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.context = None
        if self.tls:
            self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.context.load_cert_chain(*self.tls)
        t = threading.Thread(target=self._accept, daemon=True)
        t.start()
        self.threads.append(t)
        return self

    def stop(self):
        self.stopping = True
        try:
            self.sock.close()
        except OSError:
            pass

    def _accept(self):
        while not self.stopping:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client):
        self.connections += 1
        try:
            if self.context:
                client = self.context.wrap_socket(client, server_side=True)
            server = socket.create_connection(self.target, timeout=30)
        except (OSError, ssl.SSLError):
            client.close()
            return
        done = threading.Event()
        for a, b in ((client, server), (server, client)):
            threading.Thread(target=self._pump, args=(a, b, done), daemon=True).start()
        done.wait()
        for s in (client, server):
            try:
                s.close()
            except OSError:
                pass

    def _pump(self, src, dst, done):
        try:
            while not self.stopping:
                data = src.recv(self.chunk)
                if not data:
                    break
                dst.sendall(data)
                if self.delay:
                    time.sleep(self.delay)
        except (OSError, ssl.SSLError):
            pass
        finally:
            done.set()
