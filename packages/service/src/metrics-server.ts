import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Metrics } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";

export interface MetricsListener {
  /** The port bound (the one asked for, or the free one picked for 0 in tests). */
  port: number;
  close(): Promise<void>;
}

/**
 * A service's own HTTP listener for Prometheus: `GET /metrics` answers the registry in the text
 * format, anything else 404. It is apart from the gRPC port and only for the cluster's scraper.
 */
export async function serveMetrics(metrics: Metrics, o: { host: string; port: number; log: Logger }): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const path = req.url?.split("?", 1)[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not Found\n");
      return;
    }
    metrics.text().then(
      (body) => res.writeHead(200, { "Content-Type": metrics.contentType }).end(req.method === "HEAD" ? undefined : body),
      (err: unknown) => {
        o.log.error({ err }, "metrics could not be collected");
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("metrics could not be collected\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
