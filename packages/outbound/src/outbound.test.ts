import { createServer } from "node:http";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { assertPublicAddress, checkOutboundUrl, classifyAddress, guardedLookup, OutboundUrlError } from "./index.ts";

const deny = { allowLocal: false };
const allow = { allowLocal: true };

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "localhost"],
    ["127.9.8.7", "localhost"],
    ["0.0.0.0", "localhost"],
    ["::1", "localhost"],
    ["::", "localhost"],
    ["::ffff:127.0.0.1", "localhost"],
    ["::ffff:7f00:1", "localhost"],
    ["64:ff9b::7f00:1", "localhost"],
    ["169.254.169.254", "link_local"],
    ["fe80::1%eth0", "link_local"],
    ["10.1.2.3", "local_network"],
    ["172.16.0.1", "local_network"],
    ["172.31.255.255", "local_network"],
    ["192.168.1.1", "local_network"],
    ["100.64.0.1", "local_network"],
    ["fd00::1", "local_network"],
    ["2002:c0a8:0101::1", "local_network"],
    ["::ffff:10.0.0.1", "local_network"],
    ["224.0.0.1", "local_network"],
  ])("%s is %s", (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  it.each(["8.8.8.8", "172.32.0.1", "192.169.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "100.128.0.1"])("%s is public", (ip) => {
    expect(classifyAddress(ip)).toBeNull();
  });

  it("rejects what is not an address", () => {
    expect(() => classifyAddress("example.com")).toThrow(OutboundUrlError);
  });
});

describe("assertPublicAddress", () => {
  it("uses GitLab's wording and lets everything through when local requests are allowed", () => {
    expect(() => assertPublicAddress("127.0.0.1", deny)).toThrow("Requests to localhost are not allowed");
    expect(() => assertPublicAddress("10.0.0.1", deny)).toThrow("Requests to the local network are not allowed");
    expect(() => assertPublicAddress("169.254.1.1", deny)).toThrow("Requests to the link local network are not allowed");
    expect(() => assertPublicAddress("127.0.0.1", allow)).not.toThrow();
  });
});

describe("checkOutboundUrl", () => {
  const resolver = (map: Record<string, string[]>) => async (host: string) => {
    const found = map[host];
    if (!found) throw new Error("ENOTFOUND");
    return found;
  };

  it("refuses a host when any of its addresses is local", async () => {
    const r = resolver({ "mixed.test": ["8.8.8.8", "192.168.0.5"] });
    await expect(checkOutboundUrl("https://mixed.test/hook", deny, { resolver: r })).rejects.toThrow("local network");
    const ok = await checkOutboundUrl("https://mixed.test:8443/hook", allow, { resolver: r });
    expect(ok).toMatchObject({ host: "mixed.test", port: 8443, addresses: ["8.8.8.8", "192.168.0.5"] });
  });

  it("checks IP literals without resolving, brackets removed", async () => {
    await expect(checkOutboundUrl("http://[::1]:8080/", deny)).rejects.toMatchObject({ reason: "localhost" });
    expect(await checkOutboundUrl("http://8.8.8.8/", deny)).toMatchObject({ host: "8.8.8.8", port: 80, addresses: ["8.8.8.8"] });
  });

  it("refuses other schemes, junk and unresolvable hosts", async () => {
    await expect(checkOutboundUrl("ftp://8.8.8.8/", deny)).rejects.toThrow("Only allowed schemes are http, https");
    await expect(checkOutboundUrl("not a url", deny)).rejects.toMatchObject({ reason: "scheme" });
    await expect(checkOutboundUrl("https://nowhere.test/", deny, { resolver: resolver({}) })).rejects.toThrow("Host cannot be resolved or invalid");
    expect(await checkOutboundUrl("ssh://git@8.8.8.8/x.git", deny, { schemes: ["ssh"] })).toMatchObject({ port: 22 });
  });

  it("resolves localhost through the system resolver and refuses it", async () => {
    await expect(checkOutboundUrl("http://localhost:1/", deny)).rejects.toMatchObject({ reason: "localhost" });
  });
});

describe("guardedLookup", () => {
  it("refuses the connection itself to a local address unless allowed", async () => {
    const server = createServer((_req, res) => res.end("hi"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    const get = (policy: { allowLocal: boolean }) =>
      new Promise<string>((resolve, reject) => {
        const req = request({ host: "localhost", port, family: 4, lookup: guardedLookup(policy) as never }, (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve(body));
        });
        req.on("error", reject);
        req.end();
      });
    try {
      await expect(get(deny)).rejects.toMatchObject({ code: "EBLOCKED", message: "Requests to localhost are not allowed" });
      expect(await get(allow)).toBe("hi");
    } finally {
      server.close();
    }
  });
});
