import type { Request, Response } from "express";
import type { GatewayDeps } from "../deps.ts";
import { ApiError } from "./errors.ts";
import { decodeCursor, pageRequest, setKeysetHeaders } from "./pagination.ts";
import { p, z } from "./params.ts";

/** The inputs of keyset paging, added to list routes that support it. */
export const keysetShape = {
  pagination: p.enum(["offset", "keyset"]).optional(),
  id_after: p.int().optional(),
  id_before: p.int().optional(),
  cursor: z.string().optional(),
};

export interface KeysetQuery {
  pagination?: "offset" | "keyset";
  id_after?: number;
  id_before?: number;
  cursor?: string;
  order_by?: string;
  sort?: "asc" | "desc";
  per_page?: number;
}

/**
 * Translates keyset inputs into id bounds for the service; only ordering by id is supported
 * (GitLab answers 405 for orders it cannot page by keyset).
 */
export function keysetBounds(q: KeysetQuery, defaultSort: "asc" | "desc") {
  if (q.order_by && q.order_by !== "id") {
    throw new ApiError(405, { message: "405 Method Not Allowed - Keyset pagination is only supported for order_by=id" });
  }
  const sort = q.sort ?? defaultSort;
  const fromCursor = q.cursor ? decodeCursor(q.cursor) : null;
  if (q.cursor && fromCursor === null) throw new ApiError(400, { error: "cursor does not have a valid value" });
  const idAfter = sort === "asc" ? (fromCursor ?? q.id_after ?? 0) : (q.id_after ?? 0);
  const idBefore = sort === "desc" ? (fromCursor ?? q.id_before ?? 0) : (q.id_before ?? 0);
  return { sort, idAfter, idBefore, page: { page: 1, perPage: pageRequest(q).perPage } };
}

export function writeKeysetHeaders(
  deps: GatewayDeps,
  req: Request,
  res: Response,
  items: { id: number | string }[],
  total: number,
  perPage: number,
  sort: "asc" | "desc",
  cursorStyle: "id" | "cursor",
): void {
  const last = items.at(-1);
  setKeysetHeaders(
    req,
    res,
    {
      perPage,
      lastId: last ? Number(last.id) : null,
      hasMore: total > items.length,
      param: cursorStyle === "cursor" ? "cursor" : sort === "asc" ? "id_after" : "id_before",
    },
    deps.config.externalUrl,
  );
}
