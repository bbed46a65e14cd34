import type { EnsureRootUserRequest__Output } from "@quarry/proto/types/identity/v1/EnsureRootUserRequest";
import type { EnsureRootUserResponse } from "@quarry/proto/types/identity/v1/EnsureRootUserResponse";
import type { IdentityDeps } from "../deps.ts";
import { userToProto } from "./convert.ts";
import { insertUser } from "./create-user.ts";
import { insertToken } from "./create-personal-access-token.ts";

const ROOT_SCOPES = ["api", "read_api", "read_user", "read_repository", "write_repository", "sudo", "admin_mode"];

/**
 * Creates the administrator `root` and its first token on a new instance. Idempotent and safe
 * when several replicas start at once: the advisory lock serialises them, the loser finds root.
 */
export const ensureRootUser =
  (deps: IdentityDeps) =>
  async (req: EnsureRootUserRequest__Output): Promise<EnsureRootUserResponse> => {
    const result = await deps.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(727073690)`;
      const existing = await tx.user.findUnique({ where: { usernameLower: "root" }, include: { namespace: { select: { id: true } } } });
      if (existing) return { user: existing, created: false, token: "" };
      const user = await insertUser(tx, {
        username: "root",
        email: deps.config.rootEmail,
        name: "Administrator",
        password: deps.config.rootPassword,
        admin: true,
        confirmed: true,
      });
      const { clear } = await insertToken(tx, {
        userId: user.id,
        name: "root bootstrap token",
        scopes: ROOT_SCOPES,
        expiresAt: null,
        preset: req.presetToken || undefined,
      });
      return { user, created: true, token: req.presetToken ? "" : clear };
    });
    deps.outbox.kick();
    return { user: userToProto(result.user), created: result.created, token: result.token };
  };
