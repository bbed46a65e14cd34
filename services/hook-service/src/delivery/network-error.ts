// What a failed delivery says, in the words GitLab's (Ruby Net::HTTP) deliveries use, e.g.
// `Failed to open TCP connection to example.com:443 (Connection refused - connect(2) for "example.com" port 443)`.
// Node's own texts ("connect ECONNREFUSED 127.0.0.1:1") name the runtime and its errno codes:
// they go to the delivery records, the test and resend endpoints' 422 bodies, and to clients.
import { hostAndPort } from "@quarry/outbound";

/** Ruby's Errno descriptions for the connect(2) failures a delivery can meet. */
const CONNECT_ERRORS: Record<string, string> = {
  ECONNREFUSED: "Connection refused",
  EHOSTUNREACH: "No route to host",
  ENETUNREACH: "Network is unreachable",
  ETIMEDOUT: "Connection timed out",
  EADDRNOTAVAIL: "Cannot assign requested address",
};

/** Name resolution failures, as getaddrinfo(3) words them. */
const LOOKUP_ERRORS: Record<string, string> = {
  ENOTFOUND: "getaddrinfo: Name or service not known",
  EAI_AGAIN: "getaddrinfo: Temporary failure in name resolution",
  EAI_FAIL: "getaddrinfo: Non-recoverable failure in name resolution",
};

/** Failures once connected. */
const STREAM_ERRORS: Record<string, string> = {
  ECONNRESET: "Connection reset by peer",
  EPIPE: "Broken pipe",
  ECONNABORTED: "Software caused connection abort",
};

/** GitLab's wording of a delivery's network failure to `url`; other errors keep their message. */
export function networkErrorMessage(err: unknown, url: URL): string {
  const code = (err as { code?: unknown }).code;
  const message = err instanceof Error ? err.message : String(err);
  if (typeof code !== "string") return message || "internal error";
  // Node's "socket hang up" (code ECONNRESET): the peer closed before answering, Ruby's EOFError.
  if (message === "socket hang up") return "end of file reached";
  const { host, port } = hostAndPort(url);
  const open = `Failed to open TCP connection to ${host}:${port}`;
  if (CONNECT_ERRORS[code]) return `${open} (${CONNECT_ERRORS[code]} - connect(2) for "${host}" port ${port})`;
  if (LOOKUP_ERRORS[code]) return `${open} (${LOOKUP_ERRORS[code]})`;
  if (STREAM_ERRORS[code]) return STREAM_ERRORS[code];
  return message;
}
