import { randomUUID } from "node:crypto";
import type { EventBus } from "@quarry/bus";
import type { Logger } from "@quarry/logger";
import type { PrismaClient, Tx } from "../db.ts";

/**
 * Writes a domain event in the same transaction as the change it describes, so an event is
 * published if and only if the change committed. `event_id` doubles as the bus dedupe id.
 */
export async function enqueueEvent(tx: Tx, subject: string, payload: Record<string, unknown>): Promise<void> {
  await tx.outboxEvent.create({ data: { subject, payload: { event_id: randomUUID(), ...payload } } });
}

/** Publishes committed outbox rows to the bus; safe with several replicas (SKIP LOCKED). */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly bus: EventBus,
    private readonly log: Logger,
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
      const published = await this.prisma.$transaction(async (tx) => {
        const rows = await tx.$queryRaw<{ id: bigint; subject: string; payload: Record<string, unknown> }[]>`
          SELECT id, subject, payload FROM outbox_events
          WHERE published_at IS NULL ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED`;
        for (const row of rows) {
          await this.bus.publish(row.subject, row.payload, { msgId: String(row.payload.event_id) });
        }
        if (rows.length) {
          await tx.outboxEvent.updateMany({ where: { id: { in: rows.map((r) => r.id) } }, data: { publishedAt: new Date() } });
        }
        return rows.length;
      });
      if (published < 100) break;
    }
    // Published rows are kept a day for diagnosis, then pruned.
    await this.prisma.outboxEvent.deleteMany({ where: { publishedAt: { lt: new Date(Date.now() - 86_400_000) } } });
  }
}
