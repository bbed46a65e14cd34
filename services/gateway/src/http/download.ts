import { notFoundMessage } from "@quarry/gitlab";
import { status } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import type { Response } from "express";

/** A server-streaming download: a first message that decides the headers, then `data` chunks. */
export interface DownloadStream<M extends { data?: Buffer }> extends AsyncIterable<M> {
  cancel(): void;
}

/**
 * Streams a download to the client. The first message arrives before any header is sent, so a
 * refusal there still becomes a proper error status (thrown to the route); `start` turns the
 * first message into headers, or answers by itself (a redirect) by returning false. A client
 * that goes away cancels the call, so the service stops reading for nobody. A stream that ends
 * before its first message answers 404 with `emptyMessage`.
 */
export async function sendDownload<M extends { data?: Buffer }>(
  res: Response,
  stream: DownloadStream<M>,
  start: (first: M) => boolean,
  log: Logger,
  emptyMessage = notFoundMessage(),
): Promise<void> {
  res.on("close", () => {
    if (!res.writableFinished) stream.cancel();
  });
  const messages = stream[Symbol.asyncIterator]();
  let first: IteratorResult<M>;
  try {
    first = await messages.next();
  } catch (err) {
    if ((err as { code?: number }).code === status.CANCELLED) return;
    throw err;
  }
  if (first.done || !start(first.value)) {
    if (!res.headersSent) res.status(404).json({ message: emptyMessage });
    return;
  }
  try {
    if (first.value.data?.length) res.write(first.value.data);
    for (let next = await messages.next(); !next.done; next = await messages.next()) {
      if (next.value.data?.length && !res.write(next.value.data)) await new Promise((resolve) => res.once("drain", resolve));
    }
    res.end();
  } catch (err) {
    // Headers are out: all that is left is to cut the download short.
    if ((err as { code?: number }).code !== status.CANCELLED) log.warn({ err }, "download stream failed");
    res.destroy();
  }
}
