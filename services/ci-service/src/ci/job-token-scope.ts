// Shared pieces of the job token scope RPCs (GitLab's Ci::JobToken::Scope and its allowlists).
import { badRequest, paramError } from "@quarry/grpc";
import { Prisma } from "../generated/prisma/client.ts";

/** GitLab's `bad_request!(reason)` body: "400 Bad request - <reason>". */
export const badRequestReason = (reason: string) => badRequest(`400 Bad request - ${reason}`);

/** Project and group ids are identity-service's positive 32-bit ids. */
export function validId(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value <= 0 || value > 2_147_483_647) throw paramError(`${field} is invalid`);
  return value;
}

/** Page and page size as GitLab clamps them: page ≥ 1, per_page 20 by default, at most 100. */
export function pagination(page: number, perPage: number): { offset: number; limit: number } {
  const p = page > 0 ? Math.floor(page) : 1;
  const size = perPage > 0 ? Math.min(Math.floor(perPage), 100) : 20;
  return { offset: (p - 1) * size, limit: size };
}

/** Whether `err` is a unique-constraint violation (a duplicate link). */
export function isDuplicate(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}
