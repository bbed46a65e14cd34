// Guards requests that Quarry makes to addresses users typed in (webhook URLs, mirror remotes):
// by default they may not reach loopback, link-local or private networks (SSRF). The check runs
// when the URL is saved and again on the address actually connected to, so a DNS answer that
// changes after validation (rebinding) cannot slip through.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";

/** Whether local and private addresses may be reached (QUARRY_ALLOW_LOCAL_REQUESTS). */
export interface OutboundPolicy {
  allowLocal: boolean;
}

/** A refused outbound URL; `message` is GitLab's UrlBlocker wording. */
export class OutboundUrlError extends Error {
  constructor(
    message: string,
    /** Machine-readable reason. */
    readonly reason: "scheme" | "invalid" | "unresolvable" | "localhost" | "link_local" | "local_network",
  ) {
    super(message);
    this.name = "OutboundUrlError";
  }
}

/** Why an address is not public, or null when it is. */
export type AddressClass = "localhost" | "link_local" | "local_network" | null;

function ipv4ToInt(ip: string): number {
  return ip.split(".").reduce((acc, part) => (acc << 8) + Number(part), 0) >>> 0;
}

const v4 = (cidr: string): [number, number] => {
  const [base, bits] = cidr.split("/");
  const mask = Number(bits) === 0 ? 0 : (0xffffffff << (32 - Number(bits))) >>> 0;
  return [(ipv4ToInt(base!) & mask) >>> 0, mask];
};

const V4_RANGES: Array<[[number, number], Exclude<AddressClass, null>]> = [
  [v4("127.0.0.0/8"), "localhost"],
  [v4("0.0.0.0/8"), "localhost"],
  [v4("169.254.0.0/16"), "link_local"],
  [v4("10.0.0.0/8"), "local_network"],
  [v4("172.16.0.0/12"), "local_network"],
  [v4("192.168.0.0/16"), "local_network"],
  [v4("100.64.0.0/10"), "local_network"],
  [v4("192.0.0.0/24"), "local_network"],
  [v4("198.18.0.0/15"), "local_network"],
  [v4("224.0.0.0/4"), "local_network"],
  [v4("240.0.0.0/4"), "local_network"],
];

function classifyV4(ip: string): AddressClass {
  const n = ipv4ToInt(ip);
  for (const [[base, mask], cls] of V4_RANGES) if ((n & mask) >>> 0 === base) return cls;
  return null;
}

/** Expands an IPv6 address to its eight 16-bit groups (a dotted IPv4 tail becomes two groups). */
function ipv6Groups(ip: string): number[] {
  let s = ip.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const n = ipv4ToInt(dotted[1]!);
    s = s.slice(0, dotted.index) + (n >>> 16).toString(16) + ":" + (n & 0xffff).toString(16);
  }
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const [head, rest] = s.split("::") as [string, string | undefined];
  if (rest === undefined) return parse(head);
  const h = parse(head);
  const r = parse(rest);
  return [...h, ...new Array(8 - h.length - r.length).fill(0), ...r];
}

function classifyV6(ip: string): AddressClass {
  const g = ipv6Groups(ip);
  const embeddedV4 = () => `${g[6]! >>> 8}.${g[6]! & 0xff}.${g[7]! >>> 8}.${g[7]! & 0xff}`;
  if (g.every((x) => x === 0)) return "localhost"; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return "localhost"; // ::1
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judge the IPv4 inside.
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) return classifyV4(embeddedV4());
  // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyV4(embeddedV4());
  // 6to4 (2002::/16) embeds an IPv4 address in groups 1–2.
  if (g[0] === 0x2002) return classifyV4(`${g[1]! >>> 8}.${g[1]! & 0xff}.${g[2]! >>> 8}.${g[2]! & 0xff}`);
  if ((g[0]! & 0xffc0) === 0xfe80) return "link_local"; // fe80::/10
  if ((g[0]! & 0xfe00) === 0xfc00) return "local_network"; // fc00::/7 unique local
  if ((g[0]! & 0xffc0) === 0xfec0) return "local_network"; // fec0::/10 site-local (deprecated)
  if ((g[0]! & 0xff00) === 0xff00) return "local_network"; // multicast
  return null;
}

/** Classifies an IP address literal: localhost, link_local, local_network, or null for public ones. */
export function classifyAddress(ip: string): AddressClass {
  const family = isIP(ip);
  if (family === 4) return classifyV4(ip);
  if (family === 6) return classifyV6(ip);
  throw new OutboundUrlError("Host cannot be resolved or invalid", "invalid");
}

const MESSAGES: Record<Exclude<AddressClass, null>, string> = {
  localhost: "Requests to localhost are not allowed",
  link_local: "Requests to the link local network are not allowed",
  local_network: "Requests to the local network are not allowed",
};

/** Throws when `ip` is not public and the policy does not allow local requests. */
export function assertPublicAddress(ip: string, policy: OutboundPolicy): void {
  if (policy.allowLocal) return;
  const cls = classifyAddress(ip);
  if (cls) throw new OutboundUrlError(MESSAGES[cls], cls);
}

/** Resolves a host name to all its addresses (IP literals resolve to themselves). */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => {
      if (err) reject(err);
      else resolve((addresses as LookupAddress[]).map((a) => a.address));
    });
  });

/** A URL checked against the policy, with the addresses its host resolved to at check time. */
export interface CheckedUrl {
  url: URL;
  /** Host without IPv6 brackets. */
  host: string;
  /** Port, defaulted from the scheme. */
  port: number;
  addresses: string[];
}

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443, "ssh:": 22, "git:": 9418 };

/** A URL's host without IPv6 brackets, and its port defaulted from the scheme (0 when unknown). */
export function hostAndPort(url: URL): { host: string; port: number } {
  return { host: url.hostname.replace(/^\[(.*)\]$/, "$1"), port: url.port ? Number(url.port) : (DEFAULT_PORTS[url.protocol] ?? 0) };
}

/**
 * Parses `raw`, refuses schemes outside `schemes`, resolves its host and refuses it when any
 * address is local and the policy does not allow that (every address, because a client may
 * connect to any of them).
 */
export async function checkOutboundUrl(raw: string, policy: OutboundPolicy, options: { schemes?: string[]; resolver?: Resolver } = {}): Promise<CheckedUrl> {
  const schemes = options.schemes ?? ["http", "https"];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundUrlError("Only allowed schemes are " + schemes.join(", "), "scheme");
  }
  if (!schemes.includes(url.protocol.slice(0, -1))) {
    throw new OutboundUrlError("Only allowed schemes are " + schemes.join(", "), "scheme");
  }
  const { host, port } = hostAndPort(url);
  if (host === "") throw new OutboundUrlError("Host cannot be resolved or invalid", "invalid");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (options.resolver ?? systemResolver)(host);
    } catch {
      throw new OutboundUrlError("Host cannot be resolved or invalid", "unresolvable");
    }
    if (addresses.length === 0) throw new OutboundUrlError("Host cannot be resolved or invalid", "unresolvable");
  }
  for (const a of addresses) assertPublicAddress(a, policy);
  return { url, host, port, addresses };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request`/`https.request` that refuses local addresses at connect time:
 * the address checked is the address connected to, which defeats DNS rebinding.
 */
export function guardedLookup(policy: OutboundPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "");
      const list = addresses as LookupAddress[];
      try {
        for (const a of list) assertPublicAddress(a.address, policy);
      } catch (e) {
        const blocked = e as NodeJS.ErrnoException;
        blocked.code = "EBLOCKED";
        return callback(blocked, "");
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "");
      callback(null, first.address, first.family);
    });
  };
}
