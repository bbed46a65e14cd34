import type { BusLogger, EventBus } from "./bus.ts";
import { InProcessBus } from "./in-process.ts";
import { NatsJetStreamBus } from "./nats.ts";

export type { BusHandler, BusLogger, BusMessage, EventBus, SubscribeOptions, Subscription } from "./bus.ts";
export { InProcessBus, type InProcessBusOptions } from "./in-process.ts";
export { NatsJetStreamBus, type NatsBusOptions } from "./nats.ts";
export { PortBus, serveBusOnPort } from "./port-bus.ts";
export * from "./events.ts";
export * from "./push-payload.ts";

export interface CreateBusOptions {
  /** When set, connect to NATS JetStream; otherwise use the in-process bus (embedded mode). */
  natsUrl?: string;
  /** JetStream stream name (NATS only). Default "QUARRY". */
  stream?: string;
  /** Connection name (NATS only), e.g. the service name. */
  name?: string;
  log?: BusLogger;
}

export async function createBus(opts: CreateBusOptions = {}): Promise<EventBus> {
  if (opts.natsUrl) {
    return NatsJetStreamBus.connect({ servers: opts.natsUrl, stream: opts.stream, name: opts.name, log: opts.log });
  }
  return new InProcessBus({ log: opts.log });
}
export { enqueueEvent, OutboxRelay, type OutboxDb, type OutboxSql } from "./outbox.ts";
