/**
 * Whether a Prisma call failed on a unique constraint (Prisma's P2002): the row a caller meant to
 * create exists already, e.g. a racing duplicate. Checked by code so that no service's generated
 * client classes are needed here.
 */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === "P2002";
}
