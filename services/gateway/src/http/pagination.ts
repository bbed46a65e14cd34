import type { Request, Response } from "express";
import { isPositiveInt32, MAX_INT32 } from "@quarry/gitlab";

export interface PageInfo {
  total: number;
  page: number;
  perPage: number;
}

/**
 * Normalised paging input: page ≥ 1, per_page 1..100 (default 20). The services and git count
 * in 32-bit integers, so a page is kept where its offset, and the one item past it that tells
 * whether more follow, stay below 2^31: any page beyond is past the last page of every list,
 * and stays so (an empty page) instead of wrapping round to page 1.
 */
export function pageRequest(q: { page?: number; per_page?: number }) {
  const perPage = Math.min(100, Math.max(1, q.per_page ?? 20));
  const lastPage = Math.floor((MAX_INT32 - 1) / perPage);
  return { page: Math.min(lastPage, Math.max(1, q.page ?? 1)), perPage };
}

/**
 * The largest Link header written. Links repeat the request's URL up to four times; past this the
 * response headers would outgrow what HTTP clients read (Node's 16 KiB), so the header is left out
 * and the X-* headers alone describe the page.
 */
const MAX_LINK_HEADER = 8 * 1024;

function setLinks(res: Response, links: string[]): void {
  const value = links.join(", ");
  if (value.length <= MAX_LINK_HEADER) res.setHeader("Link", value);
}

/**
 * Builds `<url>; rel="…"` links to pages of the request's URL, on the configured origin, with
 * `defaults` added where the request left them out.
 */
function pageLinks(req: Request, perPage: number, baseUrl: string, defaults: Record<string, string> = {}) {
  const url = new URL(req.originalUrl, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  // The original URL is absolute-path; keep the configured origin (and any path prefix).
  const base = new URL(baseUrl);
  url.protocol = base.protocol;
  url.host = base.host;
  for (const [k, v] of Object.entries(defaults)) if (!url.searchParams.has(k)) url.searchParams.set(k, v);
  return (page: number, rel: string) => {
    url.searchParams.set("page", String(page));
    url.searchParams.set("per_page", String(perPage));
    return `<${url.toString()}>; rel="${rel}"`;
  };
}

/**
 * Writes GitLab's offset-pagination headers: X-Page, X-Per-Page, X-Total, X-Total-Pages,
 * X-Next-Page, X-Prev-Page and a Link header with first/prev/next/last relations. `defaults` are
 * added to the links when the request left them out (Grape's declared defaults, e.g. order_by).
 */
export function setPaginationHeaders(req: Request, res: Response, info: PageInfo, baseUrl: string, defaults: Record<string, string> = {}): void {
  const totalPages = Math.max(1, Math.ceil(info.total / info.perPage));
  const next = info.page < totalPages ? info.page + 1 : null;
  const prev = info.page > 1 ? Math.min(info.page - 1, totalPages) : null;
  res.setHeader("X-Page", String(info.page));
  res.setHeader("X-Per-Page", String(info.perPage));
  res.setHeader("X-Total", String(info.total));
  res.setHeader("X-Total-Pages", String(totalPages));
  res.setHeader("X-Next-Page", next ? String(next) : "");
  res.setHeader("X-Prev-Page", prev ? String(prev) : "");
  const link = pageLinks(req, info.perPage, baseUrl, defaults);
  const links: string[] = [];
  if (prev) links.push(link(prev, "prev"));
  if (next) links.push(link(next, "next"));
  links.push(link(1, "first"));
  links.push(link(totalPages, "last"));
  setLinks(res, links);
}

/**
 * Offset pagination without a count (GitLab's `without_count`, used where counting is costly,
 * e.g. commits): no X-Total, X-Total-Pages or "last" link; the next page is known from whether
 * more items exist.
 */
export function setCountlessPaginationHeaders(req: Request, res: Response, info: { page: number; perPage: number; hasMore: boolean }, baseUrl: string): void {
  const next = info.hasMore ? info.page + 1 : null;
  const prev = info.page > 1 ? info.page - 1 : null;
  res.setHeader("X-Page", String(info.page));
  res.setHeader("X-Per-Page", String(info.perPage));
  res.setHeader("X-Next-Page", next ? String(next) : "");
  res.setHeader("X-Prev-Page", prev ? String(prev) : "");
  const link = pageLinks(req, info.perPage, baseUrl);
  const links: string[] = [];
  if (prev) links.push(link(prev, "prev"));
  if (next) links.push(link(next, "next"));
  links.push(link(1, "first"));
  setLinks(res, links);
}

/** GitLab's opaque keyset cursor: base64 of {"id":"<last id>","_kd":"n"}. */
export function encodeCursor(id: number): string {
  return Buffer.from(JSON.stringify({ id: String(id), _kd: "n" })).toString("base64url");
}

export function decodeCursor(cursor: string): number | null {
  try {
    const id = Number((JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { id?: unknown }).id);
    return isPositiveInt32(id) ? id : null;
  } catch {
    return null;
  }
}

/**
 * Keyset pagination (`pagination=keyset`, ordered by id): no totals, only a `Link` rel="next"
 * that carries the position — `id_after`/`id_before` for projects, `cursor` elsewhere.
 */
export function setKeysetHeaders(
  req: Request,
  res: Response,
  k: { perPage: number; lastId: number | null; hasMore: boolean; param: "id_after" | "id_before" | "cursor" },
  baseUrl: string,
): void {
  res.setHeader("X-Per-Page", String(k.perPage));
  if (!k.hasMore || k.lastId === null) return;
  const url = new URL(req.originalUrl, baseUrl);
  const base = new URL(baseUrl);
  url.protocol = base.protocol;
  url.host = base.host;
  url.searchParams.delete("id_after");
  url.searchParams.delete("id_before");
  url.searchParams.delete("cursor");
  url.searchParams.set("per_page", String(k.perPage));
  url.searchParams.set(k.param, k.param === "cursor" ? encodeCursor(k.lastId) : String(k.lastId));
  setLinks(res, [`<${url.toString()}>; rel="next"`]);
}

/** A Link header with only rel="next": the request's URL with `params` replaced (Gitaly keyset paging). */
export function setNextPageLink(req: Request, res: Response, baseUrl: string, params: Record<string, string>): void {
  const url = new URL(req.originalUrl, baseUrl);
  const base = new URL(baseUrl);
  url.protocol = base.protocol;
  url.host = base.host;
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  setLinks(res, [`<${url.toString()}>; rel="next"`]);
}
