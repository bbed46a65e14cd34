import { PrismaPg } from "@prisma/adapter-pg";
import type { OutboxDb } from "@quarry/bus";
import pg from "pg";

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

/**
 * Makes each of the pool's connections take one query at a time in our code instead of in pg's
 * queue. An interactive transaction is one connection, and handlers run independent reads in it
 * side by side (Promise.all); pg 8 queues them but warns that doing so is deprecated and goes away
 * in pg 9. The order and the round trips stay what pg's own queue gives.
 */
export function oneQueryAtATime(pool: pg.Pool): pg.Pool {
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    let tail: Promise<unknown> = Promise.resolve();
    client.query = ((...args: unknown[]) => {
      const last = args.at(-1);
      const first = args[0] as { submit?: unknown } | undefined;
      // Callback and Submittable forms answer through their own channel: pg queues them as before.
      if (typeof last === "function" || typeof first?.submit === "function") return query(...args);
      const run = tail.then(() => query(...args));
      tail = run.catch(() => {});
      return run;
    }) as typeof client.query;
  });
  return pool;
}

/** A Prisma client of the service's own generated class on a pg pool of at most `max` connections. */
export function createPrisma<C>(Client: PrismaClientClass<C>, databaseUrl: string, max = 10): C {
  const pool = oneQueryAtATime(new pg.Pool({ connectionString: databaseUrl, max }));
  // The adapter does not end a pool it was given unless told to: $disconnect() must close it.
  return new Client({ adapter: new PrismaPg(pool, { disposeExternalPool: true }), transactionOptions: TRANSACTION_OPTIONS });
}
