// A real HTTP receiver on loopback for webhook tests: records every request and answers with
// queued statuses (then the default one).
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The parsed body; undefined when it is not JSON. */
  json: WebhookBody | undefined;
}

/** A delivery's JSON body: the fields the tests read one by one; the rest is matched as a whole. */
export interface WebhookBody {
  object_kind?: string;
  event_name?: string;
  ref?: string;
  name?: string;
  project_id?: number;
  commits?: { title: string }[];
  [field: string]: unknown;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Status of the next answers, in order; afterwards `defaultStatus`. */
  queue: number[];
  defaultStatus: number;
  close(): Promise<void>;
}

export async function startReceiver(defaultStatus = 200): Promise<Receiver> {
  const rec: Receiver = { url: "", requests: [], queue: [], defaultStatus, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: WebhookBody | undefined;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      rec.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, json });
      const status = rec.queue.shift() ?? rec.defaultStatus;
      res.writeHead(status, { "Content-Type": "text/plain", "X-Receiver": "yes" });
      res.end(`answered ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  rec.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rec.close = () => new Promise((resolve) => server.close(() => resolve()));
  return rec;
}
