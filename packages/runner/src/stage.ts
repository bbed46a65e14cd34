import { style } from "./log.ts";

/** Where stages write their part of the job log. */
export interface TraceWriter {
  write(text: string): void;
  line(text: string): void;
}

/**
 * A stage (sources, artifacts) failed: as with gitlab-runner's shell executor, where every stage
 * is a shell script, the job fails with `script_failure`.
 */
export class StageFailure extends Error {
  override name = "StageFailure";
}

/** Wraps a stage in GitLab's collapsible log section markers. */
export async function section<T>(trace: TraceWriter, name: string, header: string, run: () => Promise<T>): Promise<T> {
  const now = () => Math.floor(Date.now() / 1000);
  trace.write(`section_start:${now()}:${name}\r\x1b[0K${style.header(header)}\n`);
  try {
    return await run();
  } finally {
    trace.write(`section_end:${now()}:${name}\r\x1b[0K`);
  }
}
