// A tiny authoritative DNS server over UDP for the tests (verified group domains): it answers TXT
// questions from a map (name → records) and NXDOMAIN otherwise, so node:dns runs against a real server.
import dgram from "node:dgram";

export interface TestDnsServer {
  /** "127.0.0.1:<port>", for QUARRY_DNS_SERVERS / dnsServers. */
  address: string;
  /** TXT records by lower-cased name; edit at will. */
  txt: Map<string, string[]>;
  close(): Promise<void>;
}

function questionOf(msg: Buffer): { name: string; type: number; end: number } | null {
  let i = 12;
  const labels: string[] = [];
  while (i < msg.length) {
    const len = msg[i]!;
    if (len === 0) break;
    if (len > 63) return null;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString("latin1"));
    i += len + 1;
  }
  if (i + 5 > msg.length) return null;
  return { name: labels.join(".").toLowerCase(), type: msg.readUInt16BE(i + 1), end: i + 5 };
}

function answer(query: Buffer, txt: Map<string, string[]>): Buffer | null {
  if (query.length < 12) return null;
  const q = questionOf(query);
  if (!q) return null;
  const records = q.type === 16 ? (txt.get(q.name) ?? []) : [];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  // QR, AA, RD copied; RCODE 3 (NXDOMAIN) when the name has no record.
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | (txt.has(q.name) ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const answers = records.map((r) => {
    const text = Buffer.from(r, "utf8");
    const rdata = Buffer.concat([Buffer.from([text.length]), text]);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the question's name
    rr.writeUInt16BE(16, 2); // TXT
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([rr, rdata]);
  });
  return Buffer.concat([header, query.subarray(12, q.end), ...answers]);
}

export async function startTestDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, string[]>();
  const socket = dgram.createSocket("udp4");
  socket.on("message", (msg, rinfo) => {
    const out = answer(msg, txt);
    if (out) socket.send(out, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    txt,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
