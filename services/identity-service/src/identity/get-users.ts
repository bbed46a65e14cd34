import { paramError } from "@quarry/grpc";
import type { GetUsersRequest__Output } from "@quarry/proto/types/identity/v1/GetUsersRequest";
import type { GetUsersResponse } from "@quarry/proto/types/identity/v1/GetUsersResponse";
import type { IdentityDeps } from "../deps.ts";
import { userToProto } from "./convert.ts";
import { userInclude } from "./users-common.ts";

/** Most ids one GetUsers call takes. */
export const MAX_GET_USERS = 1000;

/** Users by id in one query, as GetUser answers each (any user is readable by id). */
export const getUsers =
  (deps: IdentityDeps) =>
  async (req: GetUsersRequest__Output): Promise<GetUsersResponse> => {
    const ids = [...new Set(req.ids.map(Number))].filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647);
    if (ids.length > MAX_GET_USERS) throw paramError(`ids has more than ${MAX_GET_USERS} elements`);
    if (!ids.length) return { users: [] };
    const users = await deps.prisma.user.findMany({ where: { id: { in: ids } }, include: userInclude, orderBy: { id: "asc" } });
    return { users: users.map(userToProto) };
  };
