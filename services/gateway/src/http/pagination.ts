import type { Request, Response } from "express";

export interface PageInfo {
  total: number;
  page: number;
  perPage: number;
}

/** Normalised paging input: page ≥ 1, per_page 1..100 (default 20). */
export function pageRequest(q: { page?: number; per_page?: number }) {
  return { page: Math.max(1, q.page ?? 1), perPage: Math.min(100, Math.max(1, q.per_page ?? 20)) };
}

/**
 * Writes GitLab's offset-pagination headers: X-Page, X-Per-Page, X-Total, X-Total-Pages,
 * X-Next-Page, X-Prev-Page and a Link header with first/prev/next/last relations.
 */
export function setPaginationHeaders(req: Request, res: Response, info: PageInfo, baseUrl: string): void {
  const totalPages = Math.max(1, Math.ceil(info.total / info.perPage));
  const next = info.page < totalPages ? info.page + 1 : null;
  const prev = info.page > 1 ? Math.min(info.page - 1, totalPages) : null;
  res.setHeader("X-Page", String(info.page));
  res.setHeader("X-Per-Page", String(info.perPage));
  res.setHeader("X-Total", String(info.total));
  res.setHeader("X-Total-Pages", String(totalPages));
  res.setHeader("X-Next-Page", next ? String(next) : "");
  res.setHeader("X-Prev-Page", prev ? String(prev) : "");
  const url = new URL(req.originalUrl, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  // The original URL is absolute-path; keep the configured origin (and any path prefix).
  const base = new URL(baseUrl);
  url.protocol = base.protocol;
  url.host = base.host;
  const link = (page: number, rel: string) => {
    url.searchParams.set("page", String(page));
    url.searchParams.set("per_page", String(info.perPage));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (prev) links.push(link(prev, "prev"));
  if (next) links.push(link(next, "next"));
  links.push(link(1, "first"));
  links.push(link(totalPages, "last"));
  res.setHeader("Link", links.join(", "));
}
