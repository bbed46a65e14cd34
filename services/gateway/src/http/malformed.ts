import type { RequestHandler } from "express";
import { sendBadRequest } from "./errors.ts";

/** Ruby's JSON parser gives up beyond this nesting (JSON::NestingError): the body is not valid JSON. */
const MAX_JSON_NESTING = 100;
/** Rack's param_depth_limit: form and multipart parameters nested deeper are not read. */
const MAX_PARAM_NESTING = 32;

/** Whether one %-encoded URL component (path, or `key=value` with `+` for spaces) is malformed or holds a NUL. */
function malformedComponent(encoded: string, plusIsSpace: boolean): boolean {
  if (!encoded.includes("%")) return encoded.includes("\0");
  try {
    return decodeURIComponent(plusIsSpace ? encoded.replace(/\+/g, " ") : encoded).includes("\0");
  } catch {
    // Bad %-escapes and escapes that are not UTF-8 (`%E0%A4%A`, `%C0`).
    return true;
  }
}

/** Whether a parameter name nests deeper than Rack reads (`a[b][c]…`, counted before decoding too). */
function tooDeepKey(pair: string): boolean {
  const key = pair.split("=", 1)[0]!;
  const depth = (k: string) => k.split("[").length - 1;
  if (depth(key) > MAX_PARAM_NESTING) return true;
  try {
    return key.includes("%") && depth(decodeURIComponent(key)) > MAX_PARAM_NESTING;
  } catch {
    return false;
  }
}

/** An urlencoded string (query string or form body) with a malformed pair or one nested too deep. */
const malformedEncoded = (encoded: string): boolean => encoded.split("&").some((pair) => malformedComponent(pair, true) || tooDeepKey(pair));

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** GitLab checks the Authorization credentials too (Basic ones decoded): NUL or invalid UTF-8 is malformed. */
function malformedCredentials(authorization: string | undefined): boolean {
  if (!authorization) return false;
  const basic = /^Basic\s+(\S+)\s*$/i.exec(authorization);
  const bytes = basic ? Buffer.from(basic[1]!, "base64") : Buffer.from(authorization, "latin1");
  try {
    return utf8.decode(bytes).includes("\0");
  } catch {
    return true;
  }
}

/**
 * The deepest nesting of a parsed body and whether any string in it (keys included) holds a NUL.
 * Iterative: a body nested thousands deep must not exhaust the stack here.
 */
function inspectBody(body: unknown, maxDepth: number): "nul" | "too deep" | null {
  const stack: [unknown, number][] = [[body, 0]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value === "string") {
      if (value.includes("\0")) return "nul";
    } else if (value && typeof value === "object") {
      if (depth >= maxDepth) return "too deep";
      for (const [key, child] of Object.entries(value)) {
        if (key.includes("\0")) return "nul";
        stack.push([child, depth + 1]);
      }
    }
  }
  return null;
}

/**
 * GitLab's Gitlab::Middleware::HandleMalformedStrings, for every caller (anonymous too) before
 * any route: a NUL byte, a malformed %-escape or an escape that is not UTF-8 in the path, the
 * query string, the parameters or the Authorization credentials is `400 Bad Request`
 * (text/plain). Nothing downstream can take a NUL (PostgreSQL text cannot hold one), and a path
 * the router cannot decode names nothing.
 * Parameters nested deeper than Rack reads (32) are refused the same way (JSON bodies deeper
 * than Ruby's parser reads: as invalid JSON).
 */
export const rejectMalformedInput: RequestHandler = (req, res, next) => {
  const url = req.originalUrl;
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (malformedComponent(path, false) || (q >= 0 && malformedEncoded(url.slice(q + 1)))) return sendBadRequest(res);
  if (malformedCredentials(req.get("authorization"))) return sendBadRequest(res);
  if (req.rawForm && malformedEncoded(req.rawForm.toString("latin1"))) return sendBadRequest(res);
  if (req.body && typeof req.body === "object" && !Buffer.isBuffer(req.body)) {
    const json = Boolean(req.is(["application/json", "application/*+json"]));
    const verdict = inspectBody(req.body, json ? MAX_JSON_NESTING : MAX_PARAM_NESTING);
    if (verdict === "too deep" && json) {
      res.status(400).json({ message: "400 Bad request - the request body is not valid JSON" });
      return;
    }
    if (verdict) return sendBadRequest(res);
  }
  next();
};
