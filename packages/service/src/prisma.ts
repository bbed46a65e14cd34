import { PrismaPg } from "@prisma/adapter-pg";
import type { OutboxDb } from "@quarry/bus";

/** What the skeleton needs of a Prisma client: every generated `PrismaClient` has it. */
export interface PrismaLike extends OutboxDb {
  $disconnect(): Promise<void>;
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): Promise<T>;
}

/** A service's generated `PrismaClient` class (`src/generated/prisma/client.ts`), constructed on the pg adapter. */
export type PrismaClientClass<C> = new (options: { adapter: PrismaPg; transactionOptions?: { maxWait?: number; timeout?: number } }) => C;

/**
 * Interactive transactions' limits. Prisma's defaults (2 s to get a connection, 5 s to finish)
 * abort legitimate work on a busy machine (a pipeline with its environments and deployments took
 * 5.1 s under a loaded test run): a transaction may wait 10 s for a connection and run 30 s.
 * Calls that need more still pass their own.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 } as const;

/**
 * The client handed to an interactive transaction's callback (Prisma's `TransactionClient`) of the
 * service whose `PrismaClient` is `C`: e.g. `type Tx = TransactionClient<PrismaClient>`.
 */
export type TransactionClient<C extends { $transaction: (...args: never[]) => unknown }> = Parameters<Parameters<C["$transaction"]>[0]>[0];

/** A Prisma client of the service's own generated class on a pg pool of at most `max` connections. */
export function createPrisma<C>(Client: PrismaClientClass<C>, databaseUrl: string, max = 10): C {
  return new Client({ adapter: new PrismaPg({ connectionString: databaseUrl, max }), transactionOptions: TRANSACTION_OPTIONS });
}
