import { readFileSync } from "node:fs";
import net from "node:net";

/** The kernel's ephemeral range (outgoing connections' and `listen(0)`'s local ports). */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (low && high) return [low, high];
  } catch {
    // Not Linux: IANA's dynamic range, the default elsewhere.
  }
  return [49152, 65535];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * Ports for the cluster's listeners, all handed out before the processes start (one after the
 * other, minutes apart). A port from `listen(0)` is an ephemeral one: by the time its process
 * binds it, any outgoing connection (to PostgreSQL, NATS, a replica) may have taken it as its local
 * port, as happened in CI. These come from below the ephemeral range, where no connection's local
 * port and no `listen(0)` lands, and are never handed out twice.
 */
export function listenPorts(): () => Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const low = 10_000;
  const high = Math.max(low + 1_000, ephemeralLow);
  const given = new Set<number>();
  return async () => {
    for (let tries = 0; tries < 200; tries++) {
      const port = low + Math.floor(Math.random() * (high - low));
      if (given.has(port)) continue;
      given.add(port);
      if (await canListen(port)) return port;
    }
    throw new Error(`no free port between ${low} and ${high}`);
  };
}
