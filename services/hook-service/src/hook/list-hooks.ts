import type { ListHooksRequest__Output } from "@quarry/proto/types/hook/v1/ListHooksRequest";
import type { ListHooksResponse } from "@quarry/proto/types/hook/v1/ListHooksResponse";
import type { HookDeps } from "../deps.ts";
import { ownerWhere, toHookMessage } from "./hook-common.ts";

/** Page size and offset of a paged request: page ≥ 1, per_page 1..100 (default 20). */
export function paging(page: number, perPage: number) {
  const size = Math.min(100, Math.max(1, perPage || 20));
  return { take: size, skip: (Math.max(1, page || 1) - 1) * size };
}

/** A project's or group's hooks, oldest first. */
export const listHooks =
  (deps: HookDeps) =>
  async (req: ListHooksRequest__Output): Promise<ListHooksResponse> => {
    const where = ownerWhere(req.owner);
    const [hooks, total] = await Promise.all([
      deps.prisma.webHook.findMany({ where, orderBy: { id: "asc" }, ...paging(req.page, req.perPage) }),
      deps.prisma.webHook.count({ where }),
    ]);
    const now = new Date();
    return { hooks: hooks.map((h) => toHookMessage(deps, h, now)), total };
  };
