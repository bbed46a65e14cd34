// A TCP front for a group of replicas, as a Kubernetes Service is: each new connection goes to the
// next replica in turn, skipping those that refuse. gRPC channels reconnect through it when the
// replica behind their connection dies, and so land on a live one.
import net from "node:net";
import type { AddressInfo } from "node:net";

export interface ReplicaProxy {
  /** 127.0.0.1:<port> */
  address: string;
  close(): Promise<void>;
}

export async function startReplicaProxy(backends: () => string[]): Promise<ReplicaProxy> {
  let next = 0;
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  };

  function connect(client: net.Socket, tried: number): void {
    const list = backends();
    if (tried >= list.length) {
      client.destroy();
      return;
    }
    const target = list[next++ % list.length]!;
    const [host, port] = [target.slice(0, target.lastIndexOf(":")), Number(target.slice(target.lastIndexOf(":") + 1))];
    const upstream = net.connect({ host, port });
    track(upstream);
    let connected = false;
    upstream.on("error", () => {
      // Refused (the replica is down): the next one; broken later: the client sees it end.
      if (connected) client.destroy();
      else connect(client, tried + 1);
    });
    upstream.once("connect", () => {
      connected = true;
      client.on("error", () => upstream.destroy());
      upstream.once("close", () => client.destroy());
      client.once("close", () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }

  const server = net.createServer({ pauseOnConnect: true }, (client) => {
    track(client);
    connect(client, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
