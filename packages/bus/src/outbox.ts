import { randomUUID } from "node:crypto";
import type { BusLogger, EventBus } from "./bus.ts";

/**
 * What the outbox needs from a service's Prisma client: raw SQL and interactive transactions.
 * Each service owns an `outbox_events` table (id BIGSERIAL, subject TEXT, payload JSONB,
 * created_at, published_at) in its own database.
 */
export interface OutboxSql {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}
export interface OutboxDb extends OutboxSql {
  $transaction<T>(fn: (tx: OutboxSql) => Promise<T>): Promise<T>;
}

/**
 * Writes a domain event in the same transaction as the change it describes, so an event is
 * published if and only if the change committed. `event_id` doubles as the bus dedupe id.
 */
export async function enqueueEvent(tx: OutboxSql, subject: string, payload: Record<string, unknown>): Promise<string> {
  const eventId = randomUUID();
  await tx.$executeRawUnsafe("INSERT INTO outbox_events (subject, payload) VALUES ($1, $2::jsonb)", subject, JSON.stringify({ event_id: eventId, ...payload }));
  return eventId;
}

/** Publishes committed outbox rows to the bus; safe with several replicas (SKIP LOCKED). */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly db: OutboxDb,
    private readonly bus: EventBus,
    private readonly log: BusLogger,
  ) {}

  /** Drains soon; called after each committed write so events go out without waiting for the poll. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err) => this.log.warn({ err }, "outbox drain failed; will retry"))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  start(intervalMs = 1000): void {
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async drain(): Promise<void> {
    for (;;) {
      const published = await this.db.$transaction(async (tx) => {
        const rows = await tx.$queryRawUnsafe<{ id: bigint; subject: string; payload: Record<string, unknown> }[]>(
          "SELECT id, subject, payload FROM outbox_events WHERE published_at IS NULL ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED",
        );
        for (const row of rows) {
          await this.bus.publish(row.subject, row.payload, { msgId: String(row.payload.event_id) });
        }
        if (rows.length) {
          await tx.$executeRawUnsafe(
            "UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::bigint[])",
            rows.map((r) => String(r.id)),
          );
        }
        return rows.length;
      });
      if (published < 100) break;
    }
    // Published rows are kept a day for diagnosis, then pruned.
    await this.db.$executeRawUnsafe("DELETE FROM outbox_events WHERE published_at < now() - interval '1 day'");
  }
}
