import { readFileSync } from "node:fs";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { listenPorts } from "../src/ports.ts";

describe("listenPorts", () => {
  it("hands out distinct listenable ports below the kernel's ephemeral range", async () => {
    const [ephemeralLow] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    const next = listenPorts();
    const ports: number[] = [];
    for (let i = 0; i < 30; i++) ports.push(await next());
    expect(new Set(ports).size).toBe(30);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralLow!);
    }
    // Each one can be bound by the process it is meant for.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], "127.0.0.1", resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
