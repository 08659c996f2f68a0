import net from "node:net";

export interface TcpProxy {
  port: number;
  /** Drops every open connection and every new one from now on: the target looks down. */
  cut(): void;
  /** Forwards new connections again (after cut or blackHole). */
  restore(): void;
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

/** A TCP forwarder on 127.0.0.1 that a test can cut, reset or black-hole, standing in for a database or Redis fault. */
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
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      mode = "cut";
      for (const socket of open) socket.destroy();
    },
    restore() {
      mode = "forward";
    },
    reset() {
      for (const socket of open) socket.resetAndDestroy();
    },
    blackHole() {
      mode = "black-hole";
      for (const socket of open) silenced.add(socket);
    },
    openConnections: () => open.size,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
