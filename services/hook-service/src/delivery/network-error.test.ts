import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { networkErrorMessage } from "./network-error.ts";

/** The error a real POST to `url` fails with. */
function failure(url: URL): Promise<unknown> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: "POST" }, () => resolve(new Error("answered")));
    req.on("error", resolve);
    req.end("{}");
  });
}

describe("networkErrorMessage", () => {
  let hangUp: net.Server;
  let hangUpUrl: URL;

  beforeAll(async () => {
    // Accepts and closes at once: the client's "socket hang up".
    hangUp = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => hangUp.listen(0, "127.0.0.1", resolve));
    hangUpUrl = new URL(`http://127.0.0.1:${(hangUp.address() as net.AddressInfo).port}/hook`);
  });
  afterAll(() => new Promise<void>((resolve) => hangUp.close(() => resolve())));

  it("words a refused connection as GitLab's Net::HTTP does, without Node's errno codes", async () => {
    const url = new URL("http://127.0.0.1:1/hook");
    const message = networkErrorMessage(await failure(url), url);
    expect(message).toBe('Failed to open TCP connection to 127.0.0.1:1 (Connection refused - connect(2) for "127.0.0.1" port 1)');
    expect(message).not.toMatch(/ECONN|connect E/);
  });

  it("takes the default port of the scheme and unbrackets IPv6 hosts", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED ::1:443"), { code: "ECONNREFUSED" });
    expect(networkErrorMessage(refused, new URL("https://[::1]/"))).toBe(
      'Failed to open TCP connection to ::1:443 (Connection refused - connect(2) for "::1" port 443)',
    );
  });

  it("words a peer that closes before answering as Ruby's end of file", async () => {
    expect(networkErrorMessage(await failure(hangUpUrl), hangUpUrl)).toBe("end of file reached");
  });

  it("words name resolution failures as getaddrinfo does", () => {
    const url = new URL("http://hook.invalid/x");
    const notFound = Object.assign(new Error("getaddrinfo ENOTFOUND hook.invalid"), { code: "ENOTFOUND" });
    expect(networkErrorMessage(notFound, url)).toBe("Failed to open TCP connection to hook.invalid:80 (getaddrinfo: Name or service not known)");
  });

  it("keeps messages that are not network errors (timeouts already use Ruby's wording)", () => {
    expect(networkErrorMessage(new Error("execution expired"), new URL("http://example.com/"))).toBe("execution expired");
    const tls = Object.assign(new Error("self-signed certificate"), { code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
    expect(networkErrorMessage(tls, new URL("https://example.com/"))).toBe("self-signed certificate");
  });
});
