import type { EnsureWikiRepositoryRequest__Output } from "@quarry/proto/types/repo/v1/EnsureWikiRepositoryRequest";
import type { EnsureWikiRepositoryResponse__Output as EnsureWikiRepositoryResponse } from "@quarry/proto/types/repo/v1/EnsureWikiRepositoryResponse";
import type { RepoDeps } from "../deps.ts";
import { ensureWikiRepository as ensure, placedWikiDir } from "./wiki.ts";

/** Makes the wiki's (empty) repository when missing, so it can be cloned and pushed to, and names it. */
export const ensureWikiRepository =
  (deps: RepoDeps) =>
  async (req: EnsureWikiRepositoryRequest__Output): Promise<EnsureWikiRepositoryResponse> => {
    const { diskPath, dir } = await placedWikiDir(deps, req.diskPath);
    await ensure(dir);
    return { diskPath };
  };
