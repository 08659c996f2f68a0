import net from "node:net";

export interface TcpProxy {
  port: number;
  /** Drops every open connection and every new one from now on: the target looks down. */
  cut(): void;
  /**
   * Drops every open connection and closes the port, so new ones are refused (ECONNREFUSED): the server process
   * went away. restore() listens again on the same port.
   */
  refuse(): Promise<void>;
  /** Forwards new connections again (after cut, refuse or blackHole). */
  restore(): Promise<void>;
  /** Resets (TCP RST) every open connection; new ones are forwarded as before. */
  reset(): void;
  /**
   * A silent network loss: nothing more passes on the open connections, and new ones are accepted but never
   * answered, with no error or close on either side. Those connections stay silent after restore(), as when a
   * router or NAT lost their state: only the client's own timeouts can end them.
   */
  blackHole(): void;
  /** Connections open through the proxy now (black-holed ones included). */
  openConnections(): number;
  close(): Promise<void>;
}

/**
 * A TCP forwarder on 127.0.0.1 that a test can cut, refuse, reset or black-hole, standing in for a database or
 * Redis fault. The only TCP proxy of the tests: every fault a test needs of the network is one of its controls.
 */
export async function startTcpProxy(targetPort: number, targetHost = "127.0.0.1"): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  const silenced = new WeakSet<net.Socket>();
  let mode: "forward" | "cut" | "black-hole" = "forward";
  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
    socket.on("error", () => undefined);
  };
  const server = net.createServer((client) => {
    if (mode === "cut") {
      client.destroy();
      return;
    }
    track(client);
    if (mode === "black-hole") {
      silenced.add(client);
      client.on("data", () => undefined);
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    track(upstream);
    const forward = (from: net.Socket, to: net.Socket) =>
      from.on("data", (chunk: Buffer) => {
        if (!silenced.has(from) && !to.destroyed) to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      for (const socket of open) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    cut() {
      mode = "cut";
      for (const socket of open) socket.destroy();
    },
    refuse: stopListening,
    async restore() {
      mode = "forward";
      if (!server.listening) await listen(port);
    },
    reset() {
      for (const socket of open) socket.resetAndDestroy();
    },
    blackHole() {
      mode = "black-hole";
      for (const socket of open) silenced.add(socket);
    },
    openConnections: () => open.size,
    close: stopListening,
  };
}
