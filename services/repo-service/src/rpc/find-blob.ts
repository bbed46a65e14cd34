import { notFound } from "@quarry/grpc";
import type { FindBlobRequest__Output } from "@quarry/proto/types/repo/v1/FindBlobRequest";
import type { FindBlobResponse__Output as FindBlobResponse } from "@quarry/proto/types/repo/v1/FindBlobResponse";
import type { RepoDeps } from "../deps.ts";
import { isRepository } from "../git/git.ts";

/**
 * A blob by object id, read through the cat-file pool. Only hexadecimal ids are looked up (GitLab
 * takes no revisions here); anything else, or an object that is not a blob: `404 Blob Not Found`.
 */
export const findBlob =
  (deps: RepoDeps) =>
  async (req: FindBlobRequest__Output): Promise<FindBlobResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!(await isRepository(dir))) throw notFound("Repository");
    if (!/^[0-9a-f]{4,64}$/i.test(req.oid)) throw notFound("Blob");
    const blob = await deps.catFile.read(dir, req.oid.toLowerCase());
    if (blob?.type !== "blob") throw notFound("Blob");
    return { oid: blob.oid, size: blob.size, data: blob.data };
  };
