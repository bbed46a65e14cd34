// A real SMTP server (the smtp-server package) for the notification tests: keeps every message
// with its envelope recipients and parsed headers.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  /** Header names lower-cased, folded lines joined. */
  headers: Record<string, string>;
  body: string;
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** Refuse the next messages with a 451 (a temporarily failing server). */
  failing: boolean;
  /** Messages refused while failing. */
  refused: number;
  close(): Promise<void>;
}

function parse(raw: string): Omit<ReceivedMail, "to"> {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(split + 4);
  // Quoted-printable (long lines): soft breaks joined, =XX escapes decoded as UTF-8.
  if (headers["content-transfer-encoding"]?.toLowerCase() === "quoted-printable") {
    const bytes = body.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    body = Buffer.from(bytes, "latin1").toString("utf8");
  }
  return { headers, body: body.replace(/\r\n/g, "\n") };
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const smtp: TestSmtp = { url: "", mails: [], failing: false, refused: 0, close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (smtp.failing) {
          smtp.refused++;
          return callback(Object.assign(new Error("try again later"), { responseCode: 451 }));
        }
        smtp.mails.push({ to: session.envelope.rcptTo.map((r) => r.address), ...parse(Buffer.concat(chunks).toString("utf8")) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  smtp.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  smtp.close = () => new Promise((resolve) => server.close(() => resolve()));
  return smtp;
}
