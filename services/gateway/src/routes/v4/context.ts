import type { Request, Response } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { actor } from "../../http/auth.ts";
import { setCountlessPaginationHeaders, setPaginationHeaders, type PageInfo } from "../../http/pagination.ts";
import type { Urls } from "../../entities/urls.ts";

/** Small per-request conveniences shared by the routers. */
export function ctx(deps: GatewayDeps, req: Request, res: Response) {
  const urls: Urls = { base: deps.config.externalUrl, sshHost: deps.config.sshHost, sshPort: deps.config.sshPort };
  return {
    urls,
    actor: actor(req),
    call: { requestId: req.requestId },
    paginate(info: { total: number; page: number; perPage: number } | null | undefined) {
      if (info) setPaginationHeaders(req, res, { total: Number(info.total), page: info.page, perPage: info.perPage } as PageInfo, deps.config.externalUrl);
    },
    /** Pagination headers without totals, for lists that are not counted. */
    paginateWithoutCount(info: { page: number; perPage: number; hasMore: boolean }) {
      setCountlessPaginationHeaders(req, res, info, deps.config.externalUrl);
    },
  };
}
