import { pagination } from "@quarry/database";
import { notFound, paramError } from "@quarry/grpc";
import type { ListTagsRequest__Output } from "@quarry/proto/types/repo/v1/ListTagsRequest";
import type { ListTagsResponse__Output as ListTagsResponse } from "@quarry/proto/types/repo/v1/ListTagsResponse";
import type { RepoDeps } from "../deps.ts";
import { nameFilter } from "../refs/branches.ts";
import { isRepository } from "../git/git.ts";
import { cachedSortedTags } from "../refs/ref-cache.ts";
import type { TagOrder } from "../refs/tags.ts";

const ORDERS: readonly TagOrder[] = ["name", "updated", "version"];

/**
 * Tags ordered by `order_by` (default updated) and `sort` (default desc), filtered by `search`
 * like GitLab's GitRefsFinder (an exact match first), one page of them. The tags with their
 * commits and each ordering are kept with the repository's refs in memory (one `git for-each-ref`
 * after each ref change; ordering by date needs them all anyway).
 */
export const listTags =
  (deps: RepoDeps) =>
  async (req: ListTagsRequest__Output): Promise<ListTagsResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const order = (req.orderBy || "updated") as TagOrder;
    if (!ORDERS.includes(order)) throw paramError("order_by does not have a valid value");
    const sort = req.sort || "desc";
    if (sort !== "asc" && sort !== "desc") throw paramError("sort does not have a valid value");
    const filter = nameFilter(req.search, "");
    if (!(await isRepository(dir))) throw notFound("Repository");
    const sorted = await cachedSortedTags(dir, order, sort);
    const byName = new Map(sorted.map((t) => [t.tag.name, t.tag]));
    const names = filter(sorted.map((t) => t.tag.name));
    const { offset, limit } = pagination(req.page, req.perPage);
    return { tags: names.slice(offset, offset + limit).map((n) => byName.get(n)!), total: names.length };
  };
