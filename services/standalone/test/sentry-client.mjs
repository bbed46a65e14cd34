// A tiny application reporting to Quarry with the real Sentry SDK (its default transport), run as a
// child process so the SDK's instrumentation stays out of the test process: `node sentry-client.mjs <dsn> <message>...`.
import * as Sentry from "@sentry/node";

const [dsn, ...messages] = process.argv.slice(2);
Sentry.init({ dsn, environment: "e2e", release: "quarry-test@1" });

function failingOperation(message) {
  throw new TypeError(message);
}

for (const message of messages) {
  try {
    failingOperation(message);
  } catch (err) {
    Sentry.captureException(err);
  }
}
const flushed = await Sentry.flush(10_000);
process.stdout.write(JSON.stringify({ flushed }));
