import { notFound } from "@quarry/grpc";
import type { GetUserRequest__Output } from "@quarry/proto/types/identity/v1/GetUserRequest";
import type { User as UserMsg } from "@quarry/proto/types/identity/v1/User";
import type { IdentityDeps } from "../deps.ts";
import { userToProto } from "./convert.ts";
import { userInclude } from "./users-common.ts";

/** Any user is readable by id (GitLab: sign-in required, which the gateway enforces). */
export const getUser =
  (deps: IdentityDeps) =>
  async (req: GetUserRequest__Output): Promise<UserMsg> => {
    const user = await deps.prisma.user.findUnique({ where: { id: Number(req.id) }, include: userInclude });
    if (!user) throw notFound("User");
    return userToProto(user);
  };
