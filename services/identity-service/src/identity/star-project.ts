import type { StarProjectRequest__Output } from "@quarry/proto/types/identity/v1/StarProjectRequest";
import type { StarProjectResponse } from "@quarry/proto/types/identity/v1/StarProjectResponse";
import type { IdentityDeps } from "../deps.ts";
import { setStar } from "./stars-common.ts";

export const starProject =
  (deps: IdentityDeps) =>
  (req: StarProjectRequest__Output): Promise<StarProjectResponse> =>
    setStar(deps, req, true);
