import type { RequestHandler } from "express";

/** GitLab's JSON media type, without parameters. */
export const JSON_CONTENT_TYPE = "application/json";

/**
 * Makes `res.json` answer `Content-Type: application/json` exactly, as GitLab does. Express's
 * own `res.json` sends a string, and `res.send` appends `; charset=utf-8` to any string body's
 * type; python-gitlab decodes a body only when the header equals `application/json`. Sending
 * the encoded bytes instead leaves the header as set. HEAD answers go through the same path
 * (`res.send` drops the body but keeps the headers).
 */
export const exactJsonContentType: RequestHandler = (_req, res, next) => {
  res.json = function json(body?: unknown) {
    const text = JSON.stringify(body);
    this.setHeader("Content-Type", JSON_CONTENT_TYPE);
    return this.send(text === undefined ? undefined : Buffer.from(text, "utf8"));
  };
  next();
};
